# Error: saca el nombre de la llamada con pop: la llamada, que sigue en M, queda cambiada.
# Cláusula: no-cambia-ll
# Falla: la llamada no cambia
# Mensaje: ejecutar cambió la llamada que recibió: le falta la clave 'name'.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll.pop("name")]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
