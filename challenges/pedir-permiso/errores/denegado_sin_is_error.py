# Error: devuelve NO_PERMITIDO como un resultado normal, sin is_error.
# Cláusula: denegado-como-observacion
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el tool_result debía llevar is_error=True


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return resultado(ll["id"], NO_PERMITIDO)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
