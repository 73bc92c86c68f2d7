"""The lesson «El bucle con un modelo real» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runtime import espacio
from tests.lecciones.comun import SOLUCION, celdas_de, ejecutar_leccion, opcion_de, texto_de

#: The thirty requests tried to choose the recordings (python -m tests.bench.candidatos).
CANDIDATOS = Path(__file__).resolve().parents[1] / "bench" / "candidatos.jsonl"


@pytest.fixture(scope="module")
def modelo_real():
    return ejecutar_leccion("modelo-real")


def _celda(ident: str) -> int:
    """The position of the cell ``:id: ident`` among the lesson's cells."""
    texto = texto_de("modelo-real")
    return re.findall(r"^```\{celda\}\n:id: ([\w-]+)", texto, re.M).index(ident)


def _referencia_del_adaptador(ns: dict) -> dict:
    """The challenge's reference ModeloAPI, in a copy of the lesson's namespace."""
    ref = dict(ns)
    exec((SOLUCION.parent.parent / "modelo-api" / "solucion.py").read_text(encoding="utf-8"), ref)
    return ref


class _Enviar:
    def __init__(self, respuesta):
        self.respuesta = respuesta

    def __call__(self, url, cuerpo, cabeceras=None):
        return self.respuesta


def test_modelo_real_the_lessons_adapter_is_the_agents_not_the_challenges(modelo_real):
    """«Es un adaptador hecho a la medida del agente …: toma ese primero para system y traduce el
    resto. Y guarda el usage solo de las respuestas que devuelve … Con los M de esta lección le
    basta.» For every M the lesson's cells send (one system message, first) its request is the
    challenge reference's; where the challenge asks for more (no system message, two of them, the
    usage of a cut answer), they differ, as the prose says."""
    _, ns = modelo_real
    ref = _referencia_del_adaptador(ns)
    leccion, referencia = ns["ModeloAPI"](max_tokens=200), ref["ModeloAPI"](max_tokens=200)
    grabacion = espacio("entorno", "guionizado", "grabacion")["GRABACION"]["mensajes"]
    M_de_la_leccion = [ns["M"], ns["INICIO_TORTILLA"], [tuple(m) for m in grabacion]]
    for M in M_de_la_leccion:
        assert leccion.peticion(M, ns["HERRAMIENTAS"]) == referencia.peticion(M, ns["HERRAMIENTAS"])
    sin_sistema = [("usuario", "hola")]
    dos = [("sistema", "uno"), ("usuario", "hola"), ("sistema", "dos")]
    for M in (sin_sistema, dos):
        try:
            cuerpo = leccion.peticion(M, [])
        except (ValueError, KeyError):  # nothing to unpack, or a second system message
            cuerpo = None
        assert cuerpo != referencia.peticion(M, [])
    cortada = {"content": [ns["texto"]("Voy a le")], "stop_reason": "max_tokens", "usage": {"output_tokens": 5}}
    for clase, uso in ((ns["ModeloAPI"], None), (ref["ModeloAPI"], {"output_tokens": 5})):
        modelo = clase(url="http://x/v1/messages", enviar=_Enviar(cortada))
        with pytest.raises(ns["RespuestaCortada"]):
            modelo([("sistema", "s"), ("usuario", "u")], [])
        assert modelo.uso == uso
    prosa = " ".join(texto_de("modelo-real").split())
    assert "Es un adaptador hecho a la medida del agente" in prosa
    assert "El de tu desafío no puede suponer nada de eso" in prosa
    assert 'ROLES = {"usuario": "user", "asistente": "assistant"}' in celdas_de("modelo-real")[0]


def test_modelo_real_the_harness_is_lesson_5s_unchanged(modelo_real):
    """«Tu arnés no cambia ni una línea»: ejecutar, bucle and agente of the first cell are the
    ones of «El agente y sus pruebas», character for character."""
    celda = celdas_de("modelo-real")[0]
    anterior = celdas_de("el-agente")[0]
    for funcion in ("ejecutar", "bucle", "agente"):
        patron = rf"^def {funcion}\(.*?(?=^\S)"
        assert re.search(patron, celda, re.S | re.M).group(0) == \
            re.search(patron, anterior, re.S | re.M).group(0), funcion
    assert "agente(ModeloAPI(), PEDIDO_TORTILLA, entorno)" in texto_de("modelo-real")


def test_modelo_real_first_cell_prints_the_request_it_would_send(modelo_real):
    import json

    salidas, ns = modelo_real
    cuerpo = json.loads(salidas[0])
    M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", "¿Qué hay en lista.txt?"),
         ("asistente", [ns["llamada"]("toolu_01", "leer", ruta="lista.txt")]),
         ("usuario", [ns["resultado"]("toolu_01", "pan, leche, patatas")])]
    assert cuerpo == ns["ModeloAPI"](max_tokens=200).peticion(M, ns["HERRAMIENTAS"])
    assert [m["role"] for m in cuerpo["messages"]] == ["user", "assistant", "user"]
    assert cuerpo["system"] == ns["SISTEMA_AGENTE"]


def test_modelo_real_the_two_tests_without_a_server_pass(modelo_real):
    salidas, _ = modelo_real
    assert salidas[1].count(" ... ok\n") == 2
    assert "Ran 2 tests in" in salidas[1] and salidas[1].rstrip().endswith("OK")


def test_modelo_real_outside_the_page_the_model_cells_say_why_in_one_sentence(modelo_real):
    salidas, _ = modelo_real
    for salida in (salidas[2], salidas[3]):
        assert salida.count("\n") == 1
        assert "fuera de la página no hay modelo del curso" in salida
    assert salidas[_celda("tu-servidor")] == "Escribe y confirma antes la dirección de tu servidor.\n"


def test_modelo_real_each_row_of_the_table_happens_as_it_says(modelo_real):
    """The table of «Lo que hace un modelo real, y quién se ocupa»: each row's cell output."""
    salidas, ns = modelo_real
    filas = dict(linea.split(": ", 1) for linea in salidas[_celda("cada-fila")].splitlines())
    assert filas["responde sin llamar a nada"] == "fin"
    assert filas["pide una herramienta que no existe"].startswith(
        "fin, observación de error «no existe la herramienta 'borrar'")
    assert filas["escribe argumentos que no encajan"].startswith("fin, observación de error «a leer le falta")
    assert filas["pide leer un fichero que no existe"] == "fin, observación de error «no existe el fichero 'lista'»"
    assert filas["pide escribir"] == f"fin, observación de error «{ns['NO_PERMITIDO']}»"
    assert filas["no deja de pedir herramientas"] == "tope"
    assert filas["se queda sin tokens a mitad"] == "sale RespuestaCortada"
    assert filas["responde en otro idioma"] == "fin"
    assert "¡el entorno ha cambiado!" not in salidas[_celda("cada-fila")]
    tabla = texto_de("modelo-real").lower()
    for fila in filas:  # each row the cell runs is a row of the table
        assert f"| {fila}" in tabla.replace("`", ""), fila


def _llamadas(ns, g):
    return [ns["muestra"](b).split(" ", 2)[2] for t in g["turnos"] for b in t["respuesta"]
            if b["type"] == "tool_use"]


def test_modelo_real_the_recordings_are_what_the_prose_says():
    """«Una ejecución de verdad» describes the recorded runs: the lesson's request, denied, where
    the model lists, reads the recipe and the list, asks to write the whole list with the missing
    items and says what was denied; a request it solves in three turns; a path that does not exist,
    read where the error suggests; and a question it answers by rewriting the list as «pan».
    Each turn reuses the prompt processed before (the first, the start read at the load), and
    the last turns take longer than the first. A new recording that does otherwise fails here
    (and the prose must be written again)."""
    ns = espacio("entorno", "guionizado", "grabacion")
    prosa = " ".join(texto_de("modelo-real").split())
    g, leche, tortilla, patatas = ns["GRABACIONES"]
    E = dict(ns["ENTORNO"])
    assert ns["GRABACION"] is g and g["pedido"] == "Apunta en lista.txt lo que falta para la tortilla."
    assert _llamadas(ns, g) == [
        "listar(carpeta='')", "listar(carpeta='recetas')", "leer(ruta='recetas/tortilla.txt')",
        "leer(ruta='lista.txt')", "escribir(ruta='lista.txt', contenido='pan, leche, patatas, huevos, cebolla')"]
    assert "`pan, leche, patatas, huevos, cebolla`" in prosa
    assert g["final"]["como"] == "fin" and not g["permite"]
    assert g["entorno"] == E  # denied: nothing changed
    assert f"«{g['final']['texto']}»" in prosa
    reusados = [t["tokens_reusados"] for t in g["turnos"]]
    assert reusados[0] > 0 and all(a < b for a, b in zip(reusados, reusados[1:]))
    segundos = [t["segundos"] for t in g["turnos"]]
    assert min(segundos[-3:]) > max(segundos[:3]), segundos
    assert "en el primero, es el comienzo que el modelo leyó al cargarse" in prosa
    assert "los últimos turnos tardan más que los primeros" in prosa
    # the three others, all with writes allowed
    assert all(x["permite"] for x in (leche, tortilla, patatas)) and "En los tres el usuario deja escribir" in prosa
    assert leche["pedido"] == "Quita la leche de lista.txt." and len(leche["turnos"]) == 3
    assert leche["entorno"]["lista.txt"] == "pan, patatas" and "lo resuelve en tres turnos" in prosa
    assert tortilla["pedido"] == "Lee tortilla.txt."
    assert _llamadas(ns, tortilla) == ["leer(ruta='tortilla.txt')", "leer(ruta='recetas/tortilla.txt')"]
    assert f"«{tortilla['final']['texto']}»" in prosa and tortilla["entorno"] == E
    assert patatas["pedido"] == "¿Tengo patatas en la lista?" and f"«{patatas['pedido']}»" in prosa
    assert _llamadas(ns, patatas)[-1] == "escribir(ruta='lista.txt', contenido='pan')"
    assert patatas["entorno"]["lista.txt"] == "pan" and "la lista se queda en `pan`" in prosa
    assert f"«{patatas['final']['texto']}»" in prosa
    # the thirty requests tried (tests/bench/candidatos.jsonl), of the published model: only a
    # greeting answered with no call
    import json

    from widgets.construccion.modelo_local import fijado

    probados = [json.loads(l) for l in CANDIDATOS.read_text(encoding="utf-8").splitlines()]
    assert {p["sha256"] for p in probados} == {fijado().publicado_sha256} == {g["modelo"]["sha256"]}
    assert f"entre {len(probados)} pedidos probados" in prosa and f"De los {len(probados)} pedidos probados" in prosa
    sin_llamadas = [p["pedido"] for p in probados if p["turnos"] == 1]
    assert len(sin_llamadas) == 1 and sin_llamadas[0].startswith("Hola")
    assert "solo contestó sin llamar a ninguna herramienta a un saludo" in prosa
    # and each trace replays its recording with the reference loop: the same messages, the same end
    referencia = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec((SOLUCION.parent.parent / "pedir-permiso" / "solucion.py").read_text(encoding="utf-8"), referencia)
    for n, grabada in enumerate(ns["GRABACIONES"]):
        assert f"inicio = inicio_grabado({n})" in texto_de("modelo-real") or n == 0
        preguntar = referencia["Respuestas"](["sí"] * 5) if grabada["permite"] else referencia["denegar"]
        entorno = dict(E)
        como, _, M = referencia["bucle"](ns["ModeloGuionizado"](ns["guion_grabado"](n)),
                                         ns["inicio_grabado"](n), entorno, 10, preguntar)
        assert como == "fin" and [list(m) for m in M] == [list(m) for m in grabada["mensajes"]]
        assert entorno == grabada["entorno"]


def test_modelo_real_question_answers_are_computed(modelo_real):
    _, ns = modelo_real
    L = ns["llamada"]("t1", "leer", ruta="lista.txt")
    M = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", "pedido"),
         ("asistente", [L]), ("usuario", [ns["resultado"]("t1", "pan")]),
         ("asistente", [L]), ("usuario", [ns["resultado"]("t1", "pan")])]
    cuerpo = ns["ModeloAPI"]().peticion(M, ns["HERRAMIENTAS"])
    assert int(opcion_de("modelo-real", "cuantos-messages", "respuesta")) == len(cuerpo["messages"]) == 5


def test_modelo_real_what_it_says_of_the_tuned_model_is_its_manifest_the_pin_and_the_bench():
    """«Un modelo ajustado a este arnés»: the adapter's rank, the runs and passes, the minutes of
    training are the manifest's (widgets/datos/smollm2-135m-adaptador.json); the file's megabytes
    the pinned ONNX model's (what the page downloads); what it solves, the published model's greedy runs in
    tests/bench/aciertos-voraz.json, which must be of the pinned model."""
    import json
    from pathlib import Path

    from widgets.construccion.modelo_local import FIJADO, fijado

    raiz = Path(__file__).resolve().parents[2]
    manifiesto = json.loads((FIJADO.parent / "smollm2-135m-adaptador.json").read_text(encoding="utf-8"))
    medidas = json.loads((raiz / "tests" / "bench" / "aciertos-voraz.json").read_text(encoding="utf-8"))
    pin = fijado()
    assert medidas["sha256"] == pin.publicado_sha256, "measure the published model again"
    assert manifiesto["adaptador"]["sha256"] == pin.adaptado.npz_sha256
    prosa = " ".join(texto_de("modelo-real").split())
    h, d, e = manifiesto["hiperparametros"], manifiesto["datos"], manifiesto["entrenamiento"]
    assert f"(LoRA, de rango {h['rango']})" in prosa
    leidas = e["pasos"] * h["ejecuciones_por_paso"]
    assert (f"Fueron {d['ejecuciones']} conversaciones y {round(e['segundos'] / 60)} minutos en un "
            f"ordenador de dos núcleos") in prosa
    assert f"El entrenamiento leyó {leidas}: todas una vez y {leidas - d['ejecuciones']} de ellas, dos." in prosa
    assert d["ejecuciones"] < leidas <= 2 * d["ejecuciones"]
    # the ONNX model the page downloads: its graph and its weights
    assert f"el fichero pesa {round((pin.onnx.bytes + pin.onnx.pesos_bytes) / 1e6)} MB" in prosa
    cuentas = {}
    for r in medidas["registros"]:
        n, ok = cuentas.get(r["conjunto"], (0, 0))
        cuentas[r["conjunto"]] = (n + 1, ok + r["resuelta"])
    (ln, lok), (an, aok) = cuentas["lecciones"], cuentas["apartadas"]
    assert (f"de {ln} pedidos de las lecciones sobre sus ficheros resuelve {lok}, y de {an} "
            f"pedidos escritos de otra manera, sobre ficheros que el generador no conoce, {aok}.") in prosa
    # what it gets wrong, as the records have it
    por_pedido = {}
    for r in medidas["registros"]:  # a request asked twice (allowed, then denied): the first
        por_pedido.setdefault(r["pedido"], r)
    gazpacho = por_pedido["¿Qué ingredientes lleva el gazpacho?"]
    assert not gazpacho["resuelta"] and '{"leer":{"ruta":"lista.txt"}}' in gazpacho["salidas"]
    assert f"«{gazpacho['final']}»" in prosa
    arroz = por_pedido["Añade arroz a lista.txt."]
    assert not arroz["resuelta"] and arroz["final"].startswith("He añadido arroz")
    assert '{"escribir":{"ruta":"lista.txt","contenido":"pan, leche, patatas"}}' in arroz["salidas"]
    assert "Escribe la lista sin el cambio que le pidieron y dice que lo ha hecho" in prosa
    despensa = por_pedido["quiero hacer paella esta noche: mete en despensa.txt lo que me falte"]
    assert '{"leer":{"ruta":"dessena.txt"}}' in despensa["salidas"]
    assert "pide `dessena.txt` cuando el fichero es `despensa.txt`" in prosa
    # the first measure, on the first ten and sixteen tasks (the sets grew later): the same records
    primeras = [r for r in medidas["registros"]
                if r["indice"] < {"lecciones": 10, "apartadas": 16}[r["conjunto"]]]
    antes = {c: sum(r["resuelta"] for r in primeras if r["conjunto"] == c) for c in ("lecciones", "apartadas")}
    assert (ln, an) != (10, 16)
    assert f"salían {antes['lecciones']} de 10 y {antes['apartadas']} de 16" in prosa
    assert f"Con {ln} y {an} cada una podría estar" in prosa
    for conjunto, n, primeros in (("lecciones", ln, 10), ("apartadas", an, 16)):  # «le fueron peor»
        despues = cuentas[conjunto][1] - antes[conjunto]
        assert despues / (n - primeros) < antes[conjunto] / primeros
    assert (f"la tasa de los de las lecciones bajó del {round(100 * antes['lecciones'] / 10)} % al "
            f"{round(100 * lok / ln)} %") in prosa


def test_modelo_real_the_training_runs_cell_prints_runs_of_the_readers_agent(modelo_real):
    """The cell that shows two of the training runs, with the lesson's own agent: the first two
    the adapter was trained on (the manifest's seed and share of varied names)."""
    import json

    from widgets.construccion.modelo_local import FIJADO

    d = json.loads((FIJADO.parent / "smollm2-135m-adaptador.json").read_text(encoding="utf-8"))["datos"]
    salidas, _ = modelo_real
    celdas = celdas_de("modelo-real")
    i = _celda("ejecuciones-de-entrenamiento")
    variados, amplio = d.get("nombres_variados") or 0, d.get("amplio") or 0
    llamada = (f"ejecuciones(2, agente, semilla={d['semilla']}"
               + (f", nombres_variados={variados}" if variados else "")
               + (f", amplio={amplio}" if amplio else "") + ")")
    assert llamada in celdas[i]
    assert salidas[i].count("Pedido: ") == 2 and "asistente: [texto: «" in salidas[i]
