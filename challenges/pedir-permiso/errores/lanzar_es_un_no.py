# Error: si preguntar lanza, lo toma por un no y devuelve denegado(ll): una persona que no ha
# contestado pasa por una que ha dicho que no.
# Cláusula: preguntar-que-lanza-se-propaga
# Falla: si preguntar lanza, la excepción se propaga
# Mensaje: tomó el error por un no


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    try:
        respuesta = preguntar(ll)
    except Exception:
        respuesta = False
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
