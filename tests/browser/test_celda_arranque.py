"""Runnable cells in a real browser (tests/sites/celdas/, built once): Python starts when it should,
downloads its big files once, and cells run after the earlier cells they depend on.

Each test opens a fresh browser context (empty cache and storage), so each starts Python from
nothing; the times it takes are printed (``-s``), never asserted."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, PYTHON_QUE_NO_ARRANCA, Celda

pytestmark = pytest.mark.navegador


# Records what the page tells about Python starting, however briefly it shows.
REGISTRAR_AVISOS = """
window.__avisos = []; window.__progreso = [];
new MutationObserver(() => {
  for (const p of document.querySelectorAll(".bucle-aviso-python p")) {
    if (p.textContent && window.__avisos[window.__avisos.length - 1] !== p.textContent)
      window.__avisos.push(p.textContent);
  }
  for (const barra of document.querySelectorAll(".bucle-aviso-python progress:not([hidden])"))
    window.__progreso.push([barra.value, barra.max]);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def test_a_cell_runs_after_the_earlier_cells_it_depends_on(celdas_html, servidor, contexto, pagina):
    base = servidor(celdas_html)
    pagina.add_init_script(REGISTRAR_AVISOS)
    grandes = []  # requests for Pyodide's two big files
    contexto.on("request", lambda r: r.url.endswith((".wasm", "stdlib.zip")) and grandes.append(r.url))
    pagina.goto(base)
    uno, dos, tres, cuatro = (Celda(pagina, n) for n in (1, 2, 3, 4))
    expect(tres.boton("Detener")).to_be_hidden()

    inicio = time.monotonic()
    tres.ejecutar()
    expect(tres.salida).to_contain_text("Antes se ejecutan las celdas 1 y 2, de las que depende esta.")
    tres.esperar_fin()
    print(f"\n[celda] first run (cold start of Python + 3 cells): {time.monotonic() - inicio:.2f} s")
    expect(uno.texto).to_have_text("hola\n")
    expect(dos.texto).to_have_text("4\n")
    expect(tres.texto).to_have_text("HOLA 8\n")

    # Once they have run, they are not run again.
    inicio = time.monotonic()
    tres.correr()
    print(f"[celda] a print round trip: {(time.monotonic() - inicio) * 1000:.0f} ms")
    expect(tres.salida).not_to_contain_text("Antes se")
    expect(tres.texto).to_have_text("HOLA 8\n")

    # A lesson's line loads the course runtime by its URL, relative to the page.
    cuatro.correr()
    expect(cuatro.texto).to_have_text("pan, leche, patatas\n")

    avisos = pagina.evaluate("window.__avisos")
    primera = [a for a in avisos if a.startswith("La primera ejecución")]
    assert len(primera) == 1, avisos
    assert re.fullmatch(r"La primera ejecución descarga el intérprete de Python \(≈ 1\d MB\); "
                        r"después queda en la caché del navegador\.", primera[0])
    # The bar shows the real bytes of the interpreter and the standard library, up to the end.
    progreso = pagina.evaluate("window.__progreso")
    tamano = sum((celdas_html / "_static" / "pyodide" / nombre).stat().st_size
                 for nombre in ("pyodide.asm.wasm", "python_stdlib.zip"))
    assert progreso and {maximo for _, maximo in progreso} == {tamano}
    assert progreso[-1] == [tamano, tamano]
    assert sorted(u.rsplit("/", 1)[1] for u in grandes) == ["pyodide.asm.wasm", "python_stdlib.zip"], \
        "each big file is downloaded once: Pyodide is handed the bytes the worker fetched"
    del grandes[:]

    # Later visits find Python in the browser's cache: only «Preparando Python…».
    pagina.reload()
    inicio = time.monotonic()
    uno.correr()
    print(f"[celda] warm start (reload, same context) to first output: {time.monotonic() - inicio:.2f} s")
    expect(uno.texto).to_have_text("hola\n")
    avisos = pagina.evaluate("window.__avisos")
    assert not any(a.startswith("La primera ejecución") for a in avisos), avisos
    assert "Preparando Python…" in avisos
    assert grandes == [], "a later visit reads them from the Cache API"


def test_the_files_a_cell_reads_are_fetched_ahead_while_the_page_is_idle(celdas_html, servidor, contexto, pagina):
    """The worker fetches what the page's cells open_url once Python has started on idle: the
    cell that loads runtime/entorno.py then runs without a request of its own."""
    base = servidor(celdas_html)
    pedidas = []
    contexto.on("request", lambda r: "/runtime/" in r.url and pedidas.append(r.url))
    with pagina.expect_request(lambda r: "/runtime/" in r.url, timeout=ESPERA):
        pagina.goto(base)  # no click: Python starts on idle, then the worker fetches ahead
    assert pedidas == [base + "runtime/entorno.py"]
    pagina.wait_for_load_state("networkidle")
    cuarta = Celda(pagina, 4)
    cuarta.correr()
    expect(cuarta.texto).to_have_text("pan, leche, patatas\n")
    assert pedidas == [base + "runtime/entorno.py"]  # nothing more: open_url read it from memory


# The page is never idle (Python and the editors wait for that); the page's workers are counted,
# and the moment the first is made is noted.
SIN_OCIO_Y_TRABAJADOR = """
window.requestIdleCallback = () => 0;
const TrabajadorDeVerdad = window.Worker;
window.__trabajadores = 0;
window.Worker = class extends TrabajadorDeVerdad {
  constructor(...args) {
    super(...args);
    window.__trabajadorEn ??= performance.now();
    window.__trabajadores += 1;
  }
};
"""


def test_where_python_started_before_the_next_page_makes_its_worker_while_it_loads(celdas_html, servidor,
                                                                                  pagina):
    """A first visit starts Python only once the page is idle, or at a click, so that its
    download never delays the reading. Once Python has started in this browser, a page makes its
    worker as it loads (python-temprano.js), and Python starts with no idle moment and no click.
    (When, against DOMContentLoaded, is printed: on a loaded machine it is not for a test.)"""
    pagina.add_init_script(SIN_OCIO_Y_TRABAJADOR)
    pagina.goto(servidor(celdas_html), wait_until="load")
    assert pagina.evaluate("window.__trabajadorEn") is None
    uno = Celda(pagina, 1)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")

    pagina.reload()  # the page is never idle, and nothing is clicked: only python-temprano.js can start it
    expect(pagina.locator("html[data-bucle-arranque]")).to_have_count(1, timeout=ESPERA)
    hecho, contenido = pagina.evaluate("""[window.__trabajadorEn,
        performance.getEntriesByType("navigation")[0].domContentLoadedEventStart]""")
    print(f"\n[celda] worker made at {hecho:.0f} ms, DOMContentLoaded at {contenido:.0f} ms")
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")


@pytest.mark.parametrize("clic", [False, True], ids=["sin-clic", "con-clic"])
def test_an_early_script_that_runs_after_the_widgets_still_starts_python_with_one_worker(
        celdas_html, servidor, pagina, clic):
    """python-temprano.js is async: it may run after python.js and the widgets (in CI it did).
    Held back until the cells are on the page, its worker still starts Python, with no idle
    moment and no click; and where a click started Python first, it makes no second worker."""
    pagina.add_init_script(SIN_OCIO_Y_TRABAJADOR)
    pagina.goto(servidor(celdas_html), wait_until="load")
    uno = Celda(pagina, 1)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")

    retenidas = []
    pagina.route("**/python-temprano.js*", lambda ruta: retenidas.append(ruta))
    pagina.reload(wait_until="domcontentloaded")
    expect(uno.boton("Ejecutar")).to_be_visible(timeout=ESPERA)  # celda.js, and so python.js, ran
    assert len(retenidas) == 1
    assert pagina.evaluate("window.__trabajadores") == 0
    if clic:
        uno.correr()
    ruta = retenidas[0]
    respuesta = ruta.fetch()
    ruta.fulfill(response=respuesta, body=respuesta.text() + "\nwindow.__tempranoCorrio = true;\n")
    expect(pagina.locator("html[data-bucle-arranque]")).to_have_count(1, timeout=ESPERA)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    pagina.wait_for_function("window.__tempranoCorrio === true")
    assert pagina.evaluate("window.__trabajadores") == 1


def test_the_editors_wait_while_python_starts_two_seconds_at_most(celdas_html, servidor, pagina):
    """While Python starts, the editors wait (CodeMirror's work on the page's thread slows the
    start), two seconds at most after the page is idle, and a press on Ejecutar makes none;
    meanwhile the code reads as the build wrote it."""
    pagina.add_init_script(PYTHON_QUE_NO_ARRANCA)
    pagina.goto(servidor(celdas_html))
    uno = Celda(pagina, 1)
    expect(uno.elemento.locator(".bucle-celda-codigo pre")).to_contain_text('saludo = "hola"')
    pagina.wait_for_function("window.__pedido")  # the page is idle: Python was asked to start
    uno.elemento.get_by_role("button", name="Ejecutar", exact=True).click()
    pagina.wait_for_timeout(800)
    expect(pagina.locator(".cm-editor")).to_have_count(0)
    expect(uno.editor).to_be_visible(timeout=ESPERA)
    assert uno.lineas() == ['saludo = "hola"', "print(saludo)"]


# Each cell's code as the reader sees it, from the static block or from the editor: the block's
