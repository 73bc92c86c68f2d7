# Error: devuelve el texto de la herramienta, sin envolverlo en un tool_result.
# Cláusula: devuelve-tool-result
# Falla: leer: lee del entorno que recibe
# Mensaje: ejecutar devolvió lo que devolvió la herramienta, «arroz, aceite, sal», y debe devolver un bloque tool_result


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return funcion(entorno, **ll["input"])
