# Error: convierte el error de la herramienta en un ValueError propio.
# Cláusula: propaga
# Falla: un error de la herramienta sale tal cual
# Mensaje: de ejecutar salió ValueError («leer falló: no existe el fichero 'postres/flan.txt'»)


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        salida = funcion(entorno, **ll["input"])
    except OSError as error:
        raise ValueError(f"{ll['name']} falló: {error}")
    return resultado(ll["id"], salida)
