# Error: de una respuesta con varias llamadas, ejecuta y responde solo la primera.
# Cláusula: observaciones
# Falla: la conversación de la lección
# Mensaje: En el turno 3 el modelo recibió 6 mensajes, tantos como esperaba


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(llamadas[0], entorno)]))
    return ("tope", None, M)
