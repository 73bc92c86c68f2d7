"""Run the bench and print the table (see bench/__init__.py and BENCHMARKS.md)."""

from __future__ import annotations

import argparse
import functools
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import expect

import challenges
from widgets.serve import servir

from tests.conftest import CHROMIUM, _host

from . import aciertos, banco, construccion, desnuda, faro, lejos, medidas, modelo, orden, vista
from .navegador import Registro, chromium, contexto
from .tabla import Fila, imprimir

ROOT = Path(__file__).resolve().parents[1]
LECCION = "el-bucle.html"
SEGUNDA = "errores.html"  # the lesson after «El bucle», never opened before it is measured
TERCERA = "pedir-permiso.html"  # the one after it, opened over a slow link (lejos.py)
#: medir_segunda's navigations: the key of their figures, and their rows' title
NAVEGACIONES = {"segunda": "Second lesson, never opened", "tercera": "Third lesson over a slow link"}
ENVIO_SIN_FIN = "def bucle(modelo, inicio, entorno, tope):\n    while True:\n        pass\n"


def avisar(texto):
    print(texto, file=sys.stderr, flush=True)


def servidor(carpeta, **opciones) -> str:
    srv = servir(carpeta, 0, **opciones)
    return "http://127.0.0.1:%d/" % srv.server_address[1]


def enumerar(lineas, tope=50) -> str:
    """Distinct lines with how often each came, the first ``tope`` of them."""
    vistas = {}
    for x in lineas:
        vistas[x] = vistas.get(x, 0) + 1
    partes = [f"`{x}`" + (f" ×{k}" if k > 1 else "") for x, k in list(vistas.items())[:tope]]
    if len(vistas) > tope:
        partes.append(f"and {len(vistas) - tope} more")
    return ", ".join(partes)


def maquina() -> str:
    cpu = "?"
    try:
        for linea in Path("/proc/cpuinfo").read_text().splitlines():
            if linea.startswith("model name"):
                cpu = linea.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memoria = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                             check=False).stdout.strip()
    carga = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} CPUs ({cpu}), {memoria:.0f} GiB, {platform.system()} "
            f"{platform.release()}, {version}, Python {platform.python_version()}; "
            f"load average before the browser runs: {carga}")


def medir_navegador(args, sitio: Path, bare: Path, registro: Registro, bancos: Path) -> dict:
    """Every browser figure; returns lists of runs (ms or bytes) and notes."""
    r: dict = {"notas": []}
    n = args.runs
    curso = servidor(sitio)
    curso_sin = servidor(sitio, aislamiento=False)
    desnuda_url = servidor(bare)
    leccion, leccion_sin = curso + LECCION, curso_sin + LECCION

    with chromium(registro) as navegador:
        registro.comprobar(navegador)
        ctx = functools.partial(contexto, navegador, registro)

        avisar("reading weight…")
        r["lectura"], pesados = medidas.peso_de_lectura(ctx, curso, sitio, LECCION)
        if pesados:
            r["notas"].append(f"requests for Python or an editor before idle: {pesados}")

        avisar(f"first output, cold (new profile each), {n} × (course, bare; then bare first)…")
        r["frio"], r["frio_desnuda"] = [], []

        def frio_curso(i):
            urls = []
            with ctx(init=medidas.INICIO) as c:
                c.on("requestfinished", lambda q: urls.append(q.url))
                page = c.new_page()
                r["frio"].append(medidas.primera_salida(page, leccion))
                if i == 0:  # the total weight: once Python ran and the page went quiet
                    expect(medidas.celda(page, 1)).to_contain_text("11 mensajes en 5 turnos")
                    page.wait_for_load_state("networkidle")
                    r["total"] = medidas.peso(urls, sitio)

        def frio_desnuda(i):
            urls = []
            with ctx(init=medidas.INICIO) as c:
                c.on("requestfinished", lambda q: urls.append(q.url))
                page = c.new_page()
                r["frio_desnuda"].append(medidas.primera_salida(page, desnuda_url, curso=False))
                if i == 0:
                    page.wait_for_load_state("networkidle")
                    r["total_desnuda"] = medidas.peso(urls, bare)

        for i in range(n):
            # The order alternates, so that neither page always runs while the machine is still
            # busy with the other one's leftovers.
            for medir in ((frio_curso, frio_desnuda) if i % 2 == 0 else (frio_desnuda, frio_curso)):
                medir(i)
            avisar(f"  {i + 1}/{n}: course {r['frio'][-1]:.0f} ms, bare {r['frio_desnuda'][-1]:.0f} ms")

        avisar(f"first output, warm (same profile, snapshot stored), {n} × "
               "(course, course with the service worker, bare; then the other way round)…")
        r["tibio"], r["tibio_sw"], r["tibio_desnuda"] = [], [], []
        with (ctx(init=medidas.INICIO) as c, ctx(init=medidas.INICIO) as cd,
              ctx(init=medidas.INICIO, servicio=True) as cs):
            page = c.new_page()
            medidas.primera_salida(page, leccion)
            r["instantanea_s"] = medidas.esperar_instantanea(page)
            r["instantanea_bytes"] = page.evaluate(medidas.TAMANO_INSTANTANEA)
            page_d = cd.new_page()
            medidas.primera_salida(page_d, desnuda_url, curso=False)
            # With the service worker: the index first, until the course is saved.
            page_s = cs.new_page()
            medidas.guardar_curso(page_s, curso)
            medidas.primera_salida(page_s, leccion)
            medidas.esperar_instantanea(page_s)
            arranques, arranques_sw = [], []

            def tibio_curso():
                r["tibio"].append(medidas.primera_salida(page, leccion))
                arranques.append(page.evaluate("document.documentElement.dataset.bucleArranque"))
                page.goto("about:blank")

            def tibio_servicio():
                medidas.parar_servicio(page_s)  # as on a later visit: the worker has stopped
                r["tibio_sw"].append(medidas.primera_salida(page_s, leccion))
                arranques_sw.append(page_s.evaluate(
                    "[document.documentElement.dataset.bucleArranque, crossOriginIsolated, "
                    "navigator.serviceWorker.controller !== null].join()"))
                page_s.goto("about:blank")

            def tibio_desnuda():
                r["tibio_desnuda"].append(medidas.primera_salida(page_d, desnuda_url, curso=False))
                page_d.goto("about:blank")

            for i in range(n):
                # Each page is left (about:blank) once measured: the course keeps working after
                # its output (editors load when it is idle), which must not slow the bare page.
                # The order alternates, as for the cold figure.
                orden = ((tibio_curso, tibio_servicio, tibio_desnuda) if i % 2 == 0
                         else (tibio_desnuda, tibio_servicio, tibio_curso))
                for medir in orden:
                    medir()
                avisar(f"  {i + 1}/{n}: course {r['tibio'][-1]:.0f} ms ({arranques[-1]}), "
                       f"with the service worker {r['tibio_sw'][-1]:.0f} ms ({arranques_sw[-1]}), "
                       f"bare {r['tibio_desnuda'][-1]:.0f} ms")
            if set(arranques) != {"instantanea"}:
                r["notas"].append(f"warm starts were not all from the snapshot: {arranques}")
            if set(arranques_sw) != {"instantanea,true,true"}:
                r["notas"].append("warm starts with the service worker were not all from the snapshot, "
                                  f"isolated and controlled: {arranques_sw}")

            avisar(f"prefetched: Ejecutar 10 s after load, {n} ×…")
            r["prevista"], r["prevista_python"] = [], []
            for i in range(n):
                ms, arranque = medidas.prevista(page, leccion)
                r["prevista"].append(ms)
                r["prevista_python"].append(arranque)
                avisar(f"  {i + 1}/{n}: {ms:.0f} ms (Python at the click: {arranque})")

            medir_calificaciones(r, page, curso, n)
            medir_desafio(r, page, leccion, n, "")
            medir_detener(r, page, leccion, n, "")

        medir_segunda(r, ctx, n, sitio)
        banco.medir_en(r, ctx, servidor(bancos), n, avisar)  # the bench widget (bench/banco.py)

        avisar("without cross-origin isolation…")
        with ctx(init=medidas.INICIO) as c:
            page = c.new_page()
            medidas.primera_salida(page, leccion_sin)
            medidas.esperar_instantanea(page)
            medir_desafio(r, page, leccion_sin, n, "_sin")
            medir_detener(r, page, leccion_sin, n, "_sin")
    return r


def medir_segunda(r, ctx, n, sitio):
    """Navigation from «El bucle» to a lesson never opened, with the service worker and without
    (today): each run two new profiles, in turns. Both visit the index first (with the service
    worker: until the course is saved), then «El bucle» until its Python is ready and its
    snapshot stored, as a reader who read it; then the second lesson. Then, from it, the third,
    never opened either, from a far host (:mod:`bench.lejos`, a server of its own): what
    the service worker answers from its cache does not cross the link."""
    avisar(f"a second lesson never opened ({LECCION} → {SEGUNDA}), then a third over a slow link "
           f"(→ {TERCERA}), without the service worker and with it, new profiles, {n} ×…")
    red = lejos.Lejos(sitio)
    curso = red.url
    claves = [f"{cual}_{que}{sufijo}" for cual in NAVEGACIONES
              for que in ("pintura", "listo", "arranque") for sufijo in ("", "_sw")]
    for clave in claves + ["tercera_cruzaron", "tercera_cruzaron_sw"]:
        r[clave] = []

    def medir(page, cual, url, sufijo):
        pintura, listo, como = medidas.segunda_leccion(page, url)
        r[f"{cual}_pintura{sufijo}"].append(pintura)
        r[f"{cual}_listo{sufijo}"].append(listo)
        r[f"{cual}_arranque{sufijo}"].append(como)

    def una(servicio):
        sufijo = "_sw" if servicio else ""
        with ctx(init=medidas.INICIO, servicio=servicio) as c:
            page = c.new_page()
            if servicio:
                medidas.guardar_curso(page, curso)
            else:
                page.goto(curso, wait_until="load")
            page.goto(curso + LECCION, wait_until="load")
            page.evaluate(medidas.LISTO)
            medidas.esperar_instantanea(page)
            if servicio:
                medidas.parar_servicio(page)  # the reader read «El bucle» for a while
            medir(page, "segunda", curso + SEGUNDA, sufijo)
            page.evaluate(medidas.LISTO)
            if servicio:
                medidas.parar_servicio(page)
            antes = len(red.cruzaron)
            with red.activo():
                medir(page, "tercera", curso + TERCERA, sufijo)
            r[f"tercera_cruzaron{sufijo}"].append(len(red.cruzaron) - antes)

    for i in range(n):
        for servicio in ((False, True) if i % 2 == 0 else (True, False)):
            una(servicio)
        for cual in NAVEGACIONES:
            avisar(f"  {i + 1}/{n} {cual}: first paint {r[cual + '_pintura'][-1]:.0f} ms, with the "
                   f"service worker {r[cual + '_pintura_sw'][-1]:.0f} ms; Python ready "
                   f"{r[cual + '_listo'][-1]:.0f} ms ({r[cual + '_arranque'][-1]}), with the "
                   f"service worker {r[cual + '_listo_sw'][-1]:.0f} ms ({r[cual + '_arranque_sw'][-1]})")
    red.servidor.shutdown()
    for clave in (c for c in claves if "_arranque" in c):
        if set(r[clave]) != {"instantanea"}:
            r["notas"].append(f"{clave}: not all started from the snapshot: {r[clave]}")


def medir_calificaciones(r, page, curso, n):
    """Each challenge's reference graded in its lesson's page, warm (the grader loaded by a first
    check, as on a reader's second check): ms from the click to the summary."""
    r["calificar"], r["calificar_falta"] = {}, {}
    for desafio in challenges.desafios():
        pagina = LECCIONES[desafio]
        page.goto(curso + pagina, wait_until="load")
        falta = medidas.hay_desafio(page)
        if falta:
            r["calificar_falta"][desafio] = falta
            continue
        avisar(f"grading {desafio}'s reference in {pagina}, warm, {n} ×…")
        try:
            medidas.poner_codigo(page, (challenges.CARPETA / desafio / "solucion.py").read_text(
                encoding="utf-8"))
            medidas.comprobar(page)  # the first check loads the grader
            r["calificar"][desafio] = []
            for i in range(n):
                ms, resumen, _ = medidas.comprobar(page)
                r["calificar"][desafio].append(ms)
                avisar(f"  {i + 1}/{n}: {ms:.0f} ms ({resumen})")
            total = page.evaluate('document.querySelector("bucle-desafio").datos.pruebas.length')
            if not resumen.startswith(f"{total} de {total} "):
                r["notas"].append(f"{desafio}: the reference solution got «{resumen}»")
        except Exception as error:  # noqa: BLE001 - one challenge's failure must not stop the bench
            r["calificar_falta"][desafio] = (f"{type(error).__name__}: "
                                            f"{str(error).splitlines()[0][:120]}")


def leccion_de(desafio: str) -> str:
    """The page of the lesson that holds ``desafio``'s directive."""
    marca = re.compile(r"^```\{desafio\} " + re.escape(desafio) + r"\s*$", re.M)
    donde = [p for p in sorted((ROOT / "lessons").glob("*.md"))
             if marca.search(p.read_text(encoding="utf-8"))]
    return donde[0].stem + ".html"


LECCIONES = {desafio: leccion_de(desafio) for desafio in challenges.desafios()}

#: Grading targets (ms, warm, in the page): 150 for a challenge of one function or class, 3000
#: for pruebas-del-agente, whose suite runs once per agent (three correct and nine broken).
TOPES_CALIFICAR = {"pruebas-del-agente": 3000}


def medir_desafio(r, page, url, n, sufijo):
    page.goto(url, wait_until="load")
    falta = medidas.hay_desafio(page)
    if falta:
        r["desafio_falta" + sufijo] = falta
        return
    try:
        r["limite"] = medidas.limite_desafio(page)
        aislada = "with" if not sufijo else "without"
        avisar(f"a looping submission, {aislada} isolation, {n} ×…")
        medidas.poner_codigo(page, ENVIO_SIN_FIN)
        r["bucle" + sufijo], r["bucle_listo" + sufijo] = [], []
        for i in range(n):
            ms, resumen, listo = medidas.comprobar(page)
            r["bucle" + sufijo].append(ms)
            r["bucle_listo" + sufijo].append(listo)
            avisar(f"  {i + 1}/{n}: verdict {ms:.0f} ms, next check possible {listo:.0f} ms ({resumen})")
    except Exception as error:  # noqa: BLE001 - a widget still being written must not stop the bench
        r["desafio_falta" + sufijo] = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"


def medir_detener(r, page, url, n, sufijo):
    aislada = "with" if not sufijo else "without"
    avisar(f"a looping cell stopped, {aislada} isolation, {n} ×…")
    medidas.preparar_bucle(page, url)
    r["detener" + sufijo], r["detener_salida" + sufijo] = [], []
    for i in range(n):
        listo, salida = medidas.detener_bucle(page, url)
        r["detener" + sufijo].append(listo)
        r["detener_salida" + sufijo].append(salida)
        avisar(f"  {i + 1}/{n}: Python ready {listo:.0f} ms, next output {salida:.0f} ms")


def filas(r, limpias, una, faro_r, vista_s=None) -> list[Fila]:
    s = lambda valores: [v / 1000 for v in valores] if valores else None  # noqa: E731 (ms → s)
    falta_desafio, falta_sin = r.get("desafio_falta", ""), r.get("desafio_falta_sin", "")
    limite = r.get("limite")
    bajo = lambda tope: (lambda m, _: m <= tope)  # noqa: E731
    f = [
        Fila("Reading weight, before Python or an editor (gzip)", "KB", [r["lectura"]],
             objetivo="≤ 100 KB", cumple=bajo(100_000)),
        Fila("Weight once Python ran (gzip)", "KB", [r["total"]], [r["total_desnuda"]]),
        Fila("First output, cold (navigation → output)", "s", s(r["frio"]), s(r["frio_desnuda"]),
             objetivo="≤ 1.2× bare", cumple=lambda m, razon: razon <= 1.2),
        Fila("First output, warm", "s", s(r["tibio"]), s(r["tibio_desnuda"]),
             objetivo="≤ 0.35× bare", cumple=lambda m, razon: razon <= 0.35),
        Fila("First output, warm, with the service worker", "s", s(r["tibio_sw"]),
             s(r["tibio_desnuda"]), objetivo="≤ 0.35× bare", cumple=lambda m, razon: razon <= 0.35),
        *(fila for cual, titulo in NAVEGACIONES.items() for fila in (
            Fila(f"{titulo}: navigation → first paint, no service worker", "ms", r[f"{cual}_pintura"]),
            Fila("  … with the service worker", "ms", r[f"{cual}_pintura_sw"],
                 referencia=r[f"{cual}_pintura"], frente="no SW"),
            Fila(f"{titulo}: navigation → Python ready, no service worker", "s", s(r[f"{cual}_listo"])),
            Fila("  … with the service worker", "s", s(r[f"{cual}_listo_sw"]),
                 referencia=s(r[f"{cual}_listo"]), frente="no SW"),
        )),
        Fila("Prefetched: Ejecutar 10 s after load (click → output)", "ms", r["prevista"],
             objetivo="≤ 150 ms", cumple=bajo(150)),
        *(Fila(f"Grading: {desafio}'s reference, warm (click → summary)", "ms",
               r["calificar"].get(desafio), objetivo=f"≤ {TOPES_CALIFICAR.get(desafio, 150)} ms",
               cumple=bajo(TOPES_CALIFICAR.get(desafio, 150)),
               falta=r["calificar_falta"].get(desafio, "")) for desafio in LECCIONES),
        Fila("Looping submission, isolated: click → verdict", "s", s(r.get("bucle")),
             objetivo="≤ limit + 0.5 s" + (f" ({limite + 0.5:g} s)" if limite else ""),
             cumple=bajo(limite + 0.5) if limite else None, falta=falta_desafio),
        Fila("Looping submission, isolated: click → next check possible", "s",
             s(r.get("bucle_listo")), falta=falta_desafio),
        Fila("Looping submission, not isolated: click → verdict", "s", s(r.get("bucle_sin")),
             falta=falta_sin),
        Fila("Looping submission, not isolated: click → next check possible", "s",
             s(r.get("bucle_listo_sin")), falta=falta_sin),
        Fila("Looping cell stopped, isolated: Detener → Python ready", "s", s(r["detener"])),
        Fila("Looping cell stopped, not isolated (restart): Detener → Python ready", "s",
             s(r["detener_sin"]), objetivo="≤ 1 s", cumple=bajo(1.0)),
        Fila("  … → output of the cell run at once after it", "s", s(r["detener_salida_sin"])), *banco.filas(r),
        *construccion.filas(limpias, una), vista.fila(vista_s),
        Fila("Lighthouse performance (widgets.serve: gzip for text, as static hosts)", "pts",
             faro_r.rendimiento or None, objetivo="≥ 95", cumple=lambda m, _: m >= 95,
             falta=faro_r.falta),
        Fila("Lighthouse accessibility", "pts", faro_r.accesibilidad or None,
             objetivo="100", cumple=lambda m, _: m >= 100, falta=faro_r.falta),
    ]
    fila = {x.nombre: x for x in f}
    fila["Prefetched: Ejecutar 10 s after load (click → output)"].notas.append(
        "in the warm profile; Python at the click (how it started, its state): "
        + "; ".join(f"«{x}» {r['prevista_python'].count(x)}×" for x in sorted(set(r["prevista_python"]))))
    if faro_r.resumen:
        f[-2].notas.append(faro_r.resumen)
    primera = fila[f"Grading: {next(iter(LECCIONES))}'s reference, warm (click → summary)"]
    primera.notas.append("each in its lesson's page, the grader loaded by an earlier check, as on "
                         "a reader's second check; the whole suite of each challenge")
    f[0].notas.append("HTML, CSS, scripts, fonts and images fetched with the page's idle callback "
                      "disabled (Python and the editors wait for it)")
    fila["First output, warm"].notas.append(
        f"from the memory snapshot ({r['instantanea_bytes'] / 1e6:.1f} MB in the Cache API), stored "
        f"{r['instantanea_s']:.1f} s after the first visit's output (made in a throwaway worker once the page is idle)")
    fila["Second lesson, never opened: navigation → first paint, no service worker"].notas.append(
        f"{LECCION} → {SEGUNDA} (page.goto), each run two new profiles that visited the index and "
        f"{LECCION} first (its Python ready, its snapshot stored); with the service worker: the course "
        "saved on the index, the worker stopped before the navigation (as after 30 s idle)")
    fila["Second lesson, never opened: navigation → Python ready, no service worker"].notas.append(
        "Python's worker is made as the page loads (Python started in this profile before: "
        "python-temprano.js): "
        "<html data-bucle-arranque> appearing, set as the page's Python says «listo»; "
        "started from the snapshot in every run unless a note below says otherwise")
    fila["Third lesson over a slow link: navigation → first paint, no service worker"].notas.append(
        f"{SEGUNDA} → {TERCERA}, right after the figures above, in the same profiles, the host's "
        f"answers made to cross Lighthouse's mobile link by the server ({lejos.LATENCIA * 1000:.0f} ms "
        f"round trip per request, {lejos.BAJADA * 8 / 1e6:g} Mbit/s shared; bench/lejos.py); "
        f"requests that crossed it until Python was ready, median: "
        f"{statistics.median(r['tercera_cruzaron']):g} without the service worker, "
        f"{statistics.median(r['tercera_cruzaron_sw']):g} with it")
    sw = statistics.median(r["tibio_sw"]) / statistics.median(r["tibio"])
    fila["First output, warm, with the service worker"].notas.append(
        f"a profile that visited the index first and saved the course, the service worker stopped "
        f"before each visit (as after 30 s idle); {sw:.2f}× the figure without it")
    return f


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="browser runs per figure (5)")
    parser.add_argument("--builds", type=int, default=5, help="builds of each kind (5)")
    parser.add_argument("--lighthouse", type=int, default=5, help="Lighthouse runs (5)")
    parser.add_argument("--sitio", type=Path, help="measure this built site; no build times")
    parser.add_argument("--orden", type=int, default=3,
                        help="runs of the grader command's figures (3; 0 skips them)")
    parser.add_argument("--tareas", type=int, default=3,
                        help="sampled runs per task of the model's task sets, beside the greedy "
                             "one (3; -1 skips the task sets)")
    parser.add_argument("--modelo", type=int, default=1,
                        help="runs of the in-page model's figures, isolated and not (1; 0 skips them)")
    args = parser.parse_args(argv)
    inicio = time.monotonic()
    # The grader command's figures first (CPython only), on a machine not yet busy with the
    # browser; printed after the browser's table.
    orden_r = orden.medir(args.orden, avisar) if args.orden else None
    registro = Registro()
    with tempfile.TemporaryDirectory(prefix="bucle-bench-") as tmp:
        tmp = Path(tmp)
        if args.sitio:
            limpias, una, vista_s, sitio = None, None, None, args.sitio.resolve()
        else:
            avisar(f"building the course, {args.builds} × clean and {args.builds} × one lesson…")
            limpias, una, sitio = construccion.medir(tmp / "construccion", args.builds, avisar)
            vista_s = vista.medir(tmp / "vista", registro, args.builds, avisar)
        bare = desnuda.hacer(sitio, tmp / "desnuda")
        descripcion = maquina()
        r = medir_navegador(args, sitio, bare, registro, banco.hacer(tmp / "banco"))
        modelo_r = None
        if args.modelo:
            avisar(f"the in-page model, {args.modelo} × isolated and not, then native llama.cpp…")
            with chromium(registro) as navegador:
                modelo_r = modelo.medir(navegador, registro, args.modelo, avisar)
        faro_r = faro.Faro(falta="skipped (--lighthouse 0)")
        if args.lighthouse:
            avisar(f"Lighthouse on «El bucle» (widgets.serve), {args.lighthouse} ×…")
            faro_r = faro.medir(servidor(sitio) + LECCION, registro.proxy, args.lighthouse, avisar)
    fuera, servicios = registro.fuera, registro.servicios
    registro.cerrar()
    fecha = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    pie = r["notas"] + [
        f"requests that tried to leave 127.0.0.1 (pages, workers, Lighthouse; the recorder "
        f"checked first): {len(fuera)}" + (": " + enumerar(fuera) if fuera else ""),
        f"Chromium's own calls to its services (not the pages'; stopped by the recorder with a 403, "
        f"and ignored by the browser tests too): {len(servicios)}"
        + (": " + enumerar([_host(x) for x in servicios]) if servicios else ""),
        f"machine: {descripcion}",
        f"{fecha}; the whole bench took {(time.monotonic() - inicio) / 60:.1f} min",
    ]
    print(imprimir(filas(r, limpias, una, faro_r, vista_s), "## make bench", pie))
    if modelo_r is not None:
        print()
        print(modelo.tabla(modelo_r))
    if orden_r is not None:
        print()
        print(orden.tabla(orden_r))
    if args.tareas >= 0:
        # The model on its tasks, last: native llama.cpp only, on a machine the browser left.
        print()
        try:
            resultado = aciertos.medir(args.tareas, avisar=avisar)
        except Exception as error:  # noqa: BLE001 - the rest of the table is printed already
            print(f"## The course's model on its tasks\n\nnot measured: {type(error).__name__}: {error}")
        else:
            print("## The course's model on its tasks (native llama.cpp, the page's grammar)\n")
            print(aciertos.tabla(resultado["registros"]))
            print("\nWhat the published model gets wrong, greedy:\n")
            print(aciertos.fallos(resultado["registros"]))
            print()
            print(aciertos.fijas(resultado))
    return 0


if __name__ == "__main__":
    sys.exit(main())
