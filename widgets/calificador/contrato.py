"""Tests written to the earlier contract, told to their author (the build and ``python -m widgets
comprobar`` call :func:`revisar` before grading a challenge).

Before, a challenge's ``pruebas.py`` ran in a namespace that already held the runtime's names and
the grader's (``Fallo``, ``opaca``, ``murada``, ``plano``, and ``usar(ruta)``, which ran a file of
the challenges folder there). Now it imports what it uses (:mod:`.importador`). Such a file does
not load, or its tests fail with a NameError that the reader would be shown as «error interno de
la prueba». :func:`revisar` reads the tests' files without running them (``symtable``): a free
name that the runtime or the grader provides, or that a file run by ``usar`` defined, is an
import to add, and the author gets one message per file with the lines to write.
"""

import ast
import builtins
import symtable
import types

from .importador import DEL_LECTOR, relativas

#: What the earlier contract called ``usar("ruta")``: now a relative import.
USAR = "usar"


def libres(fuente, archivo):
    """The global names that the code ``fuente`` uses and never binds (builtins aside):
    {name: the first line that uses it, or None}."""
    tabla = symtable.symtable(fuente, archivo, "exec")
    atados, usados = set(), set()
    pendientes = [tabla]
    while pendientes:
        t = pendientes.pop()
        pendientes += t.get_children()
        for s in t.get_symbols():
            if t is tabla and (s.is_assigned() or s.is_imported()):
                atados.add(s.get_name())
            elif t is not tabla and s.is_declared_global() and s.is_assigned():
                atados.add(s.get_name())
            elif s.is_global() and s.is_referenced():
                usados.add(s.get_name())
    nombres = {n for n in usados - atados if n not in vars(builtins) and not n.startswith("__")}
    if not nombres:
        return {}
    lineas = {}
    for n in ast.walk(ast.parse(fuente)):
        if isinstance(n, ast.Name) and n.id in nombres:
            lineas[n.id] = min(lineas.get(n.id, n.lineno), n.lineno)
    return {n: lineas.get(n) for n in sorted(nombres)}


def definidos(fuente, archivo):
    """The names the module ``fuente`` binds at its top level."""
    tabla = symtable.symtable(fuente, archivo, "exec")
    return {s.get_name() for s in tabla.get_symbols() if s.is_assigned() or s.is_imported()}


def revisar(calificador, desafio):
    """[(path relative to the challenges folder, message for the author)]: the files of
    ``desafio``'s tests (``pruebas.py``, what it imports relatively or runs with ``usar``) that
    use, without importing them, names the runtime or the grader provide (or ``usar``)."""
    problemas, vistos, pendientes = [], set(), [f"{desafio}/pruebas.py"]
    provistos = None
    while pendientes:
        ruta = pendientes.pop(0)
        if ruta in vistos or ruta.rsplit("/", 1)[-1][:-len(".py")] in DEL_LECTOR:
            continue
        vistos.add(ruta)
        try:
            fuente = calificador.texto(calificador.desafios + ruta)
            arbol = ast.parse(fuente, ruta)
        except (OSError, SyntaxError, ValueError):
            continue  # loading the tests tells it
        usados = _usados(arbol)
        pendientes += [r for r, _ in usados] + _importados(arbol, ruta)
        if any(isinstance(n, ast.ImportFrom) and n.names[0].name == "*" for n in arbol.body):
            continue  # ``from runtime import *``: what it binds is known once it runs
        faltan = libres(fuente, ruta)
        if not faltan:
            continue
        if provistos is None:
            provistos = _provistos(calificador)
        mensaje = _mensaje(calificador, ruta, faltan, provistos, usados)
        if mensaje:
            problemas.append((ruta, mensaje))
    return problemas


def _provistos(calificador):
    """{name: where the tests import it from}: ``"runtime"`` or ``"calificador"`` (for ``from …
    import name``), or the ``import`` of a module the runtime imported (``"import json"``)."""
    from . import __all__ as api
    runtime = {}
    try:
        calificador.runtime_en(runtime)
    except Exception:  # noqa: BLE001 - a runtime that does not run: loading the tests tells it
        runtime = {}
    nombres = {n: "calificador" for n in api}
    for n, valor in runtime.items():
        if isinstance(valor, types.ModuleType):
            modulo = valor.__name__
            nombres[n] = f"import {modulo}" + ("" if n == modulo else f" as {n}")
        elif not n.startswith("__"):
            nombres[n] = "runtime"
    return nombres


def _usados(arbol):
    """[(path, line)] of each ``usar("ruta")`` with a literal path."""
    return [(n.args[0].value, n.lineno) for n in ast.walk(arbol)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == USAR
            and n.args and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)]


def _importados(arbol, ruta):
    """The files of the challenges folder that the relative imports of ``ruta`` name."""
    rutas = []
    for n in ast.walk(arbol):
        if isinstance(n, ast.ImportFrom) and n.level:
            try:
                rutas += relativas(ruta, n.module or "", n.level, [a.name for a in n.names])
            except ImportError:
                continue
    return rutas


def _como_relativo(ruta, destino):
    """The relative module, for the file ``ruta``, of the file ``destino`` (both relative to
    the challenges folder): ``..comun`` for ``comun.py`` from ``<id>/pruebas.py``."""
    carpeta, partes = ruta.split("/")[:-1], destino[:-len(".py")].split("/")
    comun = 0
    while comun < min(len(carpeta), len(partes) - 1) and carpeta[comun] == partes[comun]:
        comun += 1
    return "." * (len(carpeta) - comun + 1) + ".".join(partes[comun:])


def _imports(calificador, ruta, faltan, provistos, usados):
    """{module: [names]} of the imports ``ruta`` lacks: from the runtime, the grader, and the
    files it ran with ``usar``."""
    imports = {}
    for nombre in faltan:
        if nombre in provistos:
            imports.setdefault(provistos[nombre], []).append(nombre)
    for destino, _ in usados:
        try:
            suyos = definidos(calificador.texto(calificador.desafios + destino), destino)
        except (OSError, SyntaxError, ValueError):
            continue
        nombres = [n for n in faltan if n in suyos and n not in provistos]
        if nombres:
            imports.setdefault(_como_relativo(ruta, destino), []).extend(nombres)
    return imports


def _mensaje(calificador, ruta, faltan, provistos, usados):
    """The author's message for the file ``ruta``, whose free names are ``faltan``; None if
    none of them is an import to add (nor ``usar``)."""
    imports = _imports(calificador, ruta, faltan, provistos, usados)
    if not imports and USAR not in faltan:
        return None
    nombres = sorted({n for ns in imports.values() for n in ns},
                     key=lambda n: (faltan[n] or 0, n))
    partes = []
    if len(nombres) == 1:
        en = f" (en la línea {faltan[nombres[0]]})" if faltan[nombres[0]] else ""
        partes.append(f"usa {nombres[0]} sin importarlo{en}")
    elif nombres:
        en = f" (el primero, en la línea {faltan[nombres[0]]})" if faltan[nombres[0]] else ""
        partes.append(f"usa sin importarlos {_lista(nombres)}{en}")
    if USAR in faltan:
        lineas = [str(linea) for _, linea in usados] or [str(faltan[USAR])]
        en = f"la línea {lineas[0]}" if len(lineas) == 1 else f"las líneas {_lista(lineas)}"
        partes.append(f"llama a usar(…), que ya no existe, en {en}: lo que usabas de ese "
                      f"archivo se importa con un import relativo")
    texto = (f"{'; '.join(partes)}. Las pruebas de un desafío importan lo que usan (véase "
             f"«Cambios» en la referencia para autores)")
    if not imports:
        return texto + "."
    return texto + ": añade al principio del archivo\n" + "\n".join(
        "      " + _import(modulo, ns) for modulo, ns in sorted(imports.items(), key=_orden))


def _orden(modulo_y_nombres):
    """Python's modules first, then the runtime, the grader, the files of the folder."""
    modulo = modulo_y_nombres[0]
    return ({"runtime": 1, "calificador": 2}.get(modulo, 0 if modulo.startswith("import ") else 3),
            modulo)


def _import(modulo, nombres):
    """The line that imports ``nombres`` from ``modulo`` (or ``modulo``, an ``import …``)."""
    if modulo.startswith("import "):
        return modulo
    return f"from {modulo} import {', '.join(sorted(nombres, key=str.lower))}"


def _lista(nombres):
    if len(nombres) == 1:
        return nombres[0]
    return ", ".join(nombres[:-1]) + " y " + nombres[-1]
