# Error: devuelve el texto del primer bloque text de la respuesta final, no el de todos.
# Cláusula: fin
# Falla: el texto final en varios bloques
# Mensaje: El texto final debía ser «Hay dos recetas: gazpacho y tortilla.» y es «Hay dos recetas:».


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            textos = [b["text"] for b in respuesta if b["type"] == "text"]
            return ("fin", textos[0] if textos else "", M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
