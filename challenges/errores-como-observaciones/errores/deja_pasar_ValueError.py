# Error: escribe «except OSError or ValueError», que es «except OSError»: ValueError se escapa.
# Cláusula: atrapa-oserror-y-valueerror
# Falla: una ruta vacía: ValueError como observación
# Mensaje: Con llamada y4 leer(ruta=''), de ejecutar salió ValueError («la ruta está vacía: di qué fichero»).


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except OSError or ValueError as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
