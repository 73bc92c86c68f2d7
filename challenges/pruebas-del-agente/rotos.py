# Los agentes rotos de «pruebas-del-agente»: cada uno, el de referencia (agente.py) con un solo
# fallo. ROTOS: [(lo que hace mal, en una frase, agente)], en el orden de las pruebas. El
# veredicto dice la frase; el código no sale de aquí.

from runtime import (HERRAMIENTAS, SISTEMA_AGENTE, denegado, denegar, incumple, necesita_permiso,
                     permitir)

from .agente import bucle, ejecutar


#: Las llamadas al modelo del agente sin tope: las de un bucle sin fin, a efectos de una prueba
#: (pocas: con un modelo del lector que nunca termina, cada pasada tiene su límite de tiempo).
SIN_FIN = 30

#: El tope por defecto del agente que no tiene el de la lección (10).
TOPE_DE_MAS = 20


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
    _como, final, M = bucle(modelo, _inicio(pedido), entorno, tope, preguntar)
    return ("fin", final, M)


def tope_sin_observaciones(modelo, pedido, entorno, preguntar=denegar, tope=10):
    M = _inicio(pedido)
    for vuelta in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        if not _llamadas(respuesta):
            return ("fin", _final(respuesta), M)
        if vuelta == tope - 1:
            return ("tope", None, M)  # las llamadas de la última respuesta, sin ejecutar
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in _llamadas(respuesta)]))
    return ("tope", None, M)


def tope_por_defecto_de_mas(modelo, pedido, entorno, preguntar=denegar, tope=TOPE_DE_MAS):
    return bucle(modelo, _inicio(pedido), entorno, tope, preguntar)


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
    return ejecutar(ll, entorno, preguntar)


def _ejecuta_la_denegada(ll, entorno, preguntar):
    if necesita_permiso(ll) and incumple(ll) is None and not preguntar(ll):
        ejecutar(ll, entorno, permitir)
        return denegado(ll)
    return ejecutar(ll, entorno, lambda ll: True)


def _calla_lo_que_lanza_preguntar(ll, entorno, preguntar):
    def sin_excepciones(ll):
        try:
            return preguntar(ll)
        except Exception:  # noqa: BLE001 - el fallo de este agente: lo toma por un no
            return False
    return ejecutar(ll, entorno, sin_excepciones)


def permite_por_defecto(modelo, pedido, entorno, preguntar=permitir, tope=10):
    return bucle(modelo, _inicio(pedido), entorno, tope, preguntar)


ROTOS = [
    ("no respeta el tope: sigue llamando al modelo mientras este pida herramientas", sin_tope),
    ("llama al modelo una vez más de las que permite el tope", tope_de_mas),
    ('cuando se agota el tope, devuelve "fin" en vez de "tope"', tope_como_fin),
    ("cuando se agota el tope, deja sin observación las llamadas de la última respuesta",
     tope_sin_observaciones),
    (f"sin un tope, llama al modelo hasta {TOPE_DE_MAS} veces en vez de 10",
     tope_por_defecto_de_mas),
    ("una llamada que no encaja (escribir sin contenido) sale como excepción, no como error "
     "para el modelo", _con(_lanza_si_no_encaja)),
    ("pregunta, pero escribe aunque el usuario diga que no", _con(_ejecuta_la_denegada)),
    ("sin un preguntar, lo permite todo en vez de denegar", permite_por_defecto),
    ("si preguntar lanza una excepción, la calla y lo toma por un no",
     _con(_calla_lo_que_lanza_preguntar)),
]
