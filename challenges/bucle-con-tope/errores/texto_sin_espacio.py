# Error: junta los textos finales sin espacio: "".join(...).
# Cláusula: fin
# Falla: el texto final en varios bloques
# Mensaje: El texto final debía ser «Hay dos recetas: gazpacho y tortilla.» y es «Hay dos recetas:gazpacho y tortilla.».
# Mensaje: Pista: junta los textos de los bloques text con un espacio: " ".join(...).


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = "".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
