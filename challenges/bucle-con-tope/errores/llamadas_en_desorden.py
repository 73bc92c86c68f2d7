# Error: ejecuta las llamadas de una respuesta de la última a la primera.
# Cláusula: observaciones
# Falla: varias llamadas en una respuesta
# Mensaje: En el turno 2 el modelo recibió 4 mensajes, tantos como esperaba, pero no son los esperados.
# Mensaje: Pista: los resultados van en otro orden: deben seguir el de las llamadas (v1, v2, v3, v4) y van v4, v3, v2, v1.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in reversed(llamadas)]))
    return ("tope", None, M)
