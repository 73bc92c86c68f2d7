"""Reading what an author wrote in a question, and rejecting what cannot work, with its line.

The directives in :mod:`widgets.directivas.pregunta` hand the parsed content here. Everything that is wrong
raises :class:`Invalida` with a Spanish message and the line of the source it is about (the
option, the list item, the directive), so the build reports ``pagina.md:LINE: ERROR: ...``.

An option is a list item whose paragraph starts with ``[x]`` (correct) or ``[ ]`` (wrong), with
MyST's ``tasklist`` extension or without it; its feedback is a block quote nested under it::

    - [x] El modelo, al responder sin llamadas.
      > Exacto: sin `tool_use` no hay nada que ejecutar.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from docutils import nodes

from ..base.opciones import Invalida

TIPOS_DE_PREGUNTA = ("una", "varias", "numero")
_MARCA = re.compile(r"^\[([ xX])\](?:\s+|$)")
_CASILLA = "task-list-item-checkbox"


# -- numbers -------------------------------------------------------------------------------------

def leer_numero(texto: str | None, nombre: str, linea: int) -> float | int:
    """An author's number: ``13``, ``-2.5`` or ``2,5``. Integers stay integers in the JSON."""
    limpio = (texto or "").strip().replace(",", ".")
    try:
        valor = float(limpio)
    except ValueError:
        raise Invalida(f"«:{nombre}:» debe ser un número (por ejemplo 13 o 2,5), no «{(texto or '').strip()}»",
                       linea) from None
    if not math.isfinite(valor):
        raise Invalida(f"«:{nombre}:» debe ser un número finito, no «{texto.strip()}»", linea)
    return int(valor) if valor.is_integer() and abs(valor) < 2**53 else valor


def numero_legible(valor: float | int) -> str:
    """A number as a Spanish reader writes it: ``0``, ``2,5``."""
    if float(valor).is_integer():
        return str(int(valor))
    return repr(float(valor)).replace(".", ",")


# -- the options list ----------------------------------------------------------------------------

@dataclass
class Opcion:
    correcta: bool
    texto: nodes.paragraph
    retro: list[nodes.Node] = field(default_factory=list)
    linea: int | None = None


def es_lista_de_opciones(nodo: nodes.Node) -> bool:
    """Whether ``nodo`` is a bullet list whose first item starts with ``[x]`` or ``[ ]``."""
    if not isinstance(nodo, nodes.bullet_list) or not nodo.children:
        return False
    return _marca(nodo.children[0]) is not None


def _marca(item: nodes.Node) -> bool | None:
    """True/False for a correct/wrong item, None when the item carries no mark."""
    if not isinstance(item, nodes.list_item) or not item.children:
        return None
    parrafo = item.children[0]
    if not isinstance(parrafo, nodes.paragraph) or not parrafo.children:
        return None
    primero = parrafo.children[0]
    if isinstance(primero, nodes.raw) and _CASILLA in primero.astext():  # MyST's tasklist
        return 'checked="checked"' in primero.astext()
    if isinstance(primero, nodes.Text):
        encontrada = _MARCA.match(str(primero))
        if encontrada:
            return encontrada.group(1) != " "
    return None


def _sin_marca(parrafo: nodes.paragraph) -> None:
    primero = parrafo.children[0]
    if isinstance(primero, nodes.raw):
        parrafo.remove(primero)
        if parrafo.children and isinstance(parrafo.children[0], nodes.Text):
            resto = str(parrafo.children[0]).lstrip()
            parrafo.replace(parrafo.children[0], nodes.Text(resto))
    else:
        resto = _MARCA.sub("", str(primero), count=1)
        if resto:
            parrafo.replace(primero, nodes.Text(resto))
        else:
            parrafo.remove(primero)


def leer_opciones(lista: nodes.bullet_list) -> list[Opcion]:
    """The options of a list; each item is ``[x]``/``[ ]`` text plus an optional block quote."""
    opciones = []
    for item in lista.children:
        linea = item.line or lista.line
        marca = _marca(item)
        if marca is None:
            raise Invalida(
                "cada opción empieza por «[x] » (correcta) o «[ ] » (incorrecta), "
                f"y esta no: «{_resumen(item)}»", linea)
        parrafo = item.children[0]
        _sin_marca(parrafo)
        if not parrafo.astext().strip():
            raise Invalida("hay una opción vacía: escribe su texto tras «[x] » o «[ ] »", linea)
        retro: list[nodes.Node] = []
        for hijo in item.children[1:]:
            if isinstance(hijo, nodes.block_quote) and not retro:
                retro = list(hijo.children)
            elif isinstance(hijo, nodes.block_quote):
                raise Invalida("una opción lleva una sola cita «> …» con su comentario",
                               hijo.line or linea)
            else:
                raise Invalida(
                    "una opción es una línea de texto y, si quieres, una cita «> …» sangrada bajo "
                    "ella con el comentario que verá quien la elija; aquí hay algo más: "
                    f"«{_resumen(hijo)}»", hijo.line or linea)
        opciones.append(Opcion(correcta=marca, texto=parrafo, retro=retro, linea=linea))
    return opciones


def decidir_tipo(tipo: str | None, opciones: list[Opcion] | None, tiene_respuesta: bool,
                 linea_tipo: int, linea: int) -> str:
    """The kind of a question: the author's ``:tipo:``, or inferred from what was written."""
    if tipo is not None:
        tipo = tipo.strip()
        if tipo == "número":  # what a Spanish hand types
            tipo = "numero"
        if tipo not in TIPOS_DE_PREGUNTA:
            raise Invalida(
                f"«:tipo: {tipo}» no existe: usa «una» (una respuesta), «varias» (todas las "
                "correctas, todo o nada) o «numero» (un número con margen)", linea_tipo)
        return tipo
    if tiene_respuesta and not opciones:
        return "numero"
    correctas = sum(o.correcta for o in opciones or [])
    if correctas > 1:
        raise Invalida(
            f"la pregunta tiene {correctas} opciones correctas: si el lector debe marcarlas "
            "todas, escribe «:tipo: varias»; si solo hay una buena, deja una sola «[x]»", linea)
    return "una"


def comprobar_opciones(tipo: str, opciones: list[Opcion] | None, linea: int) -> None:
    """Options that make sense for a one-answer or several-answer question."""
    if not opciones:
        raise Invalida(
            "la pregunta no tiene opciones: escríbelas como lista, «- [x] …» para las correctas "
            "y «- [ ] …» para las incorrectas (o usa «:tipo: numero» con «:respuesta:»)", linea)
    if len(opciones) < 2:
        raise Invalida("una pregunta de opciones necesita al menos dos", linea)
    correctas = [o for o in opciones if o.correcta]
    if not correctas:
        raise Invalida("la pregunta no tiene ninguna opción correcta: marca la buena con «- [x]»",
                       linea)
    if tipo == "una" and len(correctas) > 1:
        raise Invalida(
            f"una pregunta «:tipo: una» tiene una sola opción correcta, y esta tiene "
            f"{len(correctas)}: deja una sola «[x]» o usa «:tipo: varias»", correctas[1].linea)


def _resumen(nodo: nodes.Node, largo: int = 40) -> str:
    texto = " ".join(nodo.astext().split())
    return texto if len(texto) <= largo else texto[: largo - 1] + "…"
