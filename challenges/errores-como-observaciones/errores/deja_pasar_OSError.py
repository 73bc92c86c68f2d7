# Error: solo atrapa ValueError: un fichero que no existe o una carpeta rompen el bucle.
# Cláusula: atrapa-oserror-y-valueerror
# Falla: leer una carpeta: IsADirectoryError como observación
# Mensaje: Con llamada y2 leer(ruta='recetas'), de ejecutar salió IsADirectoryError
# Mensaje: Es un error que el modelo puede corregir, si se entera: devuelve resultado(ll["id"], str(error), es_error=True).


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except ValueError as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
