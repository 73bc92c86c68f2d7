"""The worker's Python half (widgets/front/trabajador.py) in CPython: how a cell's code ends and
how its errors are told, in the reader's terms. The same file runs in Pyodide (see
tests/browser/test_celda.py); nothing in it needs the browser except ``open_url``."""

import builtins
import importlib.util
import sys
from pathlib import Path

import pytest

ARCHIVO = Path(__file__).resolve().parent.parent / "widgets" / "front" / "trabajador.py"


@pytest.fixture
def trabajador(monkeypatch):
    """A fresh copy of the module, prepared as the worker prepares it; input/stdin restored after."""
    monkeypatch.setattr(builtins, "input", builtins.input)
    monkeypatch.setattr(sys, "stdin", sys.stdin)
    spec = importlib.util.spec_from_file_location("trabajador_de_prueba", ARCHIVO)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    modulo.preparar("http://127.0.0.1/curso/leccion.html")
    return modulo


def test_cells_share_one_namespace_and_a_restart_empties_it(trabajador, capsys):
    assert trabajador.ejecutar("x = 20", "<celda 1>") == {"estado": "ok"}
    assert trabajador.ejecutar("print(x + 22)", "<celda 2>") == {"estado": "ok"}
    assert capsys.readouterr().out == "42\n"
    trabajador.reiniciar()
    assert trabajador.ejecutar("print(x)", "<celda 2>") == {"estado": "error", "tipo": "NameError"}


def test_a_traceback_shows_only_the_readers_cells(trabajador, capsys):
    trabajador.ejecutar("def dividir(a, b):\n    return a / b\n", "<celda 1>")
    resultado = trabajador.ejecutar("x = 1\nprint(dividir(x, 0))", "<celda 2>")
    assert resultado == {"estado": "error", "tipo": "ZeroDivisionError"}
    assert capsys.readouterr().err == (
        "Rastreo (la llamada más reciente, al final):\n"
        "  Celda 2, línea 2\n"
        "    print(dividir(x, 0))\n"
        "  Celda 1, línea 2, en dividir\n"
        "    return a / b\n"
        "ZeroDivisionError: division by zero\n"
    )


def test_frames_outside_the_cells_are_left_out(trabajador, capsys):
    # Code loaded with exec(open_url(...).read()) runs as "<string>": the reader did not write it.
    trabajador.ejecutar("exec('def leer(ruta):\\n    raise KeyError(ruta)')", "<celda 1>")
    trabajador.ejecutar("leer('nada.txt')", "<celda 2>")
    error = capsys.readouterr().err
    assert error.splitlines() == [
        "Rastreo (la llamada más reciente, al final):",
        "  Celda 2, línea 1",
        "    leer('nada.txt')",
        "KeyError: 'nada.txt'",
    ]
    assert "File" not in error and "trabajador" not in error


def test_a_syntax_error_points_at_its_line(trabajador, capsys):
    resultado = trabajador.ejecutar("x = 1\nif x > 0\n    print(x)", "<celda 3>")
    assert resultado == {"estado": "error", "tipo": "SyntaxError"}
    lineas = capsys.readouterr().err.splitlines()
    assert lineas[0] == "  Celda 3, línea 2"
    assert lineas[1] == "    if x > 0"
    assert lineas[2].strip() == "^" and lineas[2].index("^") == len("    if x > 0")
    assert lineas[3] == "SyntaxError: expected ':'"


def test_chained_exceptions_are_both_told(trabajador, capsys):
    trabajador.ejecutar("try:\n    {}['a']\nexcept KeyError as e:\n    raise ValueError('mal') from e",
                        "<celda 1>")
    error = capsys.readouterr().err
    assert "KeyError: 'a'" in error
    assert "Esa excepción causó esta otra:" in error
    assert error.rstrip().endswith("ValueError: mal")
    assert "Celda 1, línea 2" in error and "Celda 1, línea 4" in error


def test_input_says_why_it_cannot_read(trabajador, capsys):
    resultado = trabajador.ejecutar('nombre = input("¿Cómo te llamas? ")', "<celda 1>")
    assert resultado == {"estado": "error", "tipo": "EntradaNoDisponible"}
    salida = capsys.readouterr()
    assert salida.out == "¿Cómo te llamas? \n"
    assert "EntradaNoDisponible: input() no puede leer del teclado en esta página" in salida.err
    assert "OSError" not in salida.err
    trabajador.ejecutar("import sys\nsys.stdin.readline()", "<celda 2>")
    assert "EntradaNoDisponible" in capsys.readouterr().err


@pytest.mark.parametrize("codigo, esperado", [
    ("import sys\nsys.exit()", None),
    ("import sys\nsys.exit(3)", 3),
    ("raise SystemExit(0)", 0),
    ("exit()", None),
    ("quit(2)", 2),
])
def test_sys_exit_ends_the_run_not_the_worker(trabajador, codigo, esperado):
    assert trabajador.ejecutar(codigo, "<celda 1>") == {"estado": "salida", "codigo": esperado}
    assert trabajador.ejecutar("y = 1", "<celda 2>") == {"estado": "ok"}


def test_sys_exit_with_a_message_prints_it(trabajador, capsys):
    assert trabajador.ejecutar('import sys\nsys.exit("adiós")', "<celda 1>") == {"estado": "salida", "codigo": 1}
    assert capsys.readouterr().err == "adiós\n"


def test_a_keyboard_interrupt_is_a_stop(trabajador):
    assert trabajador.ejecutar("raise KeyboardInterrupt", "<celda 1>") == {"estado": "detenido"}


def test_open_url_resolves_against_the_page(trabajador, monkeypatch):
    pedidas = []
    monkeypatch.setattr(trabajador, "_open_url", pedidas.append)
    trabajador.ejecutar('open_url("runtime/entorno.py")', "<celda 1>")
    assert pedidas == ["http://127.0.0.1/curso/runtime/entorno.py"]


def test_a_file_the_worker_fetched_ahead_is_read_without_a_request(trabajador, monkeypatch, capsys):
    pedidas = []
    monkeypatch.setattr(trabajador, "_open_url", pedidas.append)
    trabajador.precargado("runtime/entorno.py", "ENTORNO = {'lista.txt': 'pan'}\n")
    trabajador.ejecutar('exec(open_url("runtime/entorno.py").read())\nprint(ENTORNO)', "<celda 1>")
    trabajador.ejecutar('exec(open_url("../curso/runtime/entorno.py").read())', "<celda 2>")
    assert capsys.readouterr().out == "{'lista.txt': 'pan'}\n"
    assert pedidas == []  # both name the same absolute URL
    trabajador.ejecutar('open_url("runtime/guionizado.py")', "<celda 3>")
    assert pedidas == ["http://127.0.0.1/curso/runtime/guionizado.py"]
