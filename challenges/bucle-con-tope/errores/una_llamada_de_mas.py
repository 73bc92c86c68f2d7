# Error: una llamada de más: range(tope + 1).
# Cláusula: tope
# Falla: se detiene en el tope
# Mensaje: El tope era 3 y llamaste al modelo una 4.ª vez: con tope=3, el modelo responde como mucho 3 veces.
# Mensaje: Pista: al agotar el tope, ejecuta las llamadas de la última respuesta, añade sus resultados a M y devuelve ("tope", None, M).


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope + 1):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
