# Otro agente correcto de «pruebas-del-agente»: el mismo contrato que agente.py, escrito de otra
# manera (cuenta los turnos con un while, y cada llamada la atiende una función con otro nombre
# y otro orden). Las pruebas del lector deben pasar con él igual que con agente.py.

import operator

from runtime import (FUNCIONES, HERRAMIENTAS, SISTEMA_AGENTE, denegado, denegar, incumple,
                     necesita_permiso, resultado)


def atender(llamada, entorno, preguntar):
    """La observación de una llamada: su error, su denegación o lo que devuelve la herramienta."""
    ident = llamada["id"]
    problema = incumple(llamada)
    if problema is None:
        if necesita_permiso(llamada):
            permitida = preguntar(llamada)
            if not permitida:
                return denegado(llamada)
        herramienta = FUNCIONES[llamada["name"]]
        try:
            salida = herramienta(entorno, **llamada["input"])
        except (OSError, ValueError) as fallo:
            return resultado(ident, str(fallo), es_error=True)
        return resultado(ident, salida)
    return resultado(ident, problema, es_error=True)


def agente(modelo, pedido, entorno, preguntar=denegar, tope=10):
    mensajes = [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]
    quedan = operator.index(tope)  # como range(tope): un tope que no es entero no vale
    while quedan > 0:
        quedan -= 1
        respuesta = modelo(mensajes, HERRAMIENTAS)
        mensajes.append(("asistente", respuesta))
        pedidas = [bloque for bloque in respuesta if bloque["type"] == "tool_use"]
        if len(pedidas) == 0:
            textos = [bloque["text"] for bloque in respuesta if bloque["type"] == "text"]
            return ("fin", " ".join(textos), mensajes)
        observaciones = []
        for llamada in pedidas:
            observaciones.append(atender(llamada, entorno, preguntar))
        mensajes.append(("usuario", observaciones))
    return ("tope", None, mensajes)
