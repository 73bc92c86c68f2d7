# Error: pregunta antes de comprobar el esquema: molesta al usuario por una llamada que no vale.
# Cláusula: no-encaja-no-pregunta
# Falla: una escritura que no encaja no pregunta ni se ejecuta
# Mensaje: ejecutar preguntó al usuario por una llamada que no encaja con su esquema (a escribir le falta el argumento 'contenido')


def ejecutar(ll, entorno, preguntar):
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
