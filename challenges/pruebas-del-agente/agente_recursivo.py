# Otro agente correcto de «pruebas-del-agente»: el mismo contrato que agente.py, escrito de otra
# manera (cada turno es una llamada a sí mismo, y las observaciones vienen de otro módulo,
# observaciones.py). Las pruebas del lector deben pasar con él igual que con agente.py.

import operator

from runtime import HERRAMIENTAS, SISTEMA_AGENTE, denegar

from .observaciones import observar


def _turno(modelo, M, entorno, preguntar, quedan):
    if quedan <= 0:
        return ("tope", None, M)
    respuesta = modelo(M, HERRAMIENTAS)
    M.append(("asistente", respuesta))
    llamadas = [b for b in respuesta if b["type"] == "tool_use"]
    if not llamadas:
        return ("fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M)
    M.append(("usuario", observar(llamadas, entorno, preguntar)))
    return _turno(modelo, M, entorno, preguntar, quedan - 1)


def agente(modelo, pedido, entorno, preguntar=denegar, tope=10):
    return _turno(modelo, [("sistema", SISTEMA_AGENTE), ("usuario", pedido)], entorno, preguntar,
                  operator.index(tope))
