# Error: el contenido es repr(error), con la clase y las comillas, y no str(error).
# Cláusula: str-del-error
# Falla: un patrón vacío: ValueError como observación
# Mensaje: el contenido del tool_result debía ser el mensaje de la excepción, str(error)
# Mensaje: Pista: eso es repr(error), con la clase y las comillas; el mensaje es str(error).


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], repr(error), es_error=True)
    return resultado(ll["id"], salida)
