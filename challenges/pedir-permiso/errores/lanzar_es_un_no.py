# Error: si preguntar lanza, lo toma por un no y devuelve denegado(ll): una persona que no ha
# contestado pasa por una que ha dicho que no.
# Cláusula: preguntar-que-lanza-se-propaga
# Falla: si preguntar lanza, la excepción se propaga
# Mensaje: tomó el error por un no


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll):
        try:
            permitido = preguntar(ll)
        except Exception:
            permitido = False
        if not permitido:
            return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
