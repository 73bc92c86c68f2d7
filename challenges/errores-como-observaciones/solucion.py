# La solución de referencia de «errores-como-observaciones».


def ejecutar(ll, entorno):
    """Ejecuta la llamada `ll` sobre `entorno` y devuelve su tool_result. Un error del
    modelo (una llamada que no encaja con su esquema, o una herramienta que lanza
    OSError o ValueError) vuelve como resultado con is_error=True; cualquier otra
    excepción, un fallo del arnés, se propaga."""
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)


# El bucle de «El bucle», tal cual.
def bucle(modelo, inicio, entorno, tope):
    """Llama al modelo, ejecuta lo que pide y le devuelve lo observado, hasta que
    responda sin llamadas («fin») o se agote el tope de llamadas al modelo («tope»)."""
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
