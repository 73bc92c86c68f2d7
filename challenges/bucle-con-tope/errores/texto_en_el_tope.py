# Error: al agotar el tope devuelve el texto de la última respuesta en vez de None.
# Cláusula: al-agotar-el-tope
# Falla: un tope de 1
# Mensaje: Al agotar el tope, bucle devuelve ("tope", None, M): el texto es None, y devolviste «Primero miro qué recetas hay.».


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    texto = None
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
        if not llamadas:
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", texto, M)
