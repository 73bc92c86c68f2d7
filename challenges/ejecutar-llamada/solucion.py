# La solución de referencia de «ejecutar-llamada».


def ejecutar(ll, entorno):
    """Comprueba la llamada `ll` con su esquema, la ejecuta sobre `entorno` y devuelve su
    tool_result; si no encaja, lanza ValueError con el motivo, sin ejecutar nada."""
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
