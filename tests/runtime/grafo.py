"""The runtime's graph: which file uses which names of which file (tests/test_disposicion.py).

runtime/'s files run one after another in ONE namespace (a page's cells, the grader, the build,
the training), in the order of ``runtime/orden.txt``. No import says what a file takes from
another, so each file declares it in a comment block after its docstring, which the reader's
``exec(open_url(...).read())`` skips (nothing enters the namespace)::

    # Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
    #   entorno.py: llamada, resultado, texto
    #   guionizado.py: ModeloGuionizado, guion_de

or ``# Usa, de los ficheros que se cargan antes: nada (…).``. :func:`usos` computes what each file
really uses (its free names: read and never bound in the file, not builtins, and what it looks
up with ``globals().get("name")``) and from which file
before it; :func:`problemas` lists what breaks the rule.
"""

from __future__ import annotations

import ast
import builtins
import re
import symtable
from pathlib import Path

#: What a page gives every cell besides the builtins.
DE_LA_PAGINA = {"open_url"}
_CABECERA = re.compile(r"^# Usa, de los ficheros que se cargan antes(?::\s*nada\b.*| \(.*\):)$")
_LINEA = re.compile(r"^#\s+(?:(\w+)\.py:\s*)?(.*)$")


def definidos_y_libres(texto: str, nombre: str) -> tuple[set[str], set[str]]:
    """(the global names file ``nombre`` binds, the global names it reads and never binds)."""
    tabla = symtable.symtable(texto, f"runtime/{nombre}.py", "exec")
    definidos, leidos = set(), set()

    def recorrer(t):
        modulo = t.get_type() == "module"
        for s in t.get_symbols():
            es_global = modulo or s.is_global() or s.is_declared_global()
            if es_global and s.is_referenced():
                leidos.add(s.get_name())
            if (modulo or s.is_declared_global()) and (
                    s.is_assigned() or s.is_imported() or s.is_namespace()):
                definidos.add(s.get_name())
        for hijo in t.get_children():
            recorrer(hijo)

    recorrer(tabla)
    leidos |= _pedidos_a_globals(ast.parse(texto))
    return definidos, leidos - definidos - set(dir(builtins)) - DE_LA_PAGINA


def _pedidos_a_globals(arbol: ast.AST) -> set[str]:
    """The names a file looks up as ``globals().get("name")`` (a use that tolerates its absence,
    as guionizado.py's of entorno.py's muestra): uses all the same."""
    return {n.args[0].value for n in ast.walk(arbol)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "get" and isinstance(n.func.value, ast.Call)
            and isinstance(n.func.value.func, ast.Name) and n.func.value.func.id == "globals"
            and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)}


def declarados(texto: str) -> dict[str, set[str]] | None:
    """The file's ``# Usa…`` block: {file: names}; None if it has none."""
    lineas = texto.splitlines()
    inicio = next((i for i, ln in enumerate(lineas) if _CABECERA.match(ln)), None)
    if inicio is None:
        return None
    usa, actual = {}, None
    for linea in lineas[inicio + 1:]:
        m = _LINEA.match(linea)
        if not m or not linea.startswith("#  "):
            break
        actual = m.group(1) or actual
        nombres = re.sub(r"\(.*?\)", "", m.group(2))  # (a remark)
        usa.setdefault(actual, set()).update(n for n in re.split(r"[,\s]+", nombres) if n)
    return usa


def usos(textos: dict[str, str]) -> tuple[dict[str, dict[str, set[str]]], list[str]]:
    """For the files ``textos`` ({name: text}, in load order): ({file: {earlier file: names it
    uses}}, the problems: a name from a later file or from no file, a private name of another)."""
    orden = list(textos)
    definidos = {}
    for nombre, texto in textos.items():
        definidos[nombre] = definidos_y_libres(texto, nombre)
    grafo, problemas = {}, []
    for i, nombre in enumerate(orden):
        grafo[nombre] = {}
        for libre in sorted(definidos[nombre][1]):
            antes = [m for m in orden[:i] if libre in definidos[m][0]]
            despues = [m for m in orden[i + 1:] if libre in definidos[m][0]]
            if not antes:
                donde = f"de {despues[0]}.py, que se carga después" if despues else "de ningún fichero"
                problemas.append(f"{nombre}.py usa {libre}, {donde}")
                continue
            if libre.startswith("_"):
                problemas.append(f"{nombre}.py usa {libre}, un nombre privado de {antes[-1]}.py")
            grafo[nombre].setdefault(antes[-1], set()).add(libre)
    return grafo, problemas


def ciclos(textos: dict[str, str]) -> list[list[str]]:
    """The cycles among the files: a file uses the file before it that binds a name it reads
    (the last one), or, if none does, every file after it that binds it."""
    orden = list(textos)
    definidos = {n: definidos_y_libres(t, n) for n, t in textos.items()}
    flechas = {n: set() for n in orden}
    for i, n in enumerate(orden):
        for libre in definidos[n][1]:
            antes = [m for m in orden[:i] if libre in definidos[m][0]]
            flechas[n].update(antes[-1:] or [m for m in orden[i + 1:] if libre in definidos[m][0]])
    encontrados = []

    def visitar(camino):
        for siguiente in sorted(flechas[camino[-1]]):
            if siguiente == camino[0]:
                encontrados.append(camino + [siguiente])
            elif siguiente not in camino and siguiente > camino[0]:
                visitar(camino + [siguiente])

    for inicio in sorted(textos):
        visitar([inicio])
    return encontrados


def del_curso(carpeta: Path) -> dict[str, str]:
    """{name: text} of the runtime folder ``carpeta``, in its order (``orden.txt``)."""
    from widgets.calificador.disco import modulos_de

    return {n: (carpeta / f"{n}.py").read_text(encoding="utf-8") for n in modulos_de(carpeta)}
