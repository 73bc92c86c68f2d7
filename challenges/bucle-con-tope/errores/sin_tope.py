# Error: sin tope: el bucle sigue mientras el modelo pida herramientas.
# Cláusula: tope
# Falla: un modelo que nunca para
# Mensaje: El tope era 5 y llamaste al modelo una 6.ª vez: con tope=5, el modelo responde como mucho 5 veces.
# Mensaje: Pista: al agotar el tope, ejecuta las llamadas de la última respuesta, añade sus resultados a M y devuelve ("tope", None, M).


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    while True:
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
