# Error: todo lo que no es True lo toma por un no: con None (nadie ha contestado), le dice al
# modelo que el usuario no lo ha permitido.
# Cláusula: solo-true-o-false
# Falla: una respuesta falsa que no es False (None, 0): TypeError, no una denegación
# Mensaje: preguntar respondió None, que en un if parece un no, y ejecutar devolvió denegado(ll)


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    if preguntar(ll) is not True:
        return denegado(ll)
    return ejecutar_sin_permiso(ll, entorno)
