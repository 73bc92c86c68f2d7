# Error: pide permiso, pero vuelve al ejecutar de la lección 1: los errores de la herramienta se escapan.
# Cláusula: errores-de-siempre
# Falla: con permiso, un error de la herramienta vuelve como observación
# Mensaje: escribir lanzó NotADirectoryError
# Mensaje: Sigue valiendo lo de «Errores como observaciones»


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll):
        respuesta = preguntar(ll)
        if respuesta is False:
            return denegado(ll)
        if respuesta is not True:
            raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
