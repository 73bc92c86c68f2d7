# Error: M es la misma lista que inicio, y el bucle la cambia.
# Cláusula: copia-de-inicio
# Falla: contesta sin herramientas
# Mensaje: bucle cambió la lista inicio


def bucle(modelo, inicio, entorno, tope):
    M = inicio
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", "".join(b["text"] for b in respuesta if b["type"] == "text"), M)
        M.append(("usuario", [resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
                              for ll in llamadas]))
    return ("tope", None, M)
