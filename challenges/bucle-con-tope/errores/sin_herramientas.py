# Error: llama al modelo sin las herramientas.
# Cláusula: respuesta-en-M
# Falla: la conversación de la lección
# Mensaje: En el turno 1 el modelo no recibió las herramientas: llámalo como modelo(M, HERRAMIENTAS).


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
