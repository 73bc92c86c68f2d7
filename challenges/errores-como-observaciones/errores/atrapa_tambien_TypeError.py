# Error: añade TypeError a los errores que vuelven al modelo: un fallo del arnés se esconde.
# Cláusula: lo-demas-se-propaga
# Falla: un fallo del arnés se propaga: TypeError
# Mensaje: escribir tiene un fallo de programación (lanza TypeError
# Mensaje: Atrapa solo OSError y ValueError; lo demás debe salir de ejecutar


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError, TypeError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
