"""The tasks the course's model is measured on (bench/apartadas.py) and the arithmetic of
the measure (bench/aciertos.py): the held-out requests are never produced by the training
generator, every check can fail and holds for a right outcome, and the interval is Wilson's."""

from __future__ import annotations

import random

import pytest

from runtime import espacio
from bench import apartadas
from bench.aciertos import wilson
from bench.evaluar import leer_salida

TODAS = apartadas.LECCIONES + apartadas.APARTADAS


def test_no_held_out_request_is_one_the_training_generator_makes():
    ns = espacio("entorno", "permisos", "palabras", "tareas", "escrituras", "entrenamiento")
    hechos = {ns["tarea_al_azar"](random.Random(s), nombres_variados=v, amplio=a).pedido
              for s in range(4000) for v in (False, True) for a in (False, True)}
    assert len(hechos) > 4000
    assert not {t.pedido for t in apartadas.APARTADAS} & hechos


@pytest.mark.parametrize("tarea", TODAS, ids=lambda t: t.pedido[:40])
def test_every_check_fails_when_nothing_was_done_or_said(tarea):
    assert not tarea.comprobar(tarea.entorno, dict(tarea.entorno), "")
    assert not tarea.comprobar(tarea.entorno, dict(tarea.entorno), "Hecho.")


def test_a_right_outcome_passes_and_a_near_miss_does_not():
    leccion = apartadas.LECCIONES[0]  # the tortilla: huevos and cebolla added
    bien = {**leccion.entorno, "lista.txt": "pan, leche, patatas, huevos, cebolla"}
    assert leccion.comprobar(leccion.entorno, bien, "He apuntado huevos y cebolla.")
    perdido = {**leccion.entorno, "lista.txt": "pan, leche, huevos, cebolla"}  # an item lost
    assert not leccion.comprobar(leccion.entorno, perdido, "He apuntado huevos y cebolla.")
    otro = {**bien, "notas.txt": ""}  # something else changed
    assert not leccion.comprobar(leccion.entorno, otro, "Hecho.")
    movil = next(t for t in apartadas.APARTADAS if "Pablo" in t.pedido)
    assert movil.comprobar(movil.entorno, dict(movil.entorno), "El de Pablo es el 600 333 444.")
    assert not movil.comprobar(movil.entorno, dict(movil.entorno), "El de Pablo es el 600 111 222.")
    negada = next(t for t in apartadas.LECCIONES if not t.permite)
    assert negada.comprobar(negada.entorno, dict(negada.entorno), "No he escrito nada: no me has dado permiso.")
    assert not negada.comprobar(negada.entorno, dict(negada.entorno), "He apuntado huevos y cebolla.")


def test_the_two_sets_cover_the_lessons_kinds_and_three_other_environments():
    assert {t.tipo for t in apartadas.LECCIONES} >= {"leer", "listar", "buscar", "añadir",
                                                    "falta-para-receta", "denegada", "sugerencia"}
    assert len({id(t.entorno) for t in apartadas.APARTADAS}) == 3
    assert len(apartadas.LECCIONES) >= 10 and len(apartadas.APARTADAS) >= 16


@pytest.mark.parametrize("exitos, n, bajo, alto", [
    (0, 40, 0.0, 0.0876), (8, 10, 0.4902, 0.9433), (40, 40, 0.9124, 1.0), (13, 26, 0.3206, 0.6794)])
def test_the_interval_is_wilsons(exitos, n, bajo, alto):
    assert wilson(exitos, n) == pytest.approx((bajo, alto), abs=1e-4)


@pytest.mark.parametrize("salida, bloque", [
    ('{"leer":{"ruta":"lista.txt"}}', {"type": "tool_use", "name": "leer", "input": {"ruta": "lista.txt"}}),
    ('{"respuesta":"Hecho."}', {"type": "text", "text": "Hecho."}),
    ('{"respuesta":3}', None),
    ('{"leer":{},"listar":{}}', None),
    ('{"respuesta":"Hech', None),
    ("hola", None),
])
def test_the_models_output_is_read_as_the_page_reads_it(salida, bloque):
    assert leer_salida(salida) == bloque


class Guion:
    """A stand-in for llama-cpp's Llama: the outputs given, one per turn, then a listing forever."""

    def __init__(self, *salidas):
        self.salidas = list(salidas)
        self.vistos = []

    def create_chat_completion(self, messages, **opciones):
        self.vistos.append(messages)
        texto = self.salidas.pop(0) if self.salidas else '{"listar":{"carpeta":""}}'  # then, forever
        return {"choices": [{"message": {"content": texto}, "finish_reason": "stop"}]}


@pytest.fixture(scope="module")
def arnes():
    from bench import evaluar
    return evaluar.harness()


def test_a_run_goes_through_the_reference_agent_and_ends_with_its_cause(arnes):
    from bench.evaluar import correr
    tortilla, modo = apartadas.LECCIONES[0], {"temperatura": 0, "semilla": 0}
    llm = Guion('{"leer":{"ruta":"recetas/tortilla.txt"}}', '{"leer":{"ruta":"lista.txt"}}',
                '{"escribir":{"ruta":"lista.txt","contenido":"pan, leche, patatas, huevos, cebolla"}}',
                '{"respuesta":"He apuntado huevos y cebolla en lista.txt."}')
    r = correr(llm, None, arnes, tortilla, modo)
    assert (r["resuelta"], r["como"], r["turnos"]) == (True, "fin", 4)
    # what the model read on its second turn: the page server's rendering of the first result
    assert llm.vistos[1][-1] == {"role": "user", "content": "Resultado de leer "
                                 '{"ruta":"recetas/tortilla.txt"}:\nTortilla: huevos, patatas, cebolla.'}
    assert correr(Guion(), None, arnes, tortilla, modo)["motivo"] == "tope"
    r = correr(Guion('{"leer":{"ruta":"tortilla.txt"}}', '{"respuesta":"Ya está."}'), None, arnes,
               tortilla, modo)
    assert (r["resuelta"], r["motivo"]) == (False, "errores")
    r = correr(Guion('{"respuesta":"Hech'), None, arnes, tortilla, modo)
    assert (r["resuelta"], r["como"]) == (False, "cortada")
