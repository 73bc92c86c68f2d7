"""The challenge «pruebas-del-agente» in a real browser, on the course's lesson «El agente y sus
pruebas»: the reader's unittest tests are graded in the worker against every correct agent and
each broken one, each pass from a fresh state, and the page says, per broken agent, whether they
caught it. What the page shows is compared with what the same grader says in CPython (the
command, a child process), suites that try to game the grading included.

The tests share one page of the lesson and its Python (as a reader checks one suite after
another): each submission's verdict must be the one the command gives it alone, whatever was
checked before it in that Python.
"""

import time


import pytest
from playwright.sync_api import expect

import challenges
from widgets.aislamiento import aislado
from tests.browser.test_desafio import ESPERA, Desafio
from tests.browser.test_fallos_celdas import Celda, pagina_compartida, vigilar

pytestmark = pytest.mark.navegador

DESAFIO = "pruebas-del-agente"
CARPETA = challenges.CARPETA / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
NOMBRES = challenges.calificador().nombres(DESAFIO)
TOTAL = len(NOMBRES)


def error(nombre):
    return (CARPETA / "errores" / f"{nombre}.py").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def leccion(navegador, sitio):
    yield from pagina_compartida(navegador, sitio, "el-agente.html")


@pytest.fixture
def pagina(leccion, registro_externo):
    """The lesson's page, shared by the tests of this file; each fails for what the page did
    wrong while it ran."""
    yield from vigilar(leccion, registro_externo)


def abrir(pagina):
    d = Desafio(pagina.page)
    expect(d.elemento).to_have_count(1)
    return d


def comprobar(d, codigo):
    """Submit ``codigo``; check that the summary and every result's name and state are the
    grader's in CPython; return that result."""
    esperado = challenges.calificar(DESAFIO, codigo)
    d.escribir(codigo)
    d.boton("Comprobar").click()
    expect(d.resumen).to_contain_text(f"{esperado['superadas']} de {TOTAL} pruebas superadas",
                                      timeout=ESPERA)
    expect(d.pruebas).to_have_count(TOTAL)
    for i, r in enumerate(esperado["pruebas"]):
        item = d.pruebas.nth(i)
        expect(item.locator(".bucle-desafio-nombre")).to_have_text(r["nombre"])
        expect(item.locator(".bucle-desafio-estado")).to_have_text(
            "superada" if r["ok"] else "no superada")
    return esperado


def test_a_suite_that_catches_every_broken_agent_passes_them_all(pagina):
    d = abrir(pagina)
    inicio = time.perf_counter()
    r = comprobar(d, SOLUCION)
    print(f"\nla referencia, calificada en la página (con la espera de Python): "
          f"{time.perf_counter() - inicio:.2f} s")
    assert r["superadas"] == TOTAL
    for i, nombre in enumerate(NOMBRES):
        expect(d.pruebas.nth(i)).to_have_text(f"✔{nombre}superada")
    assert NOMBRES[1].startswith("Atrapa: ")


def test_a_suite_that_misses_one_broken_agent_names_it(pagina):
    d = abrir(pagina)
    r = comprobar(d, error("sin_preguntar_que_falla"))
    assert r["superadas"] == TOTAL - 1
    escapado = d.prueba("Atrapa: si preguntar lanza una excepción, la calla y lo toma por un no")
    expect(escapado.locator(".bucle-desafio-icono")).to_have_text("✘")
    expect(escapado.locator(".bucle-desafio-mensaje")).to_have_text(
        "Tus 4 pruebas pasan también con este agente, que está roto: escribe una prueba que "
        "falle con él.")


def test_the_lessons_unittest_cells_run_in_pyodide_as_in_cpython(pagina):
    """The cells print what tests/lecciones/test_el_agente.py asserts in CPython: the tests as
    `python -m unittest -v` prints them, 3 that pass, then 1 that fails with the broken agent."""
    expect(pagina.page.locator("bucle-celda")).to_have_count(3)
    uno, dos, tres = Celda(pagina.page, 1), Celda(pagina.page, 2), Celda(pagina.page, 3)
    uno.correr()
    expect(uno.texto).to_contain_text("con permiso: fin tras 7 mensajes, y 1 pregunta")
    expect(uno.texto).to_contain_text("sin permiso: fin tras 7 mensajes")
    dos.correr()
    # Waited for, and the whole cell in the message if it never comes (its end, its note).
    expect(dos.texto, dos.elemento.inner_text()).to_contain_text("Ran 3 tests in")
    texto = dos.texto.inner_text()
    assert texto.count(" ... ok\n") == 3, texto
    assert texto.rstrip().endswith("OK"), texto
    tres.correr()
    expect(tres.texto, tres.elemento.inner_text()).to_contain_text("pruebas que fallan: 1")
    texto = tres.texto.inner_text()
    assert texto.count(" ... ok\n") == 2, texto
    assert "FAIL: test_tortilla_con_permiso" in texto, texto
    assert tres.ultima_linea() == "pruebas que fallan: 1"


ATRAPA_EL_TOPE = "Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas"


@pytest.mark.parametrize("nombre", ["memoria_en_un_archivo", "memoria_en_un_modulo",
                                    "memoria_en_una_lista", "memoria_en_el_entorno"])
def test_a_suite_that_counts_its_passes_catches_nothing_in_the_page_as_in_the_command(pagina, nombre):
    """A suite that fails «from the second pass on» (a counter in a file of Pyodide's file
    system, on a module, in os.environ) passes every pass in the page too: each starts from a
    fresh state, so it catches no broken agent, with the command's verdict."""
    d = abrir(pagina)
    r = comprobar(d, error(nombre))
    como_el_comando(error(nombre), r)
    assert r["superadas"] == 1 and r["pruebas"][0]["ok"]
    escapado = d.prueba(ATRAPA_EL_TOPE)
    mensaje = next(p["mensaje"] for p in r["pruebas"] if p["nombre"] == ATRAPA_EL_TOPE)
    assert mensaje == ("Tu prueba «test_solo_la_primera_pasada» pasa también con este agente, "
                       "que está roto: escribe una prueba que falle con él.")
    expect(escapado.locator(".bucle-desafio-mensaje")).to_have_text(mensaje)


def test_a_suite_that_fails_a_correct_agent_is_credited_with_no_broken_one_in_the_page(pagina):
    """Examplar's rule in the page, with the command's verdicts: one wrong test holds back every
    «Atrapa», each saying whether the suite's other tests catch that agent."""
    d = abrir(pagina)
    r = comprobar(d, error("cuenta_mal_los_mensajes"))
    como_el_comando(error("cuenta_mal_los_mensajes"), r)
    assert r["superadas"] == 0
    atrapa = d.prueba(ATRAPA_EL_TOPE).locator(".bucle-desafio-mensaje")
    expect(atrapa).to_contain_text("No cuenta todavía: alguna de tus pruebas falla con un agente "
                                   "correcto")
    expect(atrapa).to_contain_text("Las que pasan con todos sí lo atrapan.")


def como_el_comando(codigo, r):
    """The command's verdict (a child process) on ``codigo`` is ``r``'s, test by test."""
    comando = aislado.calificar(DESAFIO, codigo, challenges.curso())
    assert [(p["nombre"], p["ok"], p["mensaje"]) for p in comando["pruebas"]] == [
        (p["nombre"], p["ok"], p["mensaje"]) for p in r["pruebas"]]


def test_a_suite_that_reads_the_agents_code_fails_with_the_correct_ones(pagina):
    d = abrir(pagina)
    r = comprobar(d, error("reconoce_el_codigo"))
    como_el_comando(error("reconoce_el_codigo"), r)
    assert not r["pruebas"][0]["ok"]
    primera = d.prueba("tus pruebas pasan con cada agente correcto")
    expect(primera.locator(".bucle-desafio-mensaje")).to_contain_text(
        "«test_es_el_de_referencia» da un error: Prohibido: aquí no se puede usar __code__")
