# Error: sigue lanzando ValueError cuando la llamada no encaja, como en la lección 1.
# Cláusula: motivo-como-error
# Falla: la conversación de la lección
# Mensaje: En el turno 3, de ejecutar salió ValueError («a escribir le falta el argumento 'contenido'») con llamada e4 escribir(ruta='lista.txt'), y la conversación murió a medias


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
