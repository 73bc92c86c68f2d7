# Error: atrapa una a una las clases de OSError que lanzan las herramientas, y no OSError entero.
# Cláusula: atrapa-oserror-y-valueerror
# Falla: un OSError que la lección no muestra: PermissionError como observación
# Mensaje: de ejecutar salió PermissionError («no tienes permiso para leer 'cuentas.txt'»)
# Mensaje: Pista: PermissionError también es un OSError


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
