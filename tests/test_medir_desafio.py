"""The challenge of lesson 7, «medir-el-agente»: the reference passes, the starter fails, each
known-wrong solution fails its test with its message (and no message shows the tests' insides),
the real agent its tests measure is lesson 5's, its real measures have what they are there for,
the verdicts do not change from one grader to another, and Pyodide agrees.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import challenges
from tests.test_challenges import en_pyodide
from widgets.calificador.disco import modulos_de

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "medir-el-agente"
CARPETA = RAIZ / "challenges" / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
INICIAL = (CARPETA / "inicial.py").read_text(encoding="utf-8")
ERRORES = challenges.errores_conocidos(DESAFIO)

#: The mistakes the task asks for, by file.
PEDIDOS = {
    "intervalo_normal",             # the normal (Wald) approximation
    "intervalo_normal_sin_acotar",  # …which leaves [0, 1]
    "wilson_sin_acotar",            # an interval below 0 or above 1
    "tope_cuenta_como_exito",       # a run that reached the cap counted as a success
    "fin_es_resuelta",              # como == "fin" instead of the task's check
    "usa_tarea_entorno",            # one environment across the runs of a task
    "un_entorno_por_tarea",
    "un_modelo_por_tarea",          # one model object across runs
    "un_error_para_la_medida",      # an agent's exception stops the whole measure
    "semillas_desde_1",             # seeds not 0..veces-1
    "semillas_seguidas",
    "motivos_sin_ceros",            # motivos without the zero counts
    "atrapa_baseexception",         # BaseException caught
    # the paired comparison
    "motivo_de_sin_errores",        # runs that ended in an exception left out of motivo_de
    "arregla_al_reves",             # the two directions swapped
    "cualquier_cambio_rompe",       # a change between two unsolved reasons counted as a change
    "sin_ordenar",                  # the runs in the order they came
    "separados_si_difieren_las_tasas",  # different rates taken for separate intervals
    "separados_si_se_tocan",        # touching intervals taken for separate ones
    "compara_las_comunes",          # two measures of different runs compared anyway
}


@pytest.fixture(scope="module")
def calificador():
    return challenges.calificador()


@pytest.fixture(scope="module")
def veredicto(calificador):
    """``veredicto(codigo)``: the module's grader's result for ``codigo``, graded once (the
    known-wrong solutions are compared with another grader and with Pyodide too)."""
    hechos: dict[str, dict] = {}

    def dar(codigo: str) -> dict:
        if codigo not in hechos:
            hechos[codigo] = calificador.calificar(DESAFIO, codigo)
        return hechos[codigo]

    return dar


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def sin_reloj(r):
    return {k: v for k, v in r.items() if k != "segundos"}


def runtime_de_conf() -> tuple[str, ...]:
    """The course's runtime/orden.txt (bucle_runtime_modulos's default): what the page loads, in
    its order."""
    return modulos_de(RAIZ / "runtime")


# ------------------------------------------------------------------ the content


def test_la_referencia_pasa_todas_y_el_inicial_ninguna(calificador):
    r = calificador.calificar(DESAFIO, SOLUCION)
    assert r["error"] is None
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"] == 27
    r = calificador.calificar(DESAFIO, INICIAL)
    assert r["superadas"] == 0
    for p in r["pruebas"]:
        # comparar's own tests meet comparar's stub; the one that compares two measures of the
        # reader's medir meets medir's first
        falta = ("comparar" if p["nombre"].startswith("comparar:") else "medir")
        assert "NotImplementedError" in p["mensaje"] and f"escribe aquí {falta}" in p["mensaje"], p


def test_las_comprobaciones_del_desafio_pasan():
    assert challenges.comprobar(DESAFIO) == []


def test_hay_los_errores_pedidos():
    nombres = {e.archivo.stem for e in ERRORES}
    assert PEDIDOS <= nombres, PEDIDOS - nombres
    for error in ERRORES:
        assert error.error and error.falla and error.mensajes and error.clausulas, error.archivo


@pytest.mark.parametrize("error", ERRORES, ids=[e.archivo.stem for e in ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(veredicto, error):
    r = veredicto(error.codigo)
    p = prueba(r, error.falla)
    assert p["tipo"] == "fallo", p
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    for otra in r["pruebas"]:
        texto = otra["mensaje"] or ""
        for prohibido in ("Traceback", "pruebas.py", "mundo.py", "calificador", 'File "',
                          "error interno", "Ajeno", "object at 0x"):
            assert prohibido not in texto, (otra["nombre"], texto)


def test_un_error_del_lector_es_suyo_con_su_linea(calificador):
    """An exception of the reader's own code (not of a run) is their error, with their line,
    whatever the test that meets it."""
    codigo = SOLUCION.replace('exitos = motivos["resuelta"]', 'exitos = motivos["resueltas"]')
    r = calificador.calificar(DESAFIO, codigo)
    p = prueba(r, "exitos, ejecuciones y tasa")
    assert p["tipo"] == "error"
    assert "KeyError" in p["mensaje"]
    assert codigo.splitlines()[p["linea"] - 1].strip() == 'exitos = motivos["resueltas"]'


# ------------------------------------------------------------------ what the tests measure


def funciones(ruta: Path) -> dict[str, str]:
    """{name: its syntax tree, as text, without docstring} of a file's top-level functions."""
    hechas = {}
    for nodo in ast.parse(ruta.read_text(encoding="utf-8")).body:
        if isinstance(nodo, ast.FunctionDef):
            if ast.get_docstring(nodo) is not None:
                nodo.body = nodo.body[1:]
            hechas[nodo.name] = ast.dump(nodo)
    return hechas


def test_el_agente_que_miden_las_pruebas_es_el_de_la_leccion_5():
    """agentes.py carries lesson 5's reference agent as challenges/pruebas-del-agente/agente.py
    has it: the two stay the same."""
    suyo = funciones(CARPETA / "agentes.py")
    leccion = funciones(RAIZ / "challenges" / "pruebas-del-agente" / "agente.py")
    assert set(leccion) == {"ejecutar", "bucle", "agente"}
    for nombre, arbol in leccion.items():
        assert suyo[nombre] == arbol, nombre


def test_las_medidas_de_verdad_traen_lo_que_prueban(calificador):
    """The real tasks are not the bench's, and are told apart by their requests; measured here,
    lesson 5's agent resolves some and hits the cap in others, and the broken one ends runs for
    each of the four reasons."""
    ns = calificador.pruebas(DESAFIO)
    runtime = vars(calificador.modulos(DESAFIO)["runtime"])
    tareas = ns["tareas"](ns["N_TAREAS"], ns["SEMILLA"])
    pedidos = [t.pedido for t in tareas]
    assert len(set(pedidos)) == len(pedidos)
    assert not set(pedidos) & {t.pedido for t in runtime["tareas_del_banco"]()}
    assert ns["SEMILLA"] not in (runtime["SEMILLA_DEL_BANCO"], 1)
    bueno = {e.motivo for e in ns["medidas_aqui"](tareas, ns["agente_de_la_leccion"])}
    assert bueno == {"resuelta", "tope"}
    roto = [e.motivo for e in ns["medidas_aqui"](ns["tareas"](ns["N_TAREAS"], ns["SEMILLA"]),
                                                 ns["agente_con_fallos"])]
    assert set(roto) == set(runtime["MOTIVOS"])
    # and the user is asked: a task the user allows and one they do not
    assert {tuple(t.respuestas) for t in tareas} >= {("sí",), ("no",)}


def test_la_comparacion_de_verdad_tiene_cambios_y_los_de_comparar_van_en_los_dos_sentidos(calificador):
    """The whole-contract comparison (lesson 5's agent, then the broken one) has runs that stop
    being solved and a change between two unsolved reasons; the fake measures comparar's tests
    build change both ways, between every reason, with motives that change and stay unsolved."""
    ns = calificador.pruebas(DESAFIO)
    t = ns["tareas"](ns["N_TAREAS"], ns["SEMILLA"])
    antes = {(e.tarea, e.n): e.motivo for e in ns["medidas_aqui"](t, ns["agente_de_la_leccion"])}
    despues = {(e.tarea, e.n): e.motivo for e in ns["medidas_aqui"](t, ns["agente_con_fallos"])}
    assert any(antes[k] == "resuelta" != despues[k] for k in antes)
    assert any("resuelta" not in (antes[k], despues[k]) and antes[k] != despues[k] for k in antes)
    a, d = ns["ANTES"], ns["DESPUES"]
    arregla = [k for k in a if d[k] == "resuelta" != a[k]]
    rompe = [k for k in a if a[k] == "resuelta" != d[k]]
    assert len(arregla) >= 2 and len(rompe) >= 2
    assert {a[k] for k in arregla} == {"tope", "error", "equivocada"}
    assert any("resuelta" not in (a[k], d[k]) and a[k] != d[k] for k in a)
    # separados: both directions, overlapping, touching both ways, one inside the other
    casos = ns["INTERVALOS"]
    assert sum(x[1] < y[0] or y[1] < x[0] for x, y in casos) == 2
    assert sum(x[1] == y[0] or y[1] == x[0] for x, y in casos) == 2


def test_las_medidas_de_mentira_traen_lo_que_prueban(calificador):
    """The fake measure that checks the whole contract ends runs for every destination, with
    a user who says yes, one who says no and none."""
    ns = calificador.pruebas(DESAFIO)
    tareas = ns["con_semillas"]()
    destinos = {d for t in tareas for d in t.destinos}
    assert destinos == set(ns["DESTINOS"]) - {"salida"}
    assert {tuple(t.respuestas) for t in tareas} == {("sí",), ("no",), ()}


def test_los_veredictos_no_cambian_de_un_calificador_a_otro(veredicto):
    """A new grader gives the module's grader's verdicts, which it gave after grading others."""
    otro = challenges.calificador()
    for codigo in [SOLUCION, INICIAL] + [e.codigo for e in ERRORES]:
        assert sin_reloj(otro.calificar(DESAFIO, codigo)) == sin_reloj(veredicto(codigo))


def test_el_calificador_da_lo_mismo_en_pyodide(tmp_path, veredicto):
    """In Pyodide, with the runtime modules in conf.py's order (ruidoso.py and banco.py among
    them), every verdict is CPython's."""
    modulos = runtime_de_conf()
    assert {"ruidoso", "banco"} <= set(modulos)
    casos = {"solucion": (DESAFIO, SOLUCION), "inicial": (DESAFIO, INICIAL)}
    casos.update({e.archivo.stem: (DESAFIO, e.codigo) for e in ERRORES})
    pyo = en_pyodide(tmp_path, [DESAFIO], casos, modulos)["resultados"]
    for nombre, (_, codigo) in casos.items():
        assert sin_reloj(pyo[nombre]) == json.loads(json.dumps(sin_reloj(veredicto(codigo)))), nombre
