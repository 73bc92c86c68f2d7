# Error: con permiso, ejecuta sobre una copia del entorno «por seguridad»: nada cambia en el entorno real.
# Cláusula: permitida-se-ejecuta
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: el usuario dijo que sí, pero el entorno no quedó como debía: falta el fichero compra/jueves.txt


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, dict(entorno))
