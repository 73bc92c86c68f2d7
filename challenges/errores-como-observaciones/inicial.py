# Desafío: errores como observaciones.
#
# Ya está cargado todo lo que deja entorno.py (ENTORNO, HERRAMIENTAS, FUNCIONES,
# incumple, texto, llamada, resultado, muestra...), guionizado.py y escenarios.py.


def ejecutar(ll, entorno):
    """Ejecuta la llamada `ll` sobre `entorno`, una vez, y devuelve su tool_result.

    Así quedó en «Llamar a herramientas»: si algo falla, lanza una excepción y el
    bucle muere a medias. Reescríbela para que los errores sean observaciones:

    - Si incumple(ll) da un motivo, devuelve resultado(id, motivo, es_error=True)
      sin ejecutar nada.
    - Si la herramienta lanza OSError o ValueError, devuelve
      resultado(id, str(error), es_error=True).
    - Cualquier otra excepción se propaga: es un fallo del arnés, no del modelo.
    - Si todo va bien, devuelve resultado(id, salida), como hasta ahora.
    """
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))


# El bucle de «El bucle», tal cual: las pruebas lo usan con tu ejecutar.
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
