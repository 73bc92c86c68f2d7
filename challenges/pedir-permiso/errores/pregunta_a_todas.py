# Error: pregunta por todas las llamadas, también por las que solo miran.
# Cláusula: solo-pregunta-si-cambia
# Falla: las llamadas que solo miran no preguntan
# Mensaje: Con llamada m1 listar(carpeta='recetas'), ejecutar preguntó al usuario, y listar solo mira


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None:
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
