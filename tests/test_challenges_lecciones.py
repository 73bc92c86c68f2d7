"""The challenges of lessons 1 and 3: «ejecutar-llamada» (the reader writes an ``ejecutar`` that
validates, runs and answers one call) and «errores-como-observaciones» (the reader rewrites it so
the model's errors come back as observations), graded by the same grader as «bucle-con-tope».

Also: the grader's support for tests that call the reader's function several times in one
namespace (``Envio.funcion``), and the `traza` directive running the lesson-3 conversation with
the ``ejecutar`` of that challenge (``:ejecutar: errores-como-observaciones``).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from pathlib import Path

import pytest

import challenges
from tests.test_challenges import lo_mismo

RAIZ = Path(__file__).resolve().parent.parent
LECCION_1, LECCION_3, LECCION_4 = "ejecutar-llamada", "errores-como-observaciones", "pedir-permiso"
DESAFIOS = (LECCION_1, LECCION_3)
#: With lesson 4's challenge, whose ejecutar also takes preguntar: the tests of the content.
CON_PERMISO = DESAFIOS + (LECCION_4,)


def leer(desafio: str, archivo: str) -> str:
    return (RAIZ / "challenges" / desafio / archivo).read_text(encoding="utf-8")


ERRORES = {d: challenges.errores_conocidos(d) for d in CON_PERMISO}
TODOS_LOS_ERRORES = [(d, e) for d in CON_PERMISO for e in ERRORES[d]]

#: The mistakes the task asks for, by file.
PEDIDOS = {
    LECCION_1: {"sin_validar", "id_fijo", "devuelve_el_texto", "usa_ENTORNO", "valida_despues",
                "otra_excepcion", "cambia_la_llamada", "argumentos_por_posicion", "atrapa_el_error"},
    LECCION_3: {"atrapa_exception", "sin_comprobar_el_esquema", "sin_is_error",
                "con_el_nombre_de_la_clase", "deja_pasar_OSError", "deja_pasar_ValueError",
                "ejecuta_aunque_incumpla", "devuelve_el_mensaje", "usa_repr"},
    LECCION_4: {"pregunta_a_todas", "solo_si_sobrescribe", "ejecuta_y_luego_pregunta",
                "ignora_la_respuesta", "lanza_si_deniega", "denegado_sin_is_error",
                "pide_confirmacion", "pregunta_por_el_nombre", "pregunta_antes_de_comprobar"},
}


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()


def con_su_runtime(c, desafio):
    """The names of ``desafio``'s tests (a new load) with those of the runtime they import."""
    pruebas = c.pruebas(desafio)
    return {**vars(c.modulos(desafio)["runtime"]), **pruebas}


def calificar(ns, desafio, codigo, **opciones):
    return ns.calificar(desafio, textwrap.dedent(codigo), **opciones)


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def sin_reloj(resultado):
    return {k: v for k, v in resultado.items() if k != "segundos"}


# ------------------------------------------------------------------ the content


@pytest.mark.parametrize("desafio,total", [(LECCION_1, 16), (LECCION_3, 21), (LECCION_4, 14)])
def test_la_referencia_pasa_todas_las_pruebas(ns, desafio, total):
    r = calificar(ns, desafio, leer(desafio, "solucion.py"))
    assert r["error"] is None
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"] == total


def test_el_codigo_inicial_de_la_leccion_1_no_pasa_ninguna(ns):
    r = calificar(ns, LECCION_1, leer(LECCION_1, "inicial.py"))
    assert r["superadas"] == 0
    p = r["pruebas"][0]
    assert (p["tipo"], p["linea"]) == ("error", 22)
    assert p["mensaje"].startswith("ejecutar lanzó NotImplementedError en la línea 22: "
                                   "escribe aquí ejecutar")


def test_el_codigo_inicial_de_la_leccion_3_es_el_ejecutar_de_la_1(ns):
    """The starter's ejecutar raises on errors: it passes what still holds (success, harness
    bugs propagate) and fails every error, and the lesson's conversation dies in turn 1."""
    r = calificar(ns, LECCION_3, leer(LECCION_3, "inicial.py"))
    assert [p["nombre"] for p in r["pruebas"] if p["ok"]] == [
        "si todo va bien, el resultado de siempre",
        "un fallo del arnés se propaga: KeyError",
        "un fallo del arnés se propaga: ZeroDivisionError",
        "un fallo del arnés se propaga: TypeError",
        "un fallo del arnés se propaga: AttributeError",
        "cada llamada corre su herramienta una sola vez",
        "un entorno vacío y ficheros vacíos: el resultado de siempre",
    ]
    p = prueba(r, "la conversación de la lección")
    assert (p["tipo"], p["turno"]) == ("fallo", 1)
    assert p["mensaje"].startswith(
        "En el turno 1, de ejecutar salió FileNotFoundError («no existe el fichero "
        "'gazpacho.txt' (¿querías decir 'recetas/gazpacho.txt'?)») con llamada e1 "
        "leer(ruta='gazpacho.txt'), y la conversación murió a medias")


def test_el_inicial_de_la_leccion_3_trae_el_bucle_de_referencia():
    """The reader sees the loop of «El bucle» in the starter, as it is; the reference solution
    only writes ejecutar (the loop is defined once, in bucle-con-tope/solucion.py)."""
    referencia = leer("bucle-con-tope", "solucion.py")
    bucle = referencia[referencia.index("def bucle("):]
    assert leer(LECCION_3, "inicial.py").endswith(bucle)
    assert "def bucle(" not in leer(LECCION_3, "solucion.py")


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_hay_los_errores_pedidos_y_al_menos_ocho(desafio):
    nombres = {e.archivo.stem for e in ERRORES[desafio]}
    assert PEDIDOS[desafio] <= nombres, PEDIDOS[desafio] - nombres
    assert len(ERRORES[desafio]) >= 8
    for error in ERRORES[desafio]:
        assert error.error and error.falla and error.mensajes, error.archivo


@pytest.mark.parametrize("desafio,error", TODOS_LOS_ERRORES,
                         ids=[f"{d}/{e.archivo.stem}" for d, e in TODOS_LOS_ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(ns, desafio, error):
    r = calificar(ns, desafio, error.codigo)
    p = prueba(r, error.falla)
    assert (p["ok"], p["tipo"]) == (False, "fallo"), p
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    assert r["error"] is None and r["superadas"] < r["total"]


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_las_comprobaciones_del_desafio_pasan(desafio):
    assert challenges.comprobar(desafio) == []


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_ningun_mensaje_ensena_las_pruebas_ni_el_calificador(ns, desafio):
    for codigo in [leer(desafio, "inicial.py")] + [e.codigo for e in ERRORES[desafio]]:
        for p in calificar(ns, desafio, codigo)["pruebas"]:
            texto = p["mensaje"] or ""
            for prohibido in ("Traceback", "pruebas.py", "calificador", "def prueba", 'File "',
                              "Veredicto", "Detenido", "interno"):
                assert prohibido not in texto, texto


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_un_archivo_con_solo_ejecutar_se_califica_como_el_inicial_completo(ns, desafio):
    inicial = leer(desafio, "inicial.py")
    inicio = inicial.index("def ejecutar(")
    fin = inicial.index("\n\n\n", inicio) if "def bucle(" in inicial else len(inicial)
    for error in ERRORES[desafio][:5]:
        solo = error.codigo[error.codigo.index("def ejecutar("):]
        completo = inicial[:inicio] + solo.rstrip("\n") + inicial[fin:]
        assert completo.count("def ejecutar(") == 1
        # the same verdicts; only the line numbers of the reader's errors move
        assert sin_lineas(calificar(ns, desafio, solo)) == sin_lineas(calificar(ns, desafio, completo))


def sin_lineas(resultado):
    return [(p["nombre"], p["tipo"], re.sub(r"línea \d+", "línea N", p["mensaje"] or ""))
            for p in resultado["pruebas"]]


def test_datos_para_la_pagina(ns):
    for desafio in CON_PERMISO:
        datos = ns.datos(desafio)
        parametros = ["ll", "entorno", "preguntar"] if desafio == LECCION_4 else ["ll", "entorno"]
        assert datos["a_escribir"] == {"ejecutar": parametros}
        assert datos["pruebas"] == ns.nombres(desafio) and datos["pista"]
        json.dumps(calificar(ns, desafio, leer(desafio, "inicial.py")))


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_las_pruebas_no_pisan_el_runtime_de_su_espacio(ns, desafio):
    """The tests import their own runtime, a module of its own: its names are the runtime's as
    its files leave them (GuionRoto uses muestra...), the very objects the tests use."""
    pruebas = ns.pruebas(desafio)
    runtime = vars(ns.modulos(desafio)["runtime"])
    solo_runtime = {}
    for nombre in ("entorno", "guionizado", "escenarios", "permisos"):
        archivo = f"runtime/{nombre}.py"
        exec(compile((RAIZ / archivo).read_text(), archivo, "exec"), solo_runtime)
    for nombre, valor in solo_runtime.items():
        if not nombre.startswith("__"):
            assert lo_mismo(runtime[nombre], valor), nombre
            assert pruebas.get(nombre, runtime[nombre]) is runtime[nombre], nombre


# ---------------------------------------------- the helpers the tests share: comun.py


def definidos(texto: str) -> set[str]:
    """The names a module's top level defines (functions, classes, assignments)."""
    nombres = set()
    for nodo in ast.parse(texto).body:
        if isinstance(nodo, (ast.FunctionDef, ast.ClassDef)):
            nombres.add(nodo.name)
        elif isinstance(nodo, ast.Assign):
            nombres |= {t.id for t in nodo.targets if isinstance(t, ast.Name)}
    return nombres


@pytest.mark.parametrize("desafio", ["bucle-con-tope", *CON_PERMISO])
def test_cada_prueba_usa_comun_y_no_redefine_nada_suyo(ns, desafio):
    """Each pruebas.py imports the shared helpers from comun.py (and those of the tests of one
    call from sueltas.py) and defines none of them again: a helper lives in one place."""
    pruebas = leer(desafio, "pruebas.py")
    assert "from ..comun import" in pruebas
    comun = {archivo: definidos((RAIZ / "challenges" / archivo).read_text(encoding="utf-8"))
             for archivo in ("comun.py", "sueltas.py")}
    assert comun["comun.py"] & comun["sueltas.py"] == set()
    espacio = ns.pruebas(desafio)
    for archivo, nombres in comun.items():
        assert definidos(pruebas) & nombres == set()
        for nombre in nombres & set(espacio):
            codigo = getattr(espacio[nombre], "__code__", None)
            assert codigo is None or codigo.co_filename == archivo, nombre


# ------------------------------------------- the runtime holds no answer to a challenge


def con_la_referencia(desafio: str) -> dict:
    """A page's namespace (the three runtime files) with ``desafio``'s reference solution."""
    from runtime import espacio

    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec(compile(leer(desafio, "solucion.py"), f"{desafio}/solucion.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("conversacion,desafios", [
    ("BUCLE", ("bucle-con-tope", LECCION_1, LECCION_3)),
    ("ERRORES", (LECCION_3,)),
])
def test_las_observaciones_de_los_escenarios_son_las_de_las_referencias(conversacion, desafios):
    """escenarios.py writes the observations of the lessons' scripts as data: they are what the
    reference solutions' ejecutar gives, call after call, on a copy of ENTORNO."""
    for desafio in desafios:
        ns = con_la_referencia(desafio)
        entorno = dict(ns["ENTORNO"])
        calculadas = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                      for r in ns[f"RESPUESTAS_{conversacion}"]]
        assert calculadas == ns[f"OBSERVACIONES_{conversacion}"], desafio


def funciones_del_runtime() -> dict:
    """Every function the runtime leaves in a reader's namespace, private ones included (the
    training data's files too: their ideal model decides, it never executes)."""
    from runtime import espacio

    ns = espacio("entorno", "guionizado", "escenarios", "permisos",
                 "palabras", "tareas", "escrituras", "entrenamiento")
    return {n: v for n, v in ns.items()
            if inspect.isfunction(v) and v.__code__.co_filename.startswith("runtime/")}


def envios_con(nombre: str, parametros, funcion: str, f) -> list[str]:
    """Submissions whose ``nombre`` is the runtime's ``funcion``: as it is and, for a function
    of the responses (like ``f(respuestas, entorno)``), applied to one call."""
    firma = ", ".join(parametros)
    envios = [f"{nombre} = {funcion}\n"]
    if len(inspect.signature(f).parameters) == len(parametros) == 2:
        envios.append(f"def {nombre}({firma}):\n    return {funcion}([[ll]], entorno)[0][0]\n")
    return envios


@pytest.mark.parametrize("desafio", ["bucle-con-tope", *CON_PERMISO])
def test_ninguna_funcion_del_runtime_pasa_un_desafio(ns, desafio):
    """What a reader loads in every lesson (entorno.py, guionizado.py, escenarios.py) holds no
    function that, handed in as the reader's, passes a challenge's tests."""
    (nombre, parametros), = ns.datos(desafio)["a_escribir"].items()
    aprobadas = []
    for funcion, f in sorted(funciones_del_runtime().items()):
        for codigo in envios_con(nombre, parametros, funcion, f):
            r = ns.calificar(desafio, codigo, limite=0.5)
            if r["error"] is None and r["superadas"] == r["total"]:
                aprobadas.append(codigo)
    assert aprobadas == []


