# Error: pregunta antes, pero ejecuta siempre; si el usuario dijo que no, solo lo dice.
# Cláusula: denegada-no-se-ejecuta
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el usuario dijo que no y ejecutar corrió escribir igual


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    permitida = not necesita_permiso(ll) or preguntar(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    if not permitida:
        return denegado(ll)
    return resultado(ll["id"], salida)
