"""The challenge of «El bucle»: code that does not end well (it does not load, raises, never
ends, floods the output...) gets its verdict at its line; and the command, ``python -m challenges``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import pytest

import challenges
from tests.test_challenges import (
    CARPETA,
    DESAFIO,
    ERRORES,
    INICIAL,
    RAIZ,
    SOLUCION,
    calificar_con,
    en_pyodide,
    prueba,
    sin_reloj,
)


@pytest.fixture(scope="module")
def calificar():
    return calificar_con(challenges.calificador())

# ------------------------------------------------- code that does not end well

ROTOS = {
    "sintaxis": ("def bucle(modelo, inicio, entorno, tope)\n    return 1\n",
                 "sintaxis", 1, "Tu código tiene un error de sintaxis en la línea 1: expected ':'."),
    "sangría": ("def bucle(modelo, inicio, entorno, tope):\n  if tope:\n     x = 1\n   y = 2\n",
                "sintaxis", 4, "Tu código tiene un error de sangría en la línea 4"),
    "sin bucle": ("def buble(modelo, inicio, entorno, tope):\n    pass\n",
                  "falta", None, "Tu código no define la función bucle: escribe "
                                 "def bucle(modelo, inicio, entorno, tope): …"),
    "firma": ("\n\ndef bucle(modelo, inicio, tope):\n    pass\n",
              "firma", 3, "bucle debe recibir 4 argumentos, bucle(modelo, inicio, entorno, tope), "
                          "y la tuya (línea 3) es bucle(modelo, inicio, tope)."),
    "error al cargar": ("x = 1\nprint(y)\n", "error", 2,
                        "Tu código lanzó NameError en la línea 2: name 'y' is not defined"),
}


@pytest.mark.parametrize("nombre", ROTOS)
def test_codigo_que_no_carga(calificar, nombre):
    codigo, tipo, linea, mensaje = ROTOS[nombre]
    r = calificar(codigo)
    assert r["error"]["tipo"] == tipo
    assert r["error"]["linea"] == linea
    assert r["error"]["mensaje"].startswith(mensaje)
    assert r["superadas"] == 0
    assert {p["tipo"] for p in r["pruebas"]} == {"no-probada"}
    assert all(p["mensaje"].startswith("no se probó: tu código no se pudo cargar") for p in r["pruebas"])


FALLAN = {
    "lanza": ("def bucle(modelo, inicio, entorno, tope):\n    M = list(inicio)\n"
              "    r = modelo(M, HERRAMIENTAS)\n    return r[7]\n",
              "error", 4, "bucle lanzó IndexError en la línea 4: list index out of range\n"
                          "    return r[7]"),
    "dentro de ejecutar": ("def bucle(modelo, inicio, entorno, tope):\n"
                           "    return ejecutar({'name': 'leer', 'id': 'x', 'input': {'ruta': 'no.txt'}}, entorno)\n",
                           "error", 2, "bucle lanzó FileNotFoundError en la línea 2 (dentro de ejecutar): "
                                       "no existe el fichero 'no.txt'"),
    "sys.exit": ("import sys\n\ndef bucle(modelo, inicio, entorno, tope):\n    sys.exit(0)\n",
                 "exit", 4, "bucle llamó a sys.exit() (o a exit o quit) en la línea 4"),
    "exit": ("def bucle(modelo, inicio, entorno, tope):\n    exit()\n",
             "exit", 2, "bucle llamó a sys.exit() (o a exit o quit) en la línea 2"),
    "recursión": ("def bucle(modelo, inicio, entorno, tope):\n    M = list(inicio)\n"
                  "    return bucle(modelo, M, entorno, tope)\n",
                  "recursion", 3, "bucle se llama a sí mismo sin fin (RecursionError) en la línea 3"),
    "input": ("def bucle(modelo, inicio, entorno, tope):\n    tope = int(input('tope? '))\n",
              "error", 2, "bucle pidió una entrada con input() en la línea 2"),
    "inundación": ("def bucle(modelo, inicio, entorno, tope):\n    while True:\n"
                   "        print('M =', inicio)\n",
                   "salida", 3, "bucle escribió más de 100 000 caracteres en la línea 3: "
                                "¿un print dentro de un bucle sin fin?"),
}


@pytest.mark.parametrize("nombre", FALLAN)
def test_codigo_que_no_acaba_bien_recibe_su_veredicto_con_su_linea(calificar, nombre):
    codigo, tipo, linea, mensaje = FALLAN[nombre]
    flujos = (sys.stdout, sys.stderr, sys.stdin, sys.getrecursionlimit(), sys.gettrace())
    r = calificar(codigo)
    assert (sys.stdout, sys.stderr, sys.stdin, sys.getrecursionlimit(), sys.gettrace()) == flujos
    assert r["error"] is None
    for p in r["pruebas"]:
        assert (p["tipo"], p["linea"]) == (tipo, linea), p
        assert p["mensaje"].startswith(mensaje), p["mensaje"]
        assert "Traceback" not in p["mensaje"] and "calificador" not in p["mensaje"]


def test_la_salida_se_captura_con_tope(calificar, capsys):
    r = calificar(FALLAN["inundación"][0])
    salida = r["pruebas"][0]["salida"]
    assert salida.startswith("M = [('sistema'")
    assert 2000 <= len(salida) <= 2001 and salida.endswith("…")
    assert capsys.readouterr().out == ""  # nothing leaked to the real stdout


def test_un_bucle_sin_fin_se_para_en_su_limite(calificar):
    inicio = time.perf_counter()
    r = calificar("def bucle(modelo, inicio, entorno, tope):\n    n = 0\n    while True:\n"
                  "        n += 1\n", limite=0.5)
    tarda = time.perf_counter() - inicio
    primera, *resto = r["pruebas"]
    assert primera["tipo"] == "tiempo"
    assert primera["mensaje"].startswith("bucle no terminó en 0,5 s: ¿falta el tope?")
    assert primera["linea"] in (3, 4)
    assert {p["tipo"] for p in resto} == {"no-probada"}
    assert resto[0]["mensaje"] == "no se probó: «la conversación de la lección» no terminó"
    assert 0.5 <= tarda < 1.5, tarda


def test_parchear_el_reloj_no_para_la_vigia(calificar):
    r = calificar("""
        import time

        def bucle(modelo, inicio, entorno, tope):
            time.perf_counter = lambda: 0.0
            while True:
                pass
    """, limite=0.3)
    assert r["pruebas"][0]["tipo"] == "tiempo"
    import time
    assert time.perf_counter() > 0.0


def test_un_bucle_sin_fin_al_cargar_tambien_se_para(calificar):
    r = calificar("n = 0\nwhile n >= 0:\n    n += 1\n", limite=0.3)
    assert r["error"]["tipo"] == "tiempo"
    assert r["error"]["mensaje"].startswith("Tu código no terminó de cargarse en 0,3 s")


def test_lo_que_se_atrapa_no_tapa_el_fallo(calificar):
    r = calificar("""
        def bucle(modelo, inicio, entorno, tope):
            M = list(inicio)
            while True:
                try:
                    respuesta = modelo(M, HERRAMIENTAS)
                except BaseException:
                    return ("fin", "", M)
                M.append(("asistente", respuesta))
                llamadas = [b for b in respuesta if b["type"] == "tool_use"]
                if not llamadas:
                    return ("fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M)
                M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    """)
    assert prueba(r, "un modelo que nunca para")["mensaje"].startswith(
        "El tope era 5 y llamaste al modelo una 6.ª vez")


# ------------------------------------------------------------------ the command


def cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "challenges", *map(str, args)], cwd=RAIZ,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout, check=False)


def test_la_orden_aprueba_la_referencia():
    p = cli(DESAFIO, CARPETA / "solucion.py")
    assert p.returncode == 0, p.stderr
    lineas = p.stdout.splitlines()
    assert lineas[0] == "✔ la conversación de la lección"
    assert all(linea.startswith("✔ ") for linea in lineas[:-1])
    assert lineas[-1] == f"{len(lineas) - 1} passed, 0 failed"


def test_la_orden_suspende_un_error_con_su_mensaje(tmp_path):
    error = next(e for e in ERRORES if e.archivo.stem == "sin_observaciones")
    p = cli(DESAFIO, error.archivo)
    assert p.returncode == 1
    lineas = p.stdout.splitlines()
    assert lineas[0] == ("✘ la conversación de la lección: "
                         "En el turno 2 el modelo recibió 3 mensajes; esperaba 4.")
    assert lineas[1] == "    Primer mensaje distinto: M[3]"
    pasadas, falladas = (int(x.split()[0]) for x in lineas[-1].split(", "))
    assert falladas > 0 and pasadas + falladas == 16


def test_la_orden_en_json_da_lo_mismo_que_el_calificador(calificar):
    error = next(e for e in ERRORES if e.archivo.stem == "texto_sin_espacio")
    p = cli(DESAFIO, error.archivo, "--json")
    assert p.returncode == 1
    assert sin_reloj(json.loads(p.stdout)) == sin_reloj(calificar(error.codigo))


@pytest.mark.parametrize("args", [
    ("no-existe", "challenges/bucle-con-tope/solucion.py"),
    (DESAFIO, "no/existe.py"),
    (DESAFIO,),
    (),
    (DESAFIO, "challenges/bucle-con-tope/solucion.py", "--rapido"),
], ids=["desafío desconocido", "archivo que no existe", "sin archivo", "sin nada", "opción desconocida"])
def test_la_orden_sale_con_2_ante_un_error_de_uso(args):
    p = cli(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith("uso: python -m challenges <desafío> <archivo.py> [--json]\nerror: ")


def test_la_orden_juzga_un_bucle_sin_fin_en_su_limite(tmp_path):
    archivo = tmp_path / "sin_fin.py"
    archivo.write_text("def bucle(modelo, inicio, entorno, tope):\n    while True:\n        pass\n")
    inicio = time.perf_counter()
    p = cli(DESAFIO, archivo)
    tarda = time.perf_counter() - inicio
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith(
        "✘ la conversación de la lección: bucle no terminó en 2 s: ¿falta el tope?")
    assert 2.0 <= tarda < 4.0, tarda


def test_la_orden_no_se_cuelga_aunque_el_codigo_atrape_todo(tmp_path):
    """In 3.11 (no sys.monitoring) catching the grader's exception defeats sys.settrace; the
    command's own clock still ends it."""
    archivo = tmp_path / "traga.py"
    archivo.write_text(textwrap.dedent("""
        def bucle(modelo, inicio, entorno, tope):
            while True:
                try:
                    while True:
                        pass
                except BaseException:
                    pass
    """))
    inicio = time.perf_counter()
    p = cli(DESAFIO, archivo, timeout=30)
    tarda = time.perf_counter() - inicio
    assert p.returncode == 1
    assert "✘ la conversación de la lección: bucle no terminó en 2 s: ¿falta el tope?" in p.stdout
    assert p.stdout.splitlines()[-1] == "0 passed, 16 failed"
    assert tarda < 10, tarda


def test_el_calificador_da_lo_mismo_en_pyodide(tmp_path, calificar):
    """The engine imported by Pyodide (Python 3.14, sys.monitoring) in Node gives the same
    verdicts as CPython, and stops a loop that catches everything."""
    casos = {"solucion": SOLUCION, "inicial": INICIAL}
    casos.update({e.archivo.stem: e.codigo for e in ERRORES})
    casos.update({f"roto: {n}": c for n, (c, *_) in ROTOS.items()})
    casos.update({f"falla: {n}": c for n, (c, *_) in FALLAN.items()})
    casos["traga"] = ("def bucle(modelo, inicio, entorno, tope):\n    while True:\n        try:\n"
                      "            while True:\n                pass\n        except BaseException:\n"
                      "            pass\n")
    salida = en_pyodide(tmp_path, [DESAFIO], {n: (DESAFIO, c) for n, c in casos.items()})
    assert salida["monitoring"] and salida["version"][0] == 3 and salida["version"][1] >= 12
    pyo = salida["resultados"]
    traga = pyo.pop("traga")
    assert traga["pruebas"][0]["tipo"] == "tiempo"
    assert traga["segundos"] < 3.0
    for nombre, codigo in casos.items():
        if nombre == "traga":
            continue
        assert sin_reloj(pyo[nombre]) == sin_reloj(calificar(codigo)), nombre
