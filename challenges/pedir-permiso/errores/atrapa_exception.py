# Error: pide permiso y atrapa cualquier Exception: un fallo del arnés se esconde como observación.
# Cláusula: errores-de-siempre
# Falla: con permiso, un fallo del arnés se propaga
# Mensaje: convirtió un fallo del arnés en una observación


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
