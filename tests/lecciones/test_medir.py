"""The lesson «Medir el agente» tells the truth: its cells run in order in CPython, and every
number its prose states about what the code prints, what the benches measure on the noisy model,
what a question takes as its answer and what the recording of the real model holds is computed
here (see tests/lecciones/comun.py). Its predictions (``predice-``) are marked with what the cell
really prints, and its «Cámbialo tú» breaks where its marked answer says."""

from __future__ import annotations

import itertools
import json
import math
import re

import pytest

from tests.lecciones import forma
from tests.lecciones.comun import (LECCIONES, celdas_de, ejecutar_leccion, opcion_de, opciones_de,
                                   texto_de)

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
            como, final, _M = variante(modelo, tarea.pedido, entorno, ns["usuario"](tarea), **extra)
            motivo = ("tope" if como == "tope" else
                      "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
            fines[(i, semilla)] = (motivo, modelo.errores)
    return fines


def correcta(ident):
    (texto,) = [t for ok, t in opciones_de("medir", ident) if ok]
    return " ".join(texto.split())


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
    assert "Wilson no se sale nunca de [0, 1] y, con 0 éxitos de 10, todavía admite una tasa de hasta el 28 %" in prosa
    # the prediction before the cell: with 3 of 5, the normal interval leaves [0, 1], Wilson's not
    assert ("predice-fuera-de-cero-uno", "intervalo-de-wilson") in forma.predicciones("medir")
    assert correcta("predice-fuera-de-cero-uno").startswith("El de la aproximación normal: su extremo alto pasa de 1.")
    tres_de_cinco = salidas[1].splitlines()[0]
    assert tres_de_cinco.endswith("normal [0.17, 1.03]") and "Wilson [0.23, 0.88]" in tres_de_cinco
    # and the prose before the cell does not tell it
    antes = prosa[:prosa.index("Con 3 éxitos de 5, ¿qué intervalo se sale de [0, 1]?")]
    assert "1,03" not in antes[antes.index("## Una tasa y su intervalo"):]
    # Wilson's interval never leaves [0, 1]; the normal one does
    for exitos, n in [(0, 1), (1, 1), (0, 3), (3, 3), (1, 2)]:
        bajo, alto = ns["wilson"](exitos, n)
        assert 0 <= bajo <= exitos / n <= alto <= 1


def test_the_third_cell_runs_the_trace_s_task_with_both(medir, prosa):
    salidas, ns = medir
    assert salidas[2].splitlines() == [
        "agente: tope, 10 turnos · None",
        "agente_sin_repetir: fin, 6 turnos · He quitado azúcar de lista.txt; no había leche."]
    assert ("predice-sin-repetir", "variantes") in forma.predicciones("medir")
    assert correcta("predice-sin-repetir").startswith(
        "Contestando: la escritura repetida vuelve como error y el modelo contesta.")
    # «la escritura repetida vuelve como error en los turnos 4 y 5, y el modelo contesta en el 6»
    tarea = ns["tareas_del_banco"]()[4]
    entorno = dict(tarea.entorno)
    como, final, M = ns["agente_sin_repetir"](ns["modelo_ruidoso"](tarea, 2), tarea.pedido, entorno,
                                               ns["usuario"](tarea))
    turnos = [c for rol, c in M if rol == "asistente"]
    observaciones = [c for rol, c in M[2:] if rol == "usuario"]
    repetidas = [n for n, obs in enumerate(observaciones, 1)
                 if obs[0]["is_error"] and obs[0]["content"].startswith("ya has hecho esta misma llamada")]
    assert repetidas == [4, 5] and len(turnos) == 6 and turnos[-1][0]["type"] == "text"
    assert ("Con `agente`, la ejecución acaba en el tope tras 10 turnos. Con `agente_sin_repetir`, la "
            "escritura repetida vuelve como error en los turnos 4 y 5, y el modelo contesta en el 6.") in prosa
    assert como == "fin" and tarea.comprobar(entorno, final)  # «la segunda sí»


def test_the_benches_on_the_noisy_model_measure_what_the_prose_says(medir, prosa):
    _, ns = medir
    escueto = ejecuciones(ns, ns["agente_escueto"])
    agente = ejecuciones(ns, ns["agente"])
    repetir = ejecuciones(ns, ns["agente_sin_repetir"])
    v2 = ejecuciones(ns, ns["agente_sin_repetir_v2"])
    tope_20 = ejecuciones(ns, ns["agente"], tope=20)
    assert len(agente) == 200
    assert [resueltas(f) for f in (escueto, agente, repetir, v2, tope_20)] == [90, 142, 184, 199, 142]
    assert (f"`agente_escueto` resuelve 90 (45 %, con un intervalo de Wilson de {intervalo(ns, 90, 200)}) y "
            f"`agente` 142 (71 %, {intervalo(ns, 142, 200)})") in prosa
    assert cambiaron(escueto, agente) == (52, 0)
    assert "52 pasan de no resueltas a resueltas y ninguna al revés" in prosa
    fallos = [e for motivo, e in agente.values() if motivo != "resuelta"]
    assert len(fallos) == 58 and all(m == "tope" for m, _ in agente.values() if m != "resuelta")
    assert all(any(c == "no_para" for _, c in e) for e in fallos)
    assert ("Las 58 ejecuciones que `agente` no resuelve acaban todas en el tope, y en todas el modelo no "
            "sabe parar") in prosa
    # «con tope=20, agente resuelve las mismas 142»
    assert {k for k in agente if agente[k][0] == "resuelta"} == {k for k in tope_20 if tope_20[k][0] == "resuelta"}
    assert "con `tope=20`, `agente` resuelve las mismas 142" in prosa
    assert f"`agente_sin_repetir` resuelve 184 de 200 (92 %, {intervalo(ns, 184, 200)})" in prosa
    assert cambiaron(agente, repetir) == (53, 11)
    assert "53 ejecuciones pasan a resueltas. Pero 11 pasan de resueltas a no resueltas" in prosa
    assert "Abre una de esas 11 en la traza" in prosa
    # the 11: a wrong call, then the same wrong call again in the next turn
    for k in agente:
        if agente[k][0] == "resuelta" and repetir[k][0] != "resuelta":
            turnos = [t for t, c in repetir[k][1] if c in ("herramienta", "argumentos")]
            assert any(b == a + 1 for a, b in itertools.pairwise(turnos)), k
    assert cambiaron(agente, v2) == (57, 0)
    assert (f"Con `agente_sin_repetir_v2`, 199 de 200 ({intervalo(ns, 199, 200)}): 57 pasan a resueltas "
            "y ninguna al revés") in prosa
    # the question on them
    assert "Un cambio sube la tasa de 142 a 184 de 200, pero 11 ejecuciones pasan de resueltas a no resueltas." in prosa
    assert correcta("trece-al-reves").startswith("Abrir esas 11 ejecuciones")
    assert ns["wilson"](142, 200)[1] < ns["wilson"](184, 200)[0]  # «los intervalos no se solapan»


def test_the_numeric_question_is_wilson_s_upper_end(medir):
    _, ns = medir
    respuesta = float(opcion_de("medir", "cero-de-doce", "respuesta"))
    margen = float(opcion_de("medir", "cero-de-doce", "margen"))
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
        como, final, otra = ns[e["variante"]](lambda M, h, respuestas=respuestas: next(respuestas),
                                              tarea.pedido, entorno, ns["usuario"](tarea))
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
    assert (f"Las dos variantes resuelven 11 de las 20 tareas del banco (55 %, {intervalo(ns, 11, 20)}), y "
            f"son las mismas 11: no cambió ninguna.") in prosa
    # which task set the rate comes from
    assert "(Son las tareas de `tareas_del_banco()`, no las 20 peticiones de la lección anterior" in prosa
    fallos = [e for e in agente if e["motivo"] != "resuelta"]
    assert len(fallos) == 9 and all(e["motivo"] == "equivocada" for e in fallos)
    assert "Las 9 que fallan acaban todas en «equivocada»" in prosa
    # «Nunca llega al tope ni repite una llamada» …
    for e in agente + v2:
        llamadas = [(b["name"], json.dumps(b["input"], sort_keys=True)) for rol, c in e["M"]
                    if rol == "asistente" for b in c if b["type"] == "tool_use"]
        assert e["motivo"] != "tope" and len(llamadas) == len(set(llamadas)), e["pedido"]
        # … «solo le deja escribir llamadas bien formadas»
        assert not any(ns["incumple"](b) for rol, c in e["M"] if rol == "asistente"
                       for b in c if b["type"] == "tool_use")
    resueltas_ = [e for e in agente if e["motivo"] == "resuelta"]
    turnos = sum(e["turnos"] for e in resueltas_) / len(resueltas_)
    tokens = [e["tokens"] for e in resueltas_]
    segundos = sum(e["segundos"] for e in agente) / len(agente)
    dice = (f"Cada tarea resuelta le costó de media {turnos:.1f} turnos y unos "
            f"{round(sum(tokens) / len(tokens))} *tokens* (la media de las {len(tokens)} resueltas, "
            f"de {min(tokens)} a {max(tokens)}), y cada ejecución, {segundos:.1f} segundos de media")
    assert dice.replace(".", ",") in prosa
    bajo, alto = ns["wilson"](11, 20)
    assert f"un intervalo que va del {round(bajo * 100)} % al {round(alto * 100)} %" in prosa
    assert grabacion["navegador"].startswith("Chromium")  # «en el navegador que la grabó»


def test_the_recording_s_denied_nonsense_is_not_a_success(medir, grabacion):
    """«En una primera grabación, la tarea … de comidas/lentejas.txt … salía resuelta»: the run
    that made the check stricter is now «equivocada», and its answer is the one the prose quotes."""
    _, _ns = medir
    pedido = "Pon en lista.txt lo que haga falta para la receta de comidas/lentejas.txt."
    for e in grabacion["ejecuciones"]:
        if e["pedido"] == pedido:
            assert e["motivo"] == "equivocada"
            assert e["final"] == ("No he apuntado cocina, Colegio, contactos, notas en lista.txt: no me has "
                                  "dado permiso para escribir.")
    assert "«No he apuntado cocina, Colegio, contactos, notas en lista.txt»" in " ".join(texto_de("medir").split())


def test_the_real_model_s_failures_the_prose_describes(medir, grabacion, prosa):
    _, ns = medir
    runs = {e["pedido"]: e for e in grabacion["ejecuciones"] if e["variante"] == "agente"}
    llamadas = lambda e: [(b["name"], b["input"]) for rol, c in e["M"] if rol == "asistente"  # noqa: E731
                          for b in c if b["type"] == "tool_use"]
    apuntar = runs["¿Puedes añadir miel, plátanos y pimiento a lista.txt ahora mismo?"]
    assert apuntar["motivo"] == "equivocada" and apuntar["final"] == "En lista.txt hay miel, plátanos y pimiento."
    assert [n for n, _ in llamadas(apuntar)] == ["leer"]
    assert "contesta «En lista.txt hay miel, plátanos y pimiento.», sin escribir nada" in prosa
    coche = runs["¿Para cuándo tengo revisión del coche?"]
    assert coche["motivo"] == "equivocada" and coche["final"] == "Tienes revisión del coche elriday."
    assert ("leer", {"ruta": "tareas.txt"}) in llamadas(coche)
    assert not any(i.get("ruta") == "agenda.txt" for _, i in llamadas(coche))
    assert ("Para la revisión del coche lee `tareas.txt` en lugar de la agenda y contesta «Tienes "
            "revisión del coche elriday.».") in prosa
    borrar = runs["Borra ajo y tomates de mi lista de la compra, por favor."]
    tarea = next(t for t in ns["tareas_del_banco"]() if t.pedido == borrar["pedido"])
    entorno = dict(tarea.entorno)
    for nombre, entrada in llamadas(borrar):
        if nombre == "escribir":
            entorno[entrada["ruta"]] = entrada["contenido"]
    assert "ajo" not in entorno["lista.txt"] and "tomates" not in entorno["lista.txt"]  # «borra los dos»
    assert borrar["final"] == "He quitado ajo de lista.txt." and borrar["motivo"] == "equivocada"
    assert tarea.comprobar(entorno, "He quitado ajo y tomates de lista.txt.")  # the answer is what fails
    assert ("Le piden borrar ajo y tomates: borra los dos, pero dice «He quitado ajo de lista.txt.», y la "
            "comprobación, que mira también la respuesta, no la da por buena.") in prosa


def test_the_lesson_s_words(prosa):
    """Issue #55's review: the words the lesson uses, and what it says of its tasks."""
    texto = texto_de("medir")
    assert "cualquiera que evalúe agentes en serio" in prosa
    assert "de verdad" not in texto and "enseña" not in texto
    # «banco de pruebas» defined where the bench first appears in the prose
    assert prosa.index("**banco de pruebas**") < prosa.index("El banco ejecuta")
    # the missing accents are on purpose, and there are such requests
    assert "alguno sin tildes («el numero de Sergio»). Las tildes faltan a propósito." in prosa
    tareas = json.loads(GRABACION.read_text(encoding="utf-8"))["tareas"]
    assert any("el numero de Sergio" in t["pedido"] for t in tareas)
    # non-overlapping intervals: strong evidence, not proof
    assert ("Si no se solapan, es un indicio fuerte de que la diferencia no es suerte, aunque no una "
            "demostración") in prosa
    assert forma.palabras("medir") <= forma.PALABRAS_MAXIMAS


def test_cambialo_tu_shared_hechas_breaks_sin_repetir_with_errors(medir):
    """«Cámbialo tú»: `hechas = []` moved out of nuevo_agente, the cell run again, then the bench
    «Segundo cambio» (agente and agente_sin_repetir, task by task and seed by seed, both in turn,
    as the page's worker runs it): agente_sin_repetir solves far fewer, most of its runs end in
    «error», and agente does not change."""
    from tests.lecciones.comun import celdas_de

    assert forma.cambialo("medir") == ["cambialo-hechas"]
    _, ns = medir
    ns = dict(ns)
    celda = next(c for c in celdas_de("medir") if "def agente_con(" in c)
    linea = "        hechas = []  # nueva en cada ejecución: nada pasa de una a otra\n"
    assert celda.count(linea) == 1
    cambiada = celda.replace(linea, "").replace("    def nuevo_agente(", linea[4:] + "    def nuevo_agente(")
    assert "    hechas = []" in cambiada and "        hechas = []" not in cambiada
    exec(cambiada, ns)
    fines = {"agente": [], "agente_sin_repetir": []}
    for tarea in ns["tareas_del_banco"]():
        for semilla in range(10):
            for nombre in fines:
                entorno = dict(tarea.entorno)
                try:
                    como, final, _ = ns[nombre](ns["modelo_ruidoso"](tarea, semilla), tarea.pedido,
                                                entorno, ns["usuario"](tarea))
                    motivo = ("tope" if como == "tope" else
                              "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
                except Exception:  # noqa: BLE001 - the bench's «error»
                    motivo = "error"
                fines[nombre].append(motivo)
    assert fines["agente"].count("resuelta") == 142  # unchanged
    sin_repetir = fines["agente_sin_repetir"]
    assert sin_repetir.count("resuelta") < 184 // 2  # «Resuelve muchas menos»
    assert sin_repetir.count("error") > len(sin_repetir) / 2  # «la mayoría … acaban en «error»»
    assert correcta("cambialo-hechas").startswith(
        "Resuelve muchas menos: la mayoría de sus ejecuciones acaban en «error», porque una llamada")
    assert "de una ejecución anterior cuenta como ya hecha." in " ".join(texto_de("medir").split())


def test_your_own_model_is_a_hacer_modelo_that_sends_your_url_name_and_headers(medir):
    """«Define en una celda tu hacer_modelo, así, escribe su nombre en «Modelo» y mide»: the
    lesson's python block, run after its cells, makes a model per run that posts to the reader's
    url, with their model's name and their headers; modelo_de_la_pagina posts to the page's
    model with none. (The bench takes any name a cell defines: tests/browser/test_banco.py.)"""
    _, ns = medir
    texto = texto_de("medir")
    bloque = re.search(r"```python\n(def mi_modelo\(tarea, semilla\):\n.*?)```", texto, re.S).group(1)
    enviados = []

    def enviar(url, cuerpo, cabeceras=None):
        enviados.append((url, cuerpo["model"], cabeceras))
        return {"content": [{"type": "text", "text": "Hecho."}], "stop_reason": "end_turn",
                "usage": {"input_tokens": 7, "output_tokens": 2}}
    # the cells' functions read the lesson's namespace: patch it there, and put it back
    antes = {k: ns[k] for k in ("enviar", "url_del_modelo")}
    ns.update(enviar=enviar, url_del_modelo=lambda: "http://la-pagina/v1/messages")
    try:
        exec(bloque, ns)
        tarea = ns["tareas_del_banco"]()[0]
        for hacer in (ns.pop("mi_modelo"), ns["modelo_de_la_pagina"]):
            modelo = hacer(tarea, 0)
            assert modelo is not hacer(tarea, 0)  # a new one per run
            assert modelo([("sistema", "s"), ("usuario", "hola")], []) == [{"type": "text", "text": "Hecho."}]
            assert modelo.tokens == 9
    finally:
        ns.update(antes)
    assert enviados == [("https://tu-servidor/v1/messages", "tu-modelo", {"x-api-key": "tu clave"}),
                        ("http://la-pagina/v1/messages", "smollm2-135m", {})]
