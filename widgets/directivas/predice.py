"""Predict mode of a trace («Predice»): the questions a reader answers before a step is shown.

Pure logic, no Sphinx: :func:`preguntas` reads one trace (the format of
``widgets/calificador/trazas.py``) and returns the questions the page asks while **Predice** is
on; the ``traza`` directive embeds them per cap (``datos["predicciones"]``) and
``widgets/front/traza.js`` only renders them. A question is asked when **Siguiente** would
show the step it is about, and that step is shown once it is answered::

    {"clase": "recibe" | "sigue" | "crece" | "cambia",
     "antes": {"evento": 4, "tipo": "modelo"},   # the step it reveals: the first step that
                                                  # lib/traza-pasos.js makes from event 4 (of
                                                  # that kind; tipo None: whatever comes first)
     "enunciado": "¿Cuántos mensajes recibe …?",
     "tipo": "numero", "respuesta": 6, "margen": 0              # scored by lib/puntuar.js
       | "tipo": "una", "opciones": ["…", …], "correctas": [1],
     "solucion": "6",                                           # the right answer, in words
     "porque": "El modelo recibe M entera, …"}                  # one sentence: the rule

The questions, per turn of the loop:

- before each model call but the first (which the widget shows on opening): how many messages
  the model receives (``recibe``);
- after each response: what the loop does now, from the response's blocks and the cap
  (``sigue``: run its calls and call the model again, run them and return ``tope``, or return
  ``fin``);
- for a response with calls, either how many messages M grows by when the observations are
  appended (``crece``: in the first turn with calls and whenever there are several), or which
  file of the environment its calls change, if any (``cambia``, asked with ``sigue``, before
  any call runs).

- for each question the harness asks the user («Pedir permiso», a ``permiso`` event), given
  the user's answer, what the harness does with that call (``permiso``: run it, or not run it
  and give the model an error), asked before the permission step shows it.

Every answer is what the trace shows, and every explanation is the rule of a correct loop: a
question is asked only when the two agree (a loop that breaks a rule gets no question about
it). The answers are computed from the events, never written by the author.

Each kind of event has its function in :data:`POR_EVENTO` (event, its index, the walk's
state → questions). A kind that a later lesson adds, a permission step say (``{"tipo":
"permiso", …}``: does the harness ask, and what does the model receive then), adds its
function there and its texts to :mod:`widgets.base.textos`; the page needs no change.
"""

from __future__ import annotations

from ..base import textos

#: More files than this in the environment and «¿qué fichero cambia?» is not asked.
MAX_FICHEROS = 8


def preguntas(traza: dict) -> list[dict]:
    """The questions of predict mode for one trace, in the order of the steps they reveal."""
    recorrido = _Recorrido(traza)
    lista = []
    for i, evento in enumerate(recorrido.eventos):
        hacer = POR_EVENTO.get(evento.get("tipo"))
        if hacer:
            lista += hacer(recorrido, i, evento)
    return lista


class _Recorrido:
    """The trace's events with what the page shows after each: M and the environment."""

    def __init__(self, traza: dict):
        self.traza = traza
        self.tabla = traza.get("mensajes") or []
        self.eventos = traza.get("eventos") or []
        self.tope = traza.get("tope")
        self.M = list(traza.get("inicio") or [])
        self.entorno = dict(traza.get("entorno") or {})
        self.modelos = 0          # model calls seen
        self.con_llamadas = 0     # responses with calls seen
        self.anterior = None      # the last model event

    def contenido(self, indice):
        mensaje = self.tabla[indice] if isinstance(indice, int) and 0 <= indice < len(self.tabla) else {}
        return mensaje.get("contenido")

    def llamadas_de(self, indice) -> list[dict]:
        """The tool_use blocks of the response ``mensajes[indice]``."""
        bloques = self.contenido(indice)
        if not isinstance(bloques, list):
            return []
        return [b for b in bloques if isinstance(b, dict) and b.get("type") == "tool_use"]

    def siguiente_observacion(self, desde: int):
        """(index, event) of the next event that shows M: a model call or the return, past
        the calls; (None, None) if another event comes first (as lib/traza-pasos.js)."""
        for j in range(desde, len(self.eventos)):
            tipo = self.eventos[j].get("tipo")
            if tipo in ("modelo", "devuelve"):
                return j, self.eventos[j]
            if tipo not in ("llamada", "permiso"):
                break
        return None, None

    def llamadas_desde(self, desde: int) -> list[dict]:
        """The executed calls that follow a response (the events up to the next other kind)."""
        lista = []
        for evento in self.eventos[desde:]:
            if evento.get("tipo") == "permiso":
                continue  # the user's answer comes between the calls
            if evento.get("tipo") != "llamada":
                break
            lista.append(evento)
        return lista


def _al_llamar_al_modelo(r: _Recorrido, i: int, evento: dict) -> list[dict]:
    lista = []
    M = evento.get("M")
    if evento.get("error") or not isinstance(M, list):
        return lista
    n = evento.get("n", len(M))
    if r.modelos:
        lista.append(_recibe(r, i, evento, n))
    r.modelos += 1
    r.anterior = evento
    r.M = list(M)
    respuesta = evento.get("respuesta")
    # As the page: the response joins M when the next M shows it there.
    _, siguiente = r.siguiente_observacion(i + 1)
    despues = (siguiente or {}).get("M")
    posicion = len(r.M)
    if isinstance(despues, list) and despues[:posicion] == r.M and despues[posicion:posicion + 1] == [respuesta]:
        r.M.append(respuesta)
    llamadas = r.llamadas_de(respuesta)
    sigue = _sigue(r, i, evento, llamadas)
    if sigue:
        lista.append(sigue)
    if llamadas and sigue:
        primera = r.con_llamadas == 0
        r.con_llamadas += 1
        cambia = None if primera or len(llamadas) > 1 else _cambia(r, i, llamadas)
        crece = None if cambia else _crece(r, i, llamadas)
        lista += [q for q in (cambia, crece) if q]
    return lista


def _al_ejecutar(r: _Recorrido, i: int, evento: dict) -> list[dict]:
    for cambio in evento.get("cambios") or []:
        if cambio.get("despues") is None:
            r.entorno.pop(cambio.get("ruta"), None)
        else:
            r.entorno[cambio.get("ruta")] = cambio["despues"]
    return []


def _al_preguntar(r: _Recorrido, i: int, evento: dict) -> list[dict]:
    """Given the user's answer, does the call run? By the rule (run only if allowed) and by what
    the trace shows next (its call event, or an error as its observation)."""
    if evento.get("error") or not isinstance(evento.get("permitido"), bool) or evento.get("id") is None:
        return []
    ident, permitido = evento["id"], evento["permitido"]
    regla = "ejecuta" if permitido else "no"
    siguientes = r.eventos[i + 1:]
    if any(e.get("tipo") == "llamada" and e.get("id") == ident for e in r.llamadas_desde(i + 1)):
        visto = "ejecuta"
    else:
        _, siguiente = r.siguiente_observacion(i + 1)
        M = (siguiente or {}).get("M")
        ultimo = r.contenido(M[-1]) if isinstance(M, list) and M else None
        bloque = next((b for b in ultimo if isinstance(b, dict) and b.get("type") == "tool_result"
                       and b.get("tool_use_id") == ident), None) if isinstance(ultimo, list) else None
        visto = "no" if bloque is not None and bloque.get("is_error") else None
    if visto != regla or not siguientes:
        return []
    quien = f"{ident} ({evento.get('nombre')})"
    opciones = list(textos.PREDICE_PERMISO_OPCIONES.values())
    return [_una("permiso", {"evento": i, "tipo": "permiso"},
                 textos.predice_permiso(quien, permitido), opciones,
                 list(textos.PREDICE_PERMISO_OPCIONES).index(visto),
                 textos.predice_permiso_porque(quien, permitido))]


#: What each kind of event asks (see the module's docstring to add one).
POR_EVENTO = {"modelo": _al_llamar_al_modelo, "llamada": _al_ejecutar, "permiso": _al_preguntar}


def _numero(clase, antes, enunciado, respuesta: int, porque: str) -> dict:
    return {"clase": clase, "antes": antes, "enunciado": enunciado, "tipo": "numero",
            "respuesta": respuesta, "margen": 0, "solucion": str(respuesta), "porque": porque}


def _una(clase, antes, enunciado, opciones: list[str], correcta: int, porque: str) -> dict:
    return {"clase": clase, "antes": antes, "enunciado": enunciado, "tipo": "una",
            "opciones": opciones, "correctas": [correcta], "solucion": opciones[correcta],
            "porque": porque}


def _recibe(r: _Recorrido, i: int, evento: dict, n: int) -> dict:
    """How many messages the model receives: all of M."""
    antes = None
    previo = r.anterior
    if previo is not None:
        M, anterior = evento["M"], previo.get("M") or []
        ultimo = r.contenido(M[-1]) if M else None
        observaciones = isinstance(ultimo, list) and ultimo and all(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in ultimo)
        if (M[:len(anterior)] == anterior and M[len(anterior):-1] == [previo.get("respuesta")]
                and observaciones):
            antes = previo.get("n", len(anterior))
    return _numero("recibe", {"evento": i, "tipo": "modelo"},
                   textos.predice_recibe(evento.get("turno")), n,
                   textos.predice_recibe_porque(n, antes))


def _sigue(r: _Recorrido, i: int, evento: dict, llamadas: list[dict]) -> dict | None:
    """What the loop does after the response: by the rules, and by what the trace shows."""
    turno, tope = evento.get("turno"), r.tope
    if not llamadas:
        regla = "fin"
    elif isinstance(tope, int) and turno < tope:
        regla = "sigue"
    else:
        regla = "tope"
    final = r.eventos[-1] if r.eventos else {}
    if any(e.get("tipo") == "modelo" for e in r.eventos[i + 1:]):
        visto = "sigue"
    elif final.get("tipo") == "devuelve" and final.get("motivo") == "fin":
        visto = "fin"
    elif final.get("tipo") == "devuelve" and final.get("motivo") == "tope":
        M = final.get("M")
        visto = "tope" if isinstance(M, list) and len(M) > len(r.M) else "tope_sin"
    else:
        visto = None
    if visto != regla:
        return None
    claves = list(textos.PREDICE_SIGUE_OPCIONES)
    ids = [str(ll.get("id")) for ll in llamadas]
    return _una("sigue", {"evento": i + 1, "tipo": None}, textos.predice_sigue(turno, tope),
                list(textos.PREDICE_SIGUE_OPCIONES.values()), claves.index(visto),
                textos.predice_sigue_porque(visto, turno, tope, ids))


def _crece(r: _Recorrido, i: int, llamadas: list[dict]) -> dict | None:
    """How many messages M grows by when the observations are appended."""
    j, siguiente = r.siguiente_observacion(i + 1)
    despues = (siguiente or {}).get("M")
    if not isinstance(despues, list) or len(despues) <= len(r.M) or despues[:len(r.M)] != r.M:
        return None
    crece = len(despues) - len(r.M)
    # The rule: one user message holding a result for each call, whatever their number.
    ids = {ll.get("id") for ll in llamadas}
    ultimo = r.contenido(despues[-1])
    regla = (crece == 1 and r.tabla[despues[-1]].get("rol") == "usuario" and isinstance(ultimo, list)
             and {b.get("tool_use_id") for b in ultimo if isinstance(b, dict)} == ids)
    if not regla:
        return None
    return _numero("crece", {"evento": j, "tipo": "observaciones"},
                   textos.predice_crece(len(llamadas)), crece, textos.predice_crece_porque(len(llamadas)))


def _cambia(r: _Recorrido, i: int, llamadas: list[dict]) -> dict | None:
    """Which file the response's calls change, if any (asked before any of them runs)."""
    ejecutadas = r.llamadas_desde(i + 1)
    _, siguiente = r.siguiente_observacion(i + 1)
    if siguiente is None or siguiente.get("cambios"):
        return None  # changes made outside the calls: not the calls' doing
    cambios = [(e, c) for e in ejecutadas for c in e.get("cambios") or []]
    if len({c.get("ruta") for _, c in cambios}) > 1 or len(r.entorno) > MAX_FICHEROS:
        return None
    rutas = set(r.entorno)
    for ll in llamadas:
        ruta = (ll.get("input") or {}).get("ruta") if isinstance(ll.get("input"), dict) else None
        if isinstance(ruta, str) and ruta:
            rutas.add(ruta)
    opciones = sorted(rutas) + [textos.PREDICE_NINGUNO]
    if cambios:
        llamada, cambio = cambios[0]
        ruta = cambio.get("ruta")
        if ruta not in rutas:
            return None
        hace = "crea" if cambio.get("antes") is None else "borra" if cambio.get("despues") is None else "escribe"
        porque = textos.predice_cambia_porque(ruta, _quien(llamada), hace, [])
        correcta = opciones.index(ruta)
    else:
        por_id = {e.get("id"): e for e in ejecutadas}
        motivos = []
        for ll in llamadas:
            e = por_id.get(ll.get("id"))
            if e is None:
                motivos.append(textos.predice_no_se_ejecuta(str(ll.get("id"))))
            elif e.get("error"):
                motivos.append(textos.predice_falla(_quien(e), e["error"].get("clase")))
            else:
                motivos.append(textos.predice_no_cambia(_quien(e)))
        porque = textos.predice_cambia_porque(None, None, None, motivos)
        correcta = len(opciones) - 1
    return _una("cambia", {"evento": i + 1, "tipo": None}, textos.PREDICE_CAMBIA, opciones,
                correcta, porque)


def _quien(llamada: dict) -> str:
    return f"{llamada.get('id')} ({llamada.get('nombre')})" if llamada.get("id") else str(llamada.get("nombre"))
