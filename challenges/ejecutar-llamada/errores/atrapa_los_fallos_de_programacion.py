# Error: convierte en observación el TypeError o el KeyError de la herramienta («así el bucle no muere»).
# Cláusula: propaga
# Falla: un fallo de programación de la herramienta sale tal cual
# Mensaje: escribir tiene un fallo de programación y lanza TypeError
# Mensaje: En esta lección los errores de las herramientas no se atrapan, ninguno


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        salida = funcion(entorno, **ll["input"])
    except (KeyError, TypeError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
