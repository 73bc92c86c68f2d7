# Error: lanza PermissionError cuando el usuario dice que no: la conversación muere a medias.
# Cláusula: denegado-como-observacion
# Falla: la conversación de la lección sin nadie a quien preguntar: denegar
# Mensaje: En el turno 2, de ejecutar salió PermissionError
# Mensaje: la conversación murió a medias


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
