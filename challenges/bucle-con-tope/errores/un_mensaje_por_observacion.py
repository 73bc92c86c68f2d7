# Error: un mensaje del usuario por cada resultado, en vez de uno con todos.
# Cláusula: observaciones
# Falla: la conversación de la lección
# Mensaje: En el turno 3 el modelo recibió 8 mensajes; esperaba 6.
# Mensaje: Pista: los resultados van en mensajes separados: los de una misma respuesta van juntos, en un solo mensaje del usuario.


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
            M.append(("usuario", [ejecutar(ll, entorno)]))
    return ("tope", None, M)
