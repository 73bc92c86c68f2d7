# Error: atrapa el error de la herramienta (eso llega en la lección 3; aquí debe salir tal cual).
# Cláusula: propaga
# Falla: un error de la herramienta sale tal cual
# Mensaje: En esta lección los errores de las herramientas no se atrapan


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        return resultado(ll["id"], funcion(entorno, **ll["input"]))
    except OSError as error:
        return resultado(ll["id"], str(error), es_error=True)
