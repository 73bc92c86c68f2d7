# Error: al llegar al tope ejecuta las llamadas pero no añade sus resultados a M.
# Cláusula: al-agotar-el-tope
# Falla: se detiene en el tope
# Mensaje: El M que devolviste tiene 7 mensajes; esperaba 8.
# Mensaje: Pista: falta la observación: tras una respuesta con llamadas, añade a M ('usuario', [resultados]), un tool_result por llamada, antes de volver a llamar al modelo.


def bucle(modelo, inicio, entorno, tope):
    M = list(inicio)
    for turno in range(1, tope + 1):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        observaciones = [ejecutar(ll, entorno) for ll in llamadas]
        if turno < tope:
            M.append(("usuario", observaciones))
    return ("tope", None, M)
