# Error: como ejecutar_sin_inventos de la lección, solo mira el nombre y no usa incumple.
# Cláusula: motivo-como-error
# Cláusula: no-ejecuta-si-no-encaja
# Falla: falta un argumento: error con el motivo, sin ejecutar nada
# Mensaje: Con llamada x2 buscar(), ejecutar llamó a buscar y no debía: la llamada no encaja con su esquema (a buscar le falta el argumento 'patron').


def ejecutar(ll, entorno):
    if ll["name"] not in FUNCIONES:
        hay = ", ".join(FUNCIONES)
        return resultado(ll["id"], f"no existe la herramienta {ll['name']!r}; "
                                   f"las hay: {hay}", es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
