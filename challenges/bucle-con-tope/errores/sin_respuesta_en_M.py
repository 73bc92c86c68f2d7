# Error: añade las observaciones a M pero no la respuesta del modelo.
# Cláusula: respuesta-en-M
# Falla: la conversación de la lección
# Mensaje: En el turno 2 el modelo recibió 3 mensajes; esperaba 4.
# Mensaje: Pista: falta la respuesta del modelo: añade ('asistente', respuesta) a M antes de sus observaciones.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            M.append(("asistente", respuesta))
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
