# Error: comprueba la llamada con incumple, pero después de ejecutarla.
# Cláusula: no-ejecuta-si-no-encaja
# Falla: un argumento del tipo equivocado: ValueError sin ejecutar nada
# Mensaje: ejecutar llamó a buscar y no debía: la llamada no encaja con su esquema


def ejecutar(ll, entorno):
    funcion = FUNCIONES[ll["name"]]
    salida = funcion(entorno, **ll["input"])
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    return resultado(ll["id"], salida)
