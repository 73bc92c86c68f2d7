"""The shape every lesson keeps (issue #55): how many words of prose it has, where it asks the
reader to predict before it tells, and its «Cámbialo tú». ``python -m tests.lecciones.forma``
prints one line per lesson.

- **Prose** is the lesson's Markdown without its code: fenced blocks that hold code or a
  widget's Python (cells, traces, code blocks, benches…), directive options and inline code are
  left out; a challenge's statement, questions and their feedback are prose.
- **A prediction** is a ``pregunta`` whose id starts with ``predice-`` and that stands before a
  cell with nothing but prose between them: the reader answers it, then runs the cell.
- **«Cámbialo tú»** is a section of that name: a change the reader makes to a cell, and a
  ``pregunta`` whose id starts with ``cambialo-`` on where it breaks, answered after running it.
"""

from __future__ import annotations

import itertools
import re
import sys
from dataclasses import dataclass

from tests.copia import LECCIONES, orden_del_curso

PALABRAS_MAXIMAS = 2800

#: Fenced directives (and plain fences) whose body is code or a widget's data, not prose.
_CODIGO = {"", "python", "json", "diff", "text", "sh", "bash", "celda", "traza", "banco", "modelo",
           "grabacion", "servidor-propio", "progreso", "toctree", "code-block", "code"}

_VALLA = re.compile(r"^(`{3,}|:{3,})\s*(\{([\w-]+)\}|([\w-]*))")
_PALABRA = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


@dataclass(frozen=True)
class Bloque:
    """A fenced block of a lesson: its directive ('' for a plain code fence), its first line
    (the argument, for a question its text), its id and its line in the file."""
    directiva: str
    argumento: str
    ident: str
    linea: int


def _bloques(texto: str) -> list[Bloque]:
    bloques = []
    lineas = texto.splitlines()
    for n, linea in enumerate(lineas):
        m = _VALLA.match(linea)
        if not m or not (m.group(3) or m.group(1).startswith("`")):  # a colon fence's end
            continue
        directiva = m.group(3) or m.group(4) or ""
        ident = ""
        for siguiente in lineas[n + 1: n + 12]:
            opcion = re.match(r"^:id:\s*(\S+)", siguiente)
            if opcion:
                ident = opcion.group(1)
                break
            if not siguiente.startswith(":"):
                break
        bloques.append(Bloque(directiva, linea[m.end():].strip(), ident, n + 1))
    return bloques


def prosa(texto: str) -> str:
    """The lesson's prose: its Markdown without code fences, directive options or inline code."""
    fuera, dentro = [], None
    for linea in texto.splitlines():
        m = _VALLA.match(linea)
        if dentro is not None:
            if linea.strip() == dentro:
                dentro = None
            continue
        if m and linea.startswith("`"):
            nombre = m.group(3) if m.group(3) is not None else (m.group(4) or "")
            if nombre in _CODIGO:
                dentro = m.group(1)
                continue
            fuera.append(linea[m.end():])  # a question's or a challenge's first line is prose
            continue
        if m or re.match(r"^:[\w-]+:", linea):
            fuera.append(linea[m.end():] if m else "")
            continue
        fuera.append(linea)
    return re.sub(r"`[^`\n]*`", " ", "\n".join(fuera))


def palabras(leccion: str) -> int:
    return len(_PALABRA.findall(prosa((LECCIONES / f"{leccion}.md").read_text(encoding="utf-8"))))


def predicciones(leccion: str) -> list[tuple[str, str]]:
    """``(pregunta, celda)`` for each ``predice-`` question followed by a cell, with no other
    widget between them."""
    bloques = _bloques((LECCIONES / f"{leccion}.md").read_text(encoding="utf-8"))
    widgets = [b for b in bloques if b.directiva not in {"", "python", "json", "explicacion", "grupo"}]
    pares = []
    for antes, despues in itertools.pairwise(widgets):
        if antes.directiva == "pregunta" and antes.ident.startswith("predice-") and despues.directiva == "celda":
            pares.append((antes.ident, despues.ident))
    return pares


def preguntas(leccion: str, prefijo: str) -> list[str]:
    bloques = _bloques((LECCIONES / f"{leccion}.md").read_text(encoding="utf-8"))
    return [b.ident for b in bloques if b.directiva == "pregunta" and b.ident.startswith(prefijo)]


def cambialo(leccion: str) -> list[str]:
    """The ``cambialo-`` questions that stand inside a «Cámbialo tú» section."""
    texto = (LECCIONES / f"{leccion}.md").read_text(encoding="utf-8")
    secciones = re.split(r"^(#{2,4} .*)$", texto, flags=re.M)
    halladas = []
    for titulo, cuerpo in zip(secciones[1::2], secciones[2::2], strict=True):
        if "Cámbialo tú" in titulo:
            halladas += [b.ident for b in _bloques(cuerpo)
                         if b.directiva == "pregunta" and b.ident.startswith("cambialo-")]
    return halladas


def lecciones_con_desafio() -> list[str]:
    return [leccion for leccion in orden_del_curso()
            if re.search(r"^```\{desafio\}", (LECCIONES / f"{leccion}.md").read_text(encoding="utf-8"), re.M)]


if __name__ == "__main__":
    for leccion in (sys.argv[1:] or lecciones_con_desafio()):
        print(f"{leccion:22} {palabras(leccion):5} palabras  predicciones {predicciones(leccion)}  "
              f"cámbialo {cambialo(leccion)}")
