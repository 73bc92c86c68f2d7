# La solución de referencia de «pedir-permiso». El bucle es el del código inicial: el de
# «El bucle», que ahora pasa preguntar a ejecutar (sin nadie a quien preguntar, denegar).


def ejecutar(ll, entorno, preguntar):
    """Ejecuta la llamada `ll` sobre `entorno` y devuelve su tool_result. Una llamada que
    cambia el entorno (necesita_permiso) se ejecuta solo si preguntar(ll) dice que sí; si dice
    que no, vuelve denegado(ll) y no se ejecuta nada. Los errores del modelo son
    observaciones, como en «Errores como observaciones»."""
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)


def bucle(modelo, inicio, entorno, tope, preguntar=denegar):
    """Llama al modelo, ejecuta lo que pide (preguntando antes lo que cambia el
    mundo) y le devuelve lo observado, hasta que responda sin llamadas («fin») o
    se agote el tope de llamadas al modelo («tope»)."""
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in llamadas]))
    return ("tope", None, M)
