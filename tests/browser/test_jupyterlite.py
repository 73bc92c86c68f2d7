"""«Abrir en JupyterLite» in a real browser, on the test site tests/sites/jupyterlite/.

The lesson page loads nothing of JupyterLite; its link opens the lesson's notebook in a new tab,
whose kernel starts the site's own Pyodide, offline (the ``contexto`` fixture fails the test on
any request off 127.0.0.1). The cells run the lesson's lines unchanged and print what CPython
prints for them. The time from the click to the first output is printed (``-s``), not asserted.
"""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT, contexto_vigilado

pytestmark = pytest.mark.navegador


@pytest.fixture
def contexto(navegador, registro_externo):
    """As conftest's, but with service workers allowed: JupyterLite registers its own (the
    notebooks' files go through it) and fails when it cannot; the course registers its own too."""
    with contexto_vigilado(navegador, registro_externo, service_workers="allow") as context:
        yield context

ESPERA = 120_000  # ms: JupyterLite, then Pyodide, then IPython's wheels, on a 2-core machine


def esperado() -> list[str]:
    """What the lesson's three cells print, computed by CPython with the same runtime."""
    espacio: dict = {}
    for nombre in ("entorno.py", "guionizado.py"):
        exec((ROOT / "runtime" / nombre).read_text(encoding="utf-8"), espacio)
    return [
        espacio["leer"](dict(espacio["ENTORNO"]), ruta="lista.txt"),
        espacio["muestra"](espacio["llamada"]("t1", "leer", ruta="lista.txt")),
        str(sorted(espacio["FUNCIONES"])),
    ]


def ejecutar_hasta(cuaderno, celdas: int) -> None:
    """Run the first ``celdas`` cells with Shift+Enter from the first one, as a reader would."""
    preparacion = cuaderno.locator(".jp-Cell").first
    expect(preparacion).to_contain_text("Preparación del cuaderno", timeout=ESPERA)
    # Under load the first click can land before JupyterLab listens, and the key is lost: click
    # until the cell's editor has the focus, then press.
    editor = preparacion.locator(".jp-InputArea-editor .cm-content")
    for _ in range(10):
        preparacion.locator(".jp-InputArea-editor").click()
        try:
            expect(editor).to_be_focused(timeout=3_000)
            break
        except AssertionError:
            continue
    cuaderno.keyboard.press("Shift+Enter")
    # Queued or run: the key reached the setup cell (the kernel may still be starting).
    expect(preparacion.locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[[*1]\]"))
    for _ in range(celdas - 1):
        cuaderno.keyboard.press("Shift+Enter")


def salida(cuaderno, n: int):
    """The output of the n-th code cell of the lesson (the setup cell is not counted)."""
    return cuaderno.locator(".jp-CodeCell").nth(n).locator(".jp-OutputArea-output")


def test_a_lesson_opens_as_a_notebook_that_runs_offline(sitio_de_prueba, servidor, contexto, pagina):
    sitio = sitio_de_prueba("jupyterlite")
    base = servidor(sitio)
    pedidas: list[str] = []
    contexto.on("request", lambda r: pedidas.append(r.url))
    consola: list[str] = []  # the pages' and their workers' (the kernel's), shown if it fails
    contexto.on("console", lambda m: consola.append(f"{m.type}: {m.text}"))

    pagina.goto(base + "leccion.html")
    enlace = pagina.get_by_role("link", name="Abrir en JupyterLite")
    expect(enlace).to_be_visible()
    # As a reader's second visit: the course's worker has saved the site and controls the page,
    # and the notebook opens under it (its scope is the whole site) before JupyterLite's exists.
    pagina.wait_for_selector("html[data-bucle-sin-conexion=guardado]", state="attached", timeout=ESPERA)
    pagina.wait_for_function("navigator.serviceWorker.controller !== null", timeout=ESPERA)
    assert not [u for u in pedidas if "/lite/" in u], "the lesson page downloaded JupyterLite"

    with contexto.expect_page() as nueva:
        inicio = time.monotonic()
        enlace.click()
    cuaderno = nueva.value
    assert cuaderno.url.startswith(base + "lite/notebooks/index.html?path=leccion.ipynb")
    expect(cuaderno.get_by_role("heading", name="Una lección con celdas", level=1)).to_be_visible(
        timeout=ESPERA)

    # The setup cell, the title's markdown, then the lesson's first cell.
    ejecutar_hasta(cuaderno, 3)
    primera, segunda, tercera = esperado()
    try:
        expect(salida(cuaderno, 1)).to_have_text(primera, timeout=ESPERA)
    except AssertionError as error:
        raise AssertionError("\n".join([str(error), "console:", *consola[-40:]])) from None
    print(f"\nclick → first output (cold): {time.monotonic() - inicio:.1f} s")
    # Markdown, the second cell (it uses the first one's names), markdown, markdown, the third.
    for _ in range(5):
        cuaderno.keyboard.press("Shift+Enter")
    expect(salida(cuaderno, 2)).to_have_text(segunda, timeout=ESPERA)
    expect(salida(cuaderno, 3)).to_have_text(tercera, timeout=ESPERA)
    expect(cuaderno.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")).to_have_count(0)
    # JupyterLite's worker took its pages; the course's is still registered for the lessons.
    # (bucle-espera.js shows JupyterLite only the workers of lite/: ask the browser itself.)
    registros = ("async () => (await ServiceWorkerContainer.prototype.getRegistrations"
                 ".call(navigator.serviceWorker)).map((r) => r.scope)")
    ambitos = cuaderno.evaluate(registros)
    assert sorted(ambitos) == [base, base + "lite/"], ambitos
    # Opened again, now under its own worker, JupyterLite checks its version and, the first time,
    # unregisters "every" worker (its own is registered again on a later visit): not the course's.
    with cuaderno.expect_console_message(lambda m: "already registered" in m.text, timeout=ESPERA):
        cuaderno.reload()
    assert base in cuaderno.evaluate(registros)

    # One Pyodide: the kernel loaded the page's copy, and its wheels from the site.
    wasm = [u for u in pedidas if u.endswith("pyodide.asm.wasm")]
    assert wasm and all(u == base + "_static/pyodide/pyodide.asm.wasm" for u in wasm), wasm
    assert any(u.startswith(base + "lite/pyodide/ipython-") for u in pedidas)
    assert base + "runtime/entorno.py" in pedidas and base + "runtime/guionizado.py" in pedidas
