"""The worker's entry point for challenges (trabajador.py's ``calificar_desafio``) in CPython:
the same file runs in Pyodide (tests/browser/test_desafio.py). Here ``open_url`` reads the
site's files from disk, as the published site holds them, and the page's progress messages are
collected instead of posted."""

import builtins
import copy
import importlib.util
import io
import json
import signal
import sys
from pathlib import Path

import pytest

import challenges

ROOT = Path(__file__).resolve().parent.parent
ARCHIVO = ROOT / "widgets" / "front" / "trabajador.py"
DESAFIO = challenges.CARPETA / "bucle-con-tope"
SOLUCION = (DESAFIO / "solucion.py").read_text(encoding="utf-8")
URLS = ("../_static/bucle/desafios/calificador.py", "../_static/bucle/desafios/", "../runtime/",
        "../_static/bucle/desafios/trazas.py")


@pytest.fixture
def trabajador(monkeypatch):
    """A fresh copy of the module, reading the site from disk; ``.leidas`` lists the URLs it
    fetched and ``.avisos`` what it told the page."""
    spec = importlib.util.spec_from_file_location("trabajador_de_desafios", ARCHIVO)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    monkeypatch.setattr("builtins.input", input)
    modulo.preparar("http://127.0.0.1/curso/leccion/index.html")
    lector = challenges.lector_de()
    modulo.leidas, modulo.avisos = [], []

    def abrir(url):
        modulo.leidas.append(url)
        if url.endswith("/desafios/trazas.py"):
            return io.StringIO((challenges.CARPETA / "trazas.py").read_text(encoding="utf-8"))
        return lector(url)

    modulo._open_url = abrir
    modulo._avisar = lambda **datos: modulo.avisos.append(datos)
    return modulo


def calificar(trabajador, codigo, solucion=SOLUCION, urls=URLS):
    return json.loads(trabajador.calificar_desafio(*urls, "bucle-con-tope", codigo, solucion, "f1"))


def test_the_page_gets_what_the_grader_gives_and_the_grader_is_loaded_once(trabajador):
    resultado = calificar(trabajador, SOLUCION)
    assert resultado["estado"] == "ok"
    assert resultado["superadas"] == resultado["total"] == 12
    del resultado["estado"], resultado["segundos"]
    esperado = challenges.calificar("bucle-con-tope", SOLUCION)
    del esperado["segundos"]
    assert resultado == esperado
    # URLs relative to the page, resolved as the page would.
    assert trabajador.leidas[0] == "http://127.0.0.1/curso/_static/bucle/desafios/calificador.py"
    assert "http://127.0.0.1/curso/runtime/entorno.py" in trabajador.leidas

    leidas = len(trabajador.leidas)
    calificar(trabajador, SOLUCION)
    assert len(trabajador.leidas) == leidas, "a second check fetches nothing"


def test_it_tells_the_page_each_test_as_it_goes(trabajador):
    calificar(trabajador, (DESAFIO / "errores" / "sin_tope.py").read_text(encoding="utf-8"))
    eventos = [(a["evento"], a.get("nombre") or a.get("resultado", {}).get("nombre")) for a in trabajador.avisos]
    nombres = challenges.calificador().datos("bucle-con-tope")["pruebas"]
    assert eventos[0] == ("empieza", None)
    assert eventos[1:] == [par for nombre in nombres for par in (("prueba", nombre), ("resultado", nombre))]
    assert all(a["ficha"] == "f1" for a in trabajador.avisos)
    resultados = [a["resultado"] for a in trabajador.avisos if a["evento"] == "resultado"]
    assert all("traza" not in r for r in resultados), "traces come once, with the whole result"
    assert [r["ok"] for r in resultados][:5] == [True, True, False, False, False]


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


def test_without_the_recorder_or_the_solution_there_are_no_traces(trabajador):
    codigo = (DESAFIO / "errores" / "sin_tope.py").read_text(encoding="utf-8")
    sin_solucion = calificar(trabajador, codigo, solucion="")
    assert all(p["traza"] is None for p in sin_solucion["pruebas"])

    otro = importlib.util.module_from_spec(importlib.util.spec_from_file_location("otro", ARCHIVO))
    otro.__spec__.loader.exec_module(otro)
    otro.preparar("http://127.0.0.1/curso/leccion/index.html")
    lector = challenges.lector_de()
    # A site without trazas.py: open_url gives the server's 404 page, which is not Python.
    otro._open_url = lambda url: io.StringIO("<h1>404</h1>") if url.endswith("trazas.py") else lector(url)
    otro._avisar = lambda **datos: None
    sin_grabadora = json.loads(otro.calificar_desafio(*URLS, "bucle-con-tope", codigo, SOLUCION, ""))
    assert sin_grabadora["superadas"] == 8
    assert all(p["traza"] is None for p in sin_grabadora["pruebas"])


def test_a_stop_from_the_page_ends_the_check_and_says_where(trabajador):
    def parar(**datos):
        if datos.get("evento") == "prueba" and datos["nombre"] == "un tope de 1":
            signal.raise_signal(signal.SIGINT)  # what the page's interrupt does

    trabajador._avisar = parar
    antes = signal.getsignal(signal.SIGINT)
    assert calificar(trabajador, SOLUCION) == {"estado": "detenido", "prueba": "un tope de 1"}
    assert signal.getsignal(signal.SIGINT) is antes
    trabajador._avisar = lambda **datos: None
    assert calificar(trabajador, SOLUCION)["superadas"] == 12, "the grader still works"


def test_a_keyboardinterrupt_the_reader_raises_is_their_error(trabajador):
    codigo = "def bucle(modelo, inicio, entorno, tope):\n    raise KeyboardInterrupt\n"
    resultado = calificar(trabajador, codigo)
    assert resultado["estado"] == "ok"
    assert resultado["superadas"] == 0 and resultado["total"] == 12
    primera, segunda = resultado["pruebas"][:2]
    assert (primera["tipo"], primera["linea"]) == ("error", 2)
    assert primera["mensaje"] == "bucle lanzó KeyboardInterrupt en la línea 2.\n    raise KeyboardInterrupt"
    assert segunda["mensaje"] == "no se probó: «la conversación de la lección» lanzó KeyboardInterrupt"
    # At load time, it is the code's error, at the top.
    resultado = calificar(trabajador, "raise KeyboardInterrupt\n")
    assert resultado["error"]["mensaje"].startswith("Tu código lanzó KeyboardInterrupt en la línea 1.")
    assert calificar(trabajador, SOLUCION)["superadas"] == 12


def test_what_a_cell_broke_does_not_change_a_verdict_and_is_left_as_it_was(trabajador):
    roto = lambda x: 0  # noqa: E731
    copiar = lambda x, memo=None: x  # noqa: E731
    guardados = builtins.len, copy.deepcopy
    limite = sys.getrecursionlimit()
    builtins.len, copy.deepcopy = roto, copiar
    try:
        sys.setrecursionlimit(60)
        texto = trabajador.calificar_desafio(*URLS, "bucle-con-tope", SOLUCION, SOLUCION, "")
        assert builtins.len is roto and copy.deepcopy is copiar, "the cells' world is theirs"
        assert sys.getrecursionlimit() == 60
    finally:
        builtins.len, copy.deepcopy = guardados
        sys.setrecursionlimit(limite)
    assert json.loads(texto)["superadas"] == 12
    # input(), which the cells replace, is the grader's own while it grades.
    codigo = 'def bucle(modelo, inicio, entorno, tope):\n    input("¿Qué hago? ")\n'
    mensaje = calificar(trabajador, codigo)["pruebas"][0]["mensaje"]
    assert mensaje.startswith("bucle pidió una entrada con input() en la línea 2"), mensaje
    assert builtins.input is trabajador._input
