"""The fault suite of the cells: whatever a reader pastes into a cell, the page keeps working and
the next run works.

One page of the course («El bucle», cross-origin isolated) and one Python serve every fault: a
fault that leaves the page working is the point, so each test pastes its code into the first
cell, runs it, checks what the reader is told, and then runs ``print(6 * 7)`` there, which must
print 42. Each test also fails if the page made a request off 127.0.0.1, threw an uncaught error
or opened a dialog while it ran. The tests run in file order; the last ones damage the reader's
namespace on purpose and reload.
"""

from __future__ import annotations

import re
import time
from urllib.parse import quote, urlsplit

import pytest
from playwright.sync_api import expect

from tests import semilla
from tests.conftest import Vigia, pegar_codigo
from widgets.serve import servir

pytestmark = pytest.mark.navegador

ESPERA = 60_000  # ms: Pyodide takes a few seconds to start on a small machine
NORMAL = "print(6 * 7)"
# Markup that must never become elements: each payload would add an <img>, a <script> or a
# dialog if it were written into the page as HTML.
MARCADO = ['<script>alert("script")</script>', '<img src=x onerror="alert(\'img\')">',
           '</script><script>alert("cierre")</script>']


class Celda:
    """The n-th cell of the page, through what a reader perceives: roles and names."""

    def __init__(self, page, n=1):
        self.page = page
        self.n = n
        self.elemento = page.locator("bucle-celda").nth(n - 1)
        self.salida = self.elemento.get_by_role("status", name=f"Salida de la celda {n}")
        self.texto = self.elemento.locator(".bucle-celda-texto")
        self.fin = self.elemento.locator(".bucle-celda-fin")

    @property
    def editor(self):
        """The cell's editor, once the reader has gone to the cell (celdas.Celda.editor)."""
        self.elemento.scroll_into_view_if_needed()
        return self.page.get_by_role("textbox", name=f"Código de la celda {self.n}")

    def boton(self, nombre):
        return self.elemento.get_by_role("button", name=nombre, exact=True)

    def pegar(self, codigo):
        """Put `codigo` in the editor, as a reader who selects all and pastes."""
        expect(self.editor).to_be_visible(timeout=ESPERA)
        pegar_codigo(self.editor, codigo)
        lineas = self.elemento.locator(".cm-line").all_inner_texts()
        assert "\n".join("" if x == "\n" else x for x in lineas) == codigo

    def correr(self, codigo=None):
        """(Paste and) run; wait for the end; return the seconds it took."""
        if codigo is not None:
            self.pegar(codigo)
        inicio = time.monotonic()
        self.boton("Ejecutar").click()  # Detener shows at once, and hides when the run ends
        expect(self.boton("Detener")).to_be_hidden(timeout=ESPERA)
        return time.monotonic() - inicio

    def ultima_linea(self):
        return self.texto.inner_text().rstrip("\n").rsplit("\n", 1)[-1]


class Pagina:
    """A page kept open across tests, with what it did while each test ran."""

    def __init__(self, navegador, base, ruta, guion=None):
        self.contexto = navegador.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES",
                                              service_workers="block")
        self.contexto.set_default_timeout(ESPERA)
        self.vigia = Vigia(self.contexto)
        self.contexto.on("page", self.vigia.vigilar)
        self.dialogos: list[str] = []
        self.sockets: list[str] = []
        self.page = self.contexto.new_page()
        self.page.on("dialog", lambda d: (self.dialogos.append(d.message), d.dismiss()))
        self.page.on("websocket", lambda ws: self.sockets.append(ws.url))
        self.base = base
        self.page.add_init_script(semilla.APAGAR)
        semilla.sembrar(self.contexto, base)
        if guion:
            self.page.add_init_script(guion)
        self.page.goto(base + ruta)

    def estado(self):
        return (len(self.vigia.externas), len(self.vigia.errores), len(self.dialogos), len(self.sockets))

    def desde(self, antes):
        e, r, d, s = antes
        return {"fuera": self.vigia.externas[e:], "errores": self.vigia.errores[r:],
                "dialogos": self.dialogos[d:],
                "sockets": [u for u in self.sockets[s:] if urlsplit(u).hostname != "127.0.0.1"]}


def pagina_compartida(navegador, carpeta, ruta, aislamiento=True, guion=None):
    """A fixture's body: serve `carpeta`, open `ruta` (after running the init script `guion`),
    yield the Pagina, close both."""
    srv = servir(carpeta, 0, aislamiento=aislamiento, manejador=semilla.ManejadorDePruebas)
    pagina = Pagina(navegador, "http://127.0.0.1:%d/" % srv.server_address[1], ruta, guion)
    try:
        yield pagina
    finally:
        pagina.contexto.close()
        srv.shutdown()
        srv.server_close()


def vigilar(pagina, registro_externo):
    """A test fixture's body: fail the test for what the page did wrong while it ran."""
    antes, proxy = pagina.estado(), len(registro_externo.peticiones)
    yield pagina
    assert registro_externo.peticiones[proxy:] == [], "requests left 127.0.0.1 through the proxy"
    assert pagina.desde(antes) == {"fuera": [], "errores": [], "dialogos": [], "sockets": []}


@pytest.fixture(scope="module")
def leccion(navegador, sitio):
    yield from pagina_compartida(navegador, sitio, "el-bucle.html")


@pytest.fixture
def pagina(leccion, registro_externo):
    yield from vigilar(leccion, registro_externo)


def la_siguiente_funciona(celda):
    celda.correr(NORMAL)
    expect(celda.texto).to_have_text("42\n")
    expect(celda.fin).to_have_text("")


def test_an_endless_loop_is_stopped_by_detener(pagina):
    celda = Celda(pagina.page)
    celda.pegar('print("dando vueltas")\nwhile True:\n    pass')
    inicio = time.monotonic()
    celda.boton("Ejecutar").click()
    expect(celda.texto).to_have_text("dando vueltas\n", timeout=ESPERA)
    print(f"\n[fallos] first run on the lesson page (Python starts): {time.monotonic() - inicio:.1f} s")
    celda.boton("Detener").click()
    expect(celda.boton("Detener")).to_be_hidden()
    expect(celda.fin).to_have_text("Ejecución detenida.")
    la_siguiente_funciona(celda)


def test_input_waits_for_a_line_and_detener_stops_one_never_answered(pagina):
    """On this isolated page input() asks in the cell's output (tests/browser/test_espera.py);
    what is typed is text, and a reader who never answers stops the cell with Detener."""
    celda = Celda(pagina.page)
    celda.pegar('nombre = input("¿Cómo te llamas? ")\nprint("hola,", nombre)')
    celda.boton("Ejecutar").click()
    campo = celda.salida.get_by_role("textbox", name="¿Cómo te llamas?")
    expect(campo).to_be_focused(timeout=ESPERA)
    campo.fill(MARCADO[1])
    campo.press("Enter")
    expect(celda.boton("Detener")).to_be_hidden()
    expect(celda.texto).to_have_text(f"¿Cómo te llamas? {MARCADO[1]}\nhola, {MARCADO[1]}\n")
    expect(celda.elemento.locator("img")).to_have_count(0)

    celda.pegar("while True:\n    input()")
    celda.boton("Ejecutar").click()
    expect(celda.salida.get_by_role("textbox", name="Entrada")).to_be_focused()
    celda.boton("Detener").click()
    expect(celda.boton("Detener")).to_be_hidden()
    expect(celda.fin).to_have_text("Ejecución detenida.")
    expect(celda.salida.get_by_role("textbox")).to_have_count(0)
    la_siguiente_funciona(celda)


def test_a_loop_that_prints_forever_is_cut_and_stopped_and_the_page_answers(pagina):
    celda = Celda(pagina.page)
    celda.pegar('n = 0\nwhile True:\n    n += 1\n    print("vuelta", n)')
    celda.boton("Ejecutar").click()
    corte = celda.elemento.locator(".bucle-celda-corte")
    expect(corte).to_contain_text("Salida demasiado larga: se han omitido", timeout=ESPERA)
    # The page still answers while the flood goes on: a frame, and the button.
    inicio = time.monotonic()
    pagina.page.evaluate("new Promise(r => requestAnimationFrame(() => r(1)))")
    cuadro = time.monotonic() - inicio
    celda.boton("Detener").click()
    expect(celda.boton("Detener")).to_be_hidden()
    print(f"\n[fallos] a frame during the flood: {cuadro * 1000:.0f} ms")
    expect(celda.fin).to_have_text("Ejecución detenida.")
    # The output ends with the loop's own text (a stop may land inside a print, between its
    # words), never with anything of the worker's.
    assert re.fullmatch(r"vuelta( \d*)?", celda.ultima_linea()), celda.ultima_linea()
    assert len(celda.texto.inner_text()) <= 60_000
    la_siguiente_funciona(celda)


# (code, what the output's last line or the end line says)
FALLOS = {
    "recursion": ("def f(n):\n    return f(n + 1)\n\nf(0)",
                  "RecursionError: maximum recursion depth exceeded"),
    "memoria": ("x = [0] * 10**9", "MemoryError"),
    "sys.exit": ('import sys\nprint("adiós")\nsys.exit()',
                 "La celda terminó al llamar a exit() o sys.exit(). Python sigue en marcha."),
    "sys.exit-mensaje": ('import sys\nsys.exit("me voy")',
                         "La celda terminó al llamar a exit() o sys.exit() (código de salida 1). "
                         "Python sigue en marcha."),
    "exit": ("exit()", "La celda terminó al llamar a exit() o sys.exit(). Python sigue en marcha."),
    "quit": ("quit()", "La celda terminó al llamar a exit() o sys.exit(). Python sigue en marcha."),
    "SystemExit": ("raise SystemExit",
                   "La celda terminó al llamar a exit() o sys.exit(). Python sigue en marcha."),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "Ejecución detenida."),
    "hilo": ('import threading\nthreading.Thread(target=print, args=("hilo",)).start()',
             "RuntimeError: can't start new thread"),
}


@pytest.mark.parametrize("fallo", FALLOS)
def test_a_fault_is_told_and_the_next_run_works(pagina, fallo):
    codigo, dicho = FALLOS[fallo]
    celda = Celda(pagina.page)
    segundos = celda.correr(codigo)
    print(f"\n[fallos] {fallo}: {segundos:.2f} s")
    final = celda.fin.inner_text() or celda.ultima_linea()
    assert final == dicho
    if fallo == "sys.exit-mensaje":
        expect(celda.texto).to_have_text("me voy\n")
    for interno in ('File "', "trabajador", "pyodide", "Traceback"):
        expect(celda.salida).not_to_contain_text(interno)
    la_siguiente_funciona(celda)


def test_the_network_is_not_reached_and_the_reader_is_told(pagina):
    """urlopen in a cell: a Python error in the cell, and nothing leaves the site (the fixture
    fails the test if a request or a WebSocket left 127.0.0.1)."""
    celda = Celda(pagina.page)
    celda.correr('import urllib.request\nurllib.request.urlopen("http://example.com/")')
    assert re.fullmatch(r"[\w.]+: .+", celda.ultima_linea()), celda.texto.inner_text()
    expect(celda.salida).to_contain_text("Celda 1, línea 2")
    la_siguiente_funciona(celda)


def test_a_very_deep_structure_printed_breaks_nothing(pagina):
    """Printing a list nested 100 000 deep overflows the browser's stack inside Pyodide: the
    reader is told in words, and the next run gets a Python that works."""
    celda = Celda(pagina.page)
    for codigo in ("x = []\nfor _ in range(100_000):\n    x = [x]\nprint(x)",
                   "import json\nd = {}\nfor _ in range(100_000):\n    d = {'k': d}\nprint(json.dumps(d))"):
        celda.correr(codigo)
        dicho = celda.salida.inner_text()
        assert "se desbordó la pila" in dicho or "RecursionError" in dicho, dicho
        for interno in ('File "', "trabajador", "undefined", "Maximum call stack"):
            assert interno not in dicho, dicho
        la_siguiente_funciona(celda)


def test_markup_in_the_output_and_in_the_code_is_text(pagina):
    page = pagina.page
    celda = Celda(page)
    codigo = "\n".join(f"print({m!r})" for m in MARCADO) + f"\nraise ValueError({MARCADO[1]!r})"
    celda.correr(codigo)
    expect(celda.texto).to_contain_text("\n".join(MARCADO))
    assert celda.ultima_linea() == f"ValueError: {MARCADO[1]}"
    assert page.locator("article img, article script:not([type='application/json'])").count() == 0
    # The code stays in the reader's storage and comes back after a reload, as text again.
    page.reload()
    celda = Celda(page)
    expect(celda.editor).to_contain_text(MARCADO[2])
    assert page.locator("article img, article script:not([type='application/json'])").count() == 0
    la_siguiente_funciona(celda)


def test_nothing_from_the_url_is_evaluated_or_written_as_html(pagina):
    """A crafted query and hash on a lesson and on the search page: no element, no dialog."""
    page = pagina.page
    carga = quote('"><img src=x onerror=alert(1)><script>alert(2)</script>')
    for ruta in (f"el-bucle.html?highlight={carga}&q={carga}#{carga}",
                 f"search.html?q={carga}#{carga}",
                 "el-bucle.html#javascript:alert(3)"):
        page.goto(pagina.base + ruta)
        page.wait_for_load_state("networkidle")
        assert page.locator("img[onerror], img[src='x']").count() == 0, ruta
        assert page.evaluate("[...document.scripts].filter(s => /alert/.test(s.textContent)).length") == 0
    page.goto(pagina.base + "el-bucle.html")
    la_siguiente_funciona(Celda(page))


def test_damaged_builtins_and_runtime_names_hurt_only_the_readers_namespace(pagina):
    """The reader's namespace is theirs: a cell that deletes print or rebinds the runtime's names
    makes the next cells fail (readably); a reload gives a new Python, and the lesson runs."""
    page = pagina.page
    celda = Celda(page)
    celda.correr("del __builtins__.print\nopen = None\nHERRAMIENTAS = []\nModeloGuionizado = None")
    expect(celda.fin).to_have_text("Ejecutada, sin salida.")
    celda.correr(NORMAL)
    assert celda.ultima_linea() == "NameError: name 'print' is not defined"

    page.reload()
    celda = Celda(page)
    celda.boton("Restablecer").click()
    segunda = Celda(page, 2)
    segunda.correr()
    expect(celda.texto).to_contain_text("11 mensajes en 5 turnos")
    expect(segunda.texto).to_contain_text("mensajes recibidos en cada turno: [2, 4, 6, 8, 10]")
