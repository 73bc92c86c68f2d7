# Error: afinado a la lección: decide si acabó mirando solo el último bloque de la respuesta.
# Cláusula: fin
# Falla: una respuesta con texto y llamadas
# Mensaje: Llamaste al modelo 1 vez y debían ser 3.
# Mensaje: Pista: la respuesta 1 aún pedía herramientas (que también traiga texto no la hace final) y el tope era 6: quedaban llamadas, así que el bucle debía ejecutarlas y volver a llamar al modelo.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if respuesta[-1]["type"] == "text":
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
