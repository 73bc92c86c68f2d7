# Error: lee la respuesta al revés: deniega lo permitido y ejecuta lo denegado.
# Cláusula: denegada-no-se-ejecuta
# Cláusula: permitida-se-ejecuta
# Falla: escribir con permiso: pregunta una vez y se ejecuta
# Mensaje: el usuario dijo que sí, pero el entorno no quedó como debía


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
