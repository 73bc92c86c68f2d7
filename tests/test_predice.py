"""Predict mode's questions (widgets/directivas/predice.py), with no browser: on the real traces of every
lesson, for every cap, each question's right answer agrees with the step it reveals, as the
page's own step logic (widgets/front/lib/traza-pasos.js, run in Node) makes the steps; on
buggy loops, no question states a rule the trace breaks; and the directive's `:predice:`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from runtime import espacio
from tests.conftest import ROOT, construir
from tests.test_traza import pagina, trazar
from widgets.base import textos
from widgets.calificador.trazas import trazar as trazas_trazar
from widgets.directivas.predice import preguntas

OPCIONES = list(textos.PREDICE_SIGUE_OPCIONES)  # sigue, tope, tope_sin, fin

# The page's steps and where the page puts each question, from the page's own modules.
PASOS_JS = """
import { readFileSync } from "node:fs";
const { pasos } = await import(process.argv[1] + "/widgets/front/lib/traza-pasos.js");
const { preguntasPorPaso } = await import(process.argv[1] + "/widgets/front/lib/predice.js");
const casos = JSON.parse(readFileSync(0, "utf-8"));
const salida = casos.map(({ traza, preguntas }) => {
  const lista = pasos(traza);
  return {
    pasos: lista.map((p) => ({ tipo: p.tipo, turno: p.turno, evento: p.evento, M: p.M.length,
                              recibe: p.recibe?.length ?? null, cambios: p.cambios.map((c) => c.ruta) })),
    lugar: Object.fromEntries([...preguntasPorPaso(lista, preguntas)].flatMap(([i, ks]) => ks.map((k) => [k, i]))),
  };
});
console.log(JSON.stringify(salida));
"""


def pasos_de_la_pagina(casos: list[dict]) -> list[dict]:
    node = shutil.which("node")
    assert node, "Node.js is needed to step the traces as the page does"
    proceso = subprocess.run([node, "--input-type=module", "-e", PASOS_JS, str(ROOT)],
                             input=json.dumps(casos), capture_output=True, text=True, check=True)
    return json.loads(proceso.stdout)


def trazas_del_curso(sitio: Path) -> dict:
    """(page, trace id) → the widget's data, for every trace of the built course."""
    todas = {}
    for html in sorted(sitio.glob("*.html")):
        texto = html.read_text(encoding="utf-8")
        for m in re.finditer(r'<bucle-traza [^>]*id="([^"]+)"[^>]*>(.*?)</bucle-traza>', texto, re.S):
            datos = re.search(r'class="bucle-datos">(.*?)</script>', m.group(2), re.S).group(1)
            todas[(html.stem, m.group(1))] = json.loads(datos)
    return todas


def comprobar_contra_los_pasos(traza: dict, lista: list[dict], pasos: list[dict], lugar: dict) -> None:
    """Every question is placed before the step it is about, and its answer is that step's."""
    tope = traza["tope"]
    final = traza["eventos"][-1]
    for k, q in enumerate(lista):
        assert str(k) in lugar, f"question {k} ({q['clase']}) has no step in the page"
        i = lugar[str(k)]
        paso, previo = pasos[i], pasos[i - 1]
        correcta = q["respuesta"] if q["tipo"] == "numero" else q["correctas"][0]
        if q["clase"] == "recibe":
            assert paso["tipo"] == "modelo" and paso["recibe"] == paso["M"] == correcta
        elif q["clase"] == "crece":
            assert paso["tipo"] == "observaciones" and paso["M"] - previo["M"] == correcta == 1
        elif q["clase"] == "sigue":
            assert previo["tipo"] == "respuesta", "asked once the response is shown"
            que = OPCIONES[correcta]
            despues = pasos[i:]
            mas_modelo = any(p["tipo"] == "modelo" for p in despues)
            llamadas = despues[0]["tipo"] in ("llamada", "permiso", "observaciones")
            if que == "sigue":
                assert mas_modelo and llamadas and previo["turno"] < tope
            elif que == "tope":
                assert not mas_modelo and llamadas and previo["turno"] == tope
                assert (final["tipo"], final["motivo"]) == ("devuelve", "tope")
                assert pasos[-1]["M"] > previo["M"], "the observations were appended"
                assert q["porque"].startswith("El tope cuenta llamadas al modelo: con ")
            else:
                assert que == "fin" and paso["tipo"] == "devuelve" and not mas_modelo
                assert (final["tipo"], final["motivo"]) == ("devuelve", "fin")
        elif q["clase"] == "cambia":
            assert previo["tipo"] == "respuesta", "asked before any call of the response runs"
            rutas = set()
            for p in pasos[i:]:
                if p["tipo"] == "permiso":
                    continue  # the user's answer, between the calls
                if p["tipo"] != "llamada":
                    break
                rutas.update(p["cambios"])
            esperada = rutas.pop() if rutas else textos.PREDICE_NINGUNO
            assert not rutas and q["opciones"][correcta] == esperada
        elif q["clase"] == "permiso":
            assert paso["tipo"] == "permiso", "asked before the step shows the user's answer"
            que = list(textos.PREDICE_PERMISO_OPCIONES)[correcta]
            if que == "ejecuta":
                assert pasos[i + 1]["tipo"] == "llamada" and pasos[i + 1]["turno"] == paso["turno"]
            else:
                assert que == "no" and pasos[i + 1]["tipo"] in ("permiso", "observaciones")
        else:
            raise AssertionError(f"unknown question {q['clase']}")
        assert q["solucion"] == (str(correcta) if q["tipo"] == "numero" else q["opciones"][correcta])
        assert q["porque"] and q["enunciado"]
    # Nothing of a correct loop goes unasked: every response, every model call but the first,
    # and every turn with calls (how M grows, or which file changes).
    lugares = {lugar[str(k)]: q for k, q in enumerate(lista)}
    clases = [q["clase"] for q in lista]
    assert clases.count("sigue") == sum(p["tipo"] == "respuesta" for p in pasos)
    assert clases.count("recibe") == sum(p["tipo"] == "modelo" for p in pasos) - 1
    con_llamadas = sum(1 for j, p in enumerate(pasos) if p["tipo"] == "respuesta"
                       and pasos[j + 1]["tipo"] in ("llamada", "permiso", "observaciones"))
    assert clases.count("crece") + clases.count("cambia") == con_llamadas
    assert clases.count("permiso") == sum(p["tipo"] == "permiso" for p in pasos)
    assert all(i > 0 for i in lugares)


def test_every_question_of_every_trace_of_the_course_agrees_with_the_step_it_reveals(sitio):
    trazas = trazas_del_curso(sitio)
    assert set(trazas) == {("llamar-herramientas", "traza-un-turno"),
                                            ("el-bucle", "traza-bucle"), ("errores", "traza-errores"),
                                            ("pedir-permiso", "traza-permiso"),
                                            ("el-agente", "traza-agente"),
                                            ("modelo-real", "traza-modelo-real"),
                                            ("modelo-real", "traza-quitar-la-leche"),
                                            ("modelo-real", "traza-leer-tortilla"),
                                            ("modelo-real", "traza-una-pregunta-que-escribe"),
                                            ("medir", "traza-ruidosa")}
    # lesson 6's three more recordings are replayed without questions (:predice: no)
    sin_preguntas = {clave for clave, datos in trazas.items() if "predicciones" not in datos}
    assert sin_preguntas == {("modelo-real", "traza-quitar-la-leche"), ("modelo-real", "traza-leer-tortilla"),
                             ("modelo-real", "traza-una-pregunta-que-escribe")}
    casos, donde = [], []
    for clave, datos in trazas.items():
        if clave in sin_preguntas:
            continue
        assert list(datos["predicciones"]) == list(datos["trazas"])
        for tope, traza in datos["trazas"].items():
            # what the page embeds is the generator's output for that cap's trace
            assert datos["predicciones"][tope] == preguntas(traza)
            casos.append({"traza": traza, "preguntas": datos["predicciones"][tope]})
            donde.append((clave, tope))
    for (clave, tope), caso, pagina_js in zip(donde, casos, pasos_de_la_pagina(casos), strict=True):
        try:
            comprobar_contra_los_pasos(caso["traza"], caso["preguntas"], pagina_js["pasos"], pagina_js["lugar"])
        except AssertionError as error:
            raise AssertionError(f"{clave}, cap {tope}: {error}") from error


def test_el_bucle_at_cap_10_and_3(sitio):
    datos = trazas_del_curso(sitio)[("el-bucle", "traza-bucle")]
    diez, tres = datos["predicciones"]["10"], datos["predicciones"]["3"]
    assert [q["clase"] for q in diez] == ["sigue", "crece", "recibe", "sigue", "crece", "recibe",
                                          "sigue", "cambia", "recibe", "sigue"]
    assert [q["respuesta"] for q in diez if q["clase"] == "recibe"] == [4, 6, 8]
    assert [q["solucion"] for q in diez if q["clase"] == "sigue"] == [
        textos.PREDICE_SIGUE_OPCIONES[c] for c in ("sigue", "sigue", "sigue", "fin")]
    cambia = next(q for q in diez if q["clase"] == "cambia")
    assert cambia["opciones"] == ["lista.txt", "notas.txt", "recetas/gazpacho.txt",
                                  "recetas/tortilla.txt", "Ninguno"]
    assert cambia["solucion"] == "lista.txt"
    assert [q["clase"] for q in tres] == ["sigue", "crece", "recibe", "sigue", "crece", "recibe",
                                          "sigue", "cambia"]
    ultima = [q for q in tres if q["clase"] == "sigue"][-1]
    assert ultima["solucion"] == textos.PREDICE_SIGUE_OPCIONES["tope"]
    assert ultima["porque"].startswith("El tope cuenta llamadas al modelo: con 3, no hay una cuarta;")
    crece = [q for q in diez if q["clase"] == "crece"]
    assert crece[1]["porque"] == ("Los 3 resultados van juntos en un solo mensaje del usuario: M "
                                  "crece en uno, sean cuantas sean las llamadas.")


def test_the_errors_lesson_asks_about_a_call_that_fails_and_one_that_never_runs(sitio):
    datos = trazas_del_curso(sitio)[("errores", "traza-errores")]
    cambia = [q for q in datos["predicciones"]["6"] if q["clase"] == "cambia"]
    assert [q["solucion"] for q in cambia] == ["Ninguno", "lista.txt"]
    assert "e4 no llega a ejecutarse" in cambia[0]["porque"]


def test_the_permission_lesson_asks_whether_each_call_the_user_answered_runs(sitio):
    datos = trazas_del_curso(sitio)[("pedir-permiso", "traza-permiso")]
    permiso = [q for q in datos["predicciones"]["3"] if q["clase"] == "permiso"]
    assert [q["enunciado"] for q in permiso] == [
        "El arnés pregunta al usuario por la llamada p3 (escribir), y el usuario responde "
        "Permitir. ¿Qué hace el arnés con la llamada?",
        "El arnés pregunta al usuario por la llamada p4 (escribir), y el usuario responde "
        "Denegar. ¿Qué hace el arnés con la llamada?"]
    assert [q["solucion"] for q in permiso] == [textos.PREDICE_PERMISO_OPCIONES["ejecuta"],
                                                 textos.PREDICE_PERMISO_OPCIONES["no"]]
    assert "las demás llamadas de la respuesta siguen" in permiso[1]["porque"]
    # cap 1: the loop stops before the writes; nobody is asked
    assert not [q for q in datos["predicciones"]["1"] if q["clase"] == "permiso"]


def test_a_loop_that_runs_a_denied_call_gets_no_question_about_it():
    """The rule says a denied call does not run: a trace where it runs asks nothing about it."""
    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec(compile((ROOT / "challenges" / "pedir-permiso" / "errores" / "ejecuta_y_dice_que_no.py")
                 .read_text(encoding="utf-8"), "roto.py", "exec"), ns)
    solucion = (ROOT / "challenges" / "pedir-permiso" / "solucion.py").read_text(encoding="utf-8")
    exec(compile(solucion[solucion.index("def bucle("):], "bucle.py", "exec"), ns)
    traza = trazas_trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3,
                          preguntar=ns["Respuestas"](["sí", "no"]))
    permiso = [q for q in preguntas(traza) if q["clase"] == "permiso"]
    assert [q["solucion"] for q in permiso] == [textos.PREDICE_PERMISO_OPCIONES["ejecuta"]]


# ----------------------------------------------------------- loops that break a rule

ERRORES = ROOT / "challenges" / "bucle-con-tope" / "errores"


def con_el_error(nombre: str) -> dict:
    """A page's namespace whose `bucle` is the known-wrong solution ``errores/<nombre>.py``."""
    return pagina((ERRORES / f"{nombre}.py").read_text(encoding="utf-8"))


def test_a_loop_that_returns_tope_without_running_the_calls_gets_no_question_about_it():
    traza = trazar(con_el_error("tope_sin_ejecutar"), 2)
    lista = preguntas(traza)
    sigue = [q for q in lista if q["clase"] == "sigue"]
    # turn 1 follows the rules; turn 2 (the cap) does not: the rules say «tope» after running them
    assert [q["solucion"] for q in sigue] == [textos.PREDICE_SIGUE_OPCIONES["sigue"]]
    assert preguntas(trazar(pagina(), 2))[-2]["solucion"] == textos.PREDICE_SIGUE_OPCIONES["tope"]


def test_a_loop_that_appends_one_message_per_result_is_not_asked_how_M_grows():
    ns = con_el_error("un_mensaje_por_observacion")
    inicio = [("usuario", "Lee la lista y las notas.")]
    llamadas = [ns["llamada"]("a1", "leer", ruta="lista.txt"), ns["llamada"]("a2", "leer", ruta="notas.txt")]
    M = inicio + [("asistente", llamadas)] + [
        ("usuario", [ns["resultado"](ll["id"], ns["ENTORNO"][ll["input"]["ruta"]])]) for ll in llamadas]
    guion = [(inicio, llamadas), (M, [ns["texto"]("Hecho.")])]
    traza = trazas_trazar(ns["bucle"], ns["ModeloGuionizado"](guion), inicio,
                          dict(ns["ENTORNO"]), 5)
    assert traza["eventos"][-1]["motivo"] == "fin"
    lista = preguntas(traza)
    # two results in two messages: how M grows is not asked; what the model receives still is,
    # with no claim about where the messages came from
    assert [q["clase"] for q in lista] == ["sigue", "recibe", "sigue"]
    assert lista[1]["respuesta"] == 4
    assert lista[1]["porque"] == "El modelo recibe M entera, tal como está en este momento: 4 mensajes."


def test_a_trace_that_is_not_understood_asks_nothing():
    assert preguntas({}) == []
    assert preguntas({"tope": 3, "mensajes": [], "inicio": [], "eventos": [
        {"tipo": "excepcion", "clase": "TypeError", "mensaje": "x", "linea": 1, "cambios": []}]}) == []


# ------------------------------------------------------------------ the directive

def test_predice_no_turns_the_mode_off_and_the_map_lists_the_traces_that_predict(sitio_de_prueba, sitio):
    salida = sitio_de_prueba("trazas")
    otra = (salida / "otra.html").read_text(encoding="utf-8")
    assert '"predicciones"' not in otra
    assert '"predicciones"' in (salida / "index.html").read_text(encoding="utf-8")
    indice = (sitio / "index.html").read_text(encoding="utf-8")
    mapa = json.loads(re.search(r'<bucle-progreso .*?class="bucle-datos">(.*?)</script>', indice, re.S).group(1))
    assert {leccion["pagina"]: leccion["trazas"] for leccion in mapa["lecciones"]} == {
        "llamar-herramientas": ["traza-un-turno"], "el-bucle": ["traza-bucle"],
        "errores": ["traza-errores"], "pedir-permiso": ["traza-permiso"], "el-agente": ["traza-agente"],
        "modelo-real": ["traza-modelo-real"], "medir": ["traza-ruidosa"], "como-funciona": []}


CONF = f'''
import sys
sys.path.insert(0, {str(ROOT)!r})
project = "Predice"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
html_theme = "furo"
'''

TRAZA = '''# {titulo}

Texto.

```{{traza}}
:tope: 2
:predice: {valor}
inicio = INICIO_BUCLE
guion = guion_bucle()
```
'''


@pytest.mark.parametrize("valor, vale", [("sí", True), ("si", True), ("Sí", True), ("no", False),
                                         ("quizá", None), ("", None)])
def test_the_values_of_predice(tmp_path, valor, vale):
    (tmp_path / "conf.py").write_text(CONF, encoding="utf-8")
    (tmp_path / "index.md").write_text(TRAZA.format(titulo="Predice", valor=valor), encoding="utf-8")
    proceso = construir(tmp_path, tmp_path / "_build", comprobar=False)
    if vale is None:
        assert proceso.returncode != 0
        escrito = f" {valor}" if valor else ""
        assert (f"{tmp_path / 'index.md'}:7: ERROR: «:predice:{escrito}» no vale en {{traza}}: "
                "debe ser «sí» o «no»") in proceso.stderr, proceso.stderr
        return
    assert proceso.returncode == 0, proceso.stderr
    html = (tmp_path / "_build" / "index.html").read_text(encoding="utf-8")
    assert ('"predicciones"' in html) is vale
