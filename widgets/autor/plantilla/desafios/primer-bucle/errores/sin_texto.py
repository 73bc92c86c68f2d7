# Error: termina bien, pero sin el texto de la última respuesta.
# Cláusula: fin
# Falla: contesta sin herramientas
# Mensaje: esperaba ('fin', 'Hola.')


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if not [b for b in respuesta if b["type"] == "tool_use"]:
            return ("fin", None, M)
        M.append(("usuario", [resultado(b["id"], FUNCIONES[b["name"]](entorno, **b["input"]))
                              for b in respuesta if b["type"] == "tool_use"]))
    return ("tope", None, M)
