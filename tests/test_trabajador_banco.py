"""The bench's worker half (widgets/trabajador/trabajador_banco.py and its summary,
trabajador_banco_resumen.py) in CPython: the same files run in Pyodide (tests/browser/test_banco.py).

The summary's numbers are checked against values worked out by hand or published (Wilson's
interval of 8 of 10); the runner on the course's runtime, with the noisy scripted model and
agents compiled as cells (``<celda N>``), as the page's namespace holds them.
"""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

import pytest

from runtime import espacio
from widgets.trabajador import trabajador_banco as banco

RUNTIME = ("entorno", "permisos", "palabras", "tareas", "escrituras", "entrenamiento", "ruidoso",
           "banco", "escenarios")
CLAVES = {"variante", "tarea", "tipo", "pedido", "semilla", "motivo", "turnos", "tokens",
          "segundos", "final", "error", "M"}

AGENTES = '''
def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)


def agente(modelo, pedido, entorno, preguntar=denegar, tope=10):
    M = [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M)
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in llamadas]))
    return ("tope", None, M)


def agente_sin_tope(modelo, pedido, entorno, preguntar):
    return agente(modelo, pedido, entorno, preguntar, tope=3)


def agente_que_falla(modelo, pedido, entorno, preguntar, tope=10):
    if "lista" in pedido:
        raise ValueError("no sé leer listas")
    return agente(modelo, pedido, entorno, preguntar, tope)


def agente_sin_fin(modelo, pedido, entorno, preguntar, tope=10):
    while True:
        pass


def agente_raro(modelo, pedido, entorno, preguntar, tope=10):
    return 42
'''


@pytest.fixture(scope="module")
def ns():
    espacio_ = espacio(*RUNTIME)
    exec(compile(AGENTES, "<celda 2>", "exec"), espacio_)
    return espacio_


@pytest.fixture
def avisos(monkeypatch):
    lista = []
    monkeypatch.setattr(banco, "_avisar", lambda id, **datos: lista.append({"id": id, **datos}))
    return lista


def registro(variante, tarea, semilla, motivo, turnos=3, tokens=None, segundos=0.5):
    return {"variante": variante, "tarea": tarea, "semilla": semilla, "motivo": motivo,
            "turnos": turnos, "tokens": tokens, "segundos": segundos}


# -- Wilson ------------------------------------------------------------------------------------

def test_wilson_at_zero_of_n_starts_at_zero():
    lo, hi = banco.wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)  # z²/(n+z²) = 3.8416 / 13.8416


def test_wilson_at_n_of_n_ends_at_one():
    lo, hi = banco.wilson(10, 10)
    assert hi == 1.0
    assert lo == pytest.approx(10 / 13.8416, abs=1e-4)


def test_wilson_of_a_known_value():
    # 8 of 10: (0.4902, 0.9433), as statsmodels' proportion_confint(8, 10, method="wilson") gives
    lo, hi = banco.wilson(8, 10)
    assert (lo, hi) == (pytest.approx(0.49016, abs=1e-4), pytest.approx(0.94332, abs=1e-4))


@pytest.mark.parametrize("n", [1, 2, 7, 200, 1000])
def test_wilson_stays_within_zero_and_one_and_holds_the_rate(n):
    for exitos in range(0, n + 1, max(1, n // 7)):
        lo, hi = banco.wilson(exitos, n)
        assert 0.0 <= lo <= exitos / n <= hi <= 1.0


def test_wilson_of_no_runs_is_none():
    assert banco.wilson(0, 0) is None


# -- summary and pairing -----------------------------------------------------------------------

def test_the_pairing_counts_what_changed_over_the_same_task_and_seed():
    ejecuciones = [
        registro("a", 0, 0, "resuelta"), registro("b", 0, 0, "tope"),       # only a
        registro("a", 1, 0, "resuelta"), registro("b", 1, 0, "resuelta"),   # both
        registro("a", 2, 0, "error"), registro("b", 2, 0, "resuelta"),      # only b
        registro("a", 2, 1, "equivocada"), registro("b", 2, 1, "tope"),     # neither
        registro("a", 3, 0, "resuelta"),                                    # b never ran it
    ]
    assert banco.pareo(ejecuciones, ["a", "b"]) == {
        "a": "a", "b": "b", "pares": 4, "solo_a": 1, "solo_b": 1, "cambiaron": 2}
    assert banco.pareo(ejecuciones, ["a"]) is None


def test_the_summary_per_variant():
    ejecuciones = [registro("a", 0, s, "resuelta", turnos=2 + s, tokens=100 * (s + 1), segundos=1.0)
                   for s in range(3)]
    ejecuciones += [registro("a", 1, 0, "tope", turnos=10, segundos=2.0),
                    registro("a", 1, 1, "error", turnos=1, segundos=3.0)]
    ejecuciones += [registro("b", 0, 0, "equivocada", tokens=None)]
    resumen = banco.resumir(ejecuciones, ["a", "b"])
    a, b = resumen["variantes"]
    assert a["nombre"] == "a" and a["exitos"] == 3 and a["ejecuciones"] == 5
    assert a["tasa"] == pytest.approx(0.6)
    assert a["wilson"] == banco.wilson(3, 5)
    assert a["turnos_por_exito"] == pytest.approx(3.0)          # (2 + 3 + 4) / 3, successes only
    assert a["tokens_por_exito"] == pytest.approx(200.0)
    assert a["segundos_por_ejecucion"] == pytest.approx(8 / 5)  # every run
    assert a["motivos"] == {"resuelta": 3, "equivocada": 0, "tope": 1, "error": 1}
    assert b["exitos"] == 0 and b["tasa"] == 0.0 and b["turnos_por_exito"] is None
    assert b["tokens_por_exito"] is None
    assert resumen["pareo"]["pares"] == 1 and resumen["pareo"]["solo_a"] == 1


def test_tokens_per_success_is_unknown_when_a_success_has_none():
    ejecuciones = [registro("a", 0, 0, "resuelta", tokens=10), registro("a", 0, 1, "resuelta")]
    assert banco.resumir(ejecuciones, ["a"])["variantes"][0]["tokens_por_exito"] is None


def test_what_the_reader_reads_of_a_summary():
    ejecuciones = [registro("agente", t, 0, "resuelta" if t < 143 else "tope", segundos=0.004)
                   for t in range(200)]
    vista = banco.vista(banco.resumir(ejecuciones, ["agente"]))
    (tabla,) = vista["tablas"]
    assert tabla["titulo"] == "Resultados de agente"
    filas = dict(tabla["filas"])
    assert filas["Éxitos"] == "143 de 200"
    assert filas["Tasa de éxito"] == "71,5 %"
    assert filas["Intervalo de Wilson (95 %)"] == "64,9 % – 77,3 %"
    assert filas["Tokens por éxito"] == "—"
    assert filas["Tiempo por ejecución"] == "4,0 ms"
    assert (filas["Resueltas"], filas["Tope"], filas["Error"]) == ("143", "57", "0")
    assert vista["pareo"] is None
    assert "agente: 71,5 % (143 de 200), entre el 64,9 % y el 77,3 %." in vista["texto"]


def test_the_plot_is_svg_with_its_words_and_a_bar_and_interval_per_variant():
    ejecuciones = [registro(v, t, 0, "resuelta" if t < k else "tope")
                   for v, k in (("agente", 14), ("agente_sin_repetir", 8)) for t in range(20)]
    vista = banco.vista(banco.resumir(ejecuciones, ["agente", "agente_sin_repetir"]))
    texto = banco.svg(vista["grafico"], "Tasas <de> éxito", "x-texto")
    raiz = ET.fromstring(texto)
    assert raiz.get("role") == "img" and raiz.get("aria-label") == "Tasas <de> éxito"
    assert raiz.get("aria-describedby") == "x-texto"
    ns = "{http://www.w3.org/2000/svg}"
    barras = raiz.findall(f"{ns}rect")
    assert len(barras) == 2
    textos = [t.text for t in raiz.findall(f"{ns}text")]
    assert {"agente", "agente_sin_repetir", "70,0 %", "40,0 %", "0 %", "100 %"} <= set(textos)
    # The taller bar is the higher rate; each interval holds its bar's top.
    alto = [float(b.get("height")) for b in barras]
    assert alto[0] > alto[1]
    lineas = [ln for ln in raiz.findall(f"{ns}line") if ln.get("class") == "bucle-banco-intervalo"]
    assert len(lineas) == 6


# -- the runner --------------------------------------------------------------------------------

def test_a_bench_runs_every_task_and_seed_with_both_variants_and_streams_each_run(ns, avisos):
    respuesta = banco.medir(7, ns, "tareas_del_banco()[:4]", ["agente", "agente_sin_tope"],
                            "modelo_ruidoso", 3, tope=10)
    assert respuesta["estado"] == "ok"
    empieza, *corridas = avisos
    assert empieza["evento"] == "empieza" and empieza["total"] == 4 * 3 * 2
    assert empieza["variantes"] == ["agente", "agente_sin_tope"] and empieza["semillas"] == [0, 1, 2]
    assert empieza["modelo"] == {"nombre": "modelo_ruidoso", "sha256": None}
    assert len(empieza["tareas"]) == 4 and set(empieza["tareas"][0]) == {"tipo", "pedido"}
    ejecuciones = [a["ejecucion"] for a in corridas]
    assert all(set(e) == CLAVES for e in ejecuciones)
    for variante in ("agente", "agente_sin_tope"):
        pares = sorted((e["tarea"], e["semilla"]) for e in ejecuciones if e["variante"] == variante)
        assert pares == [(t, s) for t in range(4) for s in range(3)]
    json.dumps(ejecuciones)  # JSON as they are
    # each run's lines: one list per message of M, one line per block
    for a in corridas:
        assert len(a["lineas"]) == len(a["ejecucion"]["M"])
    assert corridas[0]["lineas"][1] == ["«" + ejecuciones[0]["pedido"] + "»"]
    assert respuesta["resumen"] == banco.resumir(ejecuciones, ["agente", "agente_sin_tope"])


def test_a_run_is_what_the_agent_and_the_task_say(ns):
    tareas = ns["tareas_del_banco"]()
    for t, tarea in enumerate(tareas[:6]):
        for semilla in range(3):
            r = banco.ejecutar_una(ns["agente"], "agente", ns["modelo_ruidoso"], "modelo_ruidoso",
                                   tarea, t, semilla, ns["usuario"], tope=10)
            entorno = dict(tarea.entorno)
            como, final, M = ns["agente"](ns["modelo_ruidoso"](tarea, semilla), tarea.pedido,
                                          entorno, ns["usuario"](tarea), tope=10)
            esperado = ("tope" if como == "tope" else
                        "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
            assert r["motivo"] == esperado
            assert r["M"] == json.loads(json.dumps(M))
            assert r["turnos"] == sum(1 for rol, _ in M if rol == "asistente")
            assert r["final"] == final and r["error"] is None and r["tokens"] is None


def test_a_variant_that_raises_is_an_error_run_and_the_bench_goes_on(ns, avisos):
    respuesta = banco.medir(1, ns, "tareas_del_banco()[:3]", ["agente_que_falla"], "modelo_ruidoso", 2)
    assert respuesta["estado"] == "ok"
    ejecuciones = [a["ejecucion"] for a in avisos[1:]]
    assert len(ejecuciones) == 6
    falladas = [e for e in ejecuciones if "lista" in e["pedido"]]
    assert falladas and all(e["motivo"] == "error" for e in falladas)
    assert falladas[0]["error"] == "agente_que_falla lanzó ValueError: no sé leer listas"
    assert falladas[0]["M"] == []  # it raised before calling the model
    assert any(e["motivo"] != "error" for e in ejecuciones)


def test_a_check_that_raises_or_a_model_that_raises_is_told_apart(ns):
    tarea = ns["tareas_del_banco"]()[0]

    class Rota(Exception):
        pass

    def comprobar(entorno, final):
        raise Rota("se rompe")

    tarea.comprobar = comprobar
    r = banco.ejecutar_una(ns["agente"], "agente", lambda t, s: ns["modelo_ruidoso"](t, 0),
                           "modelo_ruidoso", tarea, 0, 0, ns["usuario"], tope=10)
    assert (r["motivo"], r["error"]) == ("error", "la comprobación de la tarea lanzó Rota: se rompe")

    def modelo_que_falla(M, herramientas):
        if len(M) > 2:
            raise KeyError("sin respuesta")
        return [ns["llamada"]("t1", "leer", ruta="lista.txt")]

    r = banco.ejecutar_una(ns["agente"], "agente", lambda t, s: modelo_que_falla, "el_mio",
                           tarea, 0, 0, ns["usuario"], tope=10)
    assert r["motivo"] == "error" and r["error"] == "el modelo lanzó KeyError: 'sin respuesta'"
    # the M the model saw last, where it failed
    assert [m[0] for m in r["M"]] == ["sistema", "usuario", "asistente", "usuario"]
    assert r["turnos"] == 1

    r = banco.ejecutar_una(ns["agente"], "agente", lambda t, s: 1 / 0, "hacer", tarea, 0, 0,
                           ns["usuario"])
    assert r["error"] == "hacer(tarea, semilla) lanzó ZeroDivisionError: division by zero"

    r = banco.ejecutar_una(ns["agente_raro"], "agente_raro", ns["modelo_ruidoso"], "m", tarea, 0,
                           0, ns["usuario"])
    assert r["error"] == "agente_raro devolvió 42, no (como, final, M)"


def test_an_agent_that_never_ends_is_stopped_at_the_limit_and_the_bench_goes_on(ns, avisos):
    respuesta = banco.medir(1, ns, "tareas_del_banco()[:2]", ["agente_sin_fin", "agente"],
                            "modelo_ruidoso", 1, limite=0.3)
    assert respuesta["estado"] == "ok"
    ejecuciones = [a["ejecucion"] for a in avisos[1:]]
    sin_fin = [e for e in ejecuciones if e["variante"] == "agente_sin_fin"]
    assert [e["error"] for e in sin_fin] == ["agente_sin_fin no terminó en 0,3 s: ¿falta el tope?"] * 2
    assert all(0.3 <= e["segundos"] < 2 for e in sin_fin)
    assert all(e["error"] is None for e in ejecuciones if e["variante"] == "agente")


def test_a_stop_keeps_the_runs_done(ns, avisos, monkeypatch):
    vistas = []
    original = banco.ejecutar_una

    def con_parada(*args, **kwargs):
        if len(vistas) == 5:
            raise KeyboardInterrupt
        vistas.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(banco, "ejecutar_una", con_parada)
    respuesta = banco.medir(1, ns, "tareas_del_banco()", ["agente"], "modelo_ruidoso", 20)
    assert respuesta["estado"] == "detenido"
    assert len(avisos) == 1 + 5
    assert respuesta["resumen"]["variantes"][0]["ejecuciones"] == 5


@pytest.mark.parametrize("tareas, variantes, veces, esperado", [
    ("tareas_del_banco()", ["agente", "agente_sin_repetir"], 5,
     {"estado": "falta", "nombre": "agente_sin_repetir"}),
    ("tareas_del_banko()", ["agente"], 5, {"estado": "falta", "nombre": "tareas_del_banko"}),
    ("tareas_del_banco(", ["agente"], 5,
     {"estado": "no-vale", "mensaje": "«tareas_del_banco(» no es una expresión de Python: '(' was never closed."}),
    ("1 / 0", ["agente"], 5,
     {"estado": "no-vale", "mensaje": "Al calcular las tareas, «1 / 0» lanzó ZeroDivisionError: division by zero."}),
    ("[]", ["agente"], 5, {"estado": "no-vale", "mensaje": "«[]» no da ninguna tarea."}),
    ("tareas_del_banco()", ["agente"], 0,
     {"estado": "no-vale", "mensaje": "Las ejecuciones por tarea deben ser un número entero de 1 a 1000, y son 0."}),
    ("tareas_del_banco()", ["agente"], 10_000,
     {"estado": "no-vale",
      "mensaje": "Las ejecuciones por tarea deben ser un número entero de 1 a 1000, y son 10000."}),
    ("tareas_del_banco()", ["SEMILLA_DEL_BANCO"], 5,
     {"estado": "no-vale", "mensaje": "SEMILLA_DEL_BANCO debería ser una variante (un agente), y es int: 2027."}),
])
def test_what_cannot_run_is_told_and_nothing_runs(ns, avisos, tareas, variantes, veces, esperado):
    assert banco.medir(1, ns, tareas, variantes, "modelo_ruidoso", veces) == esperado
    assert avisos == []


def test_the_worker_entries_speak_json(ns, monkeypatch, avisos):
    monkeypatch.setattr(banco, "ESPACIO", ns)
    texto = json.dumps({"id": 3, "tareas": "tareas_del_banco()[:1]", "variantes": ["agente"],
                        "modelo": "modelo_ruidoso", "veces": 2, "tope": 10, "limite": 5})
    respuesta = json.loads(banco.medir_mensaje(texto))
    assert respuesta["estado"] == "ok" and respuesta["resumen"]["variantes"][0]["ejecuciones"] == 2
    ligeras = [{k: v for k, v in a["ejecucion"].items() if k != "M"} for a in avisos[1:]]
    otra = json.loads(banco.resumir_mensaje(json.dumps({"ejecuciones": ligeras, "variantes": ["agente"]})))
    assert otra["resumen"] == respuesta["resumen"] and otra["vista"] == respuesta["vista"]
    assert not math.isnan(respuesta["segundos"])


# -- one of each: what the page, the course and the worker share -----------------------------------

CONSTANTES_DE_LA_PAGINA = """
const { MOTIVOS, VECES_MAXIMAS } = await import(process.argv[1]);
console.log(JSON.stringify({ MOTIVOS, VECES_MAXIMAS }));
"""


def test_the_page_and_the_course_end_runs_as_the_worker_does_and_cap_the_runs_alike(ns):
    """MOTIVOS and VECES_MAXIMAS are written once in each language that needs them: the page's
    (lib/banco-medida.js, which the runs' list and «Veces» read) and the course's runtime
    (runtime/banco.py's MOTIVOS, the reader's «Medir el agente») say what the worker says."""
    import shutil
    import subprocess
    from pathlib import Path

    from widgets.trabajador import trabajador_banco_resumen as resumen

    modulo = Path(__file__).resolve().parent.parent / "widgets" / "front" / "lib" / "banco-medida.js"
    node = shutil.which("node")
    assert node, "Node.js is needed for this test"
    p = subprocess.run([node, "--input-type=module", "-e", CONSTANTES_DE_LA_PAGINA, modulo.as_uri()],
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    pagina = json.loads(p.stdout)
    assert banco.MOTIVOS is resumen.MOTIVOS
    assert pagina["MOTIVOS"] == list(resumen.MOTIVOS) == list(ns["MOTIVOS"])
    assert pagina["VECES_MAXIMAS"] == banco.VECES_MAXIMAS


def test_both_halves_tell_the_page_through_the_cells_halfs_one_notice(monkeypatch):
    """The bench's and the grading's messages (``_avisar``) are the cells half's ``avisar``, each
    with its type: posted as JSON at once, non-ASCII kept."""
    import sys
    import types

    from widgets.trabajador import trabajador, trabajador_desafios

    enviados = []
    js = types.SimpleNamespace(postMessage=enviados.append,
                               JSON=types.SimpleNamespace(parse=json.loads))
    monkeypatch.setitem(sys.modules, "js", js)
    banco._avisar(3, evento="empieza", total=2)
    trabajador_desafios._avisar(4, evento="prueba", nombre="¿tope?")
    assert enviados == [{"id": 3, "type": "banco", "evento": "empieza", "total": 2},
                        {"id": 4, "type": "calificacion", "evento": "prueba", "nombre": "¿tope?"}]
    assert banco._avisar.func is trabajador_desafios._avisar.func is trabajador.avisar
