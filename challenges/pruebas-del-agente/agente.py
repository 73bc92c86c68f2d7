# El agente de referencia de «pruebas-del-agente»: el de la lección «El agente y sus pruebas».
# Las pruebas del lector corren contra él (todas deben pasar) y contra los agentes rotos de
# rotos.py (alguna debe fallar). El lector nunca recibe este código: solo una función opaca.

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
