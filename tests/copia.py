"""How much of a challenge's answer the reader has already seen (issue #55): for each name a
challenge asks for, its reference definition against every definition the reader sees before
submitting it — the code of the challenge's lesson and of the lessons before it (cells, traces,
plain code blocks), and the challenge's own starter.

Both sides are normalised the same way: docstrings removed, every name and argument written as
one placeholder (``ast.unparse`` of the tree), so that a copy with other names is still a copy.
Two figures per name:

- ``parecido``: the best ``difflib`` ratio, line by line, of the reference's text against any
  visible definition's (1.0: the same code);
- ``nuevas``: the share of the reference's lines that stand in no visible definition at all.

A challenge a copy cannot pass asks for code with ``parecido < 0.85`` and ``nuevas >= 0.40``
for every name (``tests/test_copia.py``). ``python -m tests.copia`` prints the table.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
LECCIONES = RAIZ / "lessons"
DESAFIOS = RAIZ / "challenges"

PARECIDO_MAXIMO = 0.85
NUEVAS_MINIMAS = 0.40

Definicion = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_MARCA = "_"


def _sin_docstrings(arbol: ast.AST) -> None:
    for n in ast.walk(arbol):
        if isinstance(n, (*Definicion, ast.Module)):
            cuerpo = n.body
            if (cuerpo and isinstance(cuerpo[0], ast.Expr) and isinstance(cuerpo[0].value, ast.Constant)
                    and isinstance(cuerpo[0].value.value, str)):
                n.body = cuerpo[1:] or [ast.Pass()]


def texto_normalizado(definicion: ast.AST) -> str:
    """The definition's code without docstrings, with every name, argument and defined name as
    one placeholder. Attributes, keywords of calls, strings and numbers are kept: they are what
    the code does."""
    nodo = ast.parse(ast.unparse(definicion)).body[0]
    _sin_docstrings(nodo)
    for n in ast.walk(nodo):
        if isinstance(n, ast.Name):
            n.id = _MARCA
        elif isinstance(n, ast.arg):
            n.arg = _MARCA
        elif isinstance(n, Definicion):
            n.name = _MARCA
        elif isinstance(n, ast.ExceptHandler) and n.name:
            n.name = _MARCA
    return ast.unparse(nodo)


def lineas(texto: str) -> list[str]:
    return [linea.strip() for linea in texto.splitlines() if linea.strip()]


def parecido(a: str, b: str) -> float:
    """``difflib``'s ratio of the two texts taken line by line (a line that differs in anything
    but names counts as different)."""
    return difflib.SequenceMatcher(None, lineas(a), lineas(b), autojunk=False).ratio()


# ------------------------------------------------------------------ what the reader sees


def orden_del_curso() -> list[str]:
    """The lessons in the order of the course map's toctree."""
    indice = (LECCIONES / "index.md").read_text(encoding="utf-8")
    arbol = re.search(r"^```\{toctree\}\n(.*?)^```", indice, re.M | re.S).group(1)
    return [linea.strip() for linea in arbol.splitlines() if linea.strip() and not linea.startswith(":")]


_BLOQUE = re.compile(r"^(`{3,})\{?(celda|traza|python|code-block|code)\}?[^\n]*\n(.*?)^\1\s*$", re.M | re.S)


def bloques_de_codigo(leccion: str) -> list[str]:
    """The Python of every cell, trace and code block of a lesson, options left out; blocks that
    are not Python (a diff, a JSON shown) are passed over."""
    texto = (LECCIONES / f"{leccion}.md").read_text(encoding="utf-8")
    codigos = []
    for m in _BLOQUE.finditer(texto):
        codigo = "\n".join(linea for linea in m.group(3).splitlines() if not re.match(r"^:[\w-]+:", linea))
        try:
            ast.parse(codigo)
        except SyntaxError:
            continue
        codigos.append(codigo)
    return codigos


def leccion_del_desafio(desafio: str) -> str:
    marca = re.compile(r"^```\{desafio\} " + re.escape(desafio) + r"\s*$", re.M)
    donde = [p.stem for p in LECCIONES.glob("*.md") if marca.search(p.read_text(encoding="utf-8"))]
    assert len(donde) == 1, (desafio, donde)
    return donde[0]


def _definiciones(codigo: str) -> list[ast.AST]:
    return [n for n in ast.walk(ast.parse(codigo)) if isinstance(n, Definicion)]


def visibles(desafio: str) -> list[str]:
    """The normalised text of every definition (nested ones too) the reader has seen before
    ``desafio``: its lesson's and the earlier lessons' code, and its starter."""
    orden = orden_del_curso()
    codigos = [c for leccion in orden[: orden.index(leccion_del_desafio(desafio)) + 1]
               for c in bloques_de_codigo(leccion)]
    codigos.append((DESAFIOS / desafio / "inicial.py").read_text(encoding="utf-8"))
    return [texto_normalizado(d) for c in codigos for d in _definiciones(c)]


def pedidas(desafio: str) -> list[ast.AST]:
    """The top-level functions and classes of the reference that the starter does not give as
    they are (the reader writes or changes them)."""
    carpeta = DESAFIOS / desafio
    dadas = {texto_normalizado(d) for d in ast.parse((carpeta / "inicial.py").read_text(encoding="utf-8")).body
             if isinstance(d, Definicion)}
    return [d for d in ast.parse((carpeta / "solucion.py").read_text(encoding="utf-8")).body
            if isinstance(d, Definicion) and texto_normalizado(d) not in dadas]


# ------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Fila:
    desafio: str
    nombre: str
    parecido: float
    nuevas: float
    lineas: int
    mas_parecida: str

    @property
    def pasa(self) -> bool:
        return self.parecido < PARECIDO_MAXIMO and self.nuevas >= NUEVAS_MINIMAS


def filas(desafio: str) -> list[Fila]:
    vistas = visibles(desafio)
    vistas_lineas = {linea for v in vistas for linea in lineas(v)}
    resultado = []
    for d in pedidas(desafio):
        ref = texto_normalizado(d)
        suyas = lineas(ref)
        mejor, cual = max(((parecido(ref, v), v) for v in vistas), default=(0.0, ""))
        nuevas = sum(linea not in vistas_lineas for linea in suyas) / len(suyas)
        resultado.append(Fila(desafio, d.name, mejor, nuevas, len(suyas), cual))
    return resultado


def desafios_del_curso() -> list[str]:
    return sorted(p.parent.name for p in DESAFIOS.glob("*/solucion.py"))


def tabla() -> str:
    cabecera = f"{'desafío':28} {'nombre':24} {'parecido':>8} {'nuevas':>7} {'líneas':>6}"
    salida = [cabecera, "-" * len(cabecera)]
    for desafio in desafios_del_curso():
        for f in filas(desafio):
            marca = "" if f.pasa else "  ✘"
            salida.append(f"{desafio:28} {f.nombre:24} {f.parecido:8.2f} {f.nuevas:7.0%} {f.lineas:6}{marca}")
    return "\n".join(salida)


if __name__ == "__main__":
    print(tabla())
