# Error: ve el motivo de incumple pero olvida el return: la herramienta se ejecuta igual.
# Cláusula: no-ejecuta-si-no-encaja
# Falla: sobra un argumento: error con el motivo, sin ejecutar nada
# Mensaje: ejecutar llamó a listar y no debía
# Mensaje: Si incumple(ll) da un motivo, devuelve el error enseguida, sin ejecutar nada.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
