# Error: solo pregunta si el fichero ya existe: crear uno nuevo le parece inofensivo.
# Cláusula: pregunta-antes-de-cambiar
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: ejecutar no preguntó al usuario, y escribir cambia el entorno


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll) or ll["input"]["ruta"] not in entorno:
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
