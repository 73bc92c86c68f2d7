# La solución de referencia de «pedir-permiso». ejecutar_sin_permiso y el bucle son los del
# código inicial: el ejecutar de «Errores como observaciones», tal cual, y el bucle de «El bucle»,
# que ahora pasa preguntar a ejecutar (sin nadie a quien preguntar, denegar).


def ejecutar_sin_permiso(ll, entorno):
    """El ejecutar de «Errores como observaciones», tal cual: ejecuta la llamada `ll` sobre
    `entorno`, sin preguntar a nadie, y devuelve su tool_result. Un error del modelo (una
    llamada que no encaja con su esquema, o una herramienta que lanza OSError o ValueError)
    vuelve como resultado con is_error=True; cualquier otra excepción se propaga."""
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)


def ejecutar(ll, entorno, preguntar):
    """Ejecuta la llamada `ll` sobre `entorno` y devuelve su tool_result, con el permiso del
    usuario si cambia el entorno. Por una llamada que no encaja con su esquema, o que solo mira,
    no se pregunta. Si no, preguntar(ll) responde: True, se ejecuta; False, vuelve denegado(ll)
    sin ejecutar nada; cualquier otra cosa no es una respuesta: TypeError, sin ejecutar nada."""
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar(ll) debe responder True o False, y ha respondido {respuesta!r}")
    return ejecutar_sin_permiso(ll, entorno)


def bucle(modelo, inicio, entorno, tope, preguntar=denegar):
    """Llama al modelo, ejecuta lo que pide (preguntando antes lo que cambia el
    entorno) y le devuelve lo observado, hasta que responda sin llamadas («fin») o
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
