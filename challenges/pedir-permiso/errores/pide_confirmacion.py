# Error: pide confirmación: pregunta dos veces por la misma llamada.
# Cláusula: una-pregunta-con-la-llamada
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: ejecutar preguntó 2 veces por una sola llamada: pregunta una vez y usa esa respuesta.


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not (preguntar(ll) and preguntar(ll)):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
