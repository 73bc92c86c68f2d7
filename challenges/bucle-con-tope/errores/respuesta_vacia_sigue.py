# Error: ante una respuesta sin bloques, vuelve a llamar al modelo en vez de acabar.
# Cláusula: fin
# Falla: una respuesta sin ningún bloque termina el bucle
# Mensaje: El guion se acabó: el modelo ya dio sus 2 respuestas y lo llamaron una 3.ª vez (turno 3).
# Mensaje: Pista: la última respuesta no tenía llamadas a herramientas; ahí el bucle debía parar.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        if not respuesta:
            continue
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
