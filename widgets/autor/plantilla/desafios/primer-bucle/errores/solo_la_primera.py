# Error: de varias llamadas en una respuesta, solo ejecuta la primera.
# Cláusula: todas-las-llamadas
# Falla: dos llamadas en una respuesta
# Mensaje: en el turno 2, el mensaje 2 de M no es el que esperaba el guion


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", "".join(b["text"] for b in respuesta if b["type"] == "text"), M)
        ll = llamadas[0]
        M.append(("usuario", [resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))]))
    return ("tope", None, M)
