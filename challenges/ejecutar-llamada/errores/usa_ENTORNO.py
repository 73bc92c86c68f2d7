# Error: ejecuta sobre ENTORNO, los ficheros de ejemplo, y no sobre el entorno que recibe.
# Cláusula: el-entorno-que-recibe
# Falla: escribir: cambia el entorno que recibe, no ENTORNO
# Mensaje: ejecutar cambió ENTORNO, los ficheros de ejemplo. Trabaja sobre `entorno`


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(ENTORNO, **ll["input"]))
