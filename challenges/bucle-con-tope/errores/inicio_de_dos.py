# Error: afinado a la lección: da por hecho que `inicio` tiene dos mensajes.
# Cláusula: copia-de-inicio
# Falla: otra conversación: inicio con 4 mensajes
# Mensaje: En el turno 1 el modelo recibió 2 mensajes; esperaba 4.
# Mensaje: Pista: falta la respuesta del modelo: añade ('asistente', respuesta) a M antes de sus observaciones.


def bucle(modelo, inicio, entorno, tope):
    M = [inicio[0], inicio[1]]
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
