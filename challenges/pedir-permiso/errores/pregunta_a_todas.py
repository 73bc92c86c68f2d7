# Error: pregunta por todas las llamadas, también por las que solo miran.
# Cláusula: solo-pregunta-si-cambia
# Falla: las llamadas que solo miran no preguntan
# Mensaje: Con llamada m1 listar(carpeta='recetas'), ejecutar preguntó al usuario, y listar solo mira


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
