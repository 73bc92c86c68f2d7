# Error: toma un resultado vacío (una carpeta sin nada, un fichero vacío) por un error.
# Cláusula: si-todo-va-bien
# Falla: un entorno vacío y ficheros vacíos: el resultado de siempre
# Mensaje: Con llamada v1 listar(carpeta=''), el tool_result lleva is_error=True, pero la llamada salió bien


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    if not salida:
        return resultado(ll["id"], "la herramienta no devolvió nada", es_error=True)
    return resultado(ll["id"], salida)
