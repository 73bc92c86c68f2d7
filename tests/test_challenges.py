"""The challenges and their grader, in CPython (and once in Pyodide, under Node).

The grader is the engine the page imports (``widgets.calificador``), reading the site's paths
(here, from disk).
"""

from __future__ import annotations

import builtins
import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import challenges
from widgets.calificador import ARCHIVO, Veredicto
from widgets.calificador.trazas import trazar

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "bucle-con-tope"
CARPETA = RAIZ / "challenges" / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
INICIAL = (CARPETA / "inicial.py").read_text(encoding="utf-8")
ERRORES = challenges.errores_conocidos(DESAFIO)

#: The mistakes the issue asks for, by file.
PEDIDOS = {
    "sin_tope", "una_llamada_de_mas", "una_llamada_de_menos", "tope_sin_ejecutar",
    "tope_sin_observaciones", "texto_en_el_tope", "inicio_cambiado", "un_mensaje_por_observacion",
    "sin_observaciones", "texto_sin_espacio", "texto_y_llamadas_como_final", "llamadas_en_desorden",
}


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()


@pytest.fixture(scope="module")
def calificar(ns):
    def hacer(codigo, **opciones):
        return ns.calificar(DESAFIO, textwrap.dedent(codigo), **opciones)
    return hacer


def sin_reloj(resultado):
    return {k: v for k, v in resultado.items() if k != "segundos"}


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def solo_bucle(codigo):
    """The same code without its ``ejecutar`` (the starter gives one)."""
    inicio = codigo.index("def bucle(")
    return codigo[inicio:]


def con_el_inicial(codigo_de_bucle):
    """The full starter file with its ``bucle`` replaced by this one."""
    return INICIAL[:INICIAL.index("def bucle(")] + solo_bucle(codigo_de_bucle)


# ------------------------------------------------------------------ the content


def test_la_referencia_pasa_todas_las_pruebas(calificar):
    r = calificar(SOLUCION)
    assert r["error"] is None
    assert r["total"] >= 12
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"]


def test_el_codigo_inicial_falla_y_dice_por_que(calificar):
    r = calificar(INICIAL)
    assert r["superadas"] == 0
    assert prueba(r, "la conversación de la lección")["mensaje"].startswith(
        "Llamaste al modelo 0 veces y debían ser 4.")


def test_hay_los_errores_pedidos_y_al_menos_doce():
    nombres = {e.archivo.stem for e in ERRORES}
    assert PEDIDOS <= nombres, PEDIDOS - nombres
    assert len(ERRORES) >= 12
    for error in ERRORES:
        assert error.error and error.falla and error.mensajes, error.archivo


@pytest.mark.parametrize("error", ERRORES, ids=[e.archivo.stem for e in ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(calificar, error):
    r = calificar(error.codigo)
    p = prueba(r, error.falla)
    assert not p["ok"]
    assert p["tipo"] == "fallo"
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    assert r["superadas"] < r["total"]


def test_el_mensaje_de_un_turno_sigue_el_formato(calificar):
    error = next(e for e in ERRORES if e.archivo.stem == "un_mensaje_por_observacion")
    p = prueba(calificar(error.codigo), "la conversación de la lección")
    lineas = p["mensaje"].split("\n")
    assert lineas[0] == "En el turno 3 el modelo recibió 8 mensajes; esperaba 6."
    assert lineas[1] == "Primer mensaje distinto: M[5]"
    assert lineas[2].startswith("  esperado: usuario: [resultado t2: «Gazpacho")
    assert lineas[2].count("resultado t") == 3
    assert lineas[3] == "  recibido: usuario: [resultado t2: «Gazpacho: tomates, pepino, pimiento, ajo.»]"
    assert p["turno"] == 3


def test_ningun_mensaje_ensena_las_pruebas_ni_el_calificador(calificar):
    for error in ERRORES:
        for p in calificar(error.codigo)["pruebas"]:
            texto = p["mensaje"] or ""
            for prohibido in ("Traceback", "pruebas.py", "calificador", "def prueba", 'File "'):
                assert prohibido not in texto, (error.archivo.name, texto)


def test_las_comprobaciones_del_desafio_pasan():
    assert challenges.comprobar(DESAFIO) == []


def test_las_comprobaciones_fallan_cuando_el_contenido_miente(tmp_path):
    carpeta = tmp_path / "desafios"
    shutil.copytree(CARPETA, carpeta / DESAFIO)
    shutil.copyfile(CARPETA.parent / "comun.py", carpeta / "comun.py")  # what its tests usar
    base = carpeta / DESAFIO
    # A known-wrong solution with a message it does not get, one that passes its test, and a
    # starter that passes everything.
    (base / "errores" / "sin_tope.py").write_text(
        (base / "errores" / "sin_tope.py").read_text().replace("una 6.ª vez", "una 7.ª vez"))
    (base / "errores" / "no_falla.py").write_text(
        "# Error: ninguno.\n# Falla: un tope de 1\n# Mensaje: nada\n\n" + SOLUCION)
    (base / "inicial.py").write_text((base / "inicial.py").read_text().replace(
        '    M = list(inicio)\n    # Escribe aquí el bucle.\n    return ("tope", None, M)\n',
        solo_bucle(SOLUCION).split('"""', 2)[2]))
    problemas = por_archivo(challenges.comprobar(DESAFIO, carpeta))
    assert "una 7.ª vez" in problemas["sin_tope.py"]
    assert "pasa «un tope de 1», y debía fallarla" in problemas["no_falla.py"]
    assert "el código inicial pasa todas las pruebas" in problemas["inicial.py"]
    # And a reference that breaks the contract.
    (base / "solucion.py").write_text(SOLUCION.replace("return (\"tope\", None, M)", "return (\"tope\", \"\", M)"))
    problemas = por_archivo(challenges.comprobar(DESAFIO, carpeta))
    assert "la solución de referencia no pasa «se detiene en el tope»" in problemas["solucion.py"]
    assert set(problemas) == {"sin_tope.py", "no_falla.py", "inicial.py", "solucion.py"}


def carpeta_con_comun(tmp_path):
    """A copy of the challenge and of comun.py (with one name more), the tests importing it."""
    carpeta = tmp_path / "desafios"
    shutil.copytree(CARPETA, carpeta / DESAFIO, ignore=shutil.ignore_patterns("__pycache__"))
    comun = (CARPETA.parent / "comun.py").read_text(encoding="utf-8")  # the course's own
    (carpeta / "comun.py").write_text(comun + '\nCOMUN = "de comun.py"\n', encoding="utf-8")
    pruebas = carpeta / DESAFIO / "pruebas.py"
    texto = pruebas.read_text(encoding="utf-8")
    pruebas.write_text(texto + "\nfrom ..comun import COMUN  # noqa: E402\n", encoding="utf-8")
    return carpeta


def test_un_import_relativo_lee_un_archivo_de_la_carpeta_para_las_pruebas(tmp_path):
    c = challenges.calificador(carpeta_con_comun(tmp_path))
    r = c.calificar(DESAFIO, SOLUCION)
    assert r["superadas"] == r["total"]
    assert c.pruebas(DESAFIO)["COMUN"] == "de comun.py"
    assert "desafios/comun.py" in c.leidos()
    assert [u for u in c.leidos() if u.startswith("desafios/")] == [
        f"desafios/{DESAFIO}/pruebas.py", "desafios/comun.py", f"desafios/{DESAFIO}/inicial.py"]
    assert set(c.modulos(DESAFIO)) == {"runtime", "comun.py"}


def lo_mismo(a, b):
    """Equal values, or functions and classes made by the same line of the runtime."""
    if hasattr(b, "__code__"):
        return (a.__code__.co_filename, a.__code__.co_firstlineno) == \
            (b.__code__.co_filename, b.__code__.co_firstlineno)
    if isinstance(b, type):
        return a is not b and a.__qualname__ == b.__qualname__ and vars(a).keys() == vars(b).keys()
    if isinstance(b, dict):
        return a.keys() == b.keys() and all(lo_mismo(a[k], b[k]) for k in b)
    return a is b if hasattr(b, "__spec__") else a == b


def por_archivo(problemas):
    """{file name: all its problems, one text}."""
    juntos = {}
    for archivo, texto in problemas:
        juntos[archivo.name] = juntos.get(archivo.name, "") + texto + "\n"
    return juntos


def test_las_conversaciones_generadas_son_deterministas_y_no_son_la_leccion():
    uno, dos = challenges.calificador(), challenges.calificador()
    nombres = uno.nombres(DESAFIO)
    assert nombres == dos.nombres(DESAFIO)
    otras = [n for n in nombres if n.startswith("otra conversación")]
    assert len(otras) >= 3
    leccion = uno.caso(DESAFIO, "la conversación de la lección")
    for nombre in otras:
        caso = uno.caso(DESAFIO, nombre)
        assert caso == dos.caso(DESAFIO, nombre)
        assert caso["guion"][-1][1] != leccion["guion"][-1][1]
    turnos = {len(uno.caso(DESAFIO, n)["guion"]) for n in otras}
    assert len(turnos) >= 3 and turnos != {4}


def test_las_pruebas_no_pisan_el_runtime_de_su_espacio(ns):
    """The tests import their own runtime, a module of its own: its names are the runtime's as
    its files leave them (the teaching messages, GuionRoto's with muestra, _normaliza..., stay),
    the very objects the tests use, and not the reader's."""
    pruebas = ns.pruebas(DESAFIO)
    runtime = vars(ns.modulos(DESAFIO)["runtime"])
    solo_runtime = {}
    for nombre in ("entorno", "guionizado", "escenarios"):
        archivo = f"runtime/{nombre}.py"
        exec(compile((RAIZ / archivo).read_text(), archivo, "exec"), solo_runtime)
    for nombre, valor in solo_runtime.items():
        if not nombre.startswith("__"):  # __builtins__, __doc__: the file's own
            assert lo_mismo(runtime[nombre], valor), nombre
            assert pruebas.get(nombre, runtime[nombre]) is runtime[nombre], nombre
    lector = ns.envio(DESAFIO, "def bucle(a, b, c, d): pass").espacio()
    assert pruebas["ModeloGuionizado"] is not lector["ModeloGuionizado"]
    assert pruebas["HERRAMIENTAS"] is not lector["HERRAMIENTAS"]


# ------------------------------------------------------------ namespaces, hooks


def test_un_archivo_con_solo_bucle_se_califica_como_el_inicial_completo(calificar):
    for codigo in [SOLUCION] + [e.codigo for e in ERRORES[:4]]:
        solo = calificar(solo_bucle(codigo))
        completo = calificar(con_el_inicial(codigo))
        assert "def ejecutar" not in solo_bucle(codigo)
        assert sin_reloj(solo) == sin_reloj(completo)


def test_cada_prueba_empieza_en_un_espacio_nuevo(calificar):
    r = calificar("""
        print("cargado")
        VISTAS = []

        def bucle(modelo, inicio, entorno, tope):
            VISTAS.append(1)
            print("llamadas antes:", len(VISTAS) - 1)
            return ("fin", "", list(inicio))
    """)
    for p in r["pruebas"]:
        assert p["salida"] == "cargado\nllamadas antes: 0\n", p


def test_caso_argumentos_y_preparar_permiten_repetir_una_prueba_fuera(ns):
    """Rebuild a test's model, inicio, entorno and tope, and run the reader's function under
    the grader's limit: what «Ver tu traza» needs."""
    caso = ns.caso(DESAFIO, "se detiene en el tope")
    assert caso["tope"] == 3 and caso["motivo"] == "tope"
    lector = ns.preparar(DESAFIO, SOLUCION).funcion("bucle")
    assert lector.__wrapped__.__code__.co_filename == ARCHIVO
    modelo, inicio, entorno, tope = ns.argumentos(DESAFIO, "se detiene en el tope")
    assert (inicio, entorno, tope) == (caso["inicio"], caso["entorno"], caso["tope"])
    motivo, texto, M = lector(modelo, inicio, entorno, tope)
    assert (motivo, texto, M) == ("tope", None, caso["M"])
    assert entorno == caso["entorno_final"]

    with pytest.raises(Veredicto) as e:
        ns.preparar(DESAFIO, "def bucle(:\n")
    assert e.value.datos["tipo"] == "sintaxis" and e.value.datos["linea"] == 1
    # The reader's own exception comes out as it is; a time limit, as a Veredicto.
    roto = ns.preparar(DESAFIO, "def bucle(m, i, e, t):\n    return 1 / 0\n").funcion("bucle")
    with pytest.raises(ZeroDivisionError):
        roto(*ns.argumentos(DESAFIO, "un tope de 1"))
    sin_fin = ns.preparar(DESAFIO, "def bucle(m, i, e, t):\n    while True:\n        pass\n",
                             limite=0.2).funcion("bucle")
    with pytest.raises(Veredicto) as e:
        sin_fin(*ns.argumentos(DESAFIO, "un tope de 1"))
    assert e.value.datos["tipo"] == "tiempo"
    assert e.value.__traceback__ is not None


def test_el_gancho_de_traza_recibe_la_funcion_y_los_argumentos(ns, calificar):
    """A recorder with trazar's signature gets, for each failed test, the reader's function and
    that test's arguments; its answer travels in the result. Passing tests get None."""
    def grabadora(bucle, modelo, inicio, entorno, tope):
        recibidos = []

        def registrado(M, herramientas):
            recibidos.append(len(M))
            return modelo(M, herramientas)
        try:
            bucle(registrado, inicio, entorno, tope)
        except Exception as e:
            return {"recibidos": recibidos, "error": type(e).__name__}
        return {"recibidos": recibidos, "error": None}

    error = next(e for e in ERRORES if e.archivo.stem == "sin_observaciones")
    r = calificar(error.codigo, traza=grabadora)
    leccion = prueba(r, "la conversación de la lección")
    assert leccion["traza"] == {"recibidos": [2, 3], "error": "GuionRoto"}
    sin_llamadas = prueba(r, "otra conversación: responde sin llamar a nada")
    assert sin_llamadas["ok"] and sin_llamadas["traza"] is None
    sin_traza = calificar(error.codigo)
    assert [dict(p, traza=None) for p in r["pruebas"]] == sin_traza["pruebas"]
    # A recorder that breaks changes nothing.
    roto = calificar(error.codigo, traza=lambda *args: 1 / 0)
    assert sin_reloj(roto) == sin_reloj(sin_traza)


def test_con_la_grabadora_de_trazas_de_verdad(ns, calificar):
    """The engine's trace recorder plugs into the hook as it is."""
    error = next(e for e in ERRORES if e.archivo.stem == "sin_observaciones")
    r = calificar(error.codigo, traza=trazar)
    traza = prueba(r, "la conversación de la lección")["traza"]
    json.dumps(traza)
    modelos = [ev for ev in traza["eventos"] if ev["tipo"] == "modelo"]
    assert [ev["n"] for ev in modelos] == [2, 3]
    final = traza["eventos"][-1]
    assert final["tipo"] == "excepcion" and final["clase"] == "GuionRoto"
    # the reader's line: respuesta = modelo(M, HERRAMIENTAS)
    assert "respuesta = modelo(M, HERRAMIENTAS)" in error.codigo.splitlines()[final["linea"] - 1]


def test_los_resultados_guardados_son_los_del_calificador():
    """tests/fixtures/resultados/*.json (read by the JS tests) are what the engine gives now;
    ``python -m tests.fixtures.resultados`` writes them again."""
    from tests.fixtures import resultados

    guardados = resultados.guardados()
    hechos = resultados.generar()
    assert sorted(guardados) == sorted(hechos)
    for nombre, r in hechos.items():
        assert resultados.sin_reloj(guardados[nombre]) == json.loads(json.dumps(
            resultados.sin_reloj(r))), nombre
    tipos = {p["tipo"] for r in hechos.values() for p in r["pruebas"]}
    assert {"ok", "fallo", "error", "tiempo", "salida", "no-probada"} <= tipos
    assert any(p["turno"] for p in hechos["conocido"]["pruebas"])
    assert hechos["error-del-lector"]["pruebas"][0]["linea"] == 4
    assert hechos["sintaxis"]["error"]["tipo"] == "sintaxis"
    assert hechos["sin-funcion"]["error"]["tipo"] == "falta"


def test_datos_para_la_pagina(ns):
    datos = ns.datos(DESAFIO)
    assert datos["pruebas"] == ns.nombres(DESAFIO)
    assert datos["pista"] and datos["limite"] == 2.0
    assert datos["a_escribir"] == {"bucle": ["modelo", "inicio", "entorno", "tope"]}
    assert datos["mensajes"] == {
        "tiempo": "bucle no terminó en 2 s: ¿falta el tope? (y no se dejó detener)",
        "tiempo_al_cargar": "Tu código no terminó de cargarse en 2 s: ¿un bucle sin fin fuera "
                            "de las funciones? (y no se dejó detener)",
        "no_probada": "no se probó: «{prueba}» no terminó",
        "no_probada_al_cargar": "no se probó: tu código no se pudo cargar",
        "exit": "tu código terminó el proceso con os._exit({codigo}) mientras se calificaba "
                "«{prueba}»: aquí no se termina el programa; devuelve el resultado con return.",
        "exit_al_cargar": "tu código terminó el proceso con os._exit({codigo}) mientras se "
                          "cargaba: aquí no se termina el programa; devuelve el resultado con "
                          "return.",
        "no_probada_tras_exit": "no se probó: el proceso se cortó en «{prueba}»",
    }
    json.dumps(ns.calificar(DESAFIO, SOLUCION))
    json.dumps(ns.caso(DESAFIO, "la conversación de la lección"))


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


# ------------------------------------------------------------- fooling attempts

ENGANOS = {
    "cambia HERRAMIENTAS y ModeloGuionizado": """
        HERRAMIENTAS = []

        class ModeloGuionizado:
            def __init__(self, guion):
                pass

            def __call__(self, M, herramientas=None):
                return [texto("listo")]

        GuionRoto = Exception

        def bucle(modelo, inicio, entorno, tope):
            M = list(inicio)
            for _ in range(tope):
                r = modelo(M, HERRAMIENTAS)
                M.append(("asistente", r))
                if not [b for b in r if b["type"] == "tool_use"]:
                    return ("fin", " ".join(b["text"] for b in r if b["type"] == "text"), M)
            return ("tope", None, M)
    """,
    "parchea el modelo": """
        def bucle(modelo, inicio, entorno, tope):
            ModeloGuionizado.__call__ = lambda self, M, h=None: [texto("listo")]
            modelo.turno = 0
            modelo._guion = []
            M = list(inicio)
            r = modelo(M, HERRAMIENTAS)
            M.append(("asistente", r))
            return ("fin", " ".join(b["text"] for b in r if b["type"] == "text"), M)
    """,
    "devuelve un M calculado de antemano": """
        def bucle(modelo, inicio, entorno, tope):
            guion = guion_de(INICIO_BUCLE, RESPUESTAS_BUCLE, OBSERVACIONES_BUCLE)
            M = guion[-1][0] + [("asistente", RESPUESTAS_BUCLE[-1])]
            return ("fin", RESPUESTAS_BUCLE[-1][0]["text"], M)
    """,
    "lee las pruebas": f"""
        import builtins, types

        def bucle(modelo, inicio, entorno, tope):
            runtime = types.ModuleType("runtime")
            vars(runtime).update(globals())
            api = types.SimpleNamespace(Fallo=Exception, opaca=lambda f, nombre=None: f)
            modulos = {{}}

            def importar(nombre, g=None, l=None, desde=(), nivel=0):
                if nivel:
                    if nombre not in modulos:
                        m = modulos[nombre] = types.ModuleType(nombre)
                        vars(m)["__builtins__"] = propios
                        exec(open({str(CARPETA.parent)!r} + "/" + nombre + ".py").read(), vars(m))
                    return modulos[nombre]
                return {{"runtime": runtime, "calificador": api}}.get(nombre) or __import__(
                    nombre, g, l, desde, nivel)
            propios = dict(vars(builtins), __import__=importar)
            ns = {{"__builtins__": propios}}
            exec(open({str(CARPETA / "pruebas.py")!r}).read(), ns)
            for caso in ns["CASOS"]:
                if caso.inicio == inicio and caso.tope == tope:
                    entorno.clear()
                    entorno.update(caso.entorno_final)
                    return (caso.motivo, caso.texto, caso.M)
    """,
    "parchea builtins y copy": """
        import builtins, copy

        def bucle(modelo, inicio, entorno, tope):
            builtins.len = lambda x: 0
            builtins.isinstance = lambda a, b: True
            copy.deepcopy = lambda x, memo=None: x
            return ("fin", "", list(inicio))
    """,
}


@pytest.mark.parametrize("nombre", ENGANOS)
def test_los_enganos_no_pasan(calificar, nombre):
    len_, isinstance_ = builtins.len, builtins.isinstance
    import copy
    deepcopy = copy.deepcopy
    r = calificar(ENGANOS[nombre])
    assert r["error"] is None
    assert r["superadas"] <= 1, [p["nombre"] for p in r["pruebas"] if p["ok"]]
    assert not prueba(r, "la conversación de la lección")["ok"]
    assert (builtins.len, builtins.isinstance, copy.deepcopy) == (len_, isinstance_, deepcopy)


def test_la_muralla_niega_ganchos_y_esconde_los_modulos_del_calificador(calificar):
    """While the reader's code runs, no audit hook of its own, and no module of the engine, the
    worker or the course in sys.modules (they are back afterwards)."""
    # CPython drops a hook that an earlier one refuses (with a RuntimeError), silently.
    r = calificar("""
        import sys
        VISTOS = []

        def bucle(modelo, inicio, entorno, tope):
            sys.addaudithook(lambda evento, argumentos: VISTOS.append(evento))
            compile("1", "x", "eval")
            print(len(VISTOS))
            return ("fin", "", list(inicio))
    """)
    assert prueba(r, "la conversación de la lección")["salida"] == "0\n"
    r = calificar("""
        import sys

        def bucle(modelo, inicio, entorno, tope):
            vistos = sorted(n for n in sys.modules
                            if n.split(".")[0] in ("widgets", "calificador", "challenges")
                            or n.startswith("trabajador"))
            print(vistos)
            return ("fin", "", list(inicio))
    """)
    assert prueba(r, "la conversación de la lección")["salida"] == "[]\n"
    assert "widgets.calificador.muralla" in sys.modules and "challenges" in sys.modules


def test_la_muralla_no_detiene_los_hilos_del_anfitrion_y_si_los_del_lector(calificar):
    """The wall is the reader's: a thread of the host that was running before (a server that
    prints a traceback meanwhile) may use frames while the reader's code runs; a thread the
    reader's code starts may not, in that test and in every later one."""
    import threading
    import time

    from widgets.calificador import muralla

    visto, fin = [], threading.Event()

    def anfitrion():  # waits for the wall, then looks at its own frame, as traceback does
        while not muralla._MURALLA[0] and not fin.is_set():
            time.sleep(0.001)
        try:
            visto.append(type(sys._getframe()).__name__)
        except Exception as error:  # noqa: BLE001 - what it got is the test's answer
            visto.append(type(error).__name__)

    hilo = threading.Thread(target=anfitrion, daemon=True)
    hilo.start()
    r = calificar("""
        import sys, threading, time
        pedir, listo, VISTO = threading.Event(), threading.Event(), []

        def mira():
            while True:
                pedir.wait()
                pedir.clear()
                try:
                    sys._getframe()
                    VISTO.append("libre")
                except Exception as error:
                    VISTO.append(type(error).__name__)
                listo.set()

        hilo = []

        def bucle(modelo, inicio, entorno, tope):
            if not hilo:
                hilo.append(threading.Thread(target=mira, daemon=True))
                hilo[0].start()
            time.sleep(0.05)  # the host's thread looks meanwhile
            listo.clear()
            pedir.set()
            listo.wait(5)
            print(VISTO[-1])
            return ("fin", "", list(inicio))
    """)
    fin.set()
    hilo.join(5)
    assert visto == ["frame"]
    salidas = [p["salida"] for p in r["pruebas"] if p["tipo"] != "no-probada"]
    assert len(salidas) > 2 and set(salidas) == {"Prohibido\n"}, salidas



def test_un_hilo_del_lector_no_queda_libre_por_heredar_el_ident_de_uno_del_anfitrion(calificar):
    """A host's thread that was running when the wall went up, and then ended: the reader's
    thread started after it gets its ident (CPython gives an ended thread's ident to the next)
    but not its freedom."""
    import threading
    import time

    from widgets.calificador import muralla

    idents = []

    def anfitrion():  # free, and it ends as soon as the wall is up
        while not muralla._MURALLA[0]:
            time.sleep(0.001)
        idents.append(threading.get_ident())

    hilo = threading.Thread(target=anfitrion, daemon=True)
    hilo.start()
    r = calificar("""
        import sys, threading, time
        VISTO = []

        def mira():
            try:
                sys._getframe()
                VISTO.append(f"{threading.get_ident()} libre")
            except Exception as error:
                VISTO.append(f"{threading.get_ident()} {type(error).__name__}")

        def bucle(modelo, inicio, entorno, tope):
            if not VISTO:
                time.sleep(0.2)  # the host's thread has ended by now
                hilo = threading.Thread(target=mira)
                hilo.start()
                hilo.join()
                print(VISTO[0])
            return ("fin", "", list(inicio))
    """)
    hilo.join(5)
    ident, visto = r["pruebas"][0]["salida"].split()
    assert int(ident) == idents[0], "the reader's thread did not get the host's ident: nothing tested"
    assert visto == "Prohibido"

def test_quien_no_llama_al_modelo_no_pasa_aunque_acierte_M(calificar):
    r = calificar(ENGANOS["lee las pruebas"])
    assert prueba(r, "la conversación de la lección")["mensaje"].startswith(
        "Llamaste al modelo 0 veces y debían ser 4.")


# ------------------------------------------------------------------ the command


def cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "challenges", *map(str, args)], cwd=RAIZ,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout)


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


# ------------------------------------------------------------- same in Pyodide

NODE_PYODIDE = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: "%(pyodide)s/" });
const archivos = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const [ruta, texto] of Object.entries(archivos)) {
  py.FS.mkdirTree("/sitio/" + ruta.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/sitio/" + ruta, texto);
}
py.globals.set("CASOS", readFileSync(process.argv[3], "utf8"));
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/sitio/_static/bucle")
from calificador import Calificador
def leer(url):
    return open("/sitio/" + url).read()
c = Calificador(leer, desafios="_static/bucle/desafios/", runtime="runtime/",
                runtime_modulos=%(modulos)s)
r = {"version": sys.version_info[:2], "monitoring": hasattr(sys, "monitoring")}
r["resultados"] = {n: c.calificar(d, codigo) for n, (d, codigo) in json.loads(CASOS).items()}
json.dumps(r, ensure_ascii=False)
`));
"""


def en_pyodide(tmp_path, desafios, casos, modulos=("entorno", "guionizado", "escenarios")):
    """Grade ``casos`` ({name: (challenge, code)}) in Pyodide under Node, with the engine's files
    and those of ``desafios`` written where the site has them, and the runtime ``modulos``;
    return its output."""
    pyodide = RAIZ / "node_modules" / "pyodide"
    archivos = {f"_static/bucle/calificador/{p.name}": p.read_text()
                for p in sorted((RAIZ / "widgets" / "calificador").glob("*.py"))}
    for desafio in desafios:
        for nombre in challenges.ARCHIVOS_DESAFIO:
            archivos[f"_static/bucle/desafios/{desafio}/{nombre}"] = \
                (RAIZ / "challenges" / desafio / nombre).read_text()
    # and what the tests load with usar (comun.py...), as the build publishes it
    leido = challenges.calificador()
    for desafio in desafios:
        leido.pruebas(desafio)
    for url in leido.leidos():
        if url.startswith("desafios/"):
            archivos[f"_static/bucle/{url}"] = (RAIZ / "challenges" / url[len("desafios/"):]).read_text()
    for nombre in modulos:
        archivos[f"runtime/{nombre}.py"] = (RAIZ / "runtime" / f"{nombre}.py").read_text()
    (tmp_path / "archivos.json").write_text(json.dumps(archivos))
    (tmp_path / "casos.json").write_text(json.dumps(casos))
    (tmp_path / "pyodide.mjs").write_text(NODE_PYODIDE % {"pyodide": pyodide.as_posix(),
                                                          "modulos": repr(tuple(modulos))})
    p = subprocess.run(["node", tmp_path / "pyodide.mjs", tmp_path / "archivos.json",
                        tmp_path / "casos.json"], capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


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


def test_una_clave_que_no_es_un_nombre_en_sys_modules_no_tumba_la_muralla(calificar):
    """sys.modules is the reader's to spoil too: a key that is not a str leaves the wall working
    (it sifts the names before it looks at them) and the verdict given test by test."""
    try:
        r = calificar("""
            import sys

            def bucle(modelo, inicio, entorno, tope):
                sys.modules[1] = None
                return ("fin", "", list(inicio))
        """)
        assert r["error"] is None
        assert r["pruebas"]
        assert "widgets.calificador.muralla" in sys.modules and "challenges" in sys.modules
    finally:
        sys.modules.pop(1, None)
