"""runtime/ruidoso.py: the noisy scripted model of «Medir el agente», run by the course's reference
agent on the generator's tasks (runtime/tareas.py's Tarea and its ideal model)."""

from __future__ import annotations

import pytest

from runtime import espacio
from tests.runtime.comun import en_pyodide
from entrenamiento.datos import AGENTE, RUNTIME, cargar_con_runtime


@pytest.fixture(scope="module")
def ns():
    ns = espacio(*RUNTIME, "ruidoso", "banco")
    ns["agente"] = cargar_con_runtime(AGENTE, ns)["agente"]
    return ns


def correr(ns, tarea, **ruido):
    """One run of ``tarea`` by the reference agent with a ModeloRuidoso over its ideal model:
    (solved, how it ended, M, the model)."""
    modelo = ns["ModeloRuidoso"](tarea.modelo_ideal(), **ruido)
    entorno = dict(tarea.entorno)
    respuestas = iter(tarea.respuestas)
    preguntar = lambda ll: next(respuestas, "no") == "sí"  # noqa: E731
    como, final, M = ns["agente"](modelo, tarea.pedido, entorno, preguntar=preguntar, tope=10)
    return como == "fin" and tarea.comprobar(entorno, final), como, M, modelo


def test_the_module_leaves_only_its_contract():
    antes = set(espacio("entorno"))
    assert set(espacio("entorno", "ruidoso")) - antes == {"ModeloRuidoso"}


def test_without_noise_it_is_its_ideal_model(ns):
    for tarea in ns["tareas"](40, semilla=7):
        hecha, _, _, modelo = correr(ns, tarea)
        assert hecha, tarea
        assert modelo.errores == [] and modelo.turno > 0


def test_each_kind_of_error_is_what_the_harness_sees(ns):
    tarea = next(t for t in ns["tareas"](40, semilla=3) if t.tipo == "leer")
    _, como, M, modelo = correr(ns, tarea, herramienta=1.0)
    assert como == "tope" and {c for _, c in modelo.errores} == {"herramienta"}
    pedidas = [b for rol, c in M if rol == "asistente" for b in c if b["type"] == "tool_use"]
    assert {b["name"] for b in pedidas} == {"borrar"}
    assert all(ns["incumple"](b) for b in pedidas)  # the harness answers each with an error
    _, como, M, modelo = correr(ns, tarea, argumentos=1.0)
    pedidas = [b for rol, c in M if rol == "asistente" for b in c if b["type"] == "tool_use"]
    assert como == "tope" and all(ns["incumple"](b) for b in pedidas)
    assert all(k.endswith("_") for b in pedidas for k in b["input"])
    _, como, M, modelo = correr(ns, tarea, no_para=1.0)
    assert como == "tope" and modelo.errores[-1][1] == "no_para"
    assert not any(c == "no_para" for t, c in modelo.errores if t == 1)  # only where it would answer


def test_after_an_error_it_goes_on_where_it_was(ns):
    """Its wrong calls and their results are taken out of M before the ideal model is asked:
    runs with errors still end solved, and the calls that were right are the ideal run's."""
    salvadas = 0
    for semilla, tarea in enumerate(ns["tareas"](60, semilla=11)):
        hecha, _, M, modelo = correr(ns, tarea, semilla=semilla, herramienta=0.15, argumentos=0.15)
        if modelo.errores and hecha:
            salvadas += 1
            limpias = [b for rol, c in M if rol == "asistente" for b in c
                       if b["type"] == "tool_use" and not b["id"].startswith("ruido_")]
            _, _, M_ideal, _ = correr(ns, tarea)
            ideales = [b for rol, c in M_ideal if rol == "asistente" for b in c if b["type"] == "tool_use"]
            assert limpias == ideales
    assert salvadas >= 5


def _agente_escueto(ns):
    """The reference agent, but an invalid call's observation says only «llamada no válida»."""
    def agente(modelo, pedido, entorno, preguntar, tope=10):
        M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", pedido)]
        for _ in range(tope):
            respuesta = modelo(M, ns["HERRAMIENTAS"])
            M.append(("asistente", respuesta))
            llamadas = [b for b in respuesta if b["type"] == "tool_use"]
            if not llamadas:
                return "fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M
            ejecutar = ns["agente"].__globals__["ejecutar"]
            M.append(("usuario", [ns["resultado"](ll["id"], "llamada no válida", es_error=True)
                                  if ns["incumple"](ll) else ejecutar(ll, entorno, preguntar)
                                  for ll in llamadas]))
        return "tope", None, M
    return agente


def test_it_repeats_a_wrong_call_until_the_observation_shows_the_way(ns):
    """After «llamada no válida» it asks the same wrong call again, turn after turn; after the
    reference agent's observation, which names the tools and the arguments, it goes on."""
    tarea = next(t for t in ns["tareas"](40, semilla=3) if t.tipo == "leer")
    for clase in ("herramienta", "argumentos"):
        ruido = {clase: 1.0}
        modelo = ns["ModeloRuidoso"](tarea.modelo_ideal(), **ruido)
        como, _, M = _agente_escueto(ns)(modelo, tarea.pedido, dict(tarea.entorno), ns["denegar"])
        pedidas = [b for rol, c in M if rol == "asistente" for b in c if b["type"] == "tool_use"]
        assert como == "tope" and len(pedidas) == 10
        assert len({(b["name"], tuple(b["input"])) for b in pedidas}) == 1  # the same call each turn
        assert modelo.errores == [(n, clase) for n in range(1, 11)]


def test_forgetting_to_stop_repeats_the_last_call_until_the_harness_refuses_it(ns):
    tarea = next(t for t in ns["tareas"](40, semilla=3) if t.tipo == "leer")
    _, como, M, modelo = correr(ns, tarea, no_para=1.0)
    pedidas = [b for rol, c in M if rol == "asistente" for b in c if b["type"] == "tool_use"]
    ultima_ideal = [b for b in pedidas if not b["id"].startswith("ruido_")][-1]
    assert como == "tope"
    assert all((b["name"], b["input"]) == (ultima_ideal["name"], ultima_ideal["input"])
               for b in pedidas if b["id"].startswith("ruido_"))
    # a harness that answers a repeated call with an error gets the answer in the next turn
    resueltas, sin_rechazo = [], []
    for semilla, tarea in enumerate(ns["tareas"](20, semilla=9)):
        modelo = ns["ModeloRuidoso"](tarea.modelo_ideal(), semilla=semilla, no_para=0.6)
        M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", tarea.pedido)]
        entorno, vistas, usuario = dict(tarea.entorno), set(), ns["usuario"](tarea)
        for _ in range(30):
            respuesta = modelo(M, ns["HERRAMIENTAS"])
            M.append(("asistente", respuesta))
            if respuesta[0]["type"] == "text":
                break
            ll = respuesta[0]
            clave = (ll["name"], repr(sorted(ll["input"].items())))
            observacion = (ns["resultado"](ll["id"], "ya has hecho esta llamada", es_error=True)
                           if clave in vistas else ns["agente"].__globals__["ejecutar"](ll, entorno, usuario))
            vistas.add(clave)
            M.append(("usuario", [observacion]))
        resueltas.append(respuesta[0]["type"] == "text" and tarea.comprobar(entorno, respuesta[0]["text"]))
        sin_rechazo.append(correr(ns, tarea, semilla=semilla, no_para=0.6)[0])
    assert all(resueltas) and sum(sin_rechazo) < len(resueltas)


def test_the_same_seed_errs_in_the_same_turns_and_the_rate_is_the_one_given(ns):
    tareas = ns["tareas"](100, semilla=5)
    una = [correr(ns, t, semilla=s, herramienta=0.2)[3].errores for s, t in enumerate(tareas)]
    otra = [correr(ns, t, semilla=s, herramienta=0.2)[3].errores for s, t in enumerate(tareas)]
    assert una == otra
    distinta = [correr(ns, t, semilla=s + 1000, herramienta=0.2)[3].errores for s, t in enumerate(tareas)]
    assert distinta != una
    # over every turn where it would call a tool, about one in five is wrong
    turnos = errores = 0
    for s, t in enumerate(tareas):
        _, _, M, modelo = correr(ns, t, semilla=s, herramienta=0.2)
        turnos += sum(1 for rol, c in M if rol == "asistente" and any(b["type"] == "tool_use" for b in c))
        errores += len(modelo.errores)
    assert turnos > 150 and 0.12 < errores / turnos < 0.28


@pytest.mark.parametrize("ruido, dice", [
    ({"herramienta": 1.5}, "herramienta es una probabilidad, entre 0 y 1"),
    ({"no_para": -0.1}, "no_para es una probabilidad"),
    ({"argumentos": "mucho"}, "argumentos es una probabilidad"),
    ({"herramienta": 0.6, "argumentos": 0.6}, "no pueden sumar más de 1"),
])
def test_a_probability_that_is_not_one_says_so(ns, ruido, dice):
    with pytest.raises(ValueError, match=dice):
        ns["ModeloRuidoso"](lambda M, h: [], **ruido)


#: In Pyodide: noisy runs of three generated tasks, each with its seed.
EN_PYODIDE = """
salida = []
for semilla, tarea in enumerate(ns["tareas"](3, semilla=5)):
    modelo = ns["ModeloRuidoso"](tarea.modelo_ideal(), semilla=semilla, herramienta=0.3, no_para=0.3)
    respuestas = iter(tarea.respuestas)
    como, final, M = agente["agente"](modelo, tarea.pedido, dict(tarea.entorno),
                                      preguntar=lambda ll: next(respuestas, "no") == "sí", tope=10)
    salida.append([como, final, [list(e) for e in modelo.errores], [ns["muestra"](m) for m in M]])
json.dumps({"plataforma": sys.platform, "corridas": salida}, ensure_ascii=False)
"""


def test_it_errs_in_the_same_turns_in_pyodide(ns, tmp_path):
    salida = en_pyodide(tmp_path, (*RUNTIME, "ruidoso"), EN_PYODIDE)
    assert salida["plataforma"] == "emscripten"
    esperadas = []
    for semilla, tarea in enumerate(ns["tareas"](3, semilla=5)):
        _, como, M, modelo = correr(ns, tarea, semilla=semilla, herramienta=0.3, no_para=0.3)
        final = next((" ".join(b["text"] for b in c if b["type"] == "text")
                      for rol, c in reversed(M) if rol == "asistente"), None) if como == "fin" else None
        esperadas.append([como, final, [list(e) for e in modelo.errores], [ns["muestra"](m) for m in M]])
    assert salida["corridas"] == esperadas
    assert any(e for _, _, e, _ in esperadas)  # some run did err
