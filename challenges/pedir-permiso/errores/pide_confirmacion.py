# Error: pide confirmación: pregunta dos veces por la misma llamada.
# Cláusula: una-pregunta-con-la-llamada
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: ejecutar preguntó 2 veces por una sola llamada: pregunta una vez y usa esa respuesta.


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is True:
        respuesta = preguntar(ll)  # «¿seguro?»
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
