# Error: atrapa el ValueError de la herramienta y lo devuelve como resultado de error.
# Cláusula: propaga
# Falla: un ValueError de la herramienta también sale tal cual
# Mensaje: leer lanza ValueError («la ruta está vacía: di qué fichero») y ejecutar devolvió resultado f-2 (error)


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        salida = funcion(entorno, **ll["input"])
    except ValueError as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
