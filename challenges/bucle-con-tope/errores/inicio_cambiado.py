# Error: M es la misma lista que `inicio`, así que el bucle cambia la lista de quien llama.
# Cláusula: copia-de-inicio
# Falla: la conversación de la lección
# Mensaje: bucle cambió `inicio`, la lista de quien llama: tenía 2 mensajes y ahora tiene 9 mensajes. Empieza con una copia: M = list(inicio).


def bucle(modelo, inicio, entorno, tope):
    M = inicio
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
