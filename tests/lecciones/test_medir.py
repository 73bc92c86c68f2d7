"""The lesson «Medir el agente» tells the truth: its cells run in order in CPython, and every
number its prose states about what the code prints, what the benches measure on the noisy model,
what a question takes as its answer and what the recording of the real model holds is computed
here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import json
import math
import re

import pytest

from tests.lecciones.comun import LECCIONES, celdas_de, ejecutar_leccion, opcion_de, texto_de

GRABACION = LECCIONES / "datos" / "banco-modelo-del-curso.json"


@pytest.fixture(scope="module")
def medir():
    return ejecutar_leccion("medir")


@pytest.fixture(scope="module")
def prosa():
    return " ".join(texto_de("medir").split())


def ejecuciones(ns, variante, veces=10, **extra):
    """{(task, seed): how it ended} of a variant on the bench's tasks and the lesson's noisy
    model, each run with a fresh environment, model and user (what the benches do)."""
    fines = {}
    for i, tarea in enumerate(ns["tareas_del_banco"]()):
        for semilla in range(veces):
            entorno, modelo = dict(tarea.entorno), ns["modelo_ruidoso"](tarea, semilla)
            como, final, M = variante(modelo, tarea.pedido, entorno, ns["usuario"](tarea), **extra)
            motivo = ("tope" if como == "tope" else
                      "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
            fines[(i, semilla)] = (motivo, modelo.errores)
    return fines


def resueltas(fines):
    return sum(motivo == "resuelta" for motivo, _ in fines.values())


def cambiaron(antes, despues):
    """(runs the new one solves and the old did not, and the other way round)."""
    a_mejor = sum(antes[k][0] != "resuelta" and despues[k][0] == "resuelta" for k in antes)
    a_peor = sum(antes[k][0] == "resuelta" and despues[k][0] != "resuelta" for k in antes)
    return a_mejor, a_peor


def intervalo(ns, exitos, n):
    """As the bench's table writes it: «34,4 % – 47,9 %»."""
    return " – ".join(f"{x * 100:.1f} %".replace(".", ",") for x in ns["wilson"](exitos, n))


def test_the_first_cell_is_the_trace_s_run(medir):
    salidas, ns = medir
    lineas = salidas[0].splitlines()
    tareas = ns["tareas_del_banco"]()
    assert lineas[:20] == [f"{i} {t.tipo} · {t.pedido}" for i, t in enumerate(tareas)]
    assert "acaba con tope" in salidas[0] and "¿resuelta? False" in salidas[0]
    # what the prose says of the trace: turn 1 reads, turn 2 writes with ruta_ and contenido_,
    # turn 3 writes right, then the same write seven times until the cap
    tarea, entorno = tareas[4], dict(tareas[4].entorno)
    como, _, M = ns["agente"](ns["modelo_ruidoso"](tarea, 2), tarea.pedido, entorno, ns["usuario"](tarea))
    llamadas = [b for rol, c in M if rol == "asistente" for b in c if b["type"] == "tool_use"]
    assert (llamadas[0]["name"], llamadas[0]["input"]) == ("leer", {"ruta": "lista.txt"})
    assert llamadas[1]["name"] == "escribir" and set(llamadas[1]["input"]) == {"ruta_", "contenido_"}
    assert all((b["name"], b["input"]) == (llamadas[2]["name"], llamadas[2]["input"]) for b in llamadas[3:])
    assert len(llamadas) == 10 and len(llamadas[3:]) == 7
    assert como == "tope" and "azúcar" not in entorno["lista.txt"] and "azúcar" in tarea.entorno["lista.txt"]


def test_the_trace_is_the_first_cell_s_run():
    texto = texto_de("medir")
    traza = texto[texto.index("```{traza}"):]
    traza = traza[:traza.index("```", 3)]
    assert "tareas_del_banco()[4]" in traza and "modelo_ruidoso(tarea, 2)" in traza
    assert "tarea = conjunto[4]" in celdas_de("medir")[0] and "modelo_ruidoso(tarea, 2)" in celdas_de("medir")[0]


def test_the_interval_cell_and_its_prose(medir, prosa):
    salidas, ns = medir
    assert salidas[1].splitlines() == [
        "  3 de 5    Wilson [0.23, 0.88]   normal [0.17, 1.03]",
        " 60 de 100  Wilson [0.50, 0.69]   normal [0.50, 0.70]",
        "  0 de 10   Wilson [0.00, 0.28]   normal [0.00, 0.00]",
        " 10 de 10   Wilson [0.72, 1.00]   normal [1.00, 1.00]",
    ]
    assert "Con 3 de 5, el intervalo de Wilson va de 0,23 a 0,88" in prosa
    assert "Con 60 de 100, de 0,50 a 0,69" in prosa
    assert "un extremo alto de 1,03" in prosa and "para 10 de 10 el intervalo [1, 1]" in prosa
    assert "con 0 éxitos de 10 da el intervalo [0, 0]" in prosa
    assert "todavía admite una tasa de hasta el 28 %" in prosa
    # Wilson's interval never leaves [0, 1]; the normal one does
    for exitos, n in [(0, 1), (1, 1), (0, 3), (3, 3), (1, 2)]:
        bajo, alto = ns["wilson"](exitos, n)
        assert 0 <= bajo <= exitos / n <= alto <= 1


def test_the_third_cell_runs_the_trace_s_task_with_both(medir):
    salidas, _ = medir
    assert salidas[2].splitlines() == [
        "agente: tope, 10 turnos · None",
        "agente_sin_repetir: fin, 6 turnos · He quitado azúcar de lista.txt; no había leche."]


def test_the_benches_on_the_noisy_model_measure_what_the_prose_says(medir, prosa):
    _, ns = medir
    escueto = ejecuciones(ns, ns["agente_escueto"])
    agente = ejecuciones(ns, ns["agente"])
    repetir = ejecuciones(ns, ns["agente_sin_repetir"])
    v2 = ejecuciones(ns, ns["agente_sin_repetir_v2"])
    tope_20 = ejecuciones(ns, ns["agente"], tope=20)
    assert len(agente) == 200
    assert [resueltas(f) for f in (escueto, agente, repetir, v2, tope_20)] == [82, 140, 183, 199, 141]
    assert (f"`agente_escueto` resuelve 82 (41 %, con un intervalo de Wilson de {intervalo(ns, 82, 200)}) y "
            f"`agente` 140 (70 %, {intervalo(ns, 140, 200)})") in prosa
    assert cambiaron(escueto, agente) == (58, 0)
    assert "58 pasan de no resueltas a resueltas y ninguna al revés" in prosa
    fallos = [e for motivo, e in agente.values() if motivo != "resuelta"]
    assert len(fallos) == 60 and all(m == "tope" for m, _ in agente.values() if m != "resuelta")
    sin_parar = sum(any(c == "no_para" for _, c in e) for e in fallos)
    assert sin_parar == 59
    assert "Las 60 ejecuciones que `agente` no resuelve acaban todas en el tope. En 59 el modelo no sabe parar" in prosa
    assert "con `tope=20`, `agente` resuelve 141, una más" in prosa
    assert f"`agente_sin_repetir` resuelve 183 de 200 (91,5 %, {intervalo(ns, 183, 200)})" in prosa
    assert cambiaron(agente, repetir) == (56, 13)
    assert "56 ejecuciones pasan a resueltas. Pero 13 pasan de resueltas a no resueltas" in prosa
    # the 13: a wrong call, then the same wrong call again in the next turn
    for k in agente:
        if agente[k][0] == "resuelta" and repetir[k][0] != "resuelta":
            turnos = [t for t, c in repetir[k][1] if c in ("herramienta", "argumentos")]
            assert any(b == a + 1 for a, b in zip(turnos, turnos[1:])), k
    assert cambiaron(agente, v2) == (59, 0)
    assert f"Con `agente_sin_repetir_v2`, 199 de 200 ({intervalo(ns, 199, 200)}): 59 pasan a resueltas y ninguna al revés" in prosa


def test_the_numeric_question_is_wilson_s_upper_end(medir):
    _, ns = medir
    respuesta, margen = float(opcion_de("medir", "cero-de-doce", "respuesta")), float(opcion_de("medir", "cero-de-doce", "margen"))
    alto = ns["wilson"](0, 12)[1] * 100
    assert abs(alto - respuesta) <= margen and math.isclose(alto / 100, 1.96 ** 2 / (12 + 1.96 ** 2))
    assert "3,84 / 15,84 ≈ 0,24" in " ".join(texto_de("medir").split())


def test_the_bench_tasks_are_twenty_two_of_each_kind(medir, prosa):
    _, ns = medir
    tareas = ns["tareas_del_banco"]()
    assert len(tareas) == 20 and all([t.tipo for t in tareas].count(k) == 2 for k in ns["TIPOS_DE_TAREA"])
    assert "Las tareas de esta lección salen de `tareas_del_banco()`: veinte, dos de cada tipo" in prosa


# ------------------------------------------------------------------ the real model, recorded

@pytest.fixture(scope="module")
def grabacion():
    return json.loads(GRABACION.read_text(encoding="utf-8"))


def test_the_recording_is_of_the_pinned_model_on_the_bench_s_tasks(medir, grabacion):
    from widgets.construccion.modelo_local import fijado

    _, ns = medir
    assert grabacion["modelo"]["sha256"] == fijado().publicado_sha256
    assert grabacion["temperatura"] == 0 and grabacion["semillas"] == [0] and grabacion["tope"] == 10
    assert grabacion["variantes"] == ["agente", "agente_sin_repetir_v2"]
    tareas = ns["tareas_del_banco"]()
    assert grabacion["tareas"] == [{"tipo": t.tipo, "pedido": t.pedido} for t in tareas]
    assert len(grabacion["ejecuciones"]) == 40
    for e in grabacion["ejecuciones"]:
        assert e["pedido"] == tareas[e["tarea"]].pedido and e["motivo"] in ns["MOTIVOS"]


def test_each_recorded_run_is_what_the_harness_and_the_check_say(medir, grabacion):
    """Each recorded run replays: the recorded answers, as a scripted model, through the lesson's
    variant give the same M, and the task's check gives the recorded reason."""
    _, ns = medir
    tareas = ns["tareas_del_banco"]()
    for e in grabacion["ejecuciones"]:
        if e["motivo"] == "error":
            continue
        tarea = tareas[e["tarea"]]
        M = [tuple(m) for m in e["M"]]
        respuestas = iter([c for rol, c in M if rol == "asistente"])
        entorno = dict(tarea.entorno)
        como, final, otra = ns[e["variante"]](lambda M, h: next(respuestas), tarea.pedido, entorno,
                                              ns["usuario"](tarea))
        assert [list(m) for m in otra] == [list(m) for m in e["M"]]
        motivo = "tope" if como == "tope" else "resuelta" if tarea.comprobar(entorno, final) else "equivocada"
        assert motivo == e["motivo"] and final == e["final"]


def test_the_prose_says_what_the_recording_holds(medir, grabacion, prosa):
    _, ns = medir
    por_variante = {v: [e for e in grabacion["ejecuciones"] if e["variante"] == v]
                    for v in grabacion["variantes"]}
    agente, v2 = por_variante["agente"], por_variante["agente_sin_repetir_v2"]
    exitos = sum(e["motivo"] == "resuelta" for e in agente)
    assert exitos == sum(e["motivo"] == "resuelta" for e in v2) == 11
    assert [e["motivo"] for e in agente] == [e["motivo"] for e in v2]  # «no cambió ninguna»
    assert (f"Las dos variantes resuelven 11 de 20 tareas (55 %, {intervalo(ns, 11, 20)}), y son las "
            f"mismas 11: no cambió ninguna") in prosa
    fallos = [e for e in agente if e["motivo"] != "resuelta"]
    assert len(fallos) == 9 and all(e["motivo"] == "equivocada" for e in fallos)
    assert "Las 9 que fallan acaban todas en «equivocada»" in prosa
    # «Nunca llega al tope ni repite una llamada» …
    for e in agente + v2:
        llamadas = [(b["name"], json.dumps(b["input"], sort_keys=True)) for rol, c in e["M"]
                    if rol == "asistente" for b in c if b["type"] == "tool_use"]
        assert e["motivo"] != "tope" and len(llamadas) == len(set(llamadas)), e["pedido"]
        # … «y un error de forma no llega a ocurrir»
        assert not any(ns["incumple"](b) for rol, c in e["M"] if rol == "asistente"
                       for b in c if b["type"] == "tool_use")
    resueltas = [e for e in agente if e["motivo"] == "resuelta"]
    turnos = sum(e["turnos"] for e in resueltas) / len(resueltas)
    tokens = sum(e["tokens"] for e in resueltas) / len(resueltas)
    segundos = sum(e["segundos"] for e in agente) / len(agente)
    dice = (f"Cada tarea resuelta le costó {turnos:.1f} turnos y unos {round(tokens)} *tokens*, y "
            f"cada ejecución, {segundos:.1f} segundos de media")
    assert dice.replace(".", ",") in prosa
    bajo, alto = ns["wilson"](11, 20)
    assert f"un intervalo que va del {round(bajo * 100)} % al {round(alto * 100)} %" in prosa


def test_the_recording_s_denied_nonsense_is_not_a_success(medir, grabacion):
    """«En una primera grabación, la tarea … de comidas/lentejas.txt … salía resuelta»: the run
    that made the check stricter is now «equivocada», and its answer is the one the prose quotes."""
    _, ns = medir
    pedido = "Pon en lista.txt lo que haga falta para la receta de comidas/lentejas.txt."
    for e in grabacion["ejecuciones"]:
        if e["pedido"] == pedido:
            assert e["motivo"] == "equivocada"
            assert e["final"] == "No he apuntado cocina, Colegio, contactos, notas en lista.txt: no me has dado permiso para escribir."
    assert "«No he apuntado cocina, Colegio, contactos, notas en lista.txt»" in " ".join(texto_de("medir").split())


def test_the_real_model_s_failures_the_prose_describes(grabacion):
    runs = {e["pedido"]: e for e in grabacion["ejecuciones"] if e["variante"] == "agente"}
    llamadas = lambda e: [(b["name"], b["input"]) for rol, c in e["M"] if rol == "asistente"  # noqa: E731
                          for b in c if b["type"] == "tool_use"]
    apuntar = runs["¿Puedes añadir miel, plátanos y pimiento a lista.txt ahora mismo?"]
    assert apuntar["motivo"] == "equivocada" and apuntar["final"] == "En lista.txt hay miel, plátanos y pimiento."
    assert [n for n, _ in llamadas(apuntar)] == ["leer"]
    lista = runs["¿Podría decirme qué hay en la lista anda?"]
    assert lista["motivo"] == "equivocada" and ("listar", {"carpeta": "cocina"}) in llamadas(lista)
    assert lista["final"].startswith("En cocina/")
    coche = runs["¿Para cuándo tengo revisión del coche?"]
    agenda = next(c for rol, c in coche["M"] if rol == "usuario" and isinstance(c, list)
                  and "revisión del coche" in c[0]["content"])[0]["content"]
    fecha = coche["final"].split(" el ", 1)[1].rstrip(".")
    assert coche["motivo"] == "equivocada" and f"{fecha}: clase de yoga" in agenda.splitlines()
    assert "la fecha de otra cita, la de la clase de yoga" in " ".join(texto_de("medir").split())
    prosa = " ".join(texto_de("medir").split())
    assert "contesta «En lista.txt hay miel, plátanos y pimiento.», sin escribir nada" in prosa
    assert "enseña lo que hay en la carpeta `cocina`" in prosa


def test_the_changes_tried_natively_are_what_the_prose_says():
    """tests/bench/variantes-nativas.json (python -m tests.bench.variantes_nativas): the same
    model natively, the lesson's variants and four more, on 60 more tasks."""
    from widgets.construccion.modelo_local import fijado

    datos = json.loads((LECCIONES.parent / "tests" / "bench" / "variantes-nativas.json").read_text(encoding="utf-8"))
    assert datos["modelo"]["sha256"] == fijado().publicado_sha256
    assert datos["tareas"]["cuantas"] == 60
    v = {nombre: motivos.count("resuelta") for nombre, motivos in datos["variantes"].items()}
    assert v == {"agente": 25, "agente_escueto": 25, "agente_sin_repetir_v2": 25,
                 "herramientas_en_otro_orden": 12, "sistema_con_dos_frases_mas": 22,
                 "escribir_ensena_el_fichero": 24, "escritura_que_no_pierde": 24}
    agente = datos["variantes"]["agente"]
    assert not any(a != "resuelta" and b == "resuelta" for motivos in datos["variantes"].values()
                   for a, b in zip(agente, motivos))  # «Ninguno resolvió una sola tarea que agente no resolviera»
    prosa = " ".join(texto_de("medir").split())
    assert ("`agente` resolvió 25 de 60, y `agente_escueto` y `agente_sin_repetir_v2`, las mismas 25. "
            "Listar las herramientas en otro orden lo bajó a 12; dos frases más en el mensaje de "
            "sistema, a 22; que la observación de una escritura enseñe cómo queda el fichero, a 24, y "
            "rechazar una escritura que perdería algo que el pedido no nombra, también a 24.") in prosa
