"""The layout tells the architecture (ARCHITECTURE.md), and this test fails when it rots.

Imports, read statically with ``ast`` (inside functions too), between the modules of widgets/ and
challenges/:

- they make no cycle;
- ``widgets/base/`` (what directives share) imports no directive and no build step;
- a directive imports no other directive, but for its own pure helper (``traza`` → ``predice``,
  ``pregunta`` → ``preguntas_validacion``), which no one else imports;
- only ``widgets/__init__.py`` imports the registrar, ``widgets.extension`` (in the whole
  repository: tests and ``conf.py`` files too, nor names it as a string);
- the grader, ``widgets/calificador/``, imports only the standard library and itself (relatively:
  in Pyodide's worker it is the package ``calificador``).

Folders: ``widgets/front/`` holds only scripts and styles; every Python file of widgets/ is in the
folder of its role (base, directivas, construccion, calificador, aislamiento, trabajador, autor),
or is one of the six at the top. Sizes: no source file (``.py``, ``.js``, ``.mjs``, ``.css``) of widgets/ (but the
generated widgets/static/), challenges/, runtime/ or tests/ is over 500 lines, and no class over
250 (Python's by ``ast``; JavaScript's from ``class Name … {`` to its closing brace).

An edge of the graph goes to the module an import names: ``from . import limites`` to the
sibling module ``limites``, ``from . import Calificador`` to the package's ``__init__`` (a normal
edge: a module may read a constant of its own package). The parents' ``__init__`` that Python runs
on the way are not edges of their own, or every package would be a cycle with its modules.
"""

from __future__ import annotations

import ast
import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
LIMITE_FICHERO = 500
LIMITE_CLASE = 250
#: Where the sizes are checked, and which files count as source.
FUENTES = ("widgets", "challenges", "runtime", "tests", "entrenamiento", "bench")
EXTENSIONES = {".py", ".js", ".mjs", ".css"}
#: Never read: generated, installed or cached.
FUERA = {"node_modules", "__pycache__", "_build"}
GENERADO = RAIZ / "widgets" / "static"
#: The folders of widgets/ named by their role (the Python ones), and the top level's five files.
ROLES = {"base", "directivas", "construccion", "calificador", "aislamiento", "trabajador",
         "autor"}
ARRIBA = {"__init__.py", "__main__.py", "extension.py", "ajustes.py", "serve.py", "jupyterlite.py"}
#: A directive's own pure helper, imported by that directive alone.
AYUDANTES = {"widgets.directivas.predice": "widgets.directivas.traza",
             "widgets.directivas.preguntas_validacion": "widgets.directivas.pregunta"}
#: The one import left out of the cycle check. widgets/__init__.py imports the registrar inside
#: setup(), when Sphinx loads the extension, on purpose: so that ``import widgets.calificador``
#: (the command, the page's worker) never loads Sphinx. By then the package is imported whole, so
#: a module the registrar imports may read ``widgets.__version__`` without making a real cycle.
PEREZOSA = ("widgets", "widgets.extension")


def ficheros(*carpetas: str, extensiones=EXTENSIONES) -> list[Path]:
    """The files under ``carpetas`` with one of ``extensiones``, but for hidden, generated,
    installed and cached ones."""
    encontrados = []
    for carpeta in carpetas:
        for dentro_de, subcarpetas, nombres in os.walk(RAIZ / carpeta):
            subcarpetas[:] = [s for s in subcarpetas if s not in FUERA and not s.startswith(".")
                              and Path(dentro_de, s) != GENERADO]
            encontrados += [Path(dentro_de, n) for n in nombres
                            if Path(n).suffix in extensiones and not n.startswith(".")]
    return sorted(r.resolve() for r in encontrados)


def relativa(ruta: Path) -> str:
    return ruta.relative_to(RAIZ).as_posix()


@cache
def arbol(ruta: Path) -> ast.Module:
    return ast.parse(ruta.read_text(encoding="utf-8"), filename=str(ruta))


# -- the import graph -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Importacion:
    origen: str        # the importing module
    destino: str       # the module the import names (or its nearest known package)
    fichero: str
    linea: int
    en_funcion: bool

    def __str__(self):
        return f"{self.origen} → {self.destino} ({self.fichero}:{self.linea})"


def nombre_de(ruta: Path) -> str:
    """The module's dotted name, as Python imports it from the repository's root (a file in a
    folder that is no package name, e.g. challenges/modelo-api/pruebas.py, keeps its path)."""
    partes = list(ruta.relative_to(RAIZ).with_suffix("").parts)
    if partes[-1] == "__init__":
        partes.pop()
    if not all(p.isidentifier() for p in partes):
        return relativa(ruta)
    return ".".join(partes)


def _modulos() -> dict[str, Path]:
    return {nombre_de(r): r for r in ficheros(".", extensiones={".py"})}


MODULOS = _modulos()
NUESTROS = ("widgets", "challenges", "entrenamiento", "bench")


def _conocido(nombre: str) -> str | None:
    """The module ``nombre`` names, or its nearest enclosing module we have (``None``: not ours)."""
    if nombre.split(".")[0] not in NUESTROS:
        return None
    while nombre and nombre not in MODULOS:
        nombre = nombre.rpartition(".")[0]
    return nombre or None


def _nodos_con_funcion(arbol: ast.AST, en_funcion=False):
    """Every import node, with whether it is inside a function."""
    for hijo in ast.iter_child_nodes(arbol):
        if isinstance(hijo, (ast.Import, ast.ImportFrom)):
            yield hijo, en_funcion
        yield from _nodos_con_funcion(
            hijo, en_funcion or isinstance(hijo, (ast.FunctionDef, ast.AsyncFunctionDef)))


def importaciones(nombre: str, ruta: Path) -> list[Importacion]:
    """The imports of ``widgets.*`` and ``challenges.*`` (absolute or relative) in one module."""
    paquete = nombre if ruta.name == "__init__.py" else nombre.rpartition(".")[0]
    encontradas = []
    for nodo, en_funcion in _nodos_con_funcion(arbol(ruta)):
        if isinstance(nodo, ast.Import):
            destinos = [_conocido(a.name) for a in nodo.names]
        else:
            if nodo.level:
                base = paquete.split(".")[: len(paquete.split(".")) - (nodo.level - 1)]
                modulo = ".".join(base + ([nodo.module] if nodo.module else []))
            else:
                modulo = nodo.module or ""
            destinos = [_conocido(f"{modulo}.{a.name}") if f"{modulo}.{a.name}" in MODULOS
                        else _conocido(modulo) for a in nodo.names]
        for destino in dict.fromkeys(destinos):
            if destino is not None:
                encontradas.append(Importacion(nombre, destino, relativa(ruta), nodo.lineno,
                                               en_funcion))
    return encontradas


IMPORTACIONES = [i for nombre, ruta in MODULOS.items() for i in importaciones(nombre, ruta)]


def de(*prefijos: str) -> list[Importacion]:
    """The imports made by the modules named ``prefijo`` or inside it."""
    return [i for i in IMPORTACIONES if any(i.origen == p or i.origen.startswith(p + ".")
                                            for p in prefijos)]


def dentro(nombre: str, prefijo: str) -> bool:
    return nombre == prefijo or nombre.startswith(prefijo + ".")


def ciclos(aristas: list[Importacion]) -> list[list[Importacion]]:
    """The cycles a depth-first walk meets (one per edge back to a module on its path): none
    if and only if the graph has none."""
    salientes: dict[str, list[Importacion]] = {}
    for a in aristas:
        salientes.setdefault(a.origen, []).append(a)
    color, encontrados = {}, []

    def visitar(nodo: str, camino: list[Importacion]):
        color[nodo] = "gris"
        for a in salientes.get(nodo, []):
            if color.get(a.destino) == "gris":
                inicio = next(k for k, b in enumerate(camino + [a]) if b.origen == a.destino)
                encontrados.append((camino + [a])[inicio:])
            elif a.destino not in color:
                visitar(a.destino, camino + [a])
        color[nodo] = "negro"

    for nodo in sorted(salientes):
        if nodo not in color:
            visitar(nodo, [])
    return encontrados


def test_the_import_graph_of_widgets_and_challenges_has_no_cycle():
    aristas = [i for i in de(*NUESTROS) if (i.origen, i.destino) != PEREZOSA and i.origen != i.destino]
    encontrados = ciclos(aristas)
    assert not encontrados, "import cycles:\n" + "\n".join(
        " → ".join([c[0].origen] + [a.destino for a in c]) + "\n    "
        + "\n    ".join(str(a) for a in c) for c in encontrados)


def test_the_one_import_left_out_of_the_cycle_check_is_still_the_lazy_one():
    """If widgets/__init__.py ever imports the registrar at its top, or no longer at all, the
    exception above must go."""
    perezosas = [i for i in de("widgets") if (i.origen, i.destino) == PEREZOSA]
    assert [(i.fichero, i.en_funcion) for i in perezosas] == [("widgets/__init__.py", True)], \
        "widgets/__init__.py imports widgets.extension once, inside setup(); now:\n" + "\n".join(
            f"{i} {'inside a function' if i.en_funcion else 'at the top'}" for i in perezosas)


def test_base_imports_no_directive_and_no_build_step():
    malas = [str(i) for i in de("widgets.base")
             if dentro(i.destino, "widgets.directivas") or dentro(i.destino, "widgets.construccion")]
    assert not malas, ("widgets/base/ is what directives share: it imports no directive and no "
                       "build step:\n" + "\n".join(malas))


def test_a_directive_imports_no_other_directive_but_its_own_pure_helper():
    malas = []
    for i in de("widgets.directivas"):
        if not dentro(i.destino, "widgets.directivas") or i.destino in (i.origen, "widgets.directivas"):
            continue
        if AYUDANTES.get(i.destino) != i.origen:
            malas.append(str(i))
    # and a helper is its directive's alone, in the build as in the command
    malas += [str(i) for i in de(*NUESTROS)
              if i.destino in AYUDANTES and i.origen != AYUDANTES[i.destino]]
    assert not malas, ("a directive imports no other directive (but traza its predice, pregunta "
                       "its preguntas_validacion, which no one else imports):\n" + "\n".join(malas))


def _nombra_el_registrador(nodo: ast.AST) -> bool:
    return isinstance(nodo, ast.Constant) and nodo.value == "widgets.extension"


def test_only_the_package_imports_the_registrar():
    """widgets/extension.py registers every component; nothing imports it back, and nothing but
    ``setup()`` in widgets/__init__.py imports it at all (nor names it to Sphinx or importlib)."""
    este = Path(__file__).resolve()
    malas = [str(i) for i in IMPORTACIONES
             if i.destino == "widgets.extension" and i.fichero != "widgets/__init__.py"]
    for ruta in MODULOS.values():
        if ruta != este:
            malas += [f"{relativa(ruta)}:{n.lineno} names 'widgets.extension'"
                      for n in ast.walk(arbol(ruta)) if _nombra_el_registrador(n)]
    assert not malas, "only widgets/__init__.py imports widgets.extension:\n" + "\n".join(malas)


def test_the_grader_imports_only_the_standard_library_and_itself():
    """widgets/calificador/ runs in CPython (``widgets.calificador``) and in Pyodide's worker
    (``calificador``): its own modules by relative imports, else only the standard library."""
    malas = []
    for ruta in ficheros("widgets/calificador", extensiones={".py"}):
        for nodo in ast.walk(arbol(ruta)):
            if isinstance(nodo, ast.ImportFrom) and nodo.level:
                # itself (one dot), or, two dots up, the rest of widgets/
                nombres = [] if nodo.level == 1 else ["." * nodo.level + (nodo.module or "")]
            elif isinstance(nodo, (ast.Import, ast.ImportFrom)):
                todos = [a.name for a in nodo.names] if isinstance(nodo, ast.Import) else [nodo.module]
                nombres = [n for n in todos if n.split(".")[0] not in sys.stdlib_module_names]
            else:
                continue
            malas += [f"{relativa(ruta)}:{nodo.lineno} imports {n}" for n in nombres]
    assert not malas, ("the grader imports only the standard library and, relatively, "
                       "itself:\n" + "\n".join(malas))


# -- the folders ----------------------------------------------------------------------------------

def test_front_holds_only_scripts_and_styles():
    carpeta = RAIZ / "widgets" / "front"
    malos = [relativa(r) for r in sorted(carpeta.rglob("*"))
             if r.is_file() and not r.name.startswith(".") and r.suffix not in {".js", ".css", ".mjs"}]
    assert not malos, "widgets/front/ holds only .js, .mjs and .css files:\n" + "\n".join(malos)


def test_every_python_file_of_widgets_is_in_the_folder_of_its_role():
    malos = []
    for ruta in ficheros("widgets", extensiones={".py"}):
        partes = ruta.relative_to(RAIZ / "widgets").parts
        en_su_sitio = partes[0] in ARRIBA if len(partes) == 1 else partes[0] in ROLES
        if not en_su_sitio:
            malos.append(relativa(ruta))
    assert not malos, (f"a Python file of widgets/ is in a folder named by its role "
                       f"({', '.join(sorted(ROLES))}) or is one of {', '.join(sorted(ARRIBA))} "
                       f"at the top:\n" + "\n".join(malos))


# -- the sizes ------------------------------------------------------------------------------------

def test_no_source_file_is_over_500_lines():
    largos = []
    for ruta in ficheros(*FUENTES):
        lineas = len(ruta.read_text(encoding="utf-8").splitlines())
        if lineas > LIMITE_FICHERO:
            largos.append(f"{relativa(ruta)}: {lineas} lines (limit {LIMITE_FICHERO})")
    assert not largos, "source files over the limit:\n" + "\n".join(largos)


def blanquear_js(fuente: str) -> str:
    """``fuente`` with its comments, strings, regular expressions and template literals' text
    turned into spaces (newlines kept, so offsets and lines stay), the code of a template's
    ``${…}`` kept but its two braces blanked: what is left are the braces of the code."""
    salida = list(fuente)
    n, i = len(fuente), 0
    pila = [0]          # per open code level (the file, then each ${): its open braces
    modos = ["codigo"]  # "codigo" or "plantilla", innermost last
    anterior = ""       # the last significant code character, or word, before here

    def blanco(desde, hasta):
        for k in range(desde, min(hasta, n)):
            if salida[k] != "\n":
                salida[k] = " "

    while i < n:
        c, d = fuente[i], fuente[i + 1: i + 2]
        if modos[-1] == "plantilla":
            if c == "\\":
                blanco(i, i + 2)
                i += 2
            elif c == "`":
                modos.pop()
                anterior = "`"
                i += 1
            elif c == "$" and d == "{":
                blanco(i, i + 2)
                modos.append("codigo")
                pila.append(0)
                anterior = "{"
                i += 2
            else:
                blanco(i, i + 1)
                i += 1
            continue
        if c == "/" and d == "/":
            fin = fuente.find("\n", i)
            fin = n if fin < 0 else fin
            blanco(i, fin)
            i = fin
        elif c == "/" and d == "*":
            fin = fuente.find("*/", i + 2)
            fin = n if fin < 0 else fin + 2
            blanco(i, fin)
            i = fin
        elif c in "'\"":
            j = i + 1
            while j < n and fuente[j] not in (c, "\n"):
                j += 2 if fuente[j] == "\\" else 1
            blanco(i + 1, j)
            i, anterior = j + 1, c
        elif c == "`":
            modos.append("plantilla")
            i += 1
        elif c == "/" and (anterior == "" or anterior in "(,=:[!&|?{};+-*%<>~^"
                           or anterior in {"return", "typeof", "case", "do", "else", "in", "of",
                                           "new", "delete", "void", "throw", "yield", "await"}):
            j, en_clase = i + 1, False
            while j < n and fuente[j] != "\n" and (fuente[j] != "/" or en_clase):
                if fuente[j] == "\\":
                    j += 1
                elif fuente[j] == "[":
                    en_clase = True
                elif fuente[j] == "]":
                    en_clase = False
                j += 1
            blanco(i + 1, j)
            i, anterior = j + 1, "/"
        elif c == "}" and pila[-1] == 0 and len(pila) > 1:
            blanco(i, i + 1)  # the end of a template's ${…}
            pila.pop()
            modos.pop()
            i += 1
        else:
            if c == "{":
                pila[-1] += 1
            elif c == "}":
                pila[-1] -= 1
            if c.isalnum() or c in "_$":
                j = i
                while j < n and (fuente[j].isalnum() or fuente[j] in "_$"):
                    j += 1
                anterior, i = fuente[i:j], j
                continue
            if not c.isspace():
                anterior = c
            i += 1
    return "".join(salida)


CLASE_JS = re.compile(r"\bclass\b(?:\s+(?!extends\b)([A-Za-z_$][\w$]*))?(?:\s+extends\b[^{;]*?)?\s*\{")


def clases_js(fuente: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every class in a JavaScript source."""
    limpio = blanquear_js(fuente)
    clases = []
    for m in CLASE_JS.finditer(limpio):
        profundidad, k = 0, m.end() - 1
        for k in range(m.end() - 1, len(limpio)):
            profundidad += {"{": 1, "}": -1}.get(limpio[k], 0)
            if profundidad == 0:
                break
        primera = limpio.count("\n", 0, m.start()) + 1
        clases.append((m[1] or "(anonymous)", primera, limpio.count("\n", m.start(), k) + 1))
    return clases


def clases_py(ruta: Path) -> list[tuple[str, int, int]]:
    return [(n.name, n.lineno, n.end_lineno - n.lineno + 1)
            for n in ast.walk(arbol(ruta)) if isinstance(n, ast.ClassDef)]


def test_no_class_is_over_250_lines():
    largas = []
    for ruta in ficheros(*FUENTES, extensiones={".py", ".js", ".mjs"}):
        clases = clases_py(ruta) if ruta.suffix == ".py" else clases_js(ruta.read_text(encoding="utf-8"))
        for nombre, linea, lineas in clases:
            if lineas > LIMITE_CLASE:
                largas.append(f"{relativa(ruta)}:{linea}: class {nombre}: {lineas} lines "
                              f"(limit {LIMITE_CLASE})")
    assert not largas, "classes over the limit:\n" + "\n".join(largas)


def test_the_javascript_class_finder_skips_strings_comments_and_templates():
    fuente = """
// class Comentada {
const s = "class EnCadena { {";
const r = /[}{]class\\/ {/g;
const t = `class EnPlantilla { ${ { a: 1 }.a } } ${`${"}"}`}`;
/* class Bloque { */
export class Uno extends Base {
  metodo() { return `}${ {x: "{"} }`; }
}
const Dos = class {
  a = 1;
};
"""
    assert clases_js(fuente) == [("Uno", 7, 3), ("(anonymous)", 10, 3)]


# ------------------------------------------------------- the runtime's graph (tests/runtime/grafo.py)

#: Each runtime file and the files before it whose names it uses: the arrows no import shows.
USOS_DEL_RUNTIME = {
    "entorno": set(), "guionizado": {"entorno"}, "escenarios": {"entorno", "guionizado"},
    "permisos": {"entorno"}, "api": set(), "grabacion": {"guionizado"}, "palabras": set(),
    "tareas": {"entorno", "palabras"}, "escrituras": {"permisos", "palabras", "tareas"},
    "entrenamiento": {"permisos", "palabras", "tareas", "escrituras"}, "ruidoso": {"entorno"},
    "banco": {"ruidoso", "entrenamiento"}, "pruebas_de_carpeta": set(),
    "ficheros": {"pruebas_de_carpeta"}, "herramientas_de_ficheros": {"pruebas_de_carpeta", "ficheros"},
    "escenario_de_ficheros": {"entorno", "guionizado", "ficheros", "herramientas_de_ficheros"},
}


def test_each_runtime_file_uses_only_public_names_of_the_files_before_it_as_its_header_says():
    from tests.runtime import grafo

    textos = grafo.del_curso(RAIZ / "runtime")
    usos, problemas = grafo.usos(textos)
    assert problemas == []
    assert {n: set(u) for n, u in usos.items()} == USOS_DEL_RUNTIME
    for nombre, texto in textos.items():
        assert grafo.declarados(texto) == usos[nombre], (
            f"runtime/{nombre}.py: its «# Usa» block must say {usos[nombre]}")
    assert grafo.ciclos(textos) == []


def test_the_runtime_rule_fails_on_a_later_name_a_private_name_and_a_cycle():
    from tests.runtime import grafo

    textos = {"a": "X = 1\n_h = 2\ndef f():\n    return Y\n",
              "b": "Y = X + _h\ndef g():\n    return f()\n"}
    _, problemas = grafo.usos(textos)
    assert problemas == ["a.py usa Y, de b.py, que se carga después",
                         "b.py usa _h, un nombre privado de a.py"]
    assert grafo.ciclos(textos) == [["a", "b", "a"]]
    assert grafo.declarados("# Usa, de los ficheros que se cargan antes (…):\n#   a.py: X,\n"
                            "#         f\n\nY = X\n") == {"a": {"X", "f"}}


def test_a_directive_reports_its_errors_one_way():
    """Invalida (widgets/base/directiva.py: the file and line, in Spanish), never docutils'
    ``self.error``/``self.warning``/``self.severe``, a second way a reader would have to learn."""
    otras = [f"{p.relative_to(RAIZ)}:{n}" for p in sorted((RAIZ / "widgets").rglob("*.py"))
             for n, linea in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bself\.(?:error|warning|severe|info)\(", linea)]
    assert not otras, "raise Invalida(…) instead:\n" + "\n".join(otras)
