"""No function of the shipped code is over 60 lines (#56): the extension (widgets/, but the
bundle it builds), the runtime a page loads (runtime/), the course's challenges and its training
(entrenamiento/: it makes the adapter the page ships). A longer one
is split by role, as ``tarea_faltan``, ``casa_al_azar``, ``tarea_leer``, ``tarea_agenda`` and the
ONNX graph's ``grafo`` were (the same generated runs, the same graph, byte for byte)."""

import ast
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
LIMITE = 60
CARPETAS = ("widgets", "runtime", "challenges", "entrenamiento")


def largas(texto: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of each function (methods and nested ones too) over LIMITE."""
    return [(n.name, n.lineno, n.end_lineno - n.lineno + 1) for n in ast.walk(ast.parse(texto))
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.end_lineno - n.lineno + 1 > LIMITE]


def test_no_shipped_function_is_over_60_lines():
    archivos = [p for c in CARPETAS for p in sorted((RAIZ / c).rglob("*.py"))
                if "static" not in p.relative_to(RAIZ).parts]
    assert len(archivos) > 100
    malas = [f"{p.relative_to(RAIZ)}:{linea}: {nombre} has {n} lines"
             for p in archivos for nombre, linea, n in largas(p.read_text(encoding="utf-8"))]
    assert not malas, f"split these by role (at most {LIMITE} lines):\n" + "\n".join(malas)


def test_the_measure_counts_a_function_from_its_def_to_its_last_line():
    cuerpo = "".join(f"        x{i} = {i}\n" for i in range(LIMITE - 1))  # with the def: LIMITE
    assert largas(f"class C:\n    def cabe(self):\n{cuerpo}") == []
    assert largas(f"class C:\n    def larga(self):\n{cuerpo}        return 1\n") == [("larga", 2, LIMITE + 1)]
