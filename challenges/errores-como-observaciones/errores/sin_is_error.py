# Error: devuelve los errores como resultados normales, sin is_error=True.
# Cláusula: motivo-como-error
# Cláusula: atrapa-oserror-y-valueerror
# Falla: leer un fichero que no existe: FileNotFoundError como observación
# Mensaje: el tool_result debía llevar is_error=True: leer lanzó FileNotFoundError.
# Mensaje: Sin esa marca, el modelo lo lee como si la llamada hubiera salido bien


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error))
    return resultado(ll["id"], salida)
