"""The live preview (``make serve``, ``python -m widgets servir``): from saving a lesson to the
open page showing the edit, in Chromium.

The lessons are copied to a temporary folder and previewed with the repository's conf.py, as
``make serve`` does. The page «El bucle» is opened; then, ``veces`` times, a sentence is appended
to its file and the clock runs until the page, which reloads itself, shows it. The figure is what
an author waits: the watcher noticing the save, Sphinx's incremental build of the lesson, the
page's next look at the build's number, and the reload.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from widgets.autor.vista import Vista

from .navegador import Registro, chromium, contexto
from .tabla import Fila

ROOT = Path(__file__).resolve().parents[1]
LECCION = "el-bucle.md"


def fila(segundos: list[float] | None) -> Fila:
    return Fila("Live preview (make serve): lesson saved → the open page shows it", "s", segundos,
                objetivo="≤ 3 s", cumple=lambda m, _: m <= 3,
                falta="" if segundos is not None else "not measured (--sitio)")


def medir(carpeta: Path, registro: Registro, veces: int, avisar=print) -> list[float]:
    avisar(f"the live preview, {veces} × a lesson saved…")
    with chromium(registro) as navegador:
        return _medir(carpeta, navegador, registro, veces, avisar)


def _medir(carpeta: Path, navegador, registro: Registro, veces: int, avisar) -> list[float]:
    fuente = carpeta / "lecciones"
    shutil.copytree(ROOT / "lessons", fuente)
    vista = Vista(fuente, ROOT, carpeta / "vista")
    if not vista.construir():
        raise SystemExit(f"the preview's first build failed:\n{vista.estado.error}")
    servidor = vista.servir(0)
    parar = threading.Event()
    mirando = threading.Thread(target=vista.mirar, kwargs={"parar": parar, "escribir": lambda *_: None},
                               daemon=True)
    mirando.start()
    segundos = []
    try:
        host, puerto = servidor.server_address[:2]
        with contexto(navegador, registro) as context:
            page = context.new_page()
            page.goto(f"http://{host}:{puerto}/{LECCION.replace('.md', '.html')}")
            page.wait_for_function("() => document.readyState === 'complete'")
            time.sleep(1)  # the page has asked for the build's number once
            for i in range(veces):
                marca = f"Frase de la vista previa número {i + 1}."
                inicio = time.monotonic()
                with (fuente / LECCION).open("a", encoding="utf-8") as f:
                    f.write(f"\n{marca}\n")
                page.wait_for_function("(marca) => document.body && document.body.innerText.includes(marca)",
                                       arg=marca, timeout=60_000, polling=50)
                segundos.append(time.monotonic() - inicio)
                avisar(f"  preview: edit {i + 1}/{veces} shown after {segundos[-1]:.1f} s")
    finally:
        parar.set()
        mirando.join(timeout=30)
        servidor.shutdown()
        servidor.server_close()
    return segundos
