"""What the tests of the lessons share: a lesson's cells, read from its Markdown (the ```{celda}
blocks, in page order) and run in one namespace with the CPython ``open_url``, exactly as the
page runs them in Pyodide; its prose and its questions' options; the reference loop."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from runtime import espacio

RAIZ = Path(__file__).resolve().parent.parent.parent
LECCIONES = RAIZ / "lessons"
SOLUCION = RAIZ / "challenges" / "bucle-con-tope" / "solucion.py"


def celdas_de(nombre: str) -> list[str]:
    texto = (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")
    bloques = re.findall(r"^```\{celda\}[^\n]*\n(.*?)^```", texto, re.S | re.M)
    return ["\n".join(linea for linea in b.splitlines() if not re.match(r"^:[\w-]+:", linea)) for b in bloques]


def ejecutar_leccion(nombre: str) -> tuple[list[str], dict]:
    """Run every cell of a lesson in order; return each cell's output and the namespace."""
    ns = espacio()
    salidas = []
    for i, codigo in enumerate(celdas_de(nombre), start=1):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(codigo, f"<celda {i}>", "exec"), ns)
        salidas.append(buffer.getvalue())
    return salidas, ns


def opcion_de(nombre: str, ident: str, campo: str) -> str:
    """The value of ``:campo:`` in the question ``:id: ident`` of a lesson."""
    texto = (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")
    bloque = texto[texto.index(f":id: {ident}\n"):]
    bloque = bloque[: bloque.index("::::")]
    return re.search(rf"^:{campo}: (.+)$", bloque, re.M).group(1).strip()


def texto_de(nombre: str) -> str:
    return (LECCIONES / f"{nombre}.md").read_text(encoding="utf-8")


def referencia():
    ns = espacio("entorno", "guionizado", "escenarios")
    exec(SOLUCION.read_text(encoding="utf-8"), ns)
    return ns


def opciones_de(nombre: str, ident: str) -> list[tuple[bool, str]]:
    """The options of question ``ident``: (marked correct, text), in order."""
    texto = texto_de(nombre)
    bloque = texto[texto.index(f":id: {ident}\n"):]
    bloque = bloque[: bloque.index("::::")]
    return [(marca == "x", resto) for marca, resto in re.findall(r"^- \[([ x])\] (.+)$", bloque, re.M)]
