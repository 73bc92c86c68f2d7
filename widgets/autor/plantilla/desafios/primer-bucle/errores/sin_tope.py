# Error: cuando llega al tope devuelve «fin», como si el modelo hubiera contestado.
# Cláusula: tope
# Falla: se para en el tope
# Mensaje: esperaba ('tope', None)


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", "".join(b["text"] for b in respuesta if b["type"] == "text"), M)
        M.append(("usuario", [resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
                              for ll in llamadas]))
    return ("fin", None, M)
