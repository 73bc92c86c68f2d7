# Error: trabaja sobre una copia del entorno: lo que escribe se pierde.
# Cláusula: el-entorno-que-recibe
# Falla: escribir: cambia el entorno que recibe, no ENTORNO
# Mensaje: Después de la llamada, el entorno que recibió ejecutar no es el esperado: falta el fichero compra/jueves.txt.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    entorno = dict(entorno)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
