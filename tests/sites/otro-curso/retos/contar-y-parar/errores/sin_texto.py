# Error: acaba bien, pero sin el texto de la última respuesta.
# Falla: responde sin herramientas
# Mensaje: esperaba ('fin', 'Hola.')


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", None, M)
        M.append(("usuario", [resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
                              for ll in llamadas]))
    return ("tope", None, M)
