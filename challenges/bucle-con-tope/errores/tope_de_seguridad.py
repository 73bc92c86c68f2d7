# Error: añade su propio tope «de seguridad», 30 llamadas, por debajo del que recibe.
# Cláusula: tope
# Falla: otra conversación muy larga: 36 turnos
# Mensaje: Llamaste al modelo 30 veces y debían ser 36.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(min(tope, 30)):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
