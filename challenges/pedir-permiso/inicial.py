# Desafío: pedir permiso.
#
# Ya está cargado todo lo que deja entorno.py (ENTORNO, FUNCIONES, incumple,
# resultado, muestra...), guionizado.py, escenarios.py y permisos.py (CAMBIAN,
# necesita_permiso, denegado, denegar, permitir, Respuestas...).


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
    """Ejecuta la llamada `ll` sobre `entorno` y devuelve su tool_result.

    Hoy ejecuta todo lo que pide el modelo, sin preguntar a nadie. preguntar(ll) es
    el usuario visto desde el arnés. Escribe la regla del enunciado:

    - Si incumple(ll) da un motivo, el error como hasta ahora, sin preguntar.
    - Por una llamada que solo mira no se pregunta.
    - Si necesita_permiso(ll), pregunta una vez, preguntar(ll), antes de ejecutar:
      True, se ejecuta; False, vuelve denegado(ll) sin ejecutar nada; cualquier
      otra respuesta, TypeError sin ejecutar nada.
    - Si preguntar(ll) lanza una excepción, nadie ha dicho que no: se propaga.
    - Para ejecutar, ejecutar_sin_permiso(ll, entorno): los errores, como hasta ahora.
    """
    return ejecutar_sin_permiso(ll, entorno)


# El bucle de «El bucle», que ahora pasa preguntar a cada ejecutar. Sin nadie a
# quien preguntar (una prueba, una ejecución por lotes), preguntar es denegar.
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
