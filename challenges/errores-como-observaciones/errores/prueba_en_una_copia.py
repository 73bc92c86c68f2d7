# Error: prueba la herramienta en una copia del entorno y después la corre otra vez en el real.
# Cláusula: una-sola-vez
# Falla: cada llamada corre su herramienta una sola vez
# Mensaje: ejecutar corrió escribir 2 veces para una sola llamada


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    funcion = FUNCIONES[ll["name"]]
    try:
        funcion(dict(entorno), **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
