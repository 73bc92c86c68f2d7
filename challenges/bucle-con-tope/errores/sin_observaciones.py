# Error: ejecuta las llamadas pero nunca añade sus resultados a M.
# Cláusula: observaciones
# Falla: la conversación de la lección
# Mensaje: En el turno 2 el modelo recibió 3 mensajes; esperaba 4.
# Mensaje: Pista: falta la observación: tras una respuesta con llamadas, añade a M ('usuario', [resultados]), un tool_result por llamada, antes de volver a llamar al modelo.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        for ll in llamadas:
            ejecutar(ll, entorno)
    return ("tope", None, M)
