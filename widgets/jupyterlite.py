"""«Abrir en JupyterLite»: each lesson as a notebook, built by jupyterlite-sphinx, offline.

Enabled by listing it in ``conf.py`` (``extensions = [..., "jupyterlite_sphinx",
"widgets.jupyterlite"]``); sites without it (the tests' small sites) build no JupyterLite. Then:

- every page with cells (a lesson) gets, under its title, a plain link that opens its notebook::

      <p class="bucle-jupyterlite"><a class="bucle-boton bucle-jupyterlite-enlace" target="_blank"
         rel="noopener" href="lite/notebooks/index.html?path=leccion.ipynb">Abrir en JupyterLite</a></p>

  No script: a lesson page downloads nothing of JupyterLite until the reader follows it.
- before jupyterlite-sphinx runs ``jupyter lite build`` (build-finished, priority 500), the
  notebooks (:mod:`widgets.cuadernos`) and the lite site's settings are written to a work folder
  next to the output (``<salida>-jupyterlite/``): the kernel uses the page's Pyodide
  (``_static/pyodide/pyodide.mjs``) with its own lock and wheels (:mod:`widgets.ruedas_pyodide`),
  never falls back to PyPI, and the lite build keeps no source maps;
- after it, the kernel's lock and wheels are published under ``lite/pyodide/``, and what
  jupyterlite-sphinx leaves behind that no page uses (its CSS and JS, the doit database it
  writes in the source folder) is removed. The web-font stylesheet it adds to every page, and
  its own CSS and JS, are taken out of the registry before the builder reads it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from os.path import relpath
from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.osutil import relative_uri

from . import __version__
from .cuadernos import cuaderno
from .nodos import widget
from .ruedas_pyodide import ErrorDeRuedas, asegurar, lock_con_ruedas

ROOT = Path(__file__).resolve().parent.parent
LITE = "lite"  # jupyterlite-sphinx's output folder (its JUPYTERLITE_DIR), fixed by it
RUEDAS_SALIDA = "pyodide"  # the kernel's lock and wheels, under lite/
KERNEL = "@jupyterlite/pyodide-kernel-extension:kernel"
#: The JupyterLite apps the button needs: the notebook, and the file browser it links to.
APPS = ["notebooks", "tree"]
ETIQUETA = "Abrir en JupyterLite"
#: A script every JupyterLite page loads first (see the file for why).
ESPERA = Path(__file__).resolve().parent / "front" / "lite" / "espera.js"
ESPERA_SALIDA = "bucle-espera.js"


class boton_jupyterlite(nodes.General, nodes.Element):
    """The link to a lesson's notebook (``href`` relative to the page)."""


def visit_boton_html(self, node: boton_jupyterlite) -> None:
    self.body.append('<p class="bucle-jupyterlite">')
    self.body.append(self.starttag(node, "a", "", CLASS="bucle-boton bucle-jupyterlite-enlace",
                                   href=node["href"], target="_blank", rel="noopener"))
    self.body.append(self.encode(ETIQUETA) + "</a></p>\n")
    raise nodes.SkipNode


def _saltar(self, node) -> None:
    raise nodes.SkipNode


def activo(app: Sphinx) -> bool:
    return "jupyterlite_sphinx" in app.extensions and app.builder.format == "html"


def trabajo(app: Sphinx) -> Path:
    """The work folder of the lite build: beside the output, never inside the sources."""
    salida = Path(app.outdir)
    return salida.with_name(salida.name + "-jupyterlite")


def configurar(app: Sphinx, config) -> None:
    """Point jupyterlite-sphinx at our work folder (before its own config-inited handler)."""
    base = trabajo(app)
    config.jupyterlite_dir = str(base)
    config.jupyterlite_content_dir = str(base / "contenido")  # absolute: not under the sources
    config.jupyterlite_config = str(base / "jupyter_lite_config.json")
    config.jupyterlite_bind_ipynb_suffix = False
    quitar_recursos_de_paginas(app)


def quitar_recursos_de_paginas(app: Sphinx) -> None:
    """jupyterlite-sphinx adds a web font, a CSS and a JS file to every page (none of its
    directives is used here): take them out of the registry before the builder reads it."""
    def ajeno(nombre) -> bool:
        return "fonts.googleapis.com" in (nombre or "") or (nombre or "").startswith("jupyterlite_sphinx.")

    app.registry.css_files[:] = [(n, a) for n, a in app.registry.css_files if not ajeno(n)]
    app.registry.js_files[:] = [(n, a) for n, a in app.registry.js_files if not ajeno(n)]


def _celdas(doctree) -> list[str]:
    return [n["datos"]["codigo"] for n in doctree.findall(widget) if n["tipo"] == "celda"]


def poner_boton(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if not activo(app) or not _celdas(doctree):
        return
    seccion = next(iter(doctree.findall(nodes.section)), None)
    if seccion is None or not seccion.children or not isinstance(seccion[0], nodes.title):
        return
    destino = f"{LITE}/notebooks/index.html?path={quote(docname + '.ipynb')}"
    boton = boton_jupyterlite(href=relative_uri(app.builder.get_target_uri(docname), destino))
    posicion = 1
    while posicion < len(seccion) and "bucle-lectura" in seccion[posicion].get("classes", []):
        posicion += 1
    seccion.insert(posicion, boton)


def _lock_del_kernel(app: Sphinx) -> tuple[dict, list[Path], list[Path]]:
    """The kernel's lock (npm's, with the pinned wheels' hashes), the wheels it names, and the
    wheels it does not name. The wheels come from the cache (fetched there the first time)."""
    try:
        ruedas = asegurar(Path(app.config.bucle_jupyterlite_ruedas))
    except ErrorDeRuedas as error:
        raise ExtensionError(str(error)) from None
    lock = json.loads((Path(app.config.bucle_pyodide_dir) / "pyodide-lock.json").read_text())
    nuevo, fuera = lock_con_ruedas(lock, ruedas)
    return nuevo, [r for r in ruedas if r not in fuera], fuera


def preparar(app: Sphinx, exception) -> None:
    """Write the notebooks and the lite site's settings; runs before ``jupyter lite build``."""
    if exception is not None or not activo(app):
        return
    base = trabajo(app)
    _, _, fuera_del_lock = _lock_del_kernel(app)

    contenido = Path(app.config.jupyterlite_content_dir)
    for docname in sorted(app.env.found_docs):
        codigos = _celdas(app.env.get_doctree(docname))
        if not codigos:
            continue
        texto = Path(app.env.doc2path(docname)).read_text(encoding="utf-8")
        try:
            nb = cuaderno(texto, codigos)
        except ValueError as error:
            raise ExtensionError(f"{app.env.doc2path(docname)}: {error}") from None
        destino = contenido / f"{docname}.ipynb"
        destino.parent.mkdir(parents=True, exist_ok=True)
        destino.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    # URLs in the settings: pyodideUrl is resolved against the app's page (lite/notebooks/…),
    # loadPyodideOptions' *URL against the lite site's root.
    ajustes = {
        "pyodideUrl": "../../_static/pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"lockFileURL": f"./{RUEDAS_SALIDA}/pyodide-lock.json"},
    }
    _escribir_json(base / "jupyter-lite.json", {
        "jupyter-lite-schema-version": 0,
        # lite/ itself opens the file browser (the default, JupyterLab, is not built).
        "jupyter-config-data": {"appUrl": "./tree", "litePluginSettings": {KERNEL: ajustes}},
    })
    # The notebook's interface in Spanish (the language pack is in requirements.txt).
    _escribir_json(base / "overrides.json", {
        "@jupyterlab/translation-extension:plugin": {"locale": "es_ES"},
    })
    _escribir_json(base / "jupyter_lite_config.json", {
        "LiteBuildConfig": {"no_sourcemaps": True, "apps": APPS},
        "PipliteAddon": {"piplite_urls": [str(r) for r in fuera_del_lock]},
    })


def publicar(app: Sphinx, exception) -> None:
    """After ``jupyter lite build``: the kernel's lock and wheels; no source maps; no leftovers."""
    if exception is not None or not activo(app):
        return
    salida = Path(app.outdir)
    lite = salida / LITE
    lock, en_el_lock, _ = _lock_del_kernel(app)
    carpeta = lite / RUEDAS_SALIDA
    carpeta.mkdir(parents=True, exist_ok=True)
    for rueda in en_el_lock:
        shutil.copyfile(rueda, carpeta / rueda.name)
    _escribir_json(carpeta / "pyodide-lock.json", lock, sangria=None)

    # The apps we do not link to (jupyterlite-sphinx always asks for lab, repl, edit…).
    for app_ in ("lab", "repl", "edit", "consoles"):
        shutil.rmtree(lite / app_, ignore_errors=True)
        shutil.rmtree(lite / "build" / app_, ignore_errors=True)
    for mapa in lite.rglob("*.map"):
        mapa.unlink()
    (lite / ESPERA_SALIDA).write_bytes(ESPERA.read_bytes())
    for pagina in lite.rglob("*.html"):
        ajustar_pagina(pagina, lite)
    for nombre in ("jupyterlite_sphinx.css", "jupyterlite_sphinx.js"):
        (salida / "_static" / nombre).unlink(missing_ok=True)
    (Path(app.srcdir) / ".jupyterlite.doit.db").unlink(missing_ok=True)


_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<codigo>.*?)</script>", re.S | re.I)


#: The few words JupyterLite's pages say before its (translated) interface starts.
EN_ESPANOL = {
    "<html>": '<html lang="es">',
    "Loading JupyterLite...": "Cargando JupyterLite…",
    "JupyterLite requires JavaScript to be enabled in your browser.":
        "JupyterLite necesita que JavaScript esté activado en el navegador.",
}


def ajustar_pagina(pagina: Path, lite: Path) -> None:
    """A JupyterLite page in Spanish, loading :data:`ESPERA` first, with its inline scripts moved
    into files beside it. They import ``../config-utils.js`` by a relative URL, so they must stay
    in the page's folder: the site's rewriting for a strict CSP (:mod:`widgets.csp`) would
    otherwise move them to ``_static/``."""
    html = pagina.read_text(encoding="utf-8")
    for ingles, espanol in EN_ESPANOL.items():
        html = html.replace(ingles, espanol)
    espera = relpath(lite / ESPERA_SALIDA, pagina.parent).replace(os.sep, "/")
    html = html.replace("<head>", f'<head>\n    <script src="{espera}"></script>', 1)

    def mover(m: re.Match) -> str:
        attrs, codigo = m.group("attrs"), m.group("codigo").strip()
        if "src=" in attrs or "json" in attrs.lower() or not codigo:
            return m.group(0)
        nombre = f"jupyterlite-{hashlib.sha256(codigo.encode()).hexdigest()[:12]}.js"
        (pagina.parent / nombre).write_text(codigo + "\n", encoding="utf-8")
        return f'<script{attrs} src="{nombre}"></script>'

    pagina.write_text(_SCRIPT.sub(mover, html), encoding="utf-8")


def _escribir_json(ruta: Path, datos, sangria: int | None = 1) -> None:
    ruta.parent.mkdir(parents=True, exist_ok=True)
    ruta.write_text(json.dumps(datos, ensure_ascii=False, indent=sangria) + "\n", encoding="utf-8")


def setup_jupyterlite(app: Sphinx) -> None:
    app.setup_extension("widgets")
    app.setup_extension("jupyterlite_sphinx")
    app.add_config_value("bucle_jupyterlite_ruedas", str(ROOT / "_build" / "ruedas-pyodide"), "",
                         types=[str])
    app.add_node(boton_jupyterlite, html=(visit_boton_html, None),
                 latex=(_saltar, None), text=(_saltar, None), man=(_saltar, None),
                 texinfo=(_saltar, None))
    app.connect("config-inited", configurar, priority=400)
    app.connect("doctree-resolved", poner_boton)
    app.connect("build-finished", preparar, priority=400)
    app.connect("build-finished", publicar, priority=600)


def setup(app: Sphinx) -> dict:
    setup_jupyterlite(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
