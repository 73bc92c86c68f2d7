"""The bare Pyodide page the course is compared with, made from the built site's own files.

    desnuda/index.html        starts a module worker at once; shows the line it prints
    desnuda/trabajador.mjs    loadPyodide() with nothing else, then print() one line
    desnuda/pyodide/          the very files of <site>/_static/pyodide/ (copied)

This is what an author gets from Pyodide's documentation with no effort spent on loading: the
browser's HTTP cache is all that helps a later visit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

LINEA = "hola desde Python"

PAGINA = """<!doctype html>
<html lang="es">
<meta charset="utf-8">
<title>Pyodide, sin más</title>
<pre id="salida"></pre>
<script type="module" src="pagina.mjs"></script>
</html>
"""

# The page's script is a file (not inline) so that the same strict server works for both.
SCRIPT_PAGINA = """const trabajador = new Worker("trabajador.mjs", { type: "module" });
trabajador.onmessage = ({ data }) => {
  document.getElementById("salida").textContent += data + "\\n";
};
"""

TRABAJADOR = """import { loadPyodide } from "./pyodide/pyodide.mjs";

const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
pyodide.setStdout({ batched: (linea) => postMessage(linea) });
pyodide.runPython(%r);
""" % f"print({LINEA!r})"


def hacer(sitio: Path, destino: Path) -> Path:
    """Write the bare page into ``destino`` with the Pyodide files of the built ``sitio``."""
    destino.mkdir(parents=True, exist_ok=True)
    (destino / "index.html").write_text(PAGINA, encoding="utf-8")
    (destino / "pagina.mjs").write_text(SCRIPT_PAGINA, encoding="utf-8")
    (destino / "trabajador.mjs").write_text(TRABAJADOR, encoding="utf-8")
    shutil.copytree(sitio / "_static" / "pyodide", destino / "pyodide", dirs_exist_ok=True)
    return destino
