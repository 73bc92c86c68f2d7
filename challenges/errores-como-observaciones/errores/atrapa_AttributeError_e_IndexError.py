# Error: también devuelve al modelo AttributeError e IndexError, que son fallos del arnés.
# Cláusula: lo-demas-se-propaga
# Falla: un fallo del arnés se propaga: AttributeError
# Mensaje: leer tiene un fallo de programación (lanza AttributeError («'NoneType' object has no attribute 'strip'»))


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError, AttributeError, IndexError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
