"""The bench (lesson «Medir el agente») in a real browser, on the test site tests/sites/banco/.

The page's worker runs the bench on the noisy scripted model; what it shows (each variant's
table, the plot, the runs, their traces, the exports) is compared with the same bench run here in
CPython by the same worker file, on the cells of the built page. Detener keeps the finished runs,
whether Python is interrupted (isolated page) or restarted (not isolated). Times are printed
(``-s``), never asserted.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from runtime import espacio
from tests.browser.celdas import ESPERA, PYTHON_QUE_NO_ARRANCA, Celda
from tests.conftest import contexto_vigilado, violaciones_axe
from widgets.trabajador import trabajador_banco as banco

pytestmark = pytest.mark.navegador

CLAVES = ["variante", "tarea", "tipo", "pedido", "semilla", "motivo", "turnos", "tokens",
          "segundos", "final", "error", "M"]

# What the page shows of the progress, as it shows it: [text, value, max] of each change.
PROGRESO = """
window.__progreso = [];
new MutationObserver(() => {
  const cuenta = document.querySelector(".bucle-banco-cuenta");
  const barra = document.querySelector(".bucle-banco-progreso progress");
  const visto = window.__progreso[window.__progreso.length - 1];
  if (cuenta && cuenta.textContent && (!visto || visto[0] !== cuenta.textContent)) {
    window.__progreso.push([cuenta.textContent, barra.value, barra.max]);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture(scope="module")
def banco_html(sitio_de_prueba):
    return sitio_de_prueba("banco")


@pytest.fixture(scope="module")
def en_cpython(banco_html):
    """The bench of tests/sites/banco/index.html run here, in CPython, on the page's own cells:
    {"respuesta", "ejecuciones" (records), "lineas", "por" ((variante, tarea, semilla) → record)}."""
    sopa = BeautifulSoup((banco_html / "index.html").read_text(encoding="utf-8"), "html.parser")
    ns = espacio()
    for n, celda in enumerate(sopa.find_all("bucle-celda"), start=1):
        codigo = json.loads(celda.find("script", class_="bucle-datos").string)["codigo"]
        exec(compile(codigo, f"<celda {n}>", "exec"), ns)
    datos = json.loads(sopa.find("bucle-banco").find("script", class_="bucle-datos").string)
    avisos = []
    original = banco._avisar
    banco._avisar = lambda id, **d: avisos.append(d)
    try:
        respuesta = banco.medir(1, ns, datos["tareas"], datos["variantes"], datos["modelos"][0],
                                datos["veces"], datos["tope"])
    finally:
        banco._avisar = original
    ejecuciones = [a["ejecucion"] for a in avisos[1:]]
    return {"respuesta": respuesta, "ejecuciones": ejecuciones, "lineas": [a["lineas"] for a in avisos[1:]],
            "por": {(e["variante"], e["tarea"], e["semilla"]): e for e in ejecuciones}}


class Banco:
    """A bench of the page, through what a reader perceives: roles, names, text."""

    def __init__(self, page, ident):
        self.page = page
        self.elemento = page.locator(f"bucle-banco#{ident}")
        self.aviso = self.elemento.locator(".bucle-banco-aviso")
        self.tuya = self.elemento.locator("section.bucle-banco-tuya")
        self.progreso = self.elemento.get_by_role("progressbar", name="Progreso de la medida")
        self.ejecuciones = self.tuya.locator("details.bucle-banco-ejecuciones")

    def boton(self, nombre):
        return self.elemento.get_by_role("button", name=nombre, exact=True)

    def medir(self, veces=None):
        if veces is not None:
            self.elemento.get_by_role("spinbutton", name="Ejecuciones por tarea").fill(str(veces))
        self.boton("Medir").click()

    def esperar_fin(self):
        expect(self.boton("Detener")).to_be_hidden(timeout=ESPERA * 3)

    def filas(self, titulo):
        tabla = self.tuya.get_by_role("table", name=titulo, exact=True)
        expect(tabla).to_be_visible()
        return [[fila.locator("th").inner_text(), fila.locator("td").inner_text()]
                for fila in tabla.locator("tr").all()]

    def abrir_ejecuciones(self):
        self.ejecuciones.locator("summary").click()
        return self.ejecuciones.get_by_role("listitem").filter(has=self.page.locator(".bucle-banco-donde"))


def sin_tiempo(filas):
    """A table's rows but the time per run, which is the machine's."""
    return [f for f in filas if f[0] != "Tiempo por ejecución"]


def correr_celdas(page, n):
    """Run the first n cells, one after the other. The button gets the click event itself (not
    a pointer at its place): on a phone, an editor that arrives above it as the previous run ends
    can move it under the pointer, and the run never began (seen once in a full run); clicking
    is tested where it is the subject (test_celda_codigo.py, test_fallos_celdas.py)."""
    for i in range(1, n + 1):
        celda = Celda(page, i)
        celda.boton("Ejecutar").dispatch_event("click")
        celda.esperar_fin()
        expect(celda.elemento.locator(".bucle-celda-fin")).not_to_be_empty()


def test_the_bench_measures_shows_its_tables_plot_runs_and_traces_and_keeps_them(
        banco_html, servidor, pagina, en_cpython):
    pagina.add_init_script(PROGRESO)
    pagina.goto(servidor(banco_html))
    b = Banco(pagina, "banco-ruidoso")

    # Before the cells have run, the bench says which one to run; nothing runs, nothing shows.
    b.medir()
    expect(b.aviso).to_have_text("Ejecuta antes la celda que define agente (la celda 2).", timeout=ESPERA)
    expect(b.aviso.locator("code")).to_have_text("agente")
    expect(b.tuya).to_be_hidden()

    correr_celdas(pagina, 2)
    inicio = time.monotonic()
    b.medir()
    expect(b.boton("Detener")).to_be_visible()
    b.esperar_fin()
    segundos = time.monotonic() - inicio
    ejecuciones = en_cpython["ejecuciones"]
    total = len(ejecuciones)
    assert total == 20 * 20 * 2
    expect(b.aviso).to_have_text(re.compile(rf"^Medida completa: {total} ejecuciones en "))
    print(f"\n[banco] {total} runs on the noisy model: {segundos:.2f} s from the click "
          f"({total / segundos:.0f} runs/s)")

    # The progress showed «Ejecución i de N» as the runs came, with the time left.
    progreso = pagina.evaluate("window.__progreso")
    cuentas = [(texto, valor, maximo) for texto, valor, maximo in progreso if texto.startswith("Ejecución")]
    assert any(0 < valor < total and maximo == total for _, valor, maximo in cuentas), progreso
    for texto, valor, _ in cuentas:
        assert re.fullmatch(rf"Ejecución {valor} de {total}( · (quedan unos \d+ (s|min)|queda menos de un segundo))?",
                            texto), texto
    expect(b.progreso).to_be_hidden()

    # One table per variant and the pairing, as the same worker file says in CPython.
    vista = en_cpython["respuesta"]["vista"]
    for tabla in vista["tablas"] + [vista["pareo"]]:
        assert sin_tiempo(b.filas(tabla["titulo"])) == sin_tiempo(tabla["filas"]), tabla["titulo"]
    grafico = b.tuya.get_by_role("img", name="Tasas de éxito con sus intervalos de Wilson")
    expect(grafico).to_be_visible()
    expect(grafico.locator("rect")).to_have_count(2)
    descrito = grafico.get_attribute("aria-describedby")
    expect(b.tuya.locator(f"#{descrito}")).to_have_text(vista["texto"])

    # The runs: the «tope» runs of agente_mudo, each with its trace.
    items = b.abrir_ejecuciones()
    b.ejecuciones.get_by_role("combobox", name="Variante").select_option("agente_mudo")
    topes = [e for e in ejecuciones if e["variante"] == "agente_mudo" and e["motivo"] == "tope"]
    b.ejecuciones.get_by_role("combobox", name="Motivo").select_option("tope")
    expect(b.ejecuciones.locator(".bucle-banco-mostradas")).to_have_text(
        f"Se muestran {min(50, len(topes))} de {len(topes)}.")
    primero = items.first
    tarea, semilla = map(int, re.match(r"Tarea (\d+) \(\w+\), semilla (\d+)",
                                       primero.locator(".bucle-banco-donde").inner_text()).groups())
    esperada = en_cpython["por"][("agente_mudo", tarea, semilla)]
    lineas = en_cpython["lineas"][ejecuciones.index(esperada)]
    ver = primero.locator("button.bucle-banco-ver-traza")
    expect(ver).to_have_accessible_name("Ver tu traza")
    ver.click()
    expect(ver).to_have_attribute("aria-expanded", "true")
    expect(ver).to_have_accessible_name("Ocultar tu traza")
    traza = primero.locator("bucle-traza")
    expect(traza.locator(".bucle-traza-numero")).to_have_text(re.compile(r"^Paso 1 de \d+$"))
    traza.get_by_role("button", name="Final").click()
    expect(traza.locator(".bucle-traza-texto")).to_contain_text('El bucle devuelve ("tope", None, M)')
    mensajes = traza.locator(".bucle-traza-mensajes > li")
    expect(mensajes).to_have_count(len(esperada["M"]))
    for i, suyas in enumerate(lineas):
        expect(mensajes.nth(i).locator(".bucle-traza-bloques > li")).to_have_text(suyas)

    # Exports: one CSV row per run without M; the recording's JSON, M included.
    with pagina.expect_download() as descarga:
        b.boton("Exportar CSV").click()
    assert descarga.value.suggested_filename == "banco-ruidoso.csv"
    filas = list(csv.DictReader(io.StringIO(Path(descarga.value.path()).read_text(encoding="utf-8"))))
    assert len(filas) == total and list(filas[0]) == CLAVES[:-1]
    assert {(f["variante"], int(f["tarea"]), int(f["semilla"]), f["motivo"]) for f in filas} == \
        {(e["variante"], e["tarea"], e["semilla"], e["motivo"]) for e in ejecuciones}
    with pagina.expect_download() as descarga:
        b.boton("Exportar JSON").click()
    grabacion = json.loads(Path(descarga.value.path()).read_text(encoding="utf-8"))
    assert list(grabacion) == ["modelo", "temperatura", "semillas", "tope", "variantes", "tareas",
                               "segundos", "ejecuciones"]
    assert grabacion["variantes"] == ["agente", "agente_mudo"] and grabacion["semillas"] == list(range(20))
    assert grabacion["modelo"] == {"nombre": "modelo_ruidoso", "sha256": None} and grabacion["tope"] == 10
    assert [(e["variante"], e["tarea"], e["semilla"]) for e in grabacion["ejecuciones"]] == sorted(
        en_cpython["por"], key=lambda k: (["agente", "agente_mudo"].index(k[0]), k[1], k[2]))
    for e in grabacion["ejecuciones"]:
        assert list(e) == CLAVES
        propia = en_cpython["por"][(e["variante"], e["tarea"], e["semilla"])]
        assert {k: v for k, v in e.items() if k != "segundos"} == {k: v for k, v in propia.items() if k != "segundos"}

    # A reload shows the same measurement, and its runs still open their traces.
    antes = b.filas("Resultados de agente")
    pagina.reload()
    b = Banco(pagina, "banco-ruidoso")
    expect(b.tuya).to_contain_text("Tu última medida")
    assert b.filas("Resultados de agente") == antes
    items = b.abrir_ejecuciones()
    expect(b.ejecuciones.locator("summary")).to_have_text(f"Las ejecuciones ({total})")
    items.first.get_by_role("button", name="Ver tu traza").click()
    expect(items.first.locator("bucle-traza .bucle-traza-numero")).to_have_text(re.compile(r"^Paso 1 de \d+$"))
    assert violaciones_axe(pagina, "bucle-banco#banco-ruidoso") == []


def test_the_recorded_runs_open_their_traces_without_python(banco_html, servidor, pagina):
    pagina.add_init_script(PYTHON_QUE_NO_ARRANCA)  # the page's Python never starts
    pagina.goto(servidor(banco_html))
    grabada = pagina.locator("bucle-banco .bucle-banco-grabada")
    expect(grabada.get_by_role("table", name="Resultados de agente", exact=True)).to_be_visible()
    lista = grabada.locator("details.bucle-banco-ejecuciones")
    expect(lista.locator("summary")).to_have_text("Las ejecuciones de la medida grabada (40)")
    lista.locator("summary").click()
    lista.get_by_role("combobox", name="Variante").select_option("agente_mudo")
    lista.get_by_role("combobox", name="Motivo").select_option("error")
    item = lista.locator("li.bucle-banco-ejecucion").first
    expect(item.locator(".bucle-banco-error")).to_have_text(re.compile(r"^el modelo lanzó ValueError: "))
    item.get_by_role("button", name="Ver la traza").click()
    traza = item.locator("bucle-traza")
    traza.get_by_role("button", name="Final").click()
    expect(traza.locator(".bucle-traza-texto")).to_have_text(
        re.compile(r"^El bucle se detiene tras el turno \d+ con una excepción: ValueError\.$"))
    assert pagina.evaluate("window.__pedido")  # (the cells did ask for it)


@pytest.mark.parametrize("aislamiento", [True, False], ids=["aislada", "sin-aislar"])
def test_detener_keeps_every_finished_run(banco_html, servidor, pagina, aislamiento):
    pagina.goto(servidor(banco_html, aislamiento=aislamiento) + "lento.html")
    assert pagina.evaluate("crossOriginIsolated") is aislamiento
    b = Banco(pagina, "banco-1")
    correr_celdas(pagina, 2)
    b.medir()
    cuenta = b.elemento.locator(".bucle-banco-cuenta")
    expect(cuenta).to_have_text(re.compile(r"^Ejecución ([3-9]\d|1\d\d) de 400"), timeout=ESPERA)
    vistas = int(re.match(r"Ejecución (\d+)", cuenta.inner_text()).group(1))  # finished, as the page said
    b.boton("Detener").click()
    b.esperar_fin()
    expect(b.aviso).to_have_text(re.compile(r"^Medida detenida: se conservan las \d+ ejecuciones terminadas de 400\."),
                                 timeout=ESPERA)
    hechas = int(re.search(r"las (\d+) ejecuciones", b.aviso.inner_text()).group(1))
    assert vistas <= hechas < 400, (vistas, hechas)
    if aislamiento:
        expect(b.aviso).not_to_contain_text("reiniciado")
    else:
        expect(b.aviso).to_contain_text("Python se ha reiniciado para detenerla")
    # The summary counts exactly the runs kept: the page's, made by the worker (a new one after a restart).
    filas = dict(b.filas("Resultados de agente_lento"))
    _exitos, de = map(int, re.match(r"(\d+) de (\d+)", filas["Éxitos"]).groups())
    assert de == hechas
    motivos = sum(int(filas[m]) for m in ("Resueltas", "Equivocadas", "Tope", "Error"))
    assert motivos == hechas
    expect(b.ejecuciones.locator("summary")).to_have_text(f"Las ejecuciones ({hechas})")
    guardada = b.filas("Resultados de agente_lento")

    # An interrupt leaves the cells' names; a restart loses them, and the bench says so.
    b.medir(veces=1)
    if aislamiento:
        b.esperar_fin()
        expect(b.aviso).to_have_text(re.compile(r"^Medida completa: 20 ejecuciones"))
        guardada = b.filas("Resultados de agente_lento")
    else:
        expect(b.aviso).to_have_text("Ejecuta antes la celda que define agente_lento (la celda 2).",
                                     timeout=ESPERA)
    pagina.reload()
    b = Banco(pagina, "banco-1")
    expect(b.tuya).to_contain_text("Tu última medida")
    assert b.filas("Resultados de agente_lento") == guardada


def test_what_goes_wrong_is_told_and_nothing_is_lost(banco_html, servidor, pagina):
    pagina.goto(servidor(banco_html) + "errores.html")
    correr_celdas(pagina, 2)
    falla = Banco(pagina, "banco-falla")
    for malo, dicho in (("0", "«0» no vale: las"), ("10000", "«10000» no vale: las"), ("", "Escribe las")):
        falla.medir(veces=malo)
        expect(falla.aviso).to_have_text(re.compile(
            rf"^{dicho} ejecuciones por tarea, un número entero de 1 a 1\.?000\. No se ha ejecutado nada\.$"))
        expect(falla.tuya).to_be_hidden()

    # A variant that raises, a task whose check raises: those runs are errors, the bench goes on.
    falla.medir(veces=2)
    falla.esperar_fin()
    expect(falla.aviso).to_have_text(re.compile(r"^Medida completa: 6 ejecuciones"))
    filas = dict(falla.filas("Resultados de agente_que_falla"))
    assert filas["Éxitos"] == "0 de 6"
    assert (filas["Error"], filas["Equivocadas"]) == ("4", "2")
    falla.abrir_ejecuciones()
    falla.ejecuciones.get_by_role("combobox", name="Motivo").select_option("error")
    errores = falla.ejecuciones.locator(".bucle-banco-error")
    expect(errores).to_have_text(["agente_que_falla lanzó ValueError: no sé leer listas"] * 2
                                 + ["la comprobación de la tarea lanzó ComprobacionRota: la comprobación se rompe"] * 2)

    # A name no cell defines; an expression that raises: said, and the measurement above stays.
    sin = Banco(pagina, "banco-sin-definir")
    sin.medir()
    expect(sin.aviso).to_have_text("Ejecuta antes la celda que define agente_sin_definir.")
    rotas = Banco(pagina, "banco-tareas-rotas")
    rotas.medir()
    expect(rotas.aviso).to_have_text(
        "Al calcular las tareas, «tareas_que_fallan()» lanzó RuntimeError: no hay tareas hoy.")
    expect(rotas.tuya).to_be_hidden()
    assert dict(falla.filas("Resultados de agente_que_falla"))["Éxitos"] == "0 de 6"

    # An agent that never ends: each run is stopped at its limit (1 s), and the bench goes on.
    sin_fin = Banco(pagina, "banco-sin-fin")
    inicio = time.monotonic()
    sin_fin.medir()
    sin_fin.esperar_fin()
    print(f"\n[banco] two endless runs, 1 s limit each: {time.monotonic() - inicio:.2f} s")
    expect(sin_fin.aviso).to_have_text(re.compile(r"^Medida completa: 2 ejecuciones"))
    sin_fin.abrir_ejecuciones()
    expect(sin_fin.ejecuciones.locator(".bucle-banco-error")).to_have_text(
        ["agente_sin_fin no terminó en 1 s: ¿falta el tope?"] * 2)


def test_the_reader_measures_with_a_model_of_their_own(banco_html, servidor, pagina):
    """«Modelo» offers the bench's models and takes the name of any hacer_modelo the reader's
    cells define (lesson 7: «Define en una celda tu hacer_modelo, así, escribe su nombre en
    «Modelo» y mide»); a name that is not Python, or that no cell defines, is told."""
    pagina.goto(servidor(banco_html) + "errores.html")
    correr_celdas(pagina, 2)
    b = Banco(pagina, "banco-tu-modelo")
    modelo = b.elemento.get_by_role("combobox", name="Modelo")
    expect(modelo).to_have_value("modelo_ruidoso")
    expect(modelo).to_have_accessible_description(
        "Elige uno o escribe el nombre de tu hacer_modelo(tarea, semilla).")
    opciones = b.elemento.locator("datalist option")
    assert [opciones.nth(i).get_attribute("value") for i in range(opciones.count())] == [
        "modelo_ruidoso", "modelo_de_la_pagina"]
    modelo.fill("mi modelo")
    b.medir()
    expect(b.aviso).to_have_text("«mi modelo» no es un nombre de Python: escribe el nombre de un "
                                 "hacer_modelo(tarea, semilla) de tus celdas. No se ha ejecutado nada.")
    modelo.fill("modelo_sin_definir")
    b.medir()
    expect(b.aviso).to_have_text("Ejecuta antes la celda que define modelo_sin_definir.")
    expect(b.tuya).to_be_hidden()
    modelo.fill(" modelo_que_contesta ")
    b.medir()
    b.esperar_fin()
    expect(b.aviso).to_have_text(re.compile(r"^Medida completa: 2 ejecuciones"))
    with pagina.expect_download() as descarga:
        b.boton("Exportar JSON").click()
    grabacion = json.loads(Path(descarga.value.path()).read_text(encoding="utf-8"))
    assert grabacion["modelo"]["nombre"] == "modelo_que_contesta"
    # the runs that did not raise got that model's answer
    contestadas = [e for e in grabacion["ejecuciones"] if e["motivo"] != "error"]
    assert contestadas and all(e["M"][2] == ["asistente", [{"type": "text", "text": "lo dice modelo_que_contesta"}]]
                               for e in contestadas)
    pagina.reload()
    expect(Banco(pagina, "banco-tu-modelo").elemento.get_by_role("combobox", name="Modelo")).to_have_value(
        "modelo_que_contesta")


def test_the_bench_reads_on_a_phone(banco_html, servidor, navegador, registro_externo):
    with contexto_vigilado(navegador, registro_externo, viewport={"width": 390, "height": 844},
                           is_mobile=True, has_touch=True, device_scale_factor=2) as contexto:
        pagina = contexto.new_page()
        pagina.goto(servidor(banco_html))
        correr_celdas(pagina, 2)
        b = Banco(pagina, "banco-ruidoso")
        b.medir(veces=2)
        b.esperar_fin()
        expect(b.tuya.get_by_role("img", name="Tasas de éxito con sus intervalos de Wilson")).to_be_visible()
        items = b.abrir_ejecuciones()
        items.first.get_by_role("button", name="Ver tu traza").click()
        expect(items.first.locator("bucle-traza .bucle-traza-numero")).to_be_visible()
        # Nothing wider than the phone: tables, plot, runs and trace all fit.
        desbordan = pagina.evaluate("""() => [...document.querySelectorAll("bucle-banco, bucle-banco *")]
            .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5 && el.getClientRects().length)
            .map((el) => el.tagName + "." + el.getAttribute("class"))""")
        assert desbordan == []
        assert pagina.evaluate("document.documentElement.scrollWidth") <= 390
        assert violaciones_axe(pagina, "bucle-banco#banco-ruidoso") == []
