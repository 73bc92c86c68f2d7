"""Runnable cells in a real browser, on the test site tests/sites/celdas/ (built once).

Each test opens a fresh browser context (empty cache and storage), so each starts Python from
nothing; the times it takes are printed (``-s``), never asserted.
"""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador

ESPERA = 60_000  # ms: Pyodide takes a few seconds to start on a small machine
CURSO = "celdas-de-prueba"

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

# Counts the workers the page creates and the output that crosses postMessage.
CONTAR_MENSAJES = """
window.__trabajadores = 0; window.__cruzado = 0; window.__omitidas_en_el_trabajador = 0;
const TrabajadorOriginal = window.Worker;
window.Worker = class extends TrabajadorOriginal {
  constructor(...args) {
    super(...args);
    window.__trabajadores++;
    this.addEventListener("message", ({ data }) => {
      if (data && data.type === "salida") {
        window.__cruzado += data.texto.length;
        if (data.omitidas) window.__omitidas_en_el_trabajador += data.omitidas.lineas;
      }
    });
  }
};
"""


class Celda:
    """The n-th cell of the page, through what a reader perceives: roles and names."""

    def __init__(self, page, n):
        self.page = page
        self.elemento = page.locator("bucle-celda").nth(n - 1)
        self.salida = self.elemento.get_by_role("status", name=f"Salida de la celda {n}")
        self.texto = self.elemento.locator(".bucle-celda-texto")
        self.editor = page.get_by_role("textbox", name=f"Código de la celda {n}")
        self.modificada = self.elemento.get_by_text("Modificada", exact=True)

    def boton(self, nombre):
        return self.elemento.get_by_role("button", name=nombre, exact=True)

    def ejecutar(self):
        # The click shows Detener at once (it hides again when the run ends, maybe already).
        self.boton("Ejecutar").click()

    def esperar_fin(self):
        expect(self.boton("Detener")).to_be_hidden(timeout=ESPERA)

    def correr(self):
        self.ejecutar()
        self.esperar_fin()

    def lineas(self):
        expect(self.editor).to_be_visible()
        return self.elemento.locator(".cm-line").all_inner_texts()


@pytest.fixture(scope="module")
def celdas_html(sitio_de_prueba):
    return sitio_de_prueba("celdas")


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


# A worker that never answers: the page's Python stays «arrancando».
PYTHON_QUE_NO_ARRANCA = """
window.__pedido = false;
window.Worker = class {
  constructor() { window.__pedido = true; }
  postMessage() {}
  terminate() {}
  addEventListener() {}
};
"""


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
# height and, for each line, its top and height and where its first character starts (page
# pixels, rounded to 0.5).
LINEAS = """() => [...document.querySelectorAll("bucle-celda .bucle-celda-codigo")].map((bloque) => {
  const editor = bloque.querySelector(".cm-content");
  const lineas = editor ? editor.querySelectorAll(".cm-line") : bloque.querySelectorAll("pre > span[id], pre > .bucle-linea");
  const medio = (x) => Math.round(x * 2) / 2;
  return [medio(bloque.getBoundingClientRect().height), ...[...lineas].map((linea) => {
    const caja = linea.getBoundingClientRect();
    const texto = document.createTreeWalker(linea, NodeFilter.SHOW_TEXT, (n) => n.data.trim() ? 1 : 3).nextNode();
    let x = null;
    if (texto) {
      const rango = document.createRange();
      rango.setStart(texto, texto.data.search(/\\S/));
      rango.setEnd(texto, texto.data.search(/\\S/) + 1);
      x = medio(rango.getBoundingClientRect().left);
    }
    return { arriba: medio(caja.top + scrollY), alto: medio(caja.height), x };
  })];
})"""


def el_codigo_no_se_mueve(page, url):
    """Until its editor comes (its module held back here), a cell shows the code as the build
    wrote it, or the reader's own: every line must already sit where the editor puts it."""
    retenidas = []
    page.route("**/_static/bucle/editor.js", lambda ruta: retenidas.append(ruta))
    page.add_init_script(PYTHON_QUE_NO_ARRANCA)
    page.goto(url)
    # The reader's own code in the second cell: a long line, and a last empty one.
    mia = 'n = len(saludo)\nprint("una línea larga que no cabe en un teléfono sin partirse", n)\n'
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [
        f"bucle:{CURSO}:index:celda-2", json.dumps({"codigo": mia, "original": "n = len(saludo)\nprint(n)"})])
    page.reload()
    expect(page.locator(".bucle-celda-barra")).to_have_count(4)
    page.wait_for_function("window.__pedido")
    page.wait_for_timeout(300)
    expect(page.locator(".cm-editor")).to_have_count(0)
    antes = page.evaluate(LINEAS)
    for ruta in retenidas:
        ruta.continue_()
    page.unroute("**/_static/bucle/editor.js")
    expect(page.locator(".cm-editor")).to_have_count(4, timeout=ESPERA)
    despues = page.evaluate(LINEAS)
    assert [len(c) - 1 for c in antes] == [2, 3, 1, 2]  # the reader's code ends in an empty line
    assert antes == despues
    return antes


def test_the_code_does_not_move_when_its_editor_takes_its_place(celdas_html, servidor, pagina):
    el_codigo_no_se_mueve(pagina, servidor(celdas_html))


def test_on_a_phone_the_code_wraps_as_its_editor_wraps_it(celdas_html, servidor, movil):
    celdas = el_codigo_no_se_mueve(movil, servidor(celdas_html))
    alto = celdas[0][1]["alto"]
    assert celdas[1][2]["alto"] >= 2 * alto  # the long line wraps…
    assert celdas[3][1]["alto"] >= 2 * alto  # …and so does the lesson's own long line


def test_the_keyboard_edits_runs_and_leaves_the_editor_and_the_code_is_kept(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    uno = Celda(pagina, 1)
    leccion = ['saludo = "hola"', "print(saludo)"]
    assert uno.lineas() == leccion
    expect(uno.modificada).to_be_hidden()

    uno.editor.click()
    pagina.keyboard.press("ControlOrMeta+a")
    for linea in ['saludo = "adiós"', "if saludo:", "print(saludo)"]:
        pagina.keyboard.type(linea)
        pagina.keyboard.press("Enter")
    assert uno.lineas()[:3] == ['saludo = "adiós"', "if saludo:", "    print(saludo)"]  # auto-indent
    expect(uno.modificada).to_be_visible()

    pagina.keyboard.press("ControlOrMeta+Enter")
    uno.esperar_fin()
    expect(uno.texto).to_have_text("adiós\n")

    # Tab indents inside the editor; Esc then Tab leaves it: no keyboard trap.
    uno.editor.focus()
    pagina.keyboard.press("Tab")
    expect(uno.editor).to_be_focused()
    pagina.keyboard.press("Escape")
    pagina.keyboard.press("Tab")
    expect(uno.boton("Ejecutar")).to_be_focused()

    # The edited code survives a reload…
    pagina.reload()
    assert uno.lineas()[:3] == ['saludo = "adiós"', "if saludo:", "    print(saludo)"]
    expect(uno.modificada).to_be_visible()
    guardado = pagina.evaluate("k => JSON.parse(localStorage.getItem(k))", f"bucle:{CURSO}:index:primera")
    assert guardado["codigo"].startswith('saludo = "adiós"\nif saludo:\n')
    assert guardado["original"] == "\n".join(leccion)

    # …and Restablecer brings the lesson's code back, for good.
    uno.boton("Restablecer").click()
    assert uno.lineas() == leccion
    expect(uno.modificada).to_be_hidden()
    pagina.reload()
    assert uno.lineas() == leccion
    assert pagina.evaluate("k => localStorage.getItem(k)", f"bucle:{CURSO}:index:primera") is None


def test_a_copy_saved_before_the_lesson_changed_lets_the_reader_choose(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    clave = f"bucle:{CURSO}:index:primera"
    vieja = json.dumps({"codigo": "print('la mía')", "original": "print('la de antes')"})
    guardar = "([k, v]) => localStorage.setItem(k, v)"
    pagina.evaluate(guardar, [clave, vieja])
    pagina.evaluate(guardar, [f"bucle:{CURSO}:index:celda-2", "{esto no es JSON"])
    pagina.reload()

    uno, dos = Celda(pagina, 1), Celda(pagina, 2)
    aviso = uno.elemento.get_by_text("El código de esta celda ha cambiado en la lección")
    expect(aviso).to_be_visible()
    assert uno.lineas() == ["print('la mía')"]
    expect(uno.modificada).to_be_visible()
    # Corrupt storage does not break the page: the cell shows the lesson's code.
    assert dos.lineas() == ["n = len(saludo)", "print(n)"]

    uno.boton("Seguir con la mía").click()
    expect(aviso).to_be_hidden()
    expect(uno.boton("Ejecutar")).to_be_focused()
    pagina.reload()
    assert uno.lineas() == ["print('la mía')"]
    expect(aviso).to_be_hidden()

    pagina.evaluate(guardar, [clave, vieja])
    pagina.reload()
    expect(aviso).to_be_visible()
    uno.boton("Usar la versión nueva").click()
    assert uno.lineas() == ['saludo = "hola"', "print(saludo)"]
    expect(aviso).to_be_hidden()
    expect(uno.modificada).to_be_hidden()
    assert pagina.evaluate("k => localStorage.getItem(k)", clave) is None


def test_errors_are_told_in_the_readers_terms(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html) + "errores.html")
    traza, sintaxis, entrada, salida, exit_ = (Celda(pagina, n) for n in range(1, 6))

    traza.correr()
    expect(traza.texto).to_have_text(
        "Rastreo (la llamada más reciente, al final):\n"
        "  Celda 1, línea 4\n"
        "    print(dividir(1, 0))\n"
        "  Celda 1, línea 2, en dividir\n"
        "    return a / b\n"
        "ZeroDivisionError: division by zero\n"
    )
    expect(traza.texto.locator(".bucle-stderr")).to_have_count(1)

    sintaxis.correr()
    texto = sintaxis.texto.inner_text()
    lineas = texto.splitlines()
    assert lineas[0] == "  Celda 2, línea 2", texto
    assert lineas[1] == "    if x > 0"
    assert lineas[2].strip() == "^" and lineas[2].index("^") == len("    if x > 0")
    assert lineas[3] == "SyntaxError: expected ':'"

    # This page is isolated: input() waits for the reader (without isolation it says why it
    # cannot: tests/browser/test_espera.py).
    entrada.ejecutar()
    campo = entrada.salida.get_by_role("textbox", name="¿Cómo te llamas?")
    expect(campo).to_be_focused(timeout=ESPERA)
    campo.fill("Ada")
    entrada.boton("Enviar").click()
    entrada.esperar_fin()
    expect(entrada.texto).to_have_text("¿Cómo te llamas? Ada\n")
    expect(entrada.texto).not_to_contain_text("Error")

    salida.correr()
    expect(salida.texto).to_have_text("me voy\n")
    expect(salida.salida).to_contain_text(
        "La celda terminó al llamar a exit() o sys.exit() (código de salida 3). Python sigue en marcha.")

    # The worker is still there: the next cell runs.
    exit_.correr()
    expect(exit_.texto).to_have_text("antes de exit()\n")
    expect(exit_.salida).to_contain_text("La celda terminó al llamar a exit() o sys.exit().")
    for celda in (traza, sintaxis, entrada, salida, exit_):
        expect(celda.salida).not_to_contain_text("trabajador")
        expect(celda.salida).not_to_contain_text('File "')


def test_output_is_text_in_order_and_a_flood_is_cut_on_both_sides(celdas_html, servidor, pagina):
    dialogos = []
    pagina.on("dialog", lambda d: (dialogos.append(d.message), d.dismiss()))
    pagina.add_init_script(CONTAR_MENSAJES)
    pagina.goto(servidor(celdas_html) + "salida.html")
    uno, dos = Celda(pagina, 1), Celda(pagina, 2)

    uno.correr()
    expect(uno.texto).to_have_text("uno\ndos\ntres\n<img src=x onerror=alert(1)>\n")
    expect(uno.texto.locator(".bucle-stderr")).to_have_text("dos\n")
    expect(uno.salida.locator("img")).to_have_count(0)
    assert violaciones_axe(pagina) == []

    inicio = time.monotonic()
    dos.ejecutar()
    latencias = []
    while dos.boton("Detener").is_visible():
        antes = time.monotonic()
        pagina.evaluate("new Promise(r => requestAnimationFrame(() => r(1)))")
        latencias.append(time.monotonic() - antes)
    dos.esperar_fin()
    print(f"\n[celda] flood of 200000 lines: {time.monotonic() - inicio:.2f} s, "
          f"slowest frame seen by the test {max(latencias or [0]) * 1000:.0f} ms")

    texto = dos.texto.inner_text()
    assert texto.endswith("línea 199999: " + "·" * 60 + "\n")
    primera = int(re.match(r"línea (\d+):", texto).group(1))
    aviso = dos.salida.locator(".bucle-celda-corte").inner_text()
    omitidas = int(re.search(r"se han omitido ([\d.]+) líneas del principio", aviso).group(1).replace(".", ""))
    assert omitidas == primera, "every line before the first shown is counted"
    assert len(texto) <= 100_000
    # The worker cut too: most of the 13 MB never crossed postMessage.
    cruzado, en_el_trabajador = pagina.evaluate("[window.__cruzado, window.__omitidas_en_el_trabajador]")
    total = sum(len(f"línea {i}: " + "·" * 60 + "\n") for i in range(200_000))
    assert en_el_trabajador > 0
    assert cruzado < total
    print(f"[celda] flood: {cruzado} of {total} characters crossed postMessage")
    assert dialogos == []


@pytest.mark.parametrize("aislamiento", [True, False], ids=["aislada", "sin-aislar"])
def test_detener_stops_an_endless_loop_and_the_next_run_works(celdas_html, servidor, pagina, aislamiento):
    pagina.add_init_script(CONTAR_MENSAJES)
    pagina.goto(servidor(celdas_html, aislamiento=aislamiento) + "bucle.html")
    assert pagina.evaluate("crossOriginIsolated") is aislamiento
    uno, dos = Celda(pagina, 1), Celda(pagina, 2)

    dos.ejecutar()
    expect(dos.boton("Detener")).to_be_visible()
    expect(dos.texto).to_have_text("Dando vueltas…\n", timeout=ESPERA)  # now in its `while True`
    expect(uno.texto).to_have_text("antes\n")
    inicio = time.monotonic()
    dos.boton("Detener").click()
    dos.esperar_fin()
    if aislamiento:
        expect(dos.salida).to_contain_text("Ejecución detenida.")
        expect(dos.salida).not_to_contain_text("reiniciado")
    else:
        expect(dos.salida).to_contain_text(
            "Ejecución detenida. Python se ha reiniciado y ha perdido lo definido: "
            "las celdas anteriores se volverán a ejecutar cuando ejecutes otra.")
    expect(dos.boton("Ejecutar")).to_be_focused()

    uno.correr()
    expect(uno.texto).to_have_text("antes\n")
    print(f"\n[celda] Detener → next run done ({'isolated' if aislamiento else 'not isolated'}): "
          f"{time.monotonic() - inicio:.2f} s")
    assert pagina.evaluate("window.__trabajadores") == (1 if aislamiento else 2)


def test_a_page_with_cells_has_no_serious_accessibility_violation(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    pagina.evaluate("([k, v]) => localStorage.setItem(k, v)", [
        f"bucle:{CURSO}:index:primera",
        json.dumps({"codigo": "print('la mía')", "original": "print('la de antes')"}),
    ])
    pagina.reload()
    expect(pagina.locator("bucle-celda .cm-content")).to_have_count(4)
    uno = Celda(pagina, 1)
    uno.correr()
    expect(uno.texto).to_have_text("la mía\n")
    assert violaciones_axe(pagina) == []
    pagina.emulate_media(color_scheme="dark")
    assert violaciones_axe(pagina) == []


def test_a_cell_works_on_a_phone(celdas_html, servidor, movil):
    movil.goto(servidor(celdas_html))
    uno = Celda(movil, 1)
    uno.boton("Ejecutar").tap()
    uno.esperar_fin()
    expect(uno.texto).to_have_text("hola\n")
    assert movil.evaluate("document.documentElement.scrollWidth") <= 375
    for nombre in ("Ejecutar", "Restablecer"):
        caja = uno.boton(nombre).bounding_box()
        assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375 and caja["height"] >= 24


def test_without_javascript_the_code_still_reads(celdas_html, servidor, navegador):
    contexto = navegador.new_context(java_script_enabled=False)
    try:
        page = contexto.new_page()
        page.goto(servidor(celdas_html))
        bloque = page.locator("bucle-celda").first.locator("pre")
        expect(bloque).to_have_text('saludo = "hola"\nprint(saludo)\n')
        # Numbered as the editor will number it, from the build's markup alone.
        primera = bloque.locator("span[id]").first
        assert primera.evaluate("(s) => [getComputedStyle(s).display, getComputedStyle(s, '::before').content]") == [
            "block", "counter(bucle-linea)"]
        expect(page.get_by_role("button", name="Ejecutar")).to_have_count(0)
    finally:
        contexto.close()
