# Los agentes de verdad que miden las pruebas de «medir-el-agente» (nunca los recibe el lector:
# solo un agente opaco que los llama).
#
# - agente: el de la lección «El agente y sus pruebas», tal cual está en
#   challenges/pruebas-del-agente/agente.py (tests/test_medir_desafio.py comprueba que sigan
#   siendo el mismo): errores como observaciones, permiso antes de cambiar nada y un tope.
# - agente_con_fallos: el mismo bucle con un ejecutar sin cuidado: no mira incumple, no atrapa
#   los errores de las herramientas (salen del agente) y no pide permiso. Con un modelo ruidoso,
#   unas ejecuciones acaban en error y las escrituras que el usuario no permitiría se hacen.

from runtime import (FUNCIONES, HERRAMIENTAS, SISTEMA_AGENTE, denegado, denegar, incumple,
                     necesita_permiso, resultado)


def ejecutar(ll, entorno, preguntar):
    """La llamada `ll`, con los errores como observaciones y el permiso antes de cambiar nada."""
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)


def bucle(modelo, inicio, entorno, tope, preguntar=denegar):
    """El bucle de «Pedir permiso»: ("fin", texto, M) o ("tope", None, M)."""
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            final = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", final, M)
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in llamadas]))
    return ("tope", None, M)


def agente(modelo, pedido, entorno, preguntar=denegar, tope=10):
    """El pedido del usuario, de principio a fin: los mensajes de inicio y el bucle."""
    inicio = [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]
    return bucle(modelo, inicio, entorno, tope, preguntar)


def agente_con_fallos(modelo, pedido, entorno, preguntar=denegar, tope=10):
    """Como agente, pero cada llamada se ejecuta sin más: sin incumple, sin atrapar nada y sin
    preguntar."""
    M = [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            final = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", final, M)
        M.append(("usuario", [resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
                              for ll in llamadas]))
    return ("tope", None, M)
