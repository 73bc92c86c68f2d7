"""runtime/guionizado.py: what GuionRoto says when M is not what the script expects: the first
message that differs, expected and received, and a hint (Pista) in the reader's terms."""

import pytest

from tests.runtime.comun import INICIO, LISTA_FINAL, guion_de_la_leccion, rompe


def test_el_mensaje_cuando_faltan_mensajes(rt):
    guion = guion_de_la_leccion(rt)
    lineas = str(rompe(rt, list(guion[2][0][:5]))).split("\n")
    assert lineas == [
        "En el turno 3 el modelo recibió 5 mensajes; esperaba 6.",
        "Primer mensaje distinto: M[5]",
        "  esperado: usuario: [resultado t2: «Gazpacho: tomates, pepino, pimiento, ajo.», "
        "resultado t3: «Tortilla: huevos, patatas, cebolla.», resultado t4: «pan, leche, patatas»]",
        "  recibido: nada (M acaba en M[4])",
        "Pista: falta la observación: tras una respuesta con llamadas, añade a M "
        "('usuario', [resultados]), un tool_result por llamada, antes de volver a llamar al modelo.",
    ]


def test_el_mensaje_cuando_hay_tantos_mensajes_pero_distintos(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[1][0])
    M[1] = ("usuario", "Otra petición")
    error = rompe(rt, M, n=1)
    lineas = str(error).split("\n")
    assert lineas[0] == ("En el turno 2 el modelo recibió 4 mensajes, tantos como esperaba, "
                         "pero no son los esperados.")
    assert lineas[1] == "Primer mensaje distinto: M[1]"
    assert lineas[2] == "  esperado: usuario: «Añade a lista.txt lo que falta para las recetas.»"
    assert lineas[3] == "  recibido: usuario: «Otra petición»"
    assert lineas[4] == "Pista: M debe empezar con los mensajes iniciales del ejercicio, sin cambios."
    assert error.indice == 1


def test_el_mensaje_con_un_solo_mensaje_recibido(rt):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([INICIO[1]], rt["HERRAMIENTAS"])
    assert str(info.value).startswith("En el turno 1 el modelo recibió 1 mensaje; esperaba 2.\n"
                                      "Primer mensaje distinto: M[0]\n")
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([], rt["HERRAMIENTAS"])
    assert "  recibido: nada (M está vacía)" in str(info.value).split("\n")


def observacion_2(rt):
    return guion_de_la_leccion(rt)[2][0][5][1]  # los resultados de t2, t3 y t4


def M_turno_3(rt, *despues):
    """Los cinco primeros mensajes del turno 3 y, tras ellos, `despues`."""
    return list(guion_de_la_leccion(rt)[2][0][:5]) + list(despues)


def test_pista_falta_la_observacion_y_llega_otra_respuesta(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[1][0][:3]) + [("asistente", guion[0][1])]
    error = rompe(rt, M, n=1)
    assert error.indice == 3
    assert error.pista.startswith("falta la observación")


def test_pista_falta_la_respuesta_del_asistente(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0])
    del M[4]
    error = rompe(rt, M)
    assert error.indice == 4
    assert error.pista == ("falta la respuesta del modelo: añade ('asistente', respuesta) "
                           "a M antes de sus observaciones.")


def test_pista_respuesta_cambiada(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0])
    M[4] = ("asistente", guion[1][1][:1])
    error = rompe(rt, M)
    assert error.pista == ("M[4] debe ser ('asistente', respuesta) con la respuesta que dio "
                           "el modelo en el turno 2, tal cual.")


def test_pista_mensaje_de_mas(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [("usuario", "¿y ahora?")]
    error = rompe(rt, M)
    assert str(error).split("\n")[:4] == [
        "En el turno 3 el modelo recibió 7 mensajes; esperaba 6.",
        "Primer mensaje distinto: M[6]",
        "  esperado: nada (M acaba en M[5])",
        "  recibido: usuario: «¿y ahora?»",
    ]
    assert error.esperado is None
    assert error.pista == "sobra M[6]: el modelo no debía recibirlo en este turno."


def test_pista_mensaje_repetido(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [guion[2][0][5]]
    assert rompe(rt, M).pista == "M[6] repite M[5]: ¿añades el mismo mensaje dos veces?"


def test_pista_observacion_vacia(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [("usuario", [])]
    assert rompe(rt, M).pista.startswith("sobra un mensaje del usuario vacío")


def test_pista_rol_equivocado(rt):
    error = rompe(rt, M_turno_3(rt, ("asistente", observacion_2(rt))))
    assert error.pista == ("el contenido de M[5] es el esperado, pero el rol no: "
                           "debía ser 'usuario' y es 'asistente'.")


def test_pista_rol_en_ingles(rt):
    error = rompe(rt, M_turno_3(rt, ("user", observacion_2(rt))))
    assert "debía ser 'usuario' y es 'user'" in error.pista


def test_pista_resultados_en_otro_orden(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t3, t2, t4])))
    assert error.pista == ("los resultados van en otro orden: deben seguir el de las llamadas "
                           "(t2, t3, t4) y van t3, t2, t4.")


def test_pista_ids_equivocados(rt):
    r = rt["resultado"]
    obs = [r("t1", b["content"]) for b in observacion_2(rt)]
    error = rompe(rt, M_turno_3(rt, ("usuario", obs)))
    assert error.pista == ("los tool_use_id no corresponden a las llamadas: se esperaban "
                           "t2, t3, t4 y llegaron t1, t1, t1.")


def test_pista_falta_un_resultado(rt):
    t2, _t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t4])))
    assert error.pista == "falta el resultado de t3: cada llamada necesita su tool_result."


def test_pista_resultados_en_mensajes_separados(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2]), ("usuario", [t3]), ("usuario", [t4])))
    assert str(error).startswith("En el turno 3 el modelo recibió 8 mensajes; esperaba 6.")
    assert error.pista.startswith("los resultados van en mensajes separados")


def test_pista_resultados_de_mas(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t3, t4, t4])))
    assert error.pista == "sobran resultados: va uno por llamada, ni más ni menos."


def test_pista_observacion_que_no_es_lista_de_resultados(rt):
    for contenido in ("Gazpacho: tomates", rt["resultado"]("t2", "x"), [rt["texto"]("x")]):
        error = rompe(rt, M_turno_3(rt, ("usuario", contenido)))
        assert error.pista.startswith("la observación debe ser ('usuario', [resultados])")


def test_pista_contenido_de_un_resultado(rt):
    t2, _t3, t4 = observacion_2(rt)
    otro = rt["resultado"]("t3", "Tortilla: huevos.")
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, otro, t4])))
    assert error.pista.startswith("el resultado de t3 no es el esperado")


def test_pista_is_error(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t3, dict(t4, is_error=True)])))
    assert error.pista == "el resultado de t4 debía llevar is_error=False."


def test_bloques_sueltos_en_vez_de_mensajes(rt):
    guion = guion_de_la_leccion(rt)
    respuesta_2 = guion[1][1]
    error = rompe(rt, M_turno_3(rt)[:4] + list(respuesta_2))
    assert error.indice == 4
    assert error.pista.startswith("M[4] es un bloque suelto, no un mensaje (rol, contenido)")
    error = rompe(rt, M_turno_3(rt)[:4] + [respuesta_2])
    assert error.pista.startswith("M[4] es una lista sin rol")
    error = rompe(rt, M_turno_3(rt)[:4] + ["hola"])
    assert error.pista == "M[4] no es un mensaje: cada mensaje es una tupla (rol, contenido)."


def test_cuando_las_lineas_resumidas_coinciden_se_da_el_detalle(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[3][0])
    largo_mal = LISTA_FINAL.replace("cebolla", "cebollas")
    M[6] = ("asistente", [rt["llamada"]("t5", "escribir", ruta="lista.txt", contenido=largo_mal)])
    lineas = str(rompe(rt, M, n=3)).split("\n")
    assert lineas[2].removeprefix("  esperado: ") == lineas[3].removeprefix("  recibido: ")
    assert lineas[4:7] == [
        "  La diferencia, en el bloque 0, campo 'input':",
        f"    esperado: {{'ruta': 'lista.txt', 'contenido': '{LISTA_FINAL}'}}",
        f"    recibido: {{'ruta': 'lista.txt', 'contenido': '{largo_mal}'}}",
    ]
