"""Record one run of the agent on the course's in-page model: ``python -m bench.grabar``.

What lesson 6 («El bucle con un modelo real») opens with is not typed by anyone: this script
builds the small site ``tests/sites/modelo-preparado`` (the ``modelo`` directive as lesson 6
has it, and one cell), serves it cross-origin isolated on 127.0.0.1, opens it in Debian's
Chromium under the course's service worker, downloads the pinned model with **Descargar el
modelo**, waits while it reads the start its conversations share (as a reader who reads on after
pressing the button), and runs in the page's Python the lesson's first cell (the harness of
lessons 1–5 and ``ModeloAPI``, read from ``lessons/modelo-real.md``) followed by the agent of «El
agente y sus pruebas» on ``ModeloAPI()``, timing each turn. The model runs at temperature 0 (``motor.js``), so a second
recording with the same pinned files gives the same conversation; the seconds are this machine's.

It writes ``runtime/grabacion.py``: ``GRABACION`` (the model's file and SHA-256, the settings,
each turn's seconds, tokens and response, how it ended, and the messages), ``INICIO_GRABADO`` and
``guion_grabado()``. The lesson's trace replays it; its ``grabacion`` directive fails the build
when the pinned model's SHA-256 is not the recording's. Nothing leaves 127.0.0.1 (the recorder of
bench/navegador.py watches it, as in the bench).

    python -m bench.grabar [--max-tokens 256] [--tope 10] [--salida runtime/grabacion.py]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import pprint
import re
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from playwright.sync_api import expect

from widgets.construccion.modelo_local import fijado
from widgets.serve import servir

from tests.conftest import construir
from tests.lecciones.comun import celdas_de

from .navegador import Registro, chromium, contexto

ROOT = Path(__file__).resolve().parents[1]
SITIO = ROOT / "tests" / "sites" / "modelo-preparado"
MARCA = "@@GRABACION@@"

#: Python run in the page after the lesson's first cell: the agent, each turn timed.
GRABAR = '''
import json, time


class Cronometrado:
    """El modelo, con el tiempo y los tokens de cada turno apuntados."""

    def __init__(self, modelo):
        self.modelo, self.turnos = modelo, []

    def __call__(self, M, herramientas):
        inicio = time.perf_counter()
        respuesta = self.modelo(M, herramientas)
        uso = self.modelo.uso or {}
        self.turnos.append({
            "segundos": round(time.perf_counter() - inicio, 2),
            "tokens_entrada": uso.get("input_tokens", 0),
            "tokens_reusados": uso.get("cache_read_input_tokens", 0),
            "tokens_salida": uso.get("output_tokens", 0),
            "respuesta": respuesta,
        })
        return respuesta


for pedido, permite in json.loads(%(pedidos)r):
    modelo = Cronometrado(ModeloAPI(max_tokens=%(max_tokens)d))
    entorno = dict(ENTORNO)
    como, final, M = agente(modelo, pedido, entorno, preguntar=permitir if permite else denegar,
                            tope=%(tope)d)
    print("%(marca)s" + json.dumps({"como": como, "texto": final, "turnos": modelo.turnos,
                                    "mensajes": M, "sistema": SISTEMA_AGENTE, "pedido": pedido,
                                    "permite": permite, "entorno": entorno}, ensure_ascii=False))
'''

PLANTILLA = '''"""Una ejecución del agente con el modelo del curso, grabada (no la edites a mano).

La escribe «python -m bench.grabar»: el agente de «El agente y sus pruebas», con el
ModeloAPI de «El bucle con un modelo real», contra el modelo que corre en la página, a
temperatura 0. Se carga después de guionizado.py:

    exec(open_url("runtime/guionizado.py").read())
    exec(open_url("runtime/grabacion.py").read())

y deja en tu espacio de nombres:

- GRABACIONES: las ejecuciones grabadas, una por pedido, cada una con el modelo (su fichero y
  su SHA-256), cada turno (segundos, tokens y respuesta), cómo terminó, todos los mensajes, si
  el usuario permitía escribir y cómo quedó el entorno. GRABACION es la primera.
- INICIO_GRABADO: los mensajes de inicio de la primera; inicio_grabado(n), los de la n-ésima.
- guion_grabado(n=0): el guion de la n-ésima, para un ModeloGuionizado: lo que respondió el
  modelo en cada turno y lo que le devolvió el arnés.
"""

GRABACIONES = %(datos)s

GRABACION = GRABACIONES[0]


def inicio_grabado(n=0):
    """Los mensajes de inicio de la n-ésima ejecución grabada: el sistema y el pedido."""
    g = GRABACIONES[n]
    return [("sistema", g["sistema"]), ("usuario", g["pedido"])]


INICIO_GRABADO = inicio_grabado(0)


def guion_grabado(n=0):
    """El guion de la n-ésima ejecución grabada: cada respuesta del modelo, con las observaciones
    que el arnés añadió tras ella."""
    inicio = inicio_grabado(n)
    mensajes = [tuple(m) for m in GRABACIONES[n]["mensajes"]][len(inicio):]
    respuestas, observaciones = [], []
    for i, (rol, contenido) in enumerate(mensajes):
        if rol == "asistente":
            respuestas.append(contenido)
            siguiente = mensajes[i + 1] if i + 1 < len(mensajes) else None
            observaciones.append(siguiente[1] if siguiente and siguiente[0] == "usuario" else [])
    return guion_de(inicio, respuestas, observaciones)
'''


def avisar(texto):
    print(texto, file=sys.stderr, flush=True)


#: What is recorded: (the request, whether the user allows writes), in order. The first is the
#: lesson's opening trace (the lesson's request, no one to allow the write); the others were
#: chosen among thirty run natively on the lessons' files (bench/candidatos.py): a request
#: it solves, one it solves thanks to the error's suggestion, and a question it answers by
#: rewriting the list (allowed: what a user who says yes without looking gets).
PEDIDOS = [
    ("Apunta en lista.txt lo que falta para la tortilla.", False),
    ("Quita la leche de lista.txt.", True),
    ("Lee tortilla.txt.", True),
    ("¿Tengo patatas en la lista?", True),
]


def codigo_de_la_pagina(max_tokens: int, tope: int, pedidos=PEDIDOS) -> str:
    primera = celdas_de("modelo-real")[0]
    return primera + "\n" + GRABAR % {"max_tokens": max_tokens, "tope": tope, "marca": MARCA,
                                      "pedidos": json.dumps(pedidos, ensure_ascii=False)}


def servir_el_sitio():
    """Build ``tests/sites/modelo-preparado`` into a temporary folder; return it."""
    destino = Path(tempfile.mkdtemp(prefix="grabar-")) / "html"
    avisar(f"building {SITIO.relative_to(ROOT)}…")
    construir(SITIO, destino)
    return destino


def abrir(page, base: str) -> None:
    """Open the site until the course's service worker controls the page (the model's endpoint
    is answered there)."""
    page.goto(base)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
    page.reload()


def cargar_el_modelo(page) -> dict:
    """Press the model widget's button (download, or load what is kept) until «Modelo listo»;
    return the engine's figures: ``{descarga, carga, hilos}`` (ms) and the wall time (``total``)."""
    inicio = time.monotonic()
    page.locator("bucle-modelo").get_by_role("button", name=re.compile("Descargar el modelo|Cargar el modelo")).click()
    expect(page.locator("bucle-modelo")).to_have_attribute("data-estado", "listo", timeout=600_000)
    cifras = page.evaluate("__bucleMotorDelModelo().cifras")
    return {**cifras, "total": (time.monotonic() - inicio) * 1000}


def esperar_la_preparacion(page) -> dict | None:
    """Until the model has read the start the lesson's conversations share (the ``modelo``
    directive's ``sistema`` and ``herramientas``), as a reader who reads on after the load;
    its figures (``{ms, tokens, mensajes}``), or None if there was nothing to prepare."""
    return page.evaluate("__bucleMotorDelModelo().preparacion")


def correr_el_agente(page, max_tokens: int, tope: int, pedidos=PEDIDOS) -> list[dict]:
    """Run in the page's cell the lesson's first cell and the agent on ``ModeloAPI()``, once per
    request; return what the page printed for each (how it ended, each turn timed, the messages,
    the final environment)."""
    celda = page.locator("bucle-celda").first
    celda.scroll_into_view_if_needed()  # its editor comes when it is near the screen
    celda.get_by_role("textbox").fill(codigo_de_la_pagina(max_tokens, tope, pedidos))
    page.evaluate("__bucleMotorDelModelo().historial.length = 0")
    celda.get_by_role("button", name="Ejecutar", exact=True).click()
    salida = celda.locator(".bucle-celda-salida")
    expect(salida).to_have_text(re.compile(f"({re.escape(MARCA)}.*){{{len(pedidos)}}}", re.S),
                                timeout=1_800_000)
    texto = salida.inner_text()
    return [json.loads(parte.strip().splitlines()[0]) for parte in texto.split(MARCA)[1:]]


@contextlib.contextmanager
def con_el_modelo():
    """The test site built and served, a page under the course's service worker with the pinned
    model loaded and the start its conversations share read: yields ``(page, aislada, the
    browser's version)``; afterwards, fails if any request left 127.0.0.1."""
    destino = servir_el_sitio()
    srv = servir(destino, 0)
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    registro = Registro()
    try:
        with chromium(registro) as navegador:
            registro.comprobar(navegador)
            with contexto(navegador, registro, servicio=True) as ctx:
                page = ctx.new_page()
                abrir(page, base)
                aislada = page.evaluate("crossOriginIsolated")
                avisar(f"downloading the model (isolated: {aislada})…")
                cargar_el_modelo(page)
                esperar_la_preparacion(page)  # as a reader who reads on before the cell
                yield page, aislada, navegador.version
        if registro.fuera:
            raise SystemExit(f"requests left 127.0.0.1: {registro.fuera}")
    finally:
        srv.shutdown()
        srv.server_close()
        registro.cerrar()


def grabar(max_tokens: int, tope: int, pedidos=PEDIDOS) -> list[dict]:
    with con_el_modelo() as (page, aislada, navegador_version):
        avisar(f"running the agent on the model, {len(pedidos)} requests…")
        inicio = time.monotonic()
        hechas = correr_el_agente(page, max_tokens, tope, pedidos)
        avisar(f"done in {time.monotonic() - inicio:.0f} s")
    pin = fijado()
    return [{
        "modelo": {"archivo": pin.archivo, "sha256": pin.publicado_sha256, "temperatura": 0,
                   "max_tokens": max_tokens, "n_ctx": 2048},
        "navegador": f"Chromium {navegador_version.split('.')[0]} sin interfaz, "
                     f"{'aislada' if aislada else 'sin aislar'}, en {platform.machine()}",
        "fecha": date.today().isoformat(),
        "sistema": datos["sistema"],
        "pedido": datos["pedido"],
        "permite": datos["permite"],
        "turnos": datos["turnos"],
        "final": {"como": datos["como"], "texto": datos["texto"]},
        "mensajes": datos["mensajes"],
        "entorno": datos["entorno"],
    } for datos in hechas]


def escribir(grabaciones: list[dict], salida: Path) -> None:
    salida.write_text(PLANTILLA % {"datos": pprint.pformat(grabaciones, width=96, sort_dicts=False)},
                      encoding="utf-8")


def main(argv=None) -> None:
    partes = argparse.ArgumentParser(prog="python -m bench.grabar", description=__doc__.split("\n")[0])
    partes.add_argument("--max-tokens", type=int, default=256)
    partes.add_argument("--tope", type=int, default=10)
    partes.add_argument("--salida", type=Path, default=ROOT / "runtime" / "grabacion.py")
    args = partes.parse_args(argv)
    grabaciones = grabar(args.max_tokens, args.tope)
    escribir(grabaciones, args.salida)
    for grabacion in grabaciones:
        print(f"«{grabacion['pedido']}» ({'allowed' if grabacion['permite'] else 'denied'} writes):")
        for n, turno in enumerate(grabacion["turnos"], 1):
            print(f"  turn {n}: {turno['segundos']:.1f} s, {turno['tokens_entrada']} new + "
                  f"{turno['tokens_reusados']} reused input tokens, {turno['tokens_salida']} out")
        print(f"  ended: {grabacion['final']['como']}, «{grabacion['final']['texto']}»")
    print(f"wrote {args.salida}")


if __name__ == "__main__":
    main()
