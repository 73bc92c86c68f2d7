# Error: toma por final una respuesta que trae texto, aunque también traiga llamadas.
# Cláusula: fin
# Falla: la conversación de la lección
# Mensaje: Llamaste al modelo 1 vez y debían ser 4.
# Mensaje: Pista: la respuesta 1 aún pedía herramientas (que también traiga texto no la hace final) y el tope era 10: quedaban llamadas, así que el bucle debía ejecutarlas y volver a llamar al modelo.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        textos = [b["text"] for b in respuesta if b["type"] == "text"]
        if textos:
            return ("fin", " ".join(textos), M)
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
