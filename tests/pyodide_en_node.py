"""Pyodide under Node, for the tests that check that the runtime and the grader give in Pyodide
what they give in CPython: each run starts Python from a memory snapshot instead of from scratch.

Node took 2.9 s (3.5 s of CPU) to start Pyodide and 0.5 s to restore it from the snapshot (this
machine, `node` on a script that starts it and prints 6 * 7, twice each). The snapshot holds a
bare interpreter with a few standard modules imported (:data:`PRECARGA`), as the page's worker
keeps one (widgets/front/lib/instantanea.js); what a test loads, runtime files and all, comes
after. It is made once per Pyodide and Node (its name says both), under ``_build/`` (never
committed; its name also has a hash of how it is made), with a lock so that two xdist workers never make it at once::

    codigo = f"{cargar_pyodide()}\\nconsole.log(py.runPython('6 * 7'));"

``cargar_pyodide()`` is the module code that leaves a started Pyodide in ``py``.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import subprocess
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent
PYODIDE = RAIZ / "node_modules" / "pyodide"
CARPETA = RAIZ / "_build" / "pyodide-node"
#: Standard modules imported before the dump (what the runtime and the grader import at once).
PRECARGA = ("json", "sys", "types", "copy", "inspect", "re", "traceback", "random", "unittest")

_HACER = """
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
import { writeFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: "%(pyodide)s/", _makeSnapshot: true });
py.runPython("import %(precarga)s");
writeFileSync(process.argv[2], py.makeMemorySnapshot());
"""


@functools.cache
def _instantanea() -> Path:
    """The snapshot's file, made first if it is not there (looked for once per process)."""
    if not (PYODIDE / "pyodide.mjs").is_file():
        pytest.fail("node_modules/pyodide is missing: run make setup")
    version = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    receta = hashlib.sha256((_HACER + " ".join(PRECARGA)).encode()).hexdigest()[:12]
    destino = CARPETA / f"pyodide-{version}-node-{node}-{receta}.bin"
    CARPETA.mkdir(parents=True, exist_ok=True)
    with open(CARPETA / ".cerrojo", "w") as cerrojo:
        fcntl.flock(cerrojo, fcntl.LOCK_EX)
        if not destino.is_file():
            script = CARPETA / "hacer.mjs"
            script.write_text(_HACER % {"pyodide": PYODIDE.as_posix(), "precarga": ", ".join(PRECARGA)})
            temporal = destino.with_suffix(".tmp")
            subprocess.run(["node", script, temporal], check=True, timeout=180)
            temporal.rename(destino)
    return destino


def cargar_pyodide() -> str:
    """Module code (for ``node``) that leaves in ``py`` a Pyodide restored from the snapshot."""
    return (f'import {{ loadPyodide }} from "{PYODIDE.as_posix()}/pyodide.mjs";\n'
            f'import {{ readFileSync as leerInstantanea }} from "node:fs";\n'
            f'const py = await loadPyodide({{ indexURL: "{PYODIDE.as_posix()}/", '
            f'_loadSnapshot: leerInstantanea({json.dumps(str(_instantanea()))}) }});\n')
