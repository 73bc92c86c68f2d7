"""runtime/banco.py: the task set, the user and the noisy model of «Medir el agente»."""

from __future__ import annotations

import json

import pytest

from runtime import espacio
from entrenamiento.datos import AGENTE, RUNTIME, cargar_con_runtime

MANIFIESTO = json.loads((__import__("pathlib").Path(__file__).resolve().parents[2]
                         / "widgets" / "datos" / "smollm2-135m-adaptador.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ns():
    ns = espacio(*RUNTIME, "ruidoso", "banco")
    ns["agente"] = cargar_con_runtime(AGENTE, ns)["agente"]
    return ns


def test_the_module_leaves_only_its_contract():
    antes = set(espacio(*RUNTIME, "ruidoso"))
    assert set(espacio(*RUNTIME, "ruidoso", "banco")) - antes == {
        "SEMILLA_DEL_BANCO", "RUIDO", "MOTIVOS", "tareas_del_banco", "modelo_ruidoso", "usuario"}


def test_two_tasks_of_each_kind_the_same_each_time_and_new_objects(ns):
    una, otra = ns["tareas_del_banco"](), ns["tareas_del_banco"]()
    assert [t.tipo for t in una] == list(ns["TIPOS_DE_TAREA"]) * 2
    assert len({t.pedido for t in una}) == 20
    assert [(t.pedido, t.entorno) for t in una] == [(t.pedido, t.entorno) for t in otra]
    una[0].entorno["lista.txt"] = "otra cosa"
    assert ns["tareas_del_banco"]()[0].entorno != una[0].entorno
    assert all(a is not b and a.entorno is not b.entorno for a, b in zip(una, otra, strict=True))


def test_no_task_of_the_bench_is_in_the_training_data(ns):
    datos = MANIFIESTO["datos"]
    assert datos["semilla"] != ns["SEMILLA_DEL_BANCO"]
    entrenadas = {(t.pedido, tuple(sorted(t.entorno.items())))
                  for t in ns["tareas"](datos["ejecuciones"], semilla=datos["semilla"],
                                        nombres_variados=datos.get("nombres_variados", False),
                                        amplio=datos.get("amplio", False))}
    for t in ns["tareas_del_banco"]():
        assert (t.pedido, tuple(sorted(t.entorno.items()))) not in entrenadas, t


def test_without_noise_each_task_is_solved_and_the_user_answers_what_the_task_says(ns):
    for t in ns["tareas_del_banco"]():
        preguntar = ns["usuario"](t)
        entorno = dict(t.entorno)
        como, final, _ = ns["agente"](t.modelo_ideal(), t.pedido, entorno, preguntar=preguntar)
        assert como == "fin" and t.comprobar(entorno, final), t
        esperado = t.respuestas == ["sí"]
        assert [preguntar(None) for _ in range(5)] == [esperado] * 5  # never runs out of answers


def test_the_noisy_model_of_a_task_and_seed_is_always_the_same(ns):
    def corrida(t, semilla):
        modelo = ns["modelo_ruidoso"](t, semilla)
        como, final, M = ns["agente"](modelo, t.pedido, dict(t.entorno), preguntar=ns["usuario"](t))
        return como, final, [ns["muestra"](m) for m in M], modelo.errores

    tareas = ns["tareas_del_banco"]()
    corridas = [corrida(t, s) for t in tareas for s in range(5)]
    assert corridas == [corrida(t, s) for t in tareas for s in range(5)]
    assert any(errores for *_, errores in corridas) and any(not e for *_, e in corridas)
    assert ns["modelo_ruidoso"](tareas[0], 0).no_para == ns["RUIDO"]["no_para"]
