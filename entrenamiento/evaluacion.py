"""The model at work, greedy, as the reference agent's model: the fixed prompts of the manifest,
the lesson's request run whole, and tasks of a seed never trained on (held out).

The model callable renders the request as the page does (:mod:`.datos`), generates with
transformers, greedy, up to ``max_new_tokens`` (no grammar: the page's compact grammar would hold
the output to one JSON object; here what the model writes is read as it is), and reads the output
as ``widgets/front/modelo/lectura.js`` reads the page's: one JSON object, ``{"<tool>": {args}}``
a call, ``{"respuesta": "…"}`` (``claveDeTexto``) a text; several lines, each such an object, are
read as one block each (the page's grammar never lets the model write them); anything else is
the raw output as text, and an output cut at ``max_new_tokens`` keeps only the text it began.
"""

from __future__ import annotations

import time

import torch

from . import datos
from .salida import clave_de_texto, interpretar, rescatado


def bloques_de_salida(texto: str, cortado: bool, ids, clave: str = "respuesta") -> list[dict]:
    """The output as the response's blocks (``ids()`` gives each call's id)."""
    entero = interpretar(texto, clave)
    lineas = [x for x in texto.split("\n") if x.strip()]
    if entero:
        partes = [entero]
    elif len(lineas) > 1:
        partes = [interpretar(x, clave) for x in lineas]
    else:
        partes = [None]
    if all(partes):
        bloques = []
        for p in partes:
            if p["type"] == "tool_use":
                bloques.append({"type": "tool_use", "id": ids(), "name": p["name"], "input": p["input"]})
            elif p["text"]:
                bloques.append(p)
        return bloques
    salvado = rescatado(texto, clave) if cortado else texto
    return [{"type": "text", "text": salvado}] if salvado else []


class Generador:
    """Greedy completions of a chat with ``modelo`` (a plain transformers model)."""

    def __init__(self, modelo, tok, max_new_tokens: int = 128):
        self.modelo, self.tok, self.max_new_tokens = modelo, tok, max_new_tokens
        self.fin = [tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>")]
        self.tokens = 0
        self.segundos = 0.0

    def __call__(self, mensajes: list[dict]) -> tuple[str, bool]:
        """(what the model writes after the prompt of ``mensajes``, whether it was cut)."""
        entrada = torch.tensor([datos.ids(self.tok, datos.prompt(self.tok, mensajes))])
        inicio = time.perf_counter()
        with torch.no_grad():
            salida = self.modelo.generate(entrada, attention_mask=torch.ones_like(entrada),
                                          max_new_tokens=self.max_new_tokens, do_sample=False,
                                          eos_token_id=self.fin, pad_token_id=self.fin[0])
        nuevos = salida[0, entrada.shape[1]:].tolist()
        self.segundos += time.perf_counter() - inicio
        self.tokens += len(nuevos)
        cortado = not nuevos or nuevos[-1] not in self.fin
        if not cortado:
            nuevos = nuevos[:-1]
        return self.tok.decode(nuevos, skip_special_tokens=False), cortado


def modelo_del_agente(ns: dict, generar: Generador, registro: list | None = None):
    """A model for the reference agent, modelo(M, herramientas) -> blocks, that asks ``generar``
    (the request rendered as the page renders it); each turn's raw output goes to ``registro``."""
    cuenta = [0]

    def ids():
        cuenta[0] += 1
        return f"toolu_{cuenta[0]:02d}"

    def modelo(M, herramientas):
        texto, cortado = generar(datos.chat(ns, M))
        if registro is not None:
            registro.append(texto if not cortado else texto + " …[cortado]")
        return bloques_de_salida(texto, cortado, ids, clave_de_texto(herramientas))
    return modelo


def respuestas_fijas(ns: dict, generar: Generador) -> list[dict]:
    """The model's greedy answer to each fixed prompt."""
    salida = []
    for que, M in datos.indicaciones_fijas(ns):
        texto, cortado = generar(datos.chat(ns, M))
        salida.append({"indicacion": que, "respuesta": texto, "cortada": cortado})
    return salida


def ejecucion_de_la_leccion(ns: dict, generar: Generador, tope: int = 10) -> dict:
    """The lesson's request over ENTORNO, run whole by the reference agent with this model and
    a user who allows every write: each turn's output, how it ended, the list it left."""
    turnos: list[str] = []
    entorno = dict(ns["ENTORNO"])
    try:
        como, final, _ = ns["agente"](modelo_del_agente(ns, generar, turnos), ns["PEDIDO_TORTILLA"],
                                      entorno, preguntar=ns["permitir"], tope=tope)
    except Exception as error:  # noqa: BLE001 - the model's output broke the run: that is the finding
        como, final = "error", f"{type(error).__name__}: {error}"
    return {"pedido": ns["PEDIDO_TORTILLA"], "turnos": turnos, "como": como, "final": final,
            "lista_final": entorno.get("lista.txt")}


def fuera_de_muestra(ns: dict, generar: Generador, n: int, semilla: int, tope: int = 10,
                     nombres_variados: float = 0.0) -> dict:
    """``n`` tasks of ``tareas(n, semilla, nombres_variados)`` (a seed never trained on), each run by the reference
    agent with this model and the task's scripted user: how many end («fin») with the task done
    (its ``comprobar``), in all and by kind."""
    por_tipo: dict[str, list[int]] = {}
    casos = []
    inicio = time.perf_counter()
    for tarea in ns["tareas"](n, semilla=semilla, nombres_variados=nombres_variados):
        entorno = dict(tarea.entorno)
        turnos: list[str] = []
        try:
            como, final, _ = ns["agente"](modelo_del_agente(ns, generar, turnos), tarea.pedido,
                                          entorno, preguntar=ns["Respuestas"](tarea.respuestas),
                                          tope=tope)
            hecha = como == "fin" and tarea.comprobar(entorno, final)
        except Exception as error:  # noqa: BLE001 - whatever the model's output breaks is a task not done
            como, final, hecha = "error", f"{type(error).__name__}: {error}", False
        cuenta = por_tipo.setdefault(tarea.tipo, [0, 0])
        cuenta[0] += hecha
        cuenta[1] += 1
        casos.append({"tipo": tarea.tipo, "pedido": tarea.pedido, "hecha": hecha, "como": como,
                      "turnos": len(turnos), "primer_turno": turnos[0] if turnos else None})
        print(f"  [{len(casos)}/{n}] {'hecha' if hecha else 'NO'} ({tarea.tipo}, {como}, "
              f"{len(turnos)} turnos): {tarea.pedido}", flush=True)
    return {"semilla": semilla, "tareas": n, "hechas": sum(c["hecha"] for c in casos),
            "por_tipo": {k: {"hechas": v[0], "de": v[1]} for k, v in sorted(por_tipo.items())},
            "segundos": round(time.perf_counter() - inicio, 1), "casos": casos}
