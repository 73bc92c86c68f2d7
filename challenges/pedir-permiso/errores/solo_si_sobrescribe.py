# Error: solo pregunta si el fichero ya existe: crear uno nuevo le parece inofensivo.
# Cláusula: pregunta-antes-de-cambiar
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: ejecutar no preguntó al usuario, y escribir cambia el entorno


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and ll["input"]["ruta"] in entorno and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
