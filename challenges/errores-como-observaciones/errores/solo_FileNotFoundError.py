# Error: atrapa FileNotFoundError, el error de la lección, y no OSError: leer una carpeta rompe.
# Cláusula: atrapa-oserror-y-valueerror
# Falla: otra conversación: 5 errores que la lección no muestra, en 4 turnos
# Mensaje: En el turno 2, de ejecutar salió IsADirectoryError
# Mensaje: y la conversación murió a medias


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (FileNotFoundError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
