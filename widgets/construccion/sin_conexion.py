"""The course offline and installable: a service worker, a web app manifest and its icons.

Every HTML page loads ``_static/bucle/sin-conexion.js`` (and its stylesheet) and links
``manifest.webmanifest``. Once the build has written everything else (``build-finished``, last),
it writes at the site's root:

- ``sw.js``: the bundled service worker (``widgets/front/servicio/sw.js``, Workbox) with the list
  of every file the site publishes, each with its hash, put in by Workbox's ``injectManifest``
  (``widgets/construccion/manifiesto.mjs``, run with Node.js from the author's
  ``node_modules``, where ``workbox-build`` is pinned). JupyterLite (``lite/``) is not in it.
- ``manifest.webmanifest``: the course's name (``project``), language, start page and icons
  (``_static/bucle/iconos/``, made from ``widgets/datos/icono.svg`` at 192 and 512 px).

What the page and the worker do with them is told in ``sin-conexion.js`` and ``servicio/sw.js``.

Settings: ``bucle_sin_conexion`` (default ``True``; ``False`` publishes none of this) and
``bucle_node_modules`` (default ``"node_modules"``, relative to ``conf.py``'s folder).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ..ajustes import CONSTRUCCION, DATOS, ESTATICOS, ruta

MANIFIESTO_JS = CONSTRUCCION / "manifiesto.mjs"
PLANTILLA = ESTATICOS / "sw.js"
ICONOS = {192: DATOS / "icono-192.png", 512: DATOS / "icono-512.png"}
COLOR = "#1d4ed8"


def activado(app: Sphinx) -> bool:
    return bool(app.config.bucle_sin_conexion) and app.builder.format == "html"


def en_cada_pagina(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not activado(app):
        return
    app.add_css_file("bucle/sin-conexion.css")
    app.add_js_file("bucle/sin-conexion.js", type="module")
    manifiesto = context["pathto"]("manifest.webmanifest", 1)
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="manifest" href="{manifiesto}">\n<meta name="theme-color" content="{COLOR}">\n'
    )


def manifiesto_web(app: Sphinx) -> dict:
    titulo = app.config.project or "Curso"
    return {
        "name": titulo,
        "short_name": titulo,
        "lang": app.config.language or "es",
        "start_url": "./" + app.builder.get_target_uri(app.config.root_doc),
        "scope": "./",
        "display": "standalone",
        "theme_color": COLOR,
        "background_color": "#ffffff",
        "icons": [
            {"src": f"_static/bucle/iconos/icono-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
             "purpose": "any maskable"}
            for n in ICONOS
        ],
    }


def publicar(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or not activado(app):
        return
    salida = Path(app.outdir)
    iconos = salida / "_static" / "bucle" / "iconos"
    iconos.mkdir(parents=True, exist_ok=True)
    for origen in ICONOS.values():
        shutil.copyfile(origen, iconos / origen.name)
    (salida / "manifest.webmanifest").write_text(
        json.dumps(manifiesto_web(app), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    escribir_servicio(salida, ruta(app, "bucle_node_modules"))


def escribir_servicio(salida: Path, node_modules: Path) -> dict:
    """Write ``salida/sw.js`` with the list of the site's files; return Workbox's count."""
    if not PLANTILLA.is_file():
        raise ExtensionError(f"the service worker is not bundled ({PLANTILLA}): run 'make bundle'")
    if not (node_modules / "workbox-build").is_dir():
        raise ExtensionError(
            f"falta workbox-build en {node_modules} (ejecuta «npm ci»), que escribe el service "
            "worker del curso; o pon bucle_sin_conexion = False en conf.py")
    node = shutil.which("node")
    if node is None:
        raise ExtensionError("Node.js is needed to write the course's service worker "
                             "(or set bucle_sin_conexion = False in conf.py)")
    proceso = subprocess.run([node, str(MANIFIESTO_JS), str(salida), str(PLANTILLA), str(node_modules)],
                             capture_output=True, text=True, check=False)
    if proceso.returncode != 0:
        raise ExtensionError(f"writing the service worker failed:\n{proceso.stderr.strip()}")
    informe = json.loads(proceso.stdout.strip().splitlines()[-1])
    if informe["avisos"]:
        raise ExtensionError("writing the service worker: " + "; ".join(informe["avisos"]))
    return informe


def setup_sin_conexion(app: Sphinx) -> None:
    app.connect("html-page-context", en_cada_pagina)
    app.connect("build-finished", publicar, priority=950)
