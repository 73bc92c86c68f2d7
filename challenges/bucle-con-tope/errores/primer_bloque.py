# Error: el bucle de la celda, con tope: decide por el primer bloque de cada respuesta, como si
# el modelo escribiera uno solo; una respuesta que empieza con texto la toma por final.
# Cláusula: fin
# Cláusula: observaciones
# Falla: la conversación de la lección
# Mensaje: Llamaste al modelo 1 vez y debían ser 4.
# Mensaje: Pista: la respuesta 1 aún pedía herramientas (que también traiga texto no la hace final)


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        bloque = respuesta[0]
        if bloque["type"] == "text":
            return ("fin", bloque["text"], M)
        M.append(("usuario", [ejecutar(bloque, entorno)]))
    return ("tope", None, M)
