# Error: lanza PermissionError cuando el usuario dice que no: la conversación muere a medias.
# Cláusula: denegado-como-observacion
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el usuario dijo que no y de ejecutar salió PermissionError
# Mensaje: Una llamada denegada no es un fallo del arnés: vuelve al modelo como observación, return denegado(ll)


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        raise PermissionError(NO_PERMITIDO)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
