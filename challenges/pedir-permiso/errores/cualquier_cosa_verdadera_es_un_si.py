# Error: toma por un sí cualquier respuesta verdadera, como hace un if: el texto «no» que
# escribe una persona es verdadero, y la escritura se ejecuta.
# Cláusula: solo-true-o-false
# Falla: una respuesta verdadera que no es True ("no", 1): TypeError sin ejecutar nada
# Mensaje: preguntar respondió 'no', que en un if parece un sí, y ejecutar corrió escribir


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
