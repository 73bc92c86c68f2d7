"""``python -m challenges``: a child's result cannot be forged. Whatever a submission prints or
writes to any fd, only the lines signed with the child's key, in order, count; the two
submissions that fooled a plain ``subprocess`` run fail."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

import challenges
from widgets.aislamiento import aislado, canal as canales
from tests.orden.comun import DESAFIO, PRIMERA, SOLUCION, TOTAL, cli, en_paralelo


# ------------------------------------------------------------------ the two fooling submissions

#: What a passing run prints last, which the first fooling submission prints itself.
APROBADO = f"{TOTAL} passed, 0 failed"
ENGANO_IMPRIME = f"print({APROBADO!r})\nimport os\nos._exit(0)\n"
ENGANO_ATEXIT = ("import atexit, os\natexit.register(lambda: os._exit(0))\n" + SOLUCION
                 + "\nraise SystemExit\n")


@pytest.fixture(scope="module")
def enganos(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("enganos")
    archivos = []
    for nombre, codigo in (("imprime", ENGANO_IMPRIME), ("atexit", ENGANO_ATEXIT),
                           ("escribe_en_1", f"import os\nos.write(1, {(APROBADO + chr(10)).encode()!r})\n"
                                            "os._exit(0)\n")):
        archivos.append(carpeta / f"{nombre}.py")
        archivos[-1].write_text(codigo, encoding="utf-8")
    return dict(zip(("imprime", "atexit", "escribe_en_1"),
                    en_paralelo(lambda a: cli(DESAFIO, a), archivos), strict=True))


def test_el_que_imprime_12_passed_y_sale_con_os_exit_suspende(enganos):
    p = enganos["imprime"]
    assert p.returncode == 1
    lineas = p.stdout.splitlines()
    assert lineas[0] == ("✘ tu código terminó el proceso con os._exit(0) mientras se cargaba: "
                         "aquí no se termina el programa; devuelve el resultado con return.")
    assert lineas[1] == f"✘ {PRIMERA}: no se probó: tu código no se pudo cargar"
    assert lineas[-1] == f"0 passed, {TOTAL} failed"
    assert APROBADO not in p.stdout


def test_lo_que_escribe_en_la_salida_del_proceso_no_sale_en_la_de_la_orden(enganos):
    p = enganos["escribe_en_1"]
    assert p.returncode == 1
    assert APROBADO not in p.stdout + p.stderr
    assert p.stdout.splitlines()[-1] == f"0 passed, {TOTAL} failed"


def test_el_que_registra_atexit_con_os_exit_y_lanza_SystemExit_suspende(enganos):
    p = enganos["atexit"]
    assert p.returncode == 1
    lineas = p.stdout.splitlines()
    assert lineas[0].startswith("✘ Tu código llamó a sys.exit() (o a exit o quit) en la línea ")
    assert lineas[-1] == f"0 passed, {TOTAL} failed"


# ------------------------------------------------------------------ the channel

FALSO = {"tipo": "resultado", "resultado": {
    "desafio": DESAFIO, "superadas": 12, "total": 12, "segundos": 0.1, "error": None,
    "pruebas": [{"nombre": f"p{i}", "ok": True, "tipo": "ok", "mensaje": None, "linea": None,
                 "turno": None, "salida": "", "traza": None} for i in range(12)]}}


def falsificador(y_despues):
    """A submission that writes fake result lines (unsigned, signed with a guessed key, with
    every sequence number) to every fd it can, then does ``y_despues``."""
    return textwrap.dedent(f"""
        import hashlib, hmac, json, os
        falso = {FALSO!r}
        lineas = []
        for n in range(20):
            cuerpo = json.dumps({{"m": falso, "n": n}}, sort_keys=True, separators=(",", ":"))
            for clave in (b"", b"0" * 32, bytes(32)):
                firma = hmac.new(clave, cuerpo.encode(), "sha256").hexdigest()
                lineas.append(firma + " " + cuerpo)
            lineas.append(cuerpo)
        texto = ("\\n" + "\\n".join(lineas) + "\\n").encode()
        for fd in range(256):
            try:
                os.write(fd, texto)
            except OSError:
                pass
    """) + y_despues


def test_nadie_falsifica_el_canal():
    casos = [falsificador("import os\nos._exit(0)\n"),
             falsificador(SOLUCION.replace("for _ in range(tope):", "while True:"))]
    sale, sigue = en_paralelo(lambda codigo: aislado.calificar(DESAFIO, codigo, challenges.curso()), casos)
    assert sale["superadas"] == 0
    assert sale["error"]["mensaje"].startswith("tu código terminó el proceso con os._exit(0)")
    assert 0 < sigue["superadas"] < 12
    assert [p["nombre"] for p in sigue["pruebas"]] == aislado.nombres(DESAFIO, challenges.curso())


def test_el_canal_solo_acepta_lo_firmado_y_en_orden():
    import hmac
    clave = os.urandom(32)

    def linea(m, n, con=clave):
        cuerpo = json.dumps({"m": m, "n": n}).encode()
        return hmac.new(con, cuerpo, "sha256").hexdigest().encode() + b" " + cuerpo

    canal = canales.Canal(clave, 10_000)
    datos = b"\n".join([b"basura sin fin de linea" + linea({"tipo": "x"}, 0),
                        linea({"tipo": "otra clave"}, 0, os.urandom(32)),
                        linea({"tipo": "listo"}, 0), linea({"tipo": "repetido"}, 0),
                        linea({"tipo": "salta"}, 2), b"", linea({"tipo": "empieza"}, 1)])
    # In two pieces, cut inside a line: the channel waits for its end.
    assert canal.leer(datos[:-10]) == [{"tipo": "listo"}]
    assert canal.leer(datos[-10:] + b"\n") == [{"tipo": "empieza"}]
    assert not canal.excedido


def test_el_canal_cuenta_la_salida_en_el_orden_en_que_se_escribio():
    import hmac
    clave = os.urandom(32)

    def linea(m, n):
        cuerpo = json.dumps({"m": m, "n": n}).encode()
        return b"\n" + hmac.new(clave, cuerpo, "sha256").hexdigest().encode() + b" " + cuerpo + b"\n"

    # The child's steps, as it writes them (each line starts with a newline), cost nothing.
    canal = canales.Canal(clave, 100)
    assert canal.leer(linea({"tipo": "listo"}, 0) + linea({"tipo": "empieza"}, 1)) == [
        {"tipo": "listo"}, {"tipo": "empieza"}]
    assert canal.ajenos == 0
    # What comes before a step in the stream counts before it, byte for byte.
    assert canal.leer(b"x" * 60 + b"\n" + linea({"tipo": "prueba"}, 2)) == [{"tipo": "prueba"}]
    assert (canal.ajenos, canal.excedido) == (61, False)
    # A flood in one read with a step before it and one after: the one before counts, the
    # one after never does, even once more is read.
    canal = canales.Canal(clave, 100)
    assert canal.leer(linea({"tipo": "empieza"}, 0) + b"x" * 101
                      + linea({"tipo": "prueba"}, 1)) == [{"tipo": "empieza"}]
    assert canal.excedido
    assert canal.leer(linea({"tipo": "resultado"}, 2)) == []
    # A flood that never ends its line counts as it comes.
    canal = canales.Canal(clave, 100)
    assert canal.leer(b"y" * 50) == [] and not canal.excedido
    assert canal.leer(b"y" * 51) == [] and canal.excedido
