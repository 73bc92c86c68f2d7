"""No lesson cell gives a challenge away: what the reader writes in a challenge is not in a cell
they can copy it from (DESIGN.md: «A lesson's cells never hold the answer to its own challenge:
they show a related or incomplete piece, and the challenge asks for the rest»).

What the reader writes is each top-level function and class of the challenge's ``solucion.py``
but those its ``inicial.py`` already gives (the loop the starters of lessons 3 and 4 bring). Each
is compared with every function and class (nested ones too) of the ``celda`` and ``traza`` bodies
of the lessons a reader has seen by then: the challenge's own and the ones before it, in the
order of the course map (``lessons/index.md``). A later lesson may show an earlier answer: it is
the harness the reader has already built, which «El agente y sus pruebas» puts together and «El
bucle con un modelo real» runs unchanged (the starters of later challenges bring it too).

They are compared on the syntax tree, normalised (:func:`normalizada`): without docstrings,
without the function's or class's own name, and with every name bound inside it (arguments,
assignments, loop and ``except`` variables, nested definitions) renamed in order of appearance.
A copy with other names and another docstring is the same copy; a piece with one clause fewer
is not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.copia import leccion_del_desafio, orden_del_curso

RAIZ = Path(__file__).resolve().parent.parent
LECCIONES = RAIZ / "lessons"
DESAFIOS = RAIZ / "challenges"

Definicion = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


# ------------------------------------------------------------------ normalising


def _sin_docstring(cuerpo: list[ast.stmt]) -> list[ast.stmt]:
    if (cuerpo and isinstance(cuerpo[0], ast.Expr) and isinstance(cuerpo[0].value, ast.Constant)
            and isinstance(cuerpo[0].value.value, str)):
        return cuerpo[1:] or [ast.Pass()]
    return cuerpo


def _ligados(nodo: ast.AST) -> set[str]:
    """The names bound anywhere inside ``nodo`` (but its own name): arguments, stored names,
    ``except … as`` names, nested definitions, imports' names."""
    nombres: set[str] = set()
    for n in ast.walk(nodo):
        if isinstance(n, ast.arg):
            nombres.add(n.arg)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            nombres.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            nombres.add(n.name)
        elif isinstance(n, Definicion) and n is not nodo:
            nombres.add(n.name)
        elif isinstance(n, ast.alias):
            nombres.add((n.asname or n.name).split(".")[0])
    if isinstance(nodo, ast.ClassDef):  # a class's attributes are its interface: kept
        for n in nodo.body:
            for t in (n.targets if isinstance(n, ast.Assign) else
                      [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign)) else []):
                if isinstance(t, ast.Name):
                    nombres.discard(t.id)
    return nombres


def normalizada(definicion: ast.AST) -> str:
    """The syntax tree of a function or class, as text, without docstrings, without its own name
    and with the names bound inside it renamed ``_0``, ``_1``… in order of appearance. Method
    names, attributes, keywords of calls and names from outside (``incumple``, ``FUNCIONES``)
    are kept: they are what the code does, not what its writer called things."""
    nodo = ast.parse(ast.unparse(definicion)).body[0]  # a copy, without positions
    ligados = _ligados(nodo)
    canon: dict[str, str] = {}

    def nuevo(nombre: str) -> str:
        return canon.setdefault(nombre, f"_{len(canon)}")

    for n in ast.walk(nodo):
        if isinstance(n, Definicion):
            n.body = _sin_docstring(n.body)
            n.name = "_" if n is nodo else nuevo(n.name)
        elif isinstance(n, ast.Name) and n.id in ligados:
            n.id = nuevo(n.id)
        elif isinstance(n, ast.arg) and n.arg in ligados:
            n.arg = nuevo(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name in ligados:
            n.name = nuevo(n.name)
    if isinstance(nodo, ast.ClassDef):  # methods keep their names: they are the interface
        for metodo, original in zip(nodo.body, _sin_docstring(definicion.body), strict=False):
            if isinstance(metodo, Definicion) and isinstance(original, Definicion):
                metodo.name = original.name
    return ast.dump(nodo, annotate_fields=False)


def definiciones(codigo: str) -> list[ast.AST]:
    """Every function and class of ``codigo``, nested ones too."""
    return [n for n in ast.walk(ast.parse(codigo)) if isinstance(n, Definicion)]


def de_arriba(codigo: str) -> list[ast.AST]:
    """The top-level functions and classes of ``codigo``."""
    return [n for n in ast.parse(codigo).body if isinstance(n, Definicion)]


# ------------------------------------------------------------------ the course


def bloques(leccion: str) -> list[tuple[str, str]]:
    """``(id, code)`` of each ``celda`` and ``traza`` of a lesson, options left out."""
    texto = (LECCIONES / f"{leccion}.md").read_text(encoding="utf-8")
    leidos = []
    for m in re.finditer(r"^```\{(celda|traza)\}[^\n]*\n(.*?)^```", texto, re.M | re.S):
        lineas = m.group(2).splitlines()
        ident = next((linea.split(":", 2)[2].strip() for linea in lineas if linea.startswith(":id:")), "")
        codigo = "\n".join(linea for linea in lineas if not re.match(r"^:[\w-]+:", linea))
        leidos.append((f"{m.group(1)} {ident}".strip(), codigo))
    return leidos


def lo_que_escribe_el_lector(desafio: str) -> list[ast.AST]:
    """The top-level functions and classes of the reference that the starter does not give."""
    carpeta = DESAFIOS / desafio
    dadas = {normalizada(d) for d in de_arriba((carpeta / "inicial.py").read_text(encoding="utf-8"))}
    return [d for d in de_arriba((carpeta / "solucion.py").read_text(encoding="utf-8"))
            if normalizada(d) not in dadas]


def copias(desafio: str) -> list[str]:
    """Where a cell (or trace) the reader has seen holds a piece of ``desafio``'s reference."""
    orden = orden_del_curso()
    vistas = orden[: orden.index(leccion_del_desafio(desafio)) + 1]
    referencia = {normalizada(d): d.name for d in lo_que_escribe_el_lector(desafio)}
    halladas = []
    for leccion in vistas:
        for bloque, codigo in bloques(leccion):
            for d in definiciones(codigo):
                if normalizada(d) in referencia:
                    halladas.append(f"{referencia[normalizada(d)]} de {desafio}/solucion.py es "
                                    f"{d.name} de la {bloque} de lessons/{leccion}.md")
    return halladas


DESAFIOS_DEL_CURSO = sorted(p.parent.name for p in DESAFIOS.glob("*/solucion.py"))


# ------------------------------------------------------------------ the tests


def test_cada_desafio_esta_en_una_leccion_del_mapa():
    orden = orden_del_curso()
    assert DESAFIOS_DEL_CURSO
    for desafio in DESAFIOS_DEL_CURSO:
        assert leccion_del_desafio(desafio) in orden, desafio
        assert lo_que_escribe_el_lector(desafio), f"{desafio}: ¿qué escribe el lector?"


@pytest.mark.parametrize("desafio", DESAFIOS_DEL_CURSO)
def test_ninguna_celda_tiene_la_respuesta_de_un_desafio(desafio):
    assert copias(desafio) == []


def _igual(a: str, b: str) -> bool:
    return normalizada(ast.parse(a).body[0]) == normalizada(ast.parse(b).body[0])


def test_la_comparacion_no_mira_nombres_ni_docstrings():
    original = ('def ejecutar(ll, entorno):\n    """Ejecuta."""\n    motivo = incumple(ll)\n'
                '    if motivo is not None:\n        raise ValueError(motivo)\n'
                '    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))\n')
    otra = ('def correr(llamada, mundo):\n    por_que = incumple(llamada)\n'
            '    if por_que is not None:\n        raise ValueError(por_que)\n'
            '    return resultado(llamada["id"], FUNCIONES[llamada["name"]](mundo, **llamada["input"]))\n')
    assert _igual(original, otra)
    # Another global (another function of the runtime) or one clause fewer is another function.
    assert not _igual(original, otra.replace("incumple(", "otra_cosa("))
    assert not _igual(original, otra.replace("raise ValueError(por_que)", "return None"))
    # A swap of two arguments is not a renaming.
    assert not _igual("def f(a, b):\n    return a - b\n", "def g(a, b):\n    return b - a\n")


def test_la_comparacion_de_clases_mira_sus_metodos_y_sus_atributos():
    clase = ("class A:\n    '''Doc.'''\n    def __init__(self, n=1):\n        self.n = n\n"
             "    def __call__(self, M):\n        x = [m for m in M]\n        return self.n, x\n")
    assert _igual(clase, clase.replace("class A", "class B").replace("'''Doc.'''", "'''Otra.'''")
                  .replace("x = ", "lista = ").replace(", x", ", lista").replace("m for m", "y for y"))
    assert not _igual(clase, clase.replace("__call__", "peticion"))
    assert not _igual(clase, clase.replace("self.n = n", "self.m = n"))


def test_una_copia_dentro_de_otra_funcion_tambien_cuenta():
    celda = ("def fuera():\n    def ejecutar(a, b):\n        return FUNCIONES[a](b)\n"
             "    return ejecutar\n")
    referencia = normalizada(ast.parse("def x(ll, e):\n    return FUNCIONES[ll](e)\n").body[0])
    assert referencia in {normalizada(d) for d in definiciones(celda)}
