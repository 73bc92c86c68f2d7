# La solución de referencia de «errores-como-observaciones». El bucle es el del código
# inicial, el de «El bucle» (bucle-con-tope/solucion.py): solo cambia ejecutar.


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

