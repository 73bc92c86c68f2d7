# Error: pasa los argumentos por posición, en el orden en que los dio el modelo.
# Cláusula: por-nombre
# Falla: los argumentos van por nombre, en cualquier orden
# Mensaje: Pista: pasaste los argumentos por posición


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, *ll["input"].values()))
