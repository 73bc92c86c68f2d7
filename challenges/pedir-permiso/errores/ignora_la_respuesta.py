# Error: pregunta y no mira la respuesta: ejecuta igual.
# Cláusula: denegada-no-se-ejecuta
# Cláusula: denegado-como-observacion
# Falla: la conversación de la lección: sí a lista.txt, no a notas.txt
# Mensaje: En el turno 3 el modelo recibió 6 mensajes


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll):
        preguntar(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
