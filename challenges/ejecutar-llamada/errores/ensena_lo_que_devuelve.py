# Error: para mostrar lo que devuelve la herramienta, la llama en un print y otra vez en el return.
# Cláusula: una-sola-vez
# Falla: cada llamada corre su herramienta una sola vez
# Mensaje: ejecutar corrió escribir 2 veces para una sola llamada


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    print("la herramienta dice:", funcion(entorno, **ll["input"]))
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
