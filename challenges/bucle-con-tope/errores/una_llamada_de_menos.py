# Error: una llamada de menos: la cuenta empieza en 1 y para antes del tope.
# Cláusula: tope
# Falla: un tope justo: tantas llamadas como respuestas
# Mensaje: Llamaste al modelo 3 veces y debían ser 4.
# Mensaje: Pista: la respuesta 3 aún pedía herramientas y el tope era 4: quedaban llamadas, así que el bucle debía ejecutarlas y volver a llamar al modelo.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    n = 1
    while n < tope:
        n += 1
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
