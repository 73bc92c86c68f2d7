"""The lesson «Errores como observaciones» tells the truth: its cells run in order in CPython, and
every number its prose states about what the code prints, or that a question takes as its
answer, is computed here (see tests/lecciones/comun.py). Its predictions (``predice-``) are
marked with what the cell really prints, and its «Cámbialo tú» breaks where its marked answer
says."""

from __future__ import annotations

import contextlib
import io

import pytest

from tests.lecciones.comun import (RAIZ, celdas_de, ejecutar_leccion, opcion_de, opciones_de,
                                   referencia, texto_de)
from tests.lecciones import forma

DESAFIO = RAIZ / "challenges" / "errores-como-observaciones"


@pytest.fixture(scope="module")
def errores():
    return ejecutar_leccion("errores")


def prosa():
    return " ".join(texto_de("errores").split())


def correcta(ident: str) -> str:
    (texto,) = [t for ok, t in opciones_de("errores", ident) if ok]
    return texto


def correr(celdas: list[str], ns: dict | None = None) -> tuple[list[str], dict, BaseException | None]:
    """Run ``celdas`` in order in a new page namespace (or ``ns``); stop at the first exception
    a cell lets out and return it with the outputs so far."""
    from runtime import espacio

    ns = espacio() if ns is None else ns
    salidas = []
    for i, codigo in enumerate(celdas, start=1):
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer):
                exec(compile(codigo, f"<celda {i}>", "exec"), ns)
        except Exception as error:  # noqa: BLE001 - what the reader sees break
            salidas.append(buffer.getvalue())
            return salidas, ns, error
        salidas.append(buffer.getvalue())
    return salidas, ns, None


# ------------------------------------------------------------------ the first cell


def test_errores_first_cell_the_invented_tool_and_the_harness_bug(errores):
    salidas, ns = errores
    motivo = ns["incumple"](ns["inventada"])
    assert motivo == "no existe la herramienta 'copiar'; las hay: listar, leer, escribir, buscar"
    assert salidas[0].splitlines() == [
        "ejecutar_a_ciegas",
        "  e8: is_error=True, \"error: 'copiar'\"",
        "  e9: is_error=True, \"error: 'lista'\"",
        "ejecutar_sin_inventos",
        f"  e8: is_error=True, {motivo!r}",
        "  e9: sale KeyError('lista')",
    ]
    assert ns["FUNCIONES"]["buscar"] is ns["buscar"]  # the cell puts the real tool back
    # «el de la herramienta inventada es el mismo que escribe ejecutar_sin_inventos»: incumple's
    # motive, so the script of the second cell (written with the reference) goes on after it.
    assert "el de la herramienta inventada es el mismo que escribe `ejecutar_sin_inventos`" in prosa()
    assert ns["OBSERVACIONES_COPIA"][0][0]["content"] == motivo
    # «Las dos excepciones son de la misma clase»
    with pytest.raises(KeyError):
        ns["FUNCIONES"][ns["inventada"]["name"]]
    with pytest.raises(KeyError):
        ns["buscar_con_fallo"](dict(ns["ENTORNO"]), "ajo")
    assert "Con `e9`, la versión a ciegas le pasa al modelo `\"error: 'lista'\"`" in prosa()
    assert "dice solo `\"error: 'copiar'\"`" in prosa()
    # the version that only looks at the name knows no other error of the model's
    with pytest.raises(IsADirectoryError):
        ns["ejecutar_sin_inventos"](ns["llamada"]("x", "leer", ruta="recetas"), dict(ns["ENTORNO"]))


def test_errores_prediction_of_the_first_cell_is_what_it_prints(errores):
    salidas, _ = errores
    assert ("predice-a-ciegas", "herramienta-inventada") in forma.predicciones("errores")
    marcada = correcta("predice-a-ciegas")
    assert marcada.startswith("`ejecutar_a_ciegas` le devuelve al modelo `\"error: 'lista'\"`; de "
                              "`ejecutar_sin_inventos` sale el `KeyError`.")
    lineas = salidas[0].splitlines()
    assert lineas[2] == "  e9: is_error=True, \"error: 'lista'\""  # a ciegas: to the model
    assert lineas[5] == "  e9: sale KeyError('lista')"  # sin inventos: out to the programmer


# ------------------------------------------------------------------ the second cell


def test_errores_second_cell_dies_in_turn_3_as_predicted(errores):
    salidas, ns = errores
    assert salidas[1].splitlines() == [
        "turno 3: sale TypeError: 'contenido' debe ser texto (str) y es list: "
        "['pan', 'leche', 'patatas']",
        "compra/sabado.txt: no existe"]
    assert ("predice-copia", "bucle-con-errores") in forma.predicciones("errores")
    assert correcta("predice-copia").startswith(
        "Que en el turno 3 sale `TypeError`, y que `compra/sabado.txt` no existe.")
    # the conversation the prose tells: copiar in turn 1, leer in 2, a list in 3, text in 4
    llamadas = [[(b["name"], b["input"]) for b in r if b["type"] == "tool_use"]
                for r in ns["RESPUESTAS_COPIA"]]
    assert llamadas == [
        [("copiar", {"ruta": "lista.txt", "destino": "compra/sabado.txt"})],
        [("leer", {"ruta": "lista.txt"})],
        [("escribir", {"ruta": "compra/sabado.txt", "contenido": ["pan", "leche", "patatas"]})],
        [("escribir", {"ruta": "compra/sabado.txt", "contenido": "pan, leche, patatas"})],
        []]
    assert ('El modelo pide `copiar` en el turno 1; en el 2 lee la lista; en el 3 la escribe con '
            'el contenido como una lista de palabras, `["pan", "leche", "patatas"]`, y no como '
            'un texto; en el 4 la escribe bien.') in prosa()
    assert "En el turno 3 la lista llega hasta `escribir`, que lanza `TypeError`" in prosa()


def test_errores_the_copy_scripts_observations_are_the_references():
    """escenarios.py writes the observations of the copy as data: they are what the challenge's
    reference gives, call after call, on a copy of ENTORNO."""
    ns = referencia()
    exec(DESAFIO.joinpath("solucion.py").read_text(encoding="utf-8"), ns)
    entorno = dict(ns["ENTORNO"])
    calculadas = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                  for r in ns["RESPUESTAS_COPIA"]]
    assert calculadas == ns["OBSERVACIONES_COPIA"]
    assert ns["guion_copia"]() == ns["guion_de"](ns["INICIO_COPIA"], ns["RESPUESTAS_COPIA"],
                                                 ns["OBSERVACIONES_COPIA"])


def test_errores_with_the_challenges_ejecutar_the_loop_ends_as_the_prose_says(errores):
    """«Con un ejecutar que siga las dos reglas …, el de tu desafío, esta conversación termina
    con fin tras 11 mensajes, y 2 de las observaciones fueron errores»: the reference's ejecutar
    pasted in the first cell in place of ejecutar_sin_inventos, as the prose invites the reader
    to do with theirs, and both cells run again."""
    solucion = DESAFIO.joinpath("solucion.py").read_text(encoding="utf-8")
    primera, segunda = celdas_de("errores")
    inicio = primera.index("def ejecutar_sin_inventos(")
    fin = primera.index("def buscar_con_fallo(")
    pegada = (primera[:inicio] + solucion.replace("def ejecutar(", "def ejecutar_sin_inventos(")
              + "\n\n" + primera[fin:])
    salidas, ns, error = correr([pegada, segunda])
    assert error is None
    # the first cell: the invented tool gets the same motive; the harness bug still gets out
    assert salidas[0].splitlines()[3:] == errores[0][0].splitlines()[3:]
    assert salidas[1].splitlines() == [
        "fin tras 11 mensajes: He copiado lista.txt en compra/sabado.txt.",
        "compra/sabado.txt: pan, leche, patatas"]
    errores_en_M = [b for rol, c in ns["M"] if rol == "usuario" and isinstance(c, list)
                    for b in c if b["is_error"]]
    assert len(ns["M"]) == 11 and len(errores_en_M) == 2
    assert ("esta conversación termina con `fin` tras 11 mensajes, y 2 de las observaciones "
            "fueron errores") in prosa()


def test_errores_the_traces_conversation_has_11_messages_with_the_reference():
    """The question «¿cuántos mensajes tiene M cuando el bucle devuelve fin?» is about the
    trace's conversation, run with the challenge's reference."""
    ns = referencia()
    exec(DESAFIO.joinpath("solucion.py").read_text(encoding="utf-8"), ns)
    como, _final, M = ns["bucle"](ns["ModeloGuionizado"](ns["guion_errores"]()),
                                 ns["INICIO_ERRORES"], dict(ns["ENTORNO"]), 10)
    assert (como, len(M)) == ("fin", 11)
    assert int(opcion_de("errores", "mensajes-errores", "respuesta")) == 11


# ------------------------------------------------------------------ «Cámbialo tú»


def test_errores_cambialo_without_return_breaks_in_turn_1_with_KeyError():
    """«borra la palabra return de la línea de ejecutar_sin_inventos que devuelve el error de la
    herramienta inventada … Ejecuta otra vez las dos celdas»: the marked answer says turn 1,
    FUNCIONES["copiar"], KeyError."""
    assert forma.cambialo("errores") == ["cambialo-sin-return"]
    primera, segunda = celdas_de("errores")
    linea = '        return resultado(ll["id"], f"no existe la herramienta'
    assert primera.count(linea) == 1
    cambiada = primera.replace(linea, '        resultado(ll["id"], f"no existe la herramienta')
    salidas, ns, error = correr([cambiada, segunda])
    # the first cell: the invented tool now gets out as KeyError('copiar')
    assert salidas[0].splitlines()[4] == "  e8: sale KeyError('copiar')"
    # the second cell: the conversation dies in turn 1, at FUNCIONES["copiar"]
    assert isinstance(error, KeyError) and error.args == ("copiar",)
    assert ns["modelo"].turno == 1
    assert correcta("cambialo-sin-return").startswith(
        'En el turno 1: la función sigue hasta `FUNCIONES["copiar"]` y sale `KeyError`.')


# ------------------------------------------------------------------ the rest of the prose


def test_errores_trace_turns_1_and_3_change_nothing():
    ns = referencia()
    entorno = dict(ns["ENTORNO"])
    guion = ns["guion_errores"]()
    # The observations of turns 1 and 3 are errors, and the environment is untouched by them.
    obs = [turno[0][-1] for turno in guion[1:4]]
    assert [m[1][0]["is_error"] for m in obs] == [True, False, True]
    assert "Fíjate en los turnos 1 y 3: el entorno no cambia" in texto_de("errores")
    assert entorno == ns["ENTORNO"]


def test_errores_wording_of_issue_55():
    texto = texto_de("errores")
    assert "La celda define dos maneras" in prosa()
    assert "escribe las dos maneras" not in texto
    assert "de verdad" not in texto


def test_errores_closing_points_to_pedir_permiso():
    assert "«Pedir permiso»" in texto_de("errores").split("## Lo que falta", 1)[1]
