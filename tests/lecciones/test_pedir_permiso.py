"""The lesson «Pedir permiso» tells the truth: its cells run in order in CPython, and every number
its prose states about what the code prints, or that a question takes as its answer, is computed
here (see tests/lecciones/comun.py)."""

from __future__ import annotations

import re

import pytest

from runtime import espacio
from tests.lecciones.comun import RAIZ, celdas_de, ejecutar_leccion, opcion_de, opciones_de, texto_de


PERMISO = RAIZ / "challenges" / "pedir-permiso" / "solucion.py"


def referencia_con_permiso():
    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec(PERMISO.read_text(encoding="utf-8"), ns)
    return ns


@pytest.fixture(scope="module")
def pedir_permiso():
    return ejecutar_leccion("pedir-permiso")


def test_pedir_permiso_cells(pedir_permiso):
    salidas, ns = pedir_permiso
    assert salidas[0].splitlines() == [
        "CAMBIAN: ['escribir']", "listar solo mira", "leer solo mira", "buscar solo mira",
        "escribir pregunta: ¿Permites escribir lista.txt?"]
    assert salidas[1].splitlines() == [
        "resultado d1: «pan, leche, patatas»",
        "  ¿Permites escribir lista.txt? → no",
        "resultado d2 (error): «no se ha ejecutado: el usuario no lo ha permitido»",
        "  ¿Permites escribir lista.txt? → no",
        "resultado d3 (error): «no se ha ejecutado: el usuario no lo ha permitido»",
        "lista.txt: pan, leche, patatas"]
    assert ("Por la lectura no se pregunta, y las dos escrituras se deniegan: `lista.txt` sigue "
            "como estaba.") in " ".join(texto_de("pedir-permiso").split())
    # «Pero fíjate en la pregunta por d3: … no encaja con su esquema. Con un sí, escribir habría
    # lanzado TypeError»: the cell's ejecutar_con_permiso checks no schema (that is the
    # challenge's), and it asked about a call that does not fit.
    d3 = ns["llamada"]("d3", "escribir", ruta="lista.txt")
    assert ns["incumple"](d3) is not None
    with pytest.raises(TypeError):
        ns["ejecutar_con_permiso"](d3, dict(ns["ENTORNO"]), ns["permitir"])
    # In CPython nobody can be asked: the cell says so in one sentence, prints what the page
    # would have shown (the whole content and the line diff) and the script answers.
    assert salidas[2].splitlines() == [
        "Aquí no se te puede preguntar: responde un guion, sí y después no.",
        "¿Permites escribir lista.txt?",
        "  lista.txt quedará así (1 línea):",
        "      pan, leche, patatas, huevos, cebolla",
        "  Lo que cambia en lista.txt: 1 línea que se quita y 1 línea que se añade (- se quita, + se añade):",
        "    - pan, leche, patatas",
        "    + pan, leche, patatas, huevos, cebolla",
        "  → Permitir",
        "¿Permites escribir notas.txt?",
        "  notas.txt quedará así (3 líneas):",
        "      El sábado cenan los vecinos.",
        "      Menú: gazpacho y tortilla.",
        "      Compra: faltan huevos y cebolla.",
        "  Lo que cambia en notas.txt: 1 línea que se añade (- se quita, + se añade):",
        "      El sábado cenan los vecinos.",
        "      Menú: gazpacho y tortilla.",
        "    + Compra: faltan huevos y cebolla.",
        "  → Denegar",
        "fin tras 7 mensajes: He apuntado huevos y cebolla en lista.txt; notas.txt sigue como estaba.",
        "  resultado p3: «escrito lista.txt (36 caracteres)»",
        "  resultado p4 (error): «no se ha ejecutado: el usuario no lo ha permitido»",
        "lista.txt: pan, leche, patatas, huevos, cebolla",
        "notas.txt sin tocar: True"]
    prosa = texto_de("pedir-permiso")
    assert "De las cuatro llamadas, solo por la de `escribir` se pregunta al usuario" in " ".join(prosa.split())
    assert "el bucle termina con `fin` tras 7 mensajes" in " ".join(prosa.split())


@pytest.mark.parametrize("respuestas", [[True, True], [True, False], [False, True], [False, False]])
def test_pedir_permiso_cell_with_a_reader_who_answers(monkeypatch, respuestas):
    """Where the page can ask, the reader's answers drive the run, the script is not used, and
    M has 7 messages whatever they answer (as the prose says)."""
    import sys
    import types

    preguntas = []

    def preguntar_en_la_pagina(texto, detalle, partes=()):
        preguntas.append((texto, detalle, partes))
        return respuestas[len(preguntas) - 1]
    monkeypatch.setitem(sys.modules, "trabajador",
                        types.SimpleNamespace(preguntar_en_la_pagina=preguntar_en_la_pagina))
    salidas, ns = ejecutar_leccion("pedir-permiso")
    assert [t for t, _, _ in preguntas] == ["¿Permites escribir lista.txt?", "¿Permites escribir notas.txt?"]
    assert preguntas[0][1].startswith("llamada p3 escribir(ruta='lista.txt'")
    # What the reader is shown is what changes in the environment the loop works on.
    assert preguntas[1][2][0]["titulo"] == "notas.txt quedará así (3 líneas):"
    assert "no se te puede preguntar" not in salidas[2]
    assert ns["como"] == "fin" and len(ns["M"]) == 7
    assert ns["final"] == ns["FINALES_PERMISO"][tuple(respuestas)]
    assert (ns["entorno"]["lista.txt"] != ns["ENTORNO"]["lista.txt"]) == respuestas[0]
    assert (ns["entorno"]["notas.txt"] != ns["ENTORNO"]["notas.txt"]) == respuestas[1]
    assert "no se ha ejecutado: el usuario no lo ha permitido" in texto_de("pedir-permiso")
    assert "el número de mensajes no cambia" in " ".join(texto_de("pedir-permiso").split())


def test_pedir_permiso_question_answers_are_computed():
    ns = referencia_con_permiso()
    # mensajes-permiso: the trace's run, yes to lista.txt and no to notas.txt
    usuario = ns["Respuestas"](["sí", "no"])
    como, _, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                             ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3, usuario)
    assert como == "fin"
    assert int(opcion_de("pedir-permiso", "mensajes-permiso", "respuesta")) == len(M) == 7
    # que-pregunta: the calls asked about are the options marked right
    preguntadas = [ll["id"] for ll in usuario.preguntas]
    assert preguntadas == ["p3", "p4"]
    texto = texto_de("pedir-permiso")
    bloque = texto[texto.index(":id: que-pregunta\n"):]
    bloque = bloque[:bloque.index("::::")]
    assert re.findall(r"^- \[x\] `(p\d)`", bloque, re.M) == preguntadas
    # sin-usuario: nobody to ask, the loop's default denegar
    _, _, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["no", "no"])),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3)
    errores = [b for rol, c in M if rol == "usuario" and isinstance(c, list) for b in c
               if b["is_error"]]
    assert int(opcion_de("pedir-permiso", "sin-usuario", "respuesta")) == len(errores) == 2
    # la-siguiente: a denied p3 does not stop p4, which is asked about and runs
    usuario = ns["Respuestas"](["no", "sí"])
    entorno = dict(ns["ENTORNO"])
    ns["bucle"](ns["ModeloGuionizado"](ns["guion_permiso"](["no", "sí"])), ns["INICIO_PERMISO"],
                entorno, 3, usuario)
    assert [ll["id"] for ll in usuario.preguntas] == ["p3", "p4"]
    assert entorno["notas.txt"] == ns["NOTAS_PERMISO"] and entorno["lista.txt"] == ns["ENTORNO"]["lista.txt"]


def test_pedir_permiso_the_question_shows_the_line_nobody_asked_for_whole():
    """The lesson's own example: in p4 the model writes to notas.txt a line the user never asked
    for. The call's one-line view cuts it off; the question shows the whole content and, since
    notas.txt exists, a line diff in which that line is added, whole."""
    ns = referencia_con_permiso()
    p3, p4 = ns["RESPUESTAS_PERMISO"][1]
    nueva = "Compra: faltan huevos y cebolla."
    assert nueva not in ns["muestra"](p4)  # what the question showed before: cut at 40
    entorno = dict(ns["ENTORNO"])
    contenido, cambios = ns["que_cambia"](p4, entorno)
    assert contenido == {"titulo": "notas.txt quedará así (3 líneas):",
                         "lineas": [["", linea] for linea in ns["NOTAS_PERMISO"].splitlines()]}
    assert cambios["titulo"] == ("Lo que cambia en notas.txt: 1 línea que se añade "
                                 "(- se quita, + se añade):")
    assert cambios["lineas"] == [[" ", "El sábado cenan los vecinos."],
                                 [" ", "Menú: gazpacho y tortilla."], ["+", nueva]]
    # lista.txt: its one line goes, the longer one comes.
    _, cambios = ns["que_cambia"](p3, entorno)
    assert cambios["lineas"] == [["-", "pan, leche, patatas"], ["+", ns["LISTA_TORTILLA"]]]
    assert entorno == ns["ENTORNO"]  # looking changes nothing
    prosa = " ".join(texto_de("pedir-permiso").split())
    assert ("te muestra también todo lo que se va a escribir y, si el fichero ya existe en el "
            "entorno, qué líneas se quitan y cuáles se añaden") in prosa
    assert "preguntar_al_lector(ll, entorno)" in prosa


@pytest.mark.parametrize("entorno, contenido, esperado", [
    (None, "uno\ndos", [("Se escribirá en a.txt (2 líneas):", [["", "uno"], ["", "dos"]])]),
    ({}, "uno", [("a.txt no existe: se creará con esto (1 línea):", [["", "uno"]])]),
    ({"a.txt": "uno"}, "uno", [("a.txt quedará así (1 línea):", [["", "uno"]]),
                               ("a.txt ya tiene ese contenido: no cambia nada.", [])]),
    ({"a.txt": "uno\ndos"}, "", [("a.txt quedará vacío.", []),
                                 ("Lo que cambia en a.txt: 2 líneas que se quitan "
                                  "(- se quita, + se añade):", [["-", "uno"], ["-", "dos"]])]),
    ({"a.txt": "\n".join("abcdefghij")}, "\n".join("aBcdefghiJk"), [
        ("a.txt quedará así (11 líneas):", [["", c] for c in "aBcdefghiJk"]),
        ("Lo que cambia en a.txt: 2 líneas que se quitan y 3 líneas que se añaden "
         "(- se quita, + se añade):",
         [[" ", "a"], ["-", "b"], ["+", "B"], [" ", "c"], [" ", "d"], ["…", ""],
          [" ", "h"], [" ", "i"], ["-", "j"], ["+", "J"], ["+", "k"]])]),
])
def test_que_cambia_a_new_file_an_unchanged_one_an_emptied_one_and_far_apart_changes(
        entorno, contenido, esperado):
    ns = referencia_con_permiso()
    partes = ns["que_cambia"](ns["llamada"]("x", "escribir", ruta="a.txt", contenido=contenido), entorno)
    assert [(p["titulo"], p["lineas"]) for p in partes] == esperado


def test_que_cambia_is_empty_for_a_call_that_writes_no_file():
    ns = referencia_con_permiso()
    for ll in (ns["llamada"]("x", "leer", ruta="a.txt"), ns["llamada"]("x", "escribir", ruta="a.txt"),
               ns["llamada"]("x", "escribir", ruta="a.txt", contenido=3), {"type": "tool_use"}):
        assert ns["que_cambia"](ll, {"a.txt": "uno"}) == []


def test_pedir_permiso_trace_turn_2_asks_twice_in_order():
    """«Fíjate en el turno 2: hay dos pasos de permiso, uno por escritura y en el orden de las
    llamadas. Las lecturas del turno 1 no preguntan.»"""
    from widgets.calificador.trazas import trazar

    ns = referencia_con_permiso()
    traza = trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                   ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3,
                   preguntar=ns["Respuestas"](["sí", "no"]))
    permisos = [e for e in traza["eventos"] if e["tipo"] == "permiso"]
    assert [(e["turno"], e["id"], e["permitido"]) for e in permisos] == [(2, "p3", True), (2, "p4", False)]
    assert "Fíjate en el turno 2: hay dos pasos de permiso" in texto_de("pedir-permiso")


# ------------------------------------------------------- predictions and «Cámbialo tú»


def correctas(ident):
    return [texto for marcada, texto in opciones_de("pedir-permiso", ident) if marcada]


def celda(ident):
    """The code of the lesson's cell ``:id: ident``."""
    texto = texto_de("pedir-permiso")
    bloque = texto[texto.index(f":id: {ident}\n"):]
    return bloque[len(f":id: {ident}\n"):bloque.index("\n```")]


def test_every_prediction_comes_right_before_its_cell():
    from tests.lecciones.forma import predicciones

    assert predicciones("pedir-permiso") == [("predice-quien-pregunta", "quien-pregunta"),
                                            ("predice-d3", "ejecutar-con-permiso"),
                                            ("predice-mensajes", "tu-permiso")]
    assert celda("ejecutar-con-permiso") in celdas_de("pedir-permiso")


def test_predice_quien_pregunta_is_what_the_cell_prints(pedir_permiso):
    salidas, _ = pedir_permiso
    preguntan = [linea.split()[0] for linea in salidas[0].splitlines() if " pregunta: " in linea]
    assert preguntan == ["escribir"]
    assert correctas("predice-quien-pregunta") == ["Solo por la de `escribir`."]


def test_predice_d3_is_what_the_cell_prints(pedir_permiso):
    salidas, ns = pedir_permiso
    lineas = salidas[1].splitlines()
    # d3 is asked about (the cell checks no schema) and comes back denied
    assert lineas[-3:-1] == ["  ¿Permites escribir lista.txt? → no",
                             "resultado d3 (error): «no se ha ejecutado: el usuario no lo ha permitido»"]
    assert ns["incumple"](ns["llamada"]("d3", "escribir", ruta="lista.txt")) is not None
    assert correctas("predice-d3") == ["La pregunta, «¿Permites escribir lista.txt?», y después la denegación."]


def test_predice_mensajes_whatever_the_reader_answers(monkeypatch):
    """The marked answer («No»): M has 7 messages for each of the four ways to answer."""
    import sys
    import types

    for respuestas in ([True, True], [True, False], [False, True], [False, False]):
        dadas = []

        def preguntar_en_la_pagina(texto, detalle, partes=(), dadas=dadas, respuestas=respuestas):
            dadas.append(texto)
            return respuestas[len(dadas) - 1]
        monkeypatch.setitem(sys.modules, "trabajador",
                            types.SimpleNamespace(preguntar_en_la_pagina=preguntar_en_la_pagina))
        _, ns = ejecutar_leccion("pedir-permiso")
        assert len(dadas) == 2 and ns["como"] == "fin" and len(ns["M"]) == 7
    assert correctas("predice-mensajes") == ["No: una llamada denegada también tiene su observación."]


def test_cambialo_texto_no_breaks_as_the_marked_answer_says(pedir_permiso):
    """«cambia `return False` por `return "no"`»: d2 runs although the user said no, and the
    cell stops at d3 with TypeError (escribir without contenido)."""
    _, ns = pedir_permiso
    codigo = celda("ejecutar-con-permiso")
    assert codigo.count("    return False\n") == 1
    cambiado = codigo.replace("    return False\n", '    return "no"\n')
    assert "cambia `return False` por `return \"no\"`" in " ".join(texto_de("pedir-permiso").split())
    espacio = dict(ns)
    import contextlib
    import io

    salida = io.StringIO()
    with contextlib.redirect_stdout(salida), pytest.raises(TypeError, match="contenido"):
        exec(compile(cambiado, "<celda cambiada>", "exec"), espacio)
    lineas = salida.getvalue().splitlines()
    assert "resultado d2: «escrito lista.txt (9 caracteres)»" in lineas
    assert espacio["entorno"]["lista.txt"] == "chocolate"
    assert lineas[-1] == "  ¿Permites escribir lista.txt? → no"  # d3 was asked, then escribir raised
    assert correctas("cambialo-texto-no") == [
        "`d2` se ejecuta y escribe «chocolate» en `lista.txt`; con `d3`, la celda se para con un "
        "`TypeError`."]
    assert not bool(not "no")  # the explanation: for `not`, the text "no" is true


def test_the_answer_rule_of_the_reference():
    """«`True` es un sí, `False` es un no, y cualquier otra cosa no es ninguna de las dos»: the
    reference raises TypeError for any other answer and runs nothing."""
    ns = referencia_con_permiso()
    ll = ns["llamada"]("x1", "escribir", ruta="lista.txt", contenido="chocolate")
    for valor in ("no", "sí", None, 0, 1, ""):
        entorno = dict(ns["ENTORNO"])
        with pytest.raises(TypeError):
            ns["ejecutar"](ll, entorno, lambda _, valor=valor: valor)
        assert entorno == ns["ENTORNO"]
    assert ns["ejecutar"](ll, dict(ns["ENTORNO"]), ns["denegar"]) == ns["denegado"](ll)
    prosa = " ".join(texto_de("pedir-permiso").split())
    assert ("`True` es un sí, `False` es un no, y cualquier otra cosa no es ninguna de las dos"
            in prosa)
    assert "devuelve `None` cuando la página no puede preguntar" in prosa


def test_wording_of_issue_55():
    prosa = texto_de("pedir-permiso")
    plano = " ".join(prosa.split())
    for dicho in ("Una llamada que solo mira no pregunta", "Leer solo mira.", "una petición rota",
                  "de verdad", "la traza enseña", "te enseña", "La celda escribe"):
        assert dicho not in plano, dicho
    assert "Por una llamada que solo mira no se pregunta" in plano
    assert plano.count("> `leer` no cambia nada.") == 2
    assert "una llamada rota" in plano
    for archivo in ("inicial.py", "solucion.py"):
        codigo = (RAIZ / "challenges" / "pedir-permiso" / archivo).read_text(encoding="utf-8")
        assert "cambia el mundo" not in " ".join(codigo.split()) and "lo que cambia el" in codigo
    permisos = (RAIZ / "runtime" / "permisos.py").read_text(encoding="utf-8")
    assert "de verdad" not in permisos and "enseñ" not in permisos
