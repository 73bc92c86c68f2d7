# Error: ejecuta la llamada y pregunta después: cuando el usuario dice que no, ya está hecho.
# Cláusula: pregunta-antes-de-cambiar
# Cláusula: denegada-no-se-ejecuta
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: cuando ejecutar preguntó, escribir ya había cambiado el entorno
# Mensaje: se pregunta antes de ejecutar, no después


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    return resultado(ll["id"], salida)
