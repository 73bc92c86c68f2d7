# Error: le pasa a preguntar el nombre de la herramienta, y no la llamada: el usuario no ve qué se va a escribir.
# Cláusula: una-pregunta-con-la-llamada
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: ejecutar llamó a preguntar con «escribir»: pásale la llamada entera, preguntar(ll)


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll["name"]):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
