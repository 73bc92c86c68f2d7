"""The worker's grading half (widgets/trabajador/trabajador_desafios.py) in CPython: the same file runs
in Pyodide (tests/browser/test_desafio.py), where the engine is the package ``calificador``; here
it is ``widgets.calificador``, ``open_url`` (the cells half's) reads the site's files from disk,
as the published site holds them, and the page's progress messages are collected instead of
posted."""

import builtins
import copy
import importlib.util
import io
import json
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import challenges

ROOT = Path(__file__).resolve().parent.parent
CELDAS = ROOT / "widgets" / "trabajador" / "trabajador.py"
DESAFIOS = ROOT / "widgets" / "trabajador" / "trabajador_desafios.py"
DESAFIO = challenges.CARPETA / "bucle-con-tope"
SOLUCION = (DESAFIO / "solucion.py").read_text(encoding="utf-8")
# As the widget's data has them (relative to the page); the worker carries the engine itself.
URLS = {"desafios": "../_static/bucle/desafios/", "runtime": "../runtime/"}
RUNTIME = ["entorno", "guionizado", "escenarios"]
#: How many tests the challenge has, as the engine in CPython counts them.
TOTAL = len(challenges.calificador().nombres("bucle-con-tope"))


def _cargar(archivo, nombre):
    modulo = importlib.util.module_from_spec(importlib.util.spec_from_file_location(nombre, archivo))
    modulo.__spec__.loader.exec_module(modulo)
    return modulo


def _preparar(monkeypatch, guardia_antes=True):
    """Fresh copies of both halves, prepared in the worker's order (the engine's guard before
    the cells take over input) or, with ``guardia_antes=False``, as when the engine came after
    the start (the guard taken at the first check); ``.leidas`` lists the URLs fetched,
    ``.avisos`` what the page was told."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setattr("builtins.input", input)
    celdas = _cargar(CELDAS, "trabajador_de_celdas")
    # in widgets.trabajador, so that its import of the cells half's ``avisar`` resolves
    desafios = _cargar(DESAFIOS, "widgets.trabajador.trabajador_de_desafios")
    desafios.PAQUETE = "widgets.calificador"
    if guardia_antes:
        desafios.guardar()
    celdas.preparar("http://127.0.0.1/curso/leccion/index.html")
    t = SimpleNamespace(celdas=celdas, desafios=desafios, leidas=[], avisos=[])
    lector = challenges.lector_de()

    def abrir(url):
        t.leidas.append(url)
        return lector(url)

    celdas._open_url = abrir
    desafios.preparar(celdas.open_url)
    desafios._avisar = lambda id, **datos: t.avisos.append({"id": id, **datos})
    return t


@pytest.fixture
def trabajador(monkeypatch):
    return _preparar(monkeypatch)


def responder(t, codigo, solucion=SOLUCION, id=7):
    return json.loads(t.desafios.calificar(id, "bucle-con-tope", codigo, solucion, URLS, RUNTIME))


def calificar(t, codigo, solucion=SOLUCION):
    respuesta = responder(t, codigo, solucion)
    assert respuesta["estado"] == "ok", respuesta
    return respuesta["resultado"]


def test_the_page_gets_what_the_engine_gives_and_the_engine_is_made_once(trabajador):
    resultado = calificar(trabajador, SOLUCION)
    assert resultado["superadas"] == resultado["total"] == TOTAL
    del resultado["segundos"]
    esperado = challenges.calificar("bucle-con-tope", SOLUCION)
    del esperado["segundos"]
    assert resultado == esperado
    # URLs relative to the page, resolved as the page would.
    assert "http://127.0.0.1/curso/_static/bucle/desafios/bucle-con-tope/pruebas.py" in trabajador.leidas
    assert "http://127.0.0.1/curso/runtime/entorno.py" in trabajador.leidas

    leidas = len(trabajador.leidas)
    calificar(trabajador, SOLUCION)
    assert len(trabajador.leidas) == leidas, "a second check fetches nothing"


def test_the_workers_message_is_the_entry_point(trabajador):
    mensaje = {"id": 3, "type": "calificar", "desafio": "bucle-con-tope", "codigo": SOLUCION,
               "solucion": "", "urls": URLS, "runtime_modulos": RUNTIME}
    respuesta = json.loads(trabajador.desafios.calificar_mensaje(json.dumps(mensaje)))
    assert respuesta["estado"] == "ok" and respuesta["resultado"]["superadas"] == TOTAL
    assert {a["id"] for a in trabajador.avisos} == {3}


def test_it_tells_the_page_each_test_as_it_goes_with_the_requests_id(trabajador):
    calificar(trabajador, (DESAFIO / "errores" / "sin_tope.py").read_text(encoding="utf-8"))
    eventos = [(a["evento"], a.get("nombre") or a.get("resultado", {}).get("nombre")) for a in trabajador.avisos]
    nombres = challenges.calificador().nombres("bucle-con-tope")
    assert eventos[0] == ("empieza", None)
    assert eventos[1:] == [par for nombre in nombres for par in (("prueba", nombre), ("resultado", nombre))]
    assert all(a["id"] == 7 for a in trabajador.avisos)
    assert all("ficha" not in a for a in trabajador.avisos)
    resultados = [a["resultado"] for a in trabajador.avisos if a["evento"] == "resultado"]
    assert all("traza" not in r for r in resultados), "traces come once, with the whole result"


def test_a_failed_test_carries_the_readers_trace_and_the_expected_one(trabajador):
    codigo = (DESAFIO / "errores" / "un_mensaje_por_observacion.py").read_text(encoding="utf-8")
    resultado = calificar(trabajador, codigo)
    fallidas = [p for p in resultado["pruebas"] if not p["ok"]]
    assert fallidas and all(set(p["traza"]) == {"tuya", "esperada"} for p in fallidas)
    assert all(p["traza"] is None for p in resultado["pruebas"] if p["ok"])
    leccion = fallidas[0]
    assert leccion["nombre"] == "la conversación de la lección"
    tuya, esperada = leccion["traza"]["tuya"], leccion["traza"]["esperada"]
    # The reader's run breaks the script where the grader says; the reference's ends well.
    assert tuya["eventos"][-1]["tipo"] == "excepcion"
    assert "En el turno 3" in tuya["eventos"][-1]["mensaje"]
    final = esperada["eventos"][-1]
    assert (final["tipo"], final["motivo"]) == ("devuelve", "fin")
    assert tuya["inicio"] == esperada["inicio"] == [0, 1]


def test_without_the_solution_there_are_no_traces(trabajador):
    codigo = (DESAFIO / "errores" / "sin_tope.py").read_text(encoding="utf-8")
    sin_solucion = calificar(trabajador, codigo, solucion="")
    # As many as the same grader passes in CPython, without a trace.
    assert sin_solucion["superadas"] == challenges.calificar("bucle-con-tope", codigo)["superadas"]
    assert sin_solucion["superadas"] < TOTAL
    assert all(p["traza"] is None for p in sin_solucion["pruebas"])


def test_a_stop_from_the_page_ends_the_check_and_says_where(trabajador):
    def parar(id, **datos):
        if datos.get("evento") == "prueba" and datos["nombre"] == "un tope de 1":
            signal.raise_signal(signal.SIGINT)  # what the page's interrupt does

    trabajador.desafios._avisar = parar
    antes = signal.getsignal(signal.SIGINT)
    assert responder(trabajador, SOLUCION) == {"estado": "detenido", "prueba": "un tope de 1"}
    assert signal.getsignal(signal.SIGINT) is antes
    trabajador.desafios._avisar = lambda id, **datos: None
    assert calificar(trabajador, SOLUCION)["superadas"] == TOTAL, "the grader still works"


def test_a_keyboardinterrupt_the_reader_raises_is_their_error(trabajador):
    codigo = "def bucle(modelo, inicio, entorno, tope):\n    raise KeyboardInterrupt\n"
    resultado = calificar(trabajador, codigo)
    assert resultado["superadas"] == 0 and resultado["total"] == TOTAL
    primera, segunda = resultado["pruebas"][:2]
    assert (primera["tipo"], primera["linea"]) == ("error", 2)
    assert primera["mensaje"] == "bucle lanzó KeyboardInterrupt en la línea 2.\n    raise KeyboardInterrupt"
    assert segunda["mensaje"] == "no se probó: «la conversación de la lección» lanzó KeyboardInterrupt"
    # At load time, it is the code's error, at the top.
    resultado = calificar(trabajador, "raise KeyboardInterrupt\n")
    assert resultado["error"]["mensaje"].startswith("Tu código lanzó KeyboardInterrupt en la línea 1.")
    assert calificar(trabajador, SOLUCION)["superadas"] == TOTAL


def test_what_a_cell_broke_does_not_change_a_verdict_and_is_left_as_it_was(trabajador):
    roto = lambda x: 0  # noqa: E731
    copiar = lambda x, memo=None: x  # noqa: E731
    guardados = builtins.len, copy.deepcopy
    limite = sys.getrecursionlimit()
    builtins.len, copy.deepcopy = roto, copiar
    try:
        sys.setrecursionlimit(60)
        texto = trabajador.desafios.calificar(1, "bucle-con-tope", SOLUCION, SOLUCION, URLS, RUNTIME)
        assert builtins.len is roto and copy.deepcopy is copiar, "the cells' world is theirs"
        assert sys.getrecursionlimit() == 60
    finally:
        builtins.len, copy.deepcopy = guardados
        sys.setrecursionlimit(limite)
    assert json.loads(texto)["resultado"]["superadas"] == TOTAL
    # input(), which the cells replace, is the grader's own while it grades.
    codigo = 'def bucle(modelo, inicio, entorno, tope):\n    input("¿Qué hago? ")\n'
    mensaje = calificar(trabajador, codigo)["pruebas"][0]["mensaje"]
    assert mensaje.startswith("bucle pidió una entrada con input() en la línea 2"), mensaje
    assert builtins.input is trabajador.celdas._input


def test_input_is_the_graders_while_it_grades_even_with_the_guard_taken_after_the_cells(monkeypatch):
    # The worker started without the engine (the page's challenge script came after the start):
    # the guard is taken at the first check, with the cells' input in place.
    t = _preparar(monkeypatch, guardia_antes=False)
    codigo = 'def bucle(modelo, inicio, entorno, tope):\n    input("¿Qué hago? ")\n'
    mensaje = calificar(t, codigo)["pruebas"][0]["mensaje"]
    assert mensaje.startswith("bucle pidió una entrada con input() en la línea 2"), mensaje
    assert builtins.input is t.celdas._input


def test_the_workers_message_is_read_with_what_a_cell_broke_put_back(trabajador):
    mensaje = json.dumps({"id": 2, "type": "calificar", "desafio": "bucle-con-tope", "codigo": SOLUCION,
                          "solucion": "", "urls": URLS, "runtime_modulos": RUNTIME})
    guardados = builtins.len, builtins.print
    builtins.len = lambda x: 0
    del builtins.print
    try:
        texto = trabajador.desafios.calificar_mensaje(mensaje)
        assert builtins.len is not guardados[0] and not hasattr(builtins, "print")
    finally:
        builtins.len, builtins.print = guardados
    assert json.loads(texto)["resultado"]["superadas"] == TOTAL
