# Error: pregunta antes, pero ejecuta siempre; si el usuario dijo que no, solo lo dice.
# Cláusula: denegada-no-se-ejecuta
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el usuario dijo que no y ejecutar corrió escribir igual


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    respuesta = preguntar(ll) if necesita_permiso(ll) else True
    if respuesta is not True and respuesta is not False:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    if respuesta is False:
        return denegado(ll)
    return resultado(ll["id"], salida)
