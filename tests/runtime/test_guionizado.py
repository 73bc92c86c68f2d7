"""runtime/guionizado.py: the scripted model (ModeloGuionizado) answers in order, one turn per
call, when M is what its script expects; ``guion_de`` builds a script from a lesson's data."""

import pytest

from tests.runtime.comun import (INICIO, LISTA_FINAL, bucle, guion_de_la_leccion,
                                 modelo_en_turno, observaciones_de_la_leccion, respuestas_de_la_leccion,
                                 rompe)


# ------------------------------------------------------------------ la lección

def test_la_conversacion_de_la_leccion_con_un_bucle_correcto(rt, e):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    M = bucle(rt, modelo, list(INICIO), e)
    assert len(M) == 9
    assert modelo.turno == 4
    assert [m[0] for m in M] == ["sistema", "usuario", "asistente", "usuario", "asistente",
                                 "usuario", "asistente", "usuario", "asistente"]
    assert e["lista.txt"] == LISTA_FINAL
    assert rt["ENTORNO"]["lista.txt"] == "pan, leche, patatas", "ENTORNO no se toca"
    assert M[-1] == ("asistente", respuestas_de_la_leccion(rt)[-1])


def test_un_bucle_sin_observaciones_rompe_el_guion_en_el_turno_2(rt, e):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    M = list(INICIO)
    M.append(("asistente", modelo(M, rt["HERRAMIENTAS"])))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, rt["HERRAMIENTAS"])
    assert info.value.turno == 2 and info.value.indice == 3
    assert "falta la observación" in str(info.value)


# ------------------------------------------------------- ModeloGuionizado

def test_el_detalle_señala_el_bloque_si_no_es_un_dict(rt):
    largo = "x" * 80
    modelo = rt["ModeloGuionizado"]([([("usuario", ["a", largo])], [])])
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([("usuario", ("a", largo + "y"))], [])
    assert str(info.value).split("\n")[4:7] == [
        "  La diferencia, en el bloque 1:", f"    esperado: '{largo}'", f"    recibido: '{largo}y'"]


def test_el_modelo_responde_en_orden_y_cuenta_los_turnos(rt):
    guion = guion_de_la_leccion(rt)
    modelo = rt["ModeloGuionizado"](guion)
    assert modelo.turno == 0
    for k, (esperados, respuesta) in enumerate(guion, start=1):
        assert modelo(esperados, rt["HERRAMIENTAS"]) == respuesta
        assert modelo.turno == k


def test_el_modelo_devuelve_una_copia(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    respuesta = [texto("hola")]
    # Guion hecho a mano: el turno 2 comparte el objeto `respuesta` con el turno 1.
    guion = [(inicio, respuesta), (inicio + [("asistente", respuesta)], [texto("adiós")])]
    modelo = rt["ModeloGuionizado"](guion)
    r = modelo(list(inicio), [])
    r[0]["text"] = "cambiado"
    r.append(texto("y más"))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(inicio + [("asistente", r)], [])
    assert info.value.turno == 2 and info.value.indice == 1
    assert info.value.esperado == ("asistente", [texto("hola")])


def test_el_guion_no_cambia_si_cambia_lo_que_se_le_dio(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    respuesta = [texto("hola")]
    guion = [(inicio, respuesta)]
    modelo = rt["ModeloGuionizado"](guion)
    inicio.append(("usuario", "otro"))
    respuesta[0]["text"] = "cambiado"
    guion.append(([], []))
    assert modelo([("usuario", "hola")], []) == [texto("hola")]
    with pytest.raises(RuntimeError):
        modelo([], [])


def test_el_error_guarda_una_copia_de_lo_recibido(rt):
    texto = rt["texto"]
    M = [("usuario", [texto("otra cosa")])]
    modelo = rt["ModeloGuionizado"]([([("usuario", "hola")], [texto("hola")])])
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, [])
    M[0][1][0]["text"] = "cambiado"
    M[0][1].append(texto("más"))
    assert info.value.recibido == ("usuario", [texto("otra cosa")])


def test_listas_y_tuplas_valen_lo_mismo(rt):
    guion = guion_de_la_leccion(rt)
    modelo = rt["ModeloGuionizado"](guion)
    for esperados, respuesta in guion:
        como_listas = [list(m) for m in esperados]
        assert modelo(como_listas, rt["HERRAMIENTAS"]) == respuesta


def test_un_resultado_sin_is_error_vale_como_is_error_false(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 1)
    M = list(guion[1][0])
    M[3] = ("usuario", [{"type": "tool_result", "tool_use_id": "t1",
                         "content": "gazpacho.txt\ntortilla.txt"}])
    assert modelo(M, rt["HERRAMIENTAS"]) == guion[1][1]


def test_un_fallo_no_avanza_el_turno_y_se_puede_reintentar(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 1)
    with pytest.raises(rt["GuionRoto"]):
        modelo(guion[1][0][:3], rt["HERRAMIENTAS"])
    assert modelo.turno == 1
    assert modelo(guion[1][0], rt["HERRAMIENTAS"]) == guion[1][1]
    assert modelo.turno == 2


def test_guionroto_es_un_assertionerror_con_sus_datos(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0][:5])
    error = rompe(rt, M)
    assert isinstance(error, AssertionError)
    assert error.turno == 3
    assert error.indice == 5
    assert error.esperado == guion[2][0][5]
    assert error.recibido is None
    assert error.pista.startswith("falta la observación")


def test_cuando_acaba_el_guion(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 4)
    with pytest.raises(RuntimeError) as info:
        modelo(guion[3][0], rt["HERRAMIENTAS"])
    assert not isinstance(info.value, AssertionError)
    assert str(info.value) == (
        "El guion se acabó: el modelo ya dio sus 4 respuestas y lo llamaron una 5.ª vez "
        "(turno 5).\nPista: la última respuesta no tenía llamadas a herramientas; "
        "ahí el bucle debía parar.")
    assert modelo.turno == 4


def test_cuando_acaba_un_guion_que_termina_con_llamadas(rt):
    guion = guion_de_la_leccion(rt)[:1]
    modelo = modelo_en_turno(rt, guion, 1)
    with pytest.raises(RuntimeError) as info:
        modelo([], rt["HERRAMIENTAS"])
    assert str(info.value) == ("El guion se acabó: el modelo ya dio su única respuesta y lo "
                               "llamaron una 2.ª vez (turno 2).")


@pytest.mark.parametrize("guion", [[], "guion", [([], "hola")], [("a", [])], [([], [], [])],
                                   [(["hola"], [])], [([{"type": "text", "text": "hola"}], [])]])
def test_un_guion_mal_hecho(rt, guion):
    with pytest.raises(ValueError, match="guion"):
        rt["ModeloGuionizado"](guion)


def test_llamadas_mal_hechas_al_modelo(rt):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    with pytest.raises(TypeError, match=r"modelo\(M, HERRAMIENTAS\)"):
        modelo(list(INICIO))
    with pytest.raises(TypeError, match="las herramientas deben ser una lista"):
        modelo(list(INICIO), "listar")
    with pytest.raises(TypeError, match="M debe ser la lista de mensajes y es str"):
        modelo("hola", rt["HERRAMIENTAS"])
    assert modelo.turno == 0


# --------------------------------------------------------------- guion_de

def test_guion_de_construye_cada_turno(rt):
    respuestas = respuestas_de_la_leccion(rt)
    observaciones = observaciones_de_la_leccion(rt)
    guion = rt["guion_de"](INICIO, respuestas, observaciones)
    assert len(guion) == 4
    assert [len(esperados) for esperados, _ in guion] == [2, 4, 6, 8]
    assert guion[0] == (INICIO, respuestas[0])
    assert guion[1][0] == INICIO + [("asistente", respuestas[0]), ("usuario", observaciones[0])]
    for k in range(1, 4):
        anterior, _ = guion[k - 1]
        assert guion[k][0] == anterior + [("asistente", respuestas[k - 1]),
                                          ("usuario", observaciones[k - 1])]
        assert guion[k][1] == respuestas[k]


def test_guion_de_sin_observacion_no_añade_mensaje_del_usuario(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    guion = rt["guion_de"](inicio, [[texto("¿Qué tal?")], [texto("Adiós.")]], [None, []])
    assert guion[1][0] == [("usuario", "hola"), ("asistente", [texto("¿Qué tal?")])]


def test_guion_de_copia_lo_que_recibe(rt):
    respuestas = respuestas_de_la_leccion(rt)
    inicio = list(INICIO)
    guion = rt["guion_de"](inicio, respuestas, observaciones_de_la_leccion(rt))
    inicio.append(("usuario", "más"))
    respuestas[0].append(rt["texto"]("más"))
    assert len(guion[0][0]) == 2 and len(guion[0][1]) == 2
    assert guion[1][0][2] == ("asistente", respuestas_de_la_leccion(rt)[0])


def test_guion_de_exige_una_lista_de_observaciones_por_respuesta(rt):
    with pytest.raises(ValueError, match="hay 4 respuestas y 3 listas de observaciones"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones_de_la_leccion(rt)[:3])


def test_guion_de_exige_un_resultado_por_llamada(rt):
    observaciones = observaciones_de_la_leccion(rt)
    observaciones[1] = observaciones[1][:2]
    with pytest.raises(ValueError, match="la respuesta 2 llama a t2, t3, t4 y sus "
                                         "observaciones responden a t2, t3"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones)
    observaciones = observaciones_de_la_leccion(rt)
    observaciones[3] = [rt["resultado"]("t9", "x")]
    with pytest.raises(ValueError, match="la respuesta 4 llama a nada"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones)
