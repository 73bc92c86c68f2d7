# Error: para que M no crezca, se queda con el primer mensaje y los 29 últimos.
# Cláusula: respuesta-en-M
# Falla: otra conversación muy larga: 36 turnos
# Mensaje: En el turno 16 el modelo recibió 30 mensajes; esperaba 32.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        if len(M) > 30:  # que no crezca sin fin
            M = M[:1] + M[-29:]
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
