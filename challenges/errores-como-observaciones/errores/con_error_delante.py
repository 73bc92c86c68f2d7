# Error: como ejecutar_a_ciegas de la lección, escribe «error: » delante del mensaje.
# Cláusula: str-del-error
# Falla: leer un fichero que no existe: FileNotFoundError como observación
# Mensaje: el contenido del tool_result debía ser el mensaje de la excepción, str(error)
# Mensaje: Pista: sobra «error: » delante: que es un error ya lo dice is_error.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], f"error: {error}", es_error=True)
    return resultado(ll["id"], salida)
