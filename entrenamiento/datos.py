"""The training data: the course's runs, rendered and tokenized exactly as the page feeds them to
the model, with the loss on the model's own tokens only.

The runs come from the generator, ``runtime/entrenamiento.py``, loaded as a page loads the
runtime (:func:`pagina`): ``ejecuciones(n, agente, semilla)`` runs the course's reference agent
(``challenges/pruebas-del-agente/agente.py``) over ``n`` tasks with each task's ideal model. Each
run's messages ``M`` become the request the reader's adapter sends
(``ModeloAPI().peticion(M, HERRAMIENTAS)``, ``challenges/modelo-api/solucion.py``), that request
the model's chat (``mensajes_para_el_modelo``, the Python port of
``widgets/front/modelo/indicaciones.js``), and that chat the prompt text through the GGUF's own
chat template (``tokenizer.chat_template``, ChatML), as the page's engine applies it
(``modelo/nucleo.js``; llama.cpp natively):

    <|im_start|>system\\n{system}<|im_end|>\\n<|im_start|>user\\n{pedido}<|im_end|>\\n
    <|im_start|>assistant\\n{answer}<|im_end|>\\n<|im_start|>user\\n{results}<|im_end|>\\n …

no BOS (the GGUF says ``tokenizer.ggml.add_bos_token = false``), and a prompt that ends with
``<|im_start|>assistant\\n`` (``add_generation_prompt``). The targets are what the model writes at
each assistant turn: the turn's text and the ``<|im_end|>`` that ends it (llama.cpp stops there;
the ``\\n`` after it is the next prompt's). Every other token's label is -100.

Checked here, for every run: the text of each turn's prompt (the template with
``add_generation_prompt``) is a prefix of the whole conversation's, and tokenizing the pieces one
by one gives the same tokens as tokenizing the whole text (so the prompt the model is trained on
is the one llama.cpp tokenizes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import widgets.calificador
from widgets.calificador.disco import modulos_de
from widgets.calificador.importador import Importador

RAIZ = Path(__file__).resolve().parents[1]
DESAFIOS = RAIZ / "challenges"
AGENTE = DESAFIOS / "pruebas-del-agente" / "agente.py"
ADAPTADOR = DESAFIOS / "modelo-api" / "solucion.py"
#: The runtime modules of the page's namespace, in the course's order (runtime/orden.txt) up to
#: the generator: the lessons' (tools, scenarios, permissions, the model API, the recording) and
#: the generator's (words, tasks, writes, the runs and the chat).
_ORDEN = modulos_de(RAIZ / "runtime")
RUNTIME = _ORDEN[:_ORDEN.index("entrenamiento") + 1]
IGNORAR = -100


def pagina() -> dict:
    """A namespace as a page's: the runtime modules, the reference ``ModeloAPI`` (run as the
    reader's code runs, after the runtime's names) and the reference ``agente`` (loaded by the
    grader's importer, its ``from runtime import …`` answered from the same namespace)."""
    from runtime import espacio

    ns = espacio(*RUNTIME)
    exec(compile(ADAPTADOR.read_text(encoding="utf-8"), str(ADAPTADOR), "exec"), ns)
    ns["agente"] = cargar_con_runtime(AGENTE, ns)["agente"]
    return ns


def cargar_con_runtime(ruta: Path, ns: dict) -> dict:
    """The namespace of the challenge file ``ruta`` (in ``challenges/``), loaded by the grader's
    importer (:class:`~widgets.calificador.importador.Importador`, as a challenge's tests load
    it) with its ``from runtime import …`` answered from ``ns``: the page's objects, not a copy."""
    def codigo(relativa: str):
        archivo = DESAFIOS / relativa
        return compile(archivo.read_text(encoding="utf-8"), str(archivo), "exec")

    def runtime_en(modulo: dict) -> None:
        modulo.update({k: v for k, v in ns.items() if not k.startswith("__")})

    importador = Importador(codigo, runtime_en, widgets.calificador)
    try:
        return vars(importador.modulo(ruta.relative_to(DESAFIOS).as_posix()))
    finally:
        importador.cerrar()


def chat(ns: dict, M: list) -> list[dict]:
    """What the page's model reads for the messages ``M``: [{"role", "content"}]."""
    return ns["mensajes_para_el_modelo"](ns["ModeloAPI"]().peticion(M, ns["HERRAMIENTAS"]))


def prompt(tok, mensajes: list[dict]) -> str:
    """The prompt text llama.cpp builds for a chat that asks for the next assistant turn."""
    return tok.apply_chat_template(mensajes, tokenize=False, add_generation_prompt=True)


def ids(tok, texto: str) -> list[int]:
    """``texto``'s tokens, as llama.cpp tokenizes a prompt of this model (special tokens parsed,
    no BOS)."""
    return tok(texto, add_special_tokens=False)["input_ids"]


@dataclass
class Ejemplo:
    """One run as one training sequence."""
    tipo: str
    pedido: str
    ids: list[int]
    etiquetas: list[int]   # -100 but on the model's own tokens
    turnos: int            # assistant turns (each one a target)

    @property
    def objetivos(self) -> int:
        return sum(e != IGNORAR for e in self.etiquetas)


def ejemplo(tok, mensajes: list[dict], tipo: str = "", pedido: str = "") -> Ejemplo:
    """The chat ``mensajes`` (which ends with an assistant turn) as token ids and labels."""
    fin = tok.convert_tokens_to_ids("<|im_end|>")
    todo = tok.apply_chat_template(mensajes, tokenize=False)
    piezas: list[tuple[str, bool]] = []   # (text, is it the model's)
    hecho = 0
    for j, m in enumerate(mensajes):
        if m["role"] != "assistant":
            continue
        antes = prompt(tok, mensajes[:j])
        propio = m["content"] + "<|im_end|>"
        if not todo.startswith(antes) or todo[len(antes):len(antes) + len(propio)] != propio:
            raise ValueError(f"la plantilla no escribe el turno {j} como se esperaba: {pedido!r}")
        piezas += [(todo[hecho:len(antes)], False), (propio, True)]
        hecho = len(antes) + len(propio)
    piezas.append((todo[hecho:], False))
    tokens, etiquetas = [], []
    for texto, propio in piezas:
        t = ids(tok, texto) if texto else []
        if propio and (len(t) < 2 or t[-1] != fin):
            raise ValueError(f"un turno del modelo no acaba en <|im_end|>: {pedido!r}")
        tokens += t
        etiquetas += t if propio else [IGNORAR] * len(t)
    if tokens != ids(tok, todo):
        raise ValueError(f"los trozos no se tokenizan como el texto entero: {pedido!r}")
    turnos = sum(m["role"] == "assistant" for m in mensajes)
    return Ejemplo(tipo, pedido, tokens, etiquetas, turnos)


def ejemplos(ns: dict, tok, n: int, semilla: int, nombres_variados: float = 0.0,
             amplio: float = 0.0) -> list[Ejemplo]:
    """The generator's ``n`` runs of seed ``semilla`` (with file names drawn from its large pool
    in the share ``nombres_variados`` of them), each as one training sequence."""
    salida = []
    for e in ns["ejecuciones"](n, ns["agente"], semilla=semilla, nombres_variados=nombres_variados,
                               amplio=amplio):
        salida.append(ejemplo(tok, chat(ns, e["M"]), e["tipo"], e["pedido"]))
    return salida


def prefijo_comun(ejemplos: list[Ejemplo]) -> int:
    """How many tokens every example starts with (the system prompt and the start of the user
    turn: the training step computes them once per step), before any target."""
    primero = ejemplos[0].ids
    # the token before a target is the one whose output predicts it: it must be computed anew
    n = min(min(i for i, e in enumerate(x.etiquetas) if e != IGNORAR) for x in ejemplos) - 1
    for x in ejemplos[1:]:
        k = 0
        while k < n and x.ids[k] == primero[k]:
            k += 1
        n = k
    return n


def indicaciones_fijas(ns: dict) -> list[tuple[str, list]]:
    """The manifest's fixed prompts: (what it is, M), over the lessons' files (ENTORNO)."""
    E, F = ns["ENTORNO"], ns["FUNCIONES"]
    llamada, resultado = ns["llamada"], ns["resultado"]
    inicio = [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", ns["PEDIDO_TORTILLA"])]

    def paso(id, nombre, entorno=E, **entrada):
        return [("asistente", [llamada(id, nombre, **entrada)]),
                ("usuario", [resultado(id, F[nombre](dict(entorno), **entrada))])]

    receta = paso("toolu_01", "leer", ruta="recetas/tortilla.txt")
    lista = paso("toolu_02", "leer", ruta="lista.txt")
    nueva = ns["LISTA_TORTILLA"]
    escrita = paso("toolu_03", "escribir", ruta="lista.txt", contenido=nueva)
    denegada = [("asistente", [llamada("toolu_03", "escribir", ruta="lista.txt", contenido=nueva)]),
                ("usuario", [ns["denegado"](llamada("toolu_03", "escribir", ruta="lista.txt",
                                                    contenido=nueva))])]
    return [
        ("lección 6, primer turno", inicio),
        ("lección 6, tras leer la receta", inicio + receta),
        ("lección 6, tras leer la receta y la lista", inicio + receta + lista),
        ("lección 6, tras escribir la lista", inicio + receta + lista + escrita),
        ("lección 6, escritura denegada", inicio + receta + lista + denegada),
        ("otro pedido, primer turno", [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", ns["PEDIDO_TERCO"])]),
    ]
