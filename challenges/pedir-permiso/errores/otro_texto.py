# Error: escribe su propio texto para una llamada denegada en vez de usar denegado(ll).
# Cláusula: denegado-como-observacion
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el contenido del tool_result debía ser NO_PERMITIDO
# Mensaje: y es «denegado»


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return resultado(ll["id"], "denegado", es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
