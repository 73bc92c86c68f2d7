# Los agentes rotos de «pruebas-del-agente»: cada uno, el de referencia (agente.py) con un solo
# fallo. ROTOS: [(lo que hace mal, en una frase, agente)], en el orden de las pruebas. El
# veredicto dice la frase; el código no sale de aquí.

from runtime import (FUNCIONES, HERRAMIENTAS, SISTEMA_AGENTE, denegado, denegar, incumple,
                     necesita_permiso, permitir, resultado)

from .agente import bucle, ejecutar


#: Las llamadas al modelo del agente sin tope: las de un bucle sin fin, a efectos de una prueba.
SIN_FIN = 100


def _llamadas(respuesta):
    return [b for b in respuesta if b["type"] == "tool_use"]


def _final(respuesta):
    return " ".join(b["text"] for b in respuesta if b["type"] == "text")


def _inicio(pedido):
    return [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]


def sin_tope(modelo, pedido, entorno, preguntar=denegar, tope=10):
    M = _inicio(pedido)
    for _ in range(SIN_FIN):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if not _llamadas(respuesta):
            return ("fin", _final(respuesta), M)
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in _llamadas(respuesta)]))
    return ("tope", None, M)


def tope_de_mas(modelo, pedido, entorno, preguntar=denegar, tope=10):
    return bucle(modelo, _inicio(pedido), entorno, tope + 1, preguntar)


def tope_como_fin(modelo, pedido, entorno, preguntar=denegar, tope=10):
    como, final, M = bucle(modelo, _inicio(pedido), entorno, tope, preguntar)
    return ("fin", final, M)


def sin_observaciones(modelo, pedido, entorno, preguntar=denegar, tope=10):
    M = _inicio(pedido)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if not _llamadas(respuesta):
            return ("fin", _final(respuesta), M)
        for ll in _llamadas(respuesta):
            ejecutar(ll, entorno, preguntar)
    return ("tope", None, M)


def sin_sistema(modelo, pedido, entorno, preguntar=denegar, tope=10):
    return bucle(modelo, [("usuario", pedido)], entorno, tope, preguntar)


def sin_respuesta_final(modelo, pedido, entorno, preguntar=denegar, tope=10):
    como, final, M = bucle(modelo, _inicio(pedido), entorno, tope, preguntar)
    return (como, final, M[:-1] if como == "fin" else M)


def reescribe_M(modelo, pedido, entorno, preguntar=denegar, tope=10):
    inicio = _inicio(pedido)
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if not _llamadas(respuesta):
            return ("fin", _final(respuesta), M)
        observaciones = [ejecutar(ll, entorno, preguntar) for ll in _llamadas(respuesta)]
        M = inicio + [M[-1], ("usuario", observaciones)]  # lo anterior se pierde
    return ("tope", None, M)


def _con(ejecuta):
    """El bucle de referencia con otro `ejecutar`."""
    def agente_con(modelo, pedido, entorno, preguntar=denegar, tope=10):
        M = _inicio(pedido)
        for _ in range(tope):
            respuesta = modelo(M, HERRAMIENTAS)
            M.append(("asistente", respuesta))
            if not _llamadas(respuesta):
                return ("fin", _final(respuesta), M)
            M.append(("usuario", [ejecuta(ll, entorno, preguntar)
                                  for ll in _llamadas(respuesta)]))
        return ("tope", None, M)
    return agente_con


def _lanza_si_no_encaja(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))


def _sin_preguntar(ll, entorno, preguntar):
    return ejecutar(ll, entorno, permitir)


def _ejecuta_la_denegada(ll, entorno, preguntar):
    if necesita_permiso(ll) and incumple(ll) is None and not preguntar(ll):
        ejecutar(ll, entorno, permitir)
        return denegado(ll)
    return ejecutar(ll, entorno, lambda ll: True)


def permite_por_defecto(modelo, pedido, entorno, preguntar=permitir, tope=10):
    return bucle(modelo, _inicio(pedido), entorno, tope, preguntar)


ROTOS = [
    ("no respeta el tope: sigue llamando al modelo mientras este pida herramientas", sin_tope),
    ("llama al modelo una vez más de las que permite el tope", tope_de_mas),
    ('cuando se agota el tope, devuelve "fin" en vez de "tope"', tope_como_fin),
    ("no añade a M las observaciones de las llamadas", sin_observaciones),
    ("empieza sin el mensaje de sistema", sin_sistema),
    ("devuelve un M sin la respuesta final del modelo", sin_respuesta_final),
    ("reescribe M en cada vuelta: el modelo solo ve el pedido y el último turno", reescribe_M),
    ("una llamada que no encaja (escribir sin contenido) sale como excepción, no como error "
     "para el modelo", _con(_lanza_si_no_encaja)),
    ("escribe sin preguntar al usuario", _con(_sin_preguntar)),
    ("pregunta, pero escribe aunque el usuario diga que no", _con(_ejecuta_la_denegada)),
    ("sin un preguntar, lo permite todo en vez de denegar", permite_por_defecto),
]
