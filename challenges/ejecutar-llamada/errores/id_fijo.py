# Error: el tool_result lleva un id fijo, el de la lección, y no el de la llamada.
# Cláusula: devuelve-tool-result
# Falla: listar: su resultado, con el id de la llamada
# Mensaje: el tool_result lleva tool_use_id 't1' y debía llevar 'toolu_01', el id de la llamada: usa ll["id"].


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado("t1", funcion(entorno, **ll["input"]))
