# Error: si el entorno que recibe está vacío, trabaja sobre una copia de ENTORNO.
# Cláusula: el-entorno-que-recibe
# Falla: un entorno vacío y ficheros vacíos
# Mensaje: Con llamada e-1 listar(carpeta=''), el contenido del tool_result debía ser lo que devuelve listar, «», y es «lista.txt⏎notas.txt⏎recetas/».
# Mensaje: Pista: ese es el resultado sobre ENTORNO.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    if not entorno:
        entorno = dict(ENTORNO)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
