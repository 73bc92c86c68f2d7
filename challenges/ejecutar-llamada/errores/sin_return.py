# Error: construye el tool_result pero no lo devuelve.
# Cláusula: devuelve-tool-result
# Falla: buscar: su resultado, con el id de la llamada
# Mensaje: ejecutar no devolvió nada (None): termina con return resultado(ll["id"], salida).


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    resultado(ll["id"], funcion(entorno, **ll["input"]))
