"""The fault suite of the challenges: whatever a reader submits, the page gives a verdict (or says
why it could not), the next check works, and a submission that breaks the contract never passes,
however it tries to fool the grader.

The browser part shares one page of the course («El bucle»: cells and the challenge
``bucle-con-tope``, cross-origin isolated) and one Python: each test submits its faulty code,
checks the verdict of the first test, then submits the reference solution, which must pass
every test. The grader's own tricks are also checked in CPython, where they run fast; markup
in traces is checked on the page's «Ver tu traza» and on a lesson's trace built from a scenario
full of markup.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from playwright.sync_api import expect

import challenges
from widgets.aislamiento import aislado
from tests.browser.test_fallos_celdas import (ESPERA, MARCADO, NORMAL, Celda, pagina_compartida,
                                              vigilar)
from tests.conftest import ROOT, construir, pegar_codigo

DESAFIO = "bucle-con-tope"
SOLUCION = (challenges.CARPETA / DESAFIO / "solucion.py").read_text(encoding="utf-8")
TOTAL = len(challenges.calificador().nombres(DESAFIO))
PRIMERA = "la conversación de la lección"


def bucle(cuerpo, antes=""):
    """A submission: `antes` (module level), then bucle with `cuerpo`."""
    return (textwrap.dedent(antes) + "\n\ndef bucle(modelo, inicio, entorno, tope):\n"
            + textwrap.indent(textwrap.dedent(cuerpo).strip("\n"), "    ") + "\n")


# ------------------------------------------------------------ submissions that fool nobody

# Each breaks the contract of bucle (it never runs the loop, or returns what is not the
# contract's) while trying to look right to the grader.
TRAMPAS = {
    "M precalculada": bucle("""
        M = list(inicio)
        M.append(("asistente", [texto("Ya está.")]))
        return ("fin", "Ya está.", M)
    """),
    "parchea el modelo guionizado": bucle("""
        M = list(inicio)
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        return ("fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M)
    """, antes="ModeloGuionizado.__call__ = lambda self, M, herramientas: [texto('Ya está.')]"),
    "parchea la clase del modelo de la prueba": bucle("""
        celdas = dict(zip(modelo.__code__.co_freevars, modelo.__closure__))
        type(celdas["guionizado"].cell_contents).__call__ = lambda s, M, h: [texto("Ya está.")]
        M = list(inicio)
        M.append(("asistente", modelo(M, HERRAMIENTAS)))
        return ("fin", "Ya está.", M)
    """),
    "lee el caso de la prueba": bucle("""
        celdas = {n: c.cell_contents
                  for n, c in zip(modelo.__code__.co_freevars, modelo.__closure__)}
        caso, notas = celdas["caso"], celdas["notas"]
        notas["respuestas"] = caso.llamadas
        entorno.clear()
        entorno.update(caso.entorno_final)
        return (caso.motivo, caso.texto, list(caso.M))
    """),
    "cambia las comprobaciones de las pruebas": bucle("""
        modelo.__globals__["comprueba"] = lambda *argumentos: None
    """),
    "sube por los marcos hasta las pruebas": bucle("""
        marco = sys._getframe(1)
        while marco is not None and "comprueba" not in marco.f_globals:
            marco = marco.f_back
        marco.f_globals["comprueba"] = lambda *argumentos: None
    """, antes="import sys"),
    "busca las pruebas en la memoria": bucle("""
        for objeto in gc.get_objects():
            if isinstance(objeto, dict) and "comprueba" in objeto and "CASOS" in objeto:
                objeto["comprueba"] = lambda *argumentos: None
    """, antes="import gc"),
    "devuelve lo que es igual a todo": bucle("""
        M = list(inicio)
        for _ in range(tope):
            respuesta = modelo(M, HERRAMIENTAS)
            M.append(("asistente", respuesta))
            llamadas = [b for b in respuesta if b["type"] == "tool_use"]
            if not llamadas:
                break
            M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
        return (IgualATodo(), IgualATodo(), IgualATodo(M))
    """, antes='''
        class IgualATodo(list):
            def __eq__(self, otro):
                return True

            def __ne__(self, otro):
                return False
    '''),
}


@pytest.mark.parametrize("trampa", TRAMPAS)
def test_a_submission_that_tries_to_fool_the_grader_fails(trampa):
    """In CPython, the grader the page runs: the verdict is a fail. (A test whose case the trick
    happens to get right, like a model that answers at once, may pass.)"""
    resultado = challenges.calificar(DESAFIO, TRAMPAS[trampa])
    aprobadas = [p["nombre"] for p in resultado["pruebas"] if p["ok"]]
    assert len(aprobadas) <= 1, f"«{trampa}» passes {len(aprobadas)} of {TOTAL}: {aprobadas}"


# ------------------------------------------------------------------ the page

class Desafio:
    def __init__(self, page):
        self.page = page
        self.elemento = page.locator("bucle-desafio")
        self.resumen = self.elemento.locator(".bucle-desafio-resumen")
        self.pruebas = self.elemento.get_by_role("list", name="Resultados de las pruebas").locator(":scope > li")

    @property
    def editor(self):
        """The challenge's editor, once the reader has gone to the challenge (its editor comes
        when its code is near the viewport, or is focused)."""
        self.elemento.scroll_into_view_if_needed()
        return self.page.get_by_role("textbox", name="Código del desafío")

    def comprobar(self, codigo):
        """Submit `codigo`; return the summary once there is one."""
        expect(self.editor).to_be_visible(timeout=ESPERA)
        pegar_codigo(self.editor, codigo)
        self.elemento.get_by_role("button", name="Comprobar", exact=True).click()
        expect(self.resumen).to_have_text(
            re.compile(r"\d+ de \d+ pruebas superadas|No se pudo comprobar|La comprobación"),
            timeout=ESPERA)
        return self.resumen.inner_text()

    def primera(self):
        item = self.pruebas.filter(has=self.page.get_by_text(PRIMERA, exact=True))
        return item.locator(".bucle-desafio-mensaje").inner_text()

    def la_siguiente_funciona(self):
        assert self.comprobar(SOLUCION).startswith(f"{TOTAL} de {TOTAL} pruebas superadas")


@pytest.fixture(scope="module")
def leccion(navegador, sitio):
    yield from pagina_compartida(navegador, sitio, "el-bucle.html")


@pytest.fixture
def en_leccion(leccion, registro_externo):
    yield from vigilar(leccion, registro_externo)


# (submission, what the first test's message says)
FALLOS = {
    "bucle sin fin": (bucle("while True:\n    pass"), "bucle no terminó en 2 s: ¿falta el tope?"),
    "imprime sin fin": (bucle('while True:\n    print("otra vuelta")'),
                        "bucle escribió más de 100 000 caracteres"),
    "recursión": (bucle("return bucle(modelo, inicio, entorno, tope)"),
                  "bucle se llama a sí mismo sin fin (RecursionError)"),
    "memoria": (bucle("x = [0] * 10**9"), "bucle lanzó MemoryError"),
    "sys.exit": (bucle("sys.exit()", antes="import sys"), "bucle llamó a sys.exit() (o a exit o quit)"),
    "exit": (bucle("exit()"), "bucle llamó a sys.exit() (o a exit o quit)"),
    "quit": (bucle("quit()"), "bucle llamó a sys.exit() (o a exit o quit)"),
    "SystemExit": (bucle("raise SystemExit"), "bucle llamó a sys.exit() (o a exit o quit)"),
    "KeyboardInterrupt": (bucle("raise KeyboardInterrupt"), "bucle lanzó KeyboardInterrupt"),
    "input": (bucle('nombre = input("¿Qué hago? ")'), "bucle pidió una entrada con input()"),
    "hilo": (bucle('threading.Thread(target=print, args=("hilo",)).start()', antes="import threading"),
             "bucle lanzó RuntimeError"),
    "red": (bucle('urllib.request.urlopen("http://example.com/")', antes="import urllib.request"),
            "bucle lanzó "),
    "rompe los builtins": (bucle("return None", antes="del __builtins__.print\n"
                                                      "__builtins__.len = lambda x: 0\nopen = None"),
                           "Llamaste al modelo 0 veces y debían ser 4."),
    "trampa": (TRAMPAS["cambia las comprobaciones de las pruebas"], ""),
    # Last: it overflows the stack in the page's Python, so the page is reloaded after it (the
    # next check is still tried first, and must pass).
    "estructura profunda": (bucle("x = []\nfor _ in range(100_000):\n    x = [x]\nprint(x)"),
                            "RecursionError"),
}


@pytest.mark.navegador
@pytest.mark.parametrize("fallo", FALLOS)
def test_a_faulty_submission_gets_a_verdict_and_the_next_check_works(en_leccion, fallo):
    try:
        veredicto_y_siguiente(en_leccion, fallo)
    finally:
        if fallo == "estructura profunda":
            en_leccion.page.reload()  # a fresh Python for whatever runs after this file


def veredicto_y_siguiente(en_leccion, fallo):
    codigo, dicho = FALLOS[fallo]
    d = Desafio(en_leccion.page)
    resumen = d.comprobar(codigo)
    print(f"\n[fallos] {fallo}: {resumen}")
    assert resumen.startswith(f"0 de {TOTAL} pruebas superadas"), resumen
    assert dicho in d.primera()
    for interno in ("calificador.py", "trabajador", 'File "'):
        expect(d.elemento).not_to_contain_text(interno)
    d.la_siguiente_funciona()
    if fallo == "rompe los builtins":  # restored for the reader's cells too
        celda = Celda(en_leccion.page)
        celda.correr(NORMAL)
        expect(celda.texto).to_have_text("42\n")


# A submission that ends the process: the command's child dies, the page's Python stops.
SALIDAS = {
    "al cargarse": "import os\nos._exit(0)\n",
    "en bucle": bucle("os._exit(3)", antes="import os"),
}


@pytest.mark.navegador
@pytest.mark.parametrize("cuando", SALIDAS)
def test_os_exit_gets_the_commands_verdict_word_for_word(en_leccion, cuando):
    """The page and ``python -m challenges`` say the same of os._exit (the engine's words), and
    the verdict box holds nothing else (no stray «null» under the message)."""
    codigo = SALIDAS[cuando]
    del_orden = aislado.calificar(DESAFIO, codigo, challenges.curso())
    d = Desafio(en_leccion.page)
    resumen = d.comprobar(codigo)
    assert resumen.startswith(f"0 de {TOTAL} pruebas superadas"), resumen
    error = d.elemento.locator(".bucle-desafio-error")
    if del_orden["error"]:
        assert del_orden["error"]["mensaje"].startswith("tu código terminó el proceso con os._exit(0)")
        expect(error).to_be_visible()
        expect(error).to_have_text(
            "Tu código no se pudo cargar" + del_orden["error"]["mensaje"], use_inner_text=False)
    else:
        expect(error).to_be_hidden()
        mensaje = del_orden["pruebas"][0]["mensaje"]
        assert mensaje == (f"tu código terminó el proceso con os._exit(3) mientras se calificaba «{PRIMERA}»: "
                           "aquí no se termina el programa; devuelve el resultado con return.")
        assert d.primera() == mensaje
    # The tests not tried say why, as the command does (a «motivo» line each).
    motivos = d.pruebas.locator(".bucle-desafio-motivo").all_inner_texts()
    assert motivos == [p["mensaje"] for p in del_orden["pruebas"] if p["tipo"] == "no-probada"]
    assert len(motivos) == TOTAL - (0 if del_orden["error"] else 1)
    expect(d.elemento).not_to_contain_text("null")
    d.la_siguiente_funciona()


@pytest.mark.navegador
def test_a_cell_that_breaks_builtins_and_runtime_names_does_not_change_a_verdict(en_leccion):
    """The reader's cells and the grader share the page's Python; the grader works from its own
    namespaces, so nothing a cell does changes a verdict."""
    celda = Celda(en_leccion.page)
    celda.correr("del __builtins__.print\n__builtins__.len = lambda x: 0\nopen = None\n"
                 "HERRAMIENTAS = []\nModeloGuionizado = None\nimport copy\n"
                 "copy.deepcopy = lambda x, memo=None: x")
    expect(celda.fin).to_have_text("Ejecutada, sin salida.")
    d = Desafio(en_leccion.page)
    d.la_siguiente_funciona()
    assert d.comprobar(challenges.errores_conocidos(DESAFIO)[0].codigo).startswith(
        f"{challenges.calificar(DESAFIO, challenges.errores_conocidos(DESAFIO)[0].codigo)['superadas']}"
        f" de {TOTAL}")
    en_leccion.page.reload()  # a new Python for the next tests


@pytest.mark.navegador
def test_markup_in_a_run_shows_as_text_in_ver_tu_traza(en_leccion):
    d = Desafio(en_leccion.page)
    inyectado = SOLUCION.replace("    M = list(inicio)\n",
                                 f"    M = list(inicio) + [('usuario', {' '.join(MARCADO)!r})]\n", 1)
    assert d.comprobar(inyectado).startswith(f"0 de {TOTAL}")
    item = d.pruebas.filter(has=en_leccion.page.get_by_text(PRIMERA, exact=True))
    expect(item.locator(".bucle-desafio-mensaje")).to_contain_text(MARCADO[0][:20])
    item.get_by_role("button", name="Ver tu traza").click()
    tuya = item.get_by_role("group", name="Tu ejecución")
    expect(tuya).to_be_visible()
    tuya.get_by_role("button", name="Final").click()
    boton = tuya.get_by_role("button", name="Lo que ve el modelo")
    if boton.count():
        boton.click()
    expect(tuya).to_contain_text("<script>")
    assert en_leccion.page.locator("article img, article script:not([type='application/json'])").count() == 0


# ------------------------------------------------------- a trace built from markup

LECCION_CON_MARCADO = f"""# Una traza con marcado

```{{traza}}
:id: marcado
:tope: 3
inicio = [("sistema", {MARCADO[0]!r}), ("usuario", {MARCADO[1]!r})]
respuestas = [[llamada("m1", "escribir", ruta="<img src=x onerror=alert(9)>.txt",
                       contenido={MARCADO[2]!r})],
              [texto({MARCADO[0]!r})]]
observaciones = [[resultado("m1", escribir(dict(ENTORNO), **respuestas[0][0]["input"]))], []]
guion = guion_de(inicio, respuestas, observaciones)
```
"""


@pytest.fixture(scope="module")
def traza_con_marcado(tmp_path_factory):
    fuente = tmp_path_factory.mktemp("traza_marcado") / "fuente"
    fuente.mkdir()
    (fuente / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT)!r})\nproject = 'Marcado'\nlanguage = 'es'\n"
        "extensions = ['myst_parser', 'widgets']\nhtml_theme = 'furo'\nbucle_curso = 'marcado'\n"
        "from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)\n",
        encoding="utf-8")
    (fuente / "index.md").write_text(LECCION_CON_MARCADO, encoding="utf-8")
    destino = fuente.parent / "html"
    construir(fuente, destino)
    return destino


@pytest.mark.navegador
def test_markup_in_a_lessons_trace_shows_as_text(traza_con_marcado, servidor, pagina):
    dialogos = []
    pagina.on("dialog", lambda d: (dialogos.append(d.message), d.dismiss()))
    pagina.goto(servidor(traza_con_marcado))
    traza = pagina.locator("bucle-traza")
    siguiente = traza.get_by_role("button", name="Siguiente", exact=True)
    vista = traza.get_by_role("button", name="Lo que ve el modelo")
    vistos = set()
    # Every step, with and without «Lo que ve el modelo».
    while True:
        for _ in range(2):
            vista.click()
            vistos.add(traza.inner_text())
        if siguiente.get_attribute("aria-disabled") == "true":
            break
        siguiente.click()
    todo = "\n".join(vistos)
    for marca in MARCADO + ["<img src=x onerror=alert(9)>.txt"]:
        assert marca in todo or marca.replace("'", '"') in todo or repr(marca) in todo, marca
    assert pagina.locator("article img, article script:not([type='application/json'])").count() == 0
    assert dialogos == []
