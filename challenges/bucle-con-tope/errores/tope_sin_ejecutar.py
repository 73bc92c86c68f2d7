# Error: al llegar al tope devuelve sin ejecutar las llamadas de la última respuesta.
# Cláusula: al-agotar-el-tope
# Falla: se detiene en el tope
# Mensaje: Después del bucle, el entorno no es el esperado: lista.txt debía contener
# Mensaje: y contiene «pan, leche, patatas».
# Mensaje: Pista: ¿ejecutaste también las llamadas de la última respuesta?


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for turno in range(1, tope + 1):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        if turno == tope:
            return ("tope", None, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
