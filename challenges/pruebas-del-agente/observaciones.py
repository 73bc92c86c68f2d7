# Lo que usa agente_recursivo.py para convertir las llamadas de una respuesta en observaciones,
# en un módulo aparte (otra disposición que la de agente.py, el mismo contrato).

from runtime import FUNCIONES, denegado, incumple, necesita_permiso, resultado


def _una(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)


def observar(llamadas, entorno, preguntar):
    """Las observaciones de `llamadas`, en su orden: la primera y, después, las del resto."""
    if not llamadas:
        return []
    primera = _una(llamadas[0], entorno, preguntar)
    return [primera] + observar(llamadas[1:], entorno, preguntar)
