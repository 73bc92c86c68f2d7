# Error: el ValueError lleva su propio texto, no el motivo de incumple tal cual.
# Cláusula: lanza-el-motivo
# Falla: una herramienta que no existe: ValueError sin ejecutar nada
# Mensaje: el ValueError debía llevar el motivo de incumple tal cual


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(f"llamada no válida: {motivo}")
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
