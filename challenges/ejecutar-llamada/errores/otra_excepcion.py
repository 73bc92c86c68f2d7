# Error: lanza TypeError, y no ValueError, si la llamada no encaja.
# Cláusula: lanza-el-motivo
# Falla: sobra un argumento: ValueError sin ejecutar nada
# Mensaje: Con llamada z3 leer(ruta='lista.txt', lineas=2), ejecutar lanzó TypeError con el motivo de incumple; debía ser ValueError


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise TypeError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
