# Error: ante un error devuelve el mensaje solo, un texto, y no un tool_result.
# Cláusula: motivo-como-error
# Cláusula: atrapa-oserror-y-valueerror
# Falla: escribir dentro de un fichero: NotADirectoryError como observación
# Mensaje: ejecutar devolvió el mensaje solo, «'lista.txt' es un fichero: no puede contener 'lista.txt/extra.txt'»: va dentro de un tool_result


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return motivo
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return str(error)
    return resultado(ll["id"], salida)
