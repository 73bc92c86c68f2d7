# Error: lanza PermissionError cuando el usuario dice que no: la conversación muere a medias.
# Cláusula: denegado-como-observacion
# Falla: escribir denegado: no se ejecuta y vuelve denegado(ll)
# Mensaje: el usuario dijo que no y de ejecutar salió PermissionError
# Mensaje: Una llamada denegada no es un fallo del arnés: vuelve al modelo como observación, return denegado(ll)


def ejecutar(ll, entorno, preguntar):
    if incumple(ll) is not None or not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        raise PermissionError(NO_PERMITIDO)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
