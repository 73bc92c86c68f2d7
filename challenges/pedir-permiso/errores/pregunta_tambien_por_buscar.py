# Error: lleva su propia lista de herramientas peligrosas, con buscar, en vez de CAMBIAN.
# Cláusula: solo-pregunta-si-cambia
# Falla: otra conversación: 6 escrituras, 3 denegadas, en 4 turnos
# Mensaje: En el turno 1, ejecutar preguntó por g6_2 (buscar), que solo mira


def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if ll["name"] in ("escribir", "buscar") and not preguntar(ll):
        return denegado(ll)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)
