"""«Abrir en JupyterLite»: each lesson as a notebook, built by jupyterlite-sphinx, offline.

Enabled by listing it in ``conf.py`` (``extensions = [..., "jupyterlite_sphinx",
"widgets.jupyterlite"]``); sites without it (the tests' small sites) build no JupyterLite. Then:

- every page with cells (a lesson) gets, under its title, a plain link that opens its notebook::

      <p class="bucle-jupyterlite"><a class="bucle-boton bucle-jupyterlite-enlace" target="_blank"
         rel="noopener" href="lite/notebooks/index.html?path=leccion.ipynb">Abrir en JupyterLite</a></p>

  No script: a lesson page downloads nothing of JupyterLite until the reader follows it.
- before jupyterlite-sphinx runs ``jupyter lite build`` (build-finished, priority 500), the
  notebooks (:mod:`widgets.construccion.cuadernos`) and the lite site's settings are written to a work folder
  next to the output (``<salida>-jupyterlite/``): the kernel uses the page's Pyodide
  (``_static/pyodide/pyodide.mjs``) with its own lock and wheels (:mod:`widgets.construccion.ruedas_pyodide`),
  never falls back to PyPI, and the lite build keeps no source maps;
- ``jupyter lite build`` itself (jupyterlite-sphinx's build-finished listener, replaced by
  :func:`construir_lite` at the same priority) runs only when its inputs changed: a fingerprint
  of the work folder (notebooks, settings), the wheels it indexes, jupyterlite-sphinx's settings
  and the versions of what builds the lite site is kept in the work folder (:data:`HUELLA`);
  when it equals the new one and ``lite/`` is there, the lite site is left as it is. A lesson
  whose notebook is unchanged (a touch, a change in a trace or a question) rebuilds no lite site;
  any change in its headings, prose or cells does;
- after it (built or not), the kernel's lock and wheels are published under ``lite/pyodide/``,
  and what jupyterlite-sphinx leaves behind that no page uses (its CSS and JS, the doit database
  it writes in the source folder) is removed; every step is idempotent. The web-font stylesheet
  it adds to every page, and its own CSS and JS, are taken out of the registry before the
  builder reads it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import sys
from importlib import metadata
from os.path import relpath
from pathlib import Path
from urllib.parse import quote, urlsplit

from docutils import nodes
from jupyterlite_sphinx.jupyterlite_sphinx import jupyterlite_build
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from ..base import textos
from ..ajustes import FRONT, ruta
from .cuadernos import cuaderno
from ..base.nodos import widget
from .ruedas_pyodide import ErrorDeRuedas, asegurar, lock_con_ruedas

LITE = "lite"  # jupyterlite-sphinx's output folder (its JUPYTERLITE_DIR), fixed by it
RUEDAS_SALIDA = "pyodide"  # the kernel's lock and wheels, under lite/
KERNEL = "@jupyterlite/pyodide-kernel-extension:kernel"
#: The JupyterLite apps the button needs: the notebook, and the file browser it links to.
APPS = ["notebooks", "tree"]
#: A script every JupyterLite page loads first (see the file for why).
ESPERA = FRONT / "lite" / "espera.js"
ESPERA_SALIDA = "bucle-espera.js"
#: The fingerprint of the last lite build's inputs, in the work folder (hidden, like the lite
#: build's own ``.cache/``: neither is an input of the lite build).
HUELLA = ".huella-lite"
#: What builds the lite site or ships in it: a new version of any of them rebuilds it.
PAQUETES = ("jupyterlite-sphinx", "jupyterlite-core", "jupyterlite-pyodide-kernel",
            "jupyterlab-language-pack-es-ES", "voici")
#: jupyterlite-sphinx's settings that reach ``jupyter lite build``.
AJUSTES_LITE = ("jupyterlite_config", "jupyterlite_overrides", "jupyterlite_dir",
                "jupyterlite_contents", "jupyterlite_ignore_contents", "jupyterlite_content_dir",
                "jupyterlite_build_command_options")

logger = logging.getLogger(__name__)


class boton_jupyterlite(nodes.General, nodes.Element):
    """The link to a lesson's notebook (``href`` relative to the page)."""


def visit_boton_html(self, node: boton_jupyterlite) -> None:
    self.body.append('<p class="bucle-jupyterlite">')
    self.body.append(self.starttag(node, "a", "", CLASS="bucle-boton bucle-jupyterlite-enlace",
                                   href=node["href"], target="_blank", rel="noopener"))
    self.body.append(self.encode(textos.ABRIR_EN_JUPYTERLITE) + "</a></p>\n")
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
    """jupyterlite-sphinx adds a web font from another host, a CSS and a JS file to every page
    (none of its directives is used here): take them out of the registry before the builder
    reads it. Any asset of another origin goes with them: the site loads nothing from outside."""
    def ajeno(nombre) -> bool:
        nombre = nombre or ""
        de_fuera = bool(urlsplit(nombre).scheme or nombre.startswith("//"))
        return de_fuera or nombre.startswith("jupyterlite_sphinx.")

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
        ruedas = asegurar(ruta(app, "bucle_jupyterlite_ruedas"))
    except ErrorDeRuedas as error:
        raise ExtensionError(str(error)) from None
    lock = json.loads((ruta(app, "bucle_pyodide_dir") / "pyodide-lock.json").read_text())
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


def huella(app: Sphinx) -> str | None:
    """The fingerprint (sha256) of what ``jupyter lite build`` reads: the work folder's files
    (notebooks, settings; not the lite build's own ``.cache/``), the wheels its settings index,
    jupyterlite-sphinx's settings, and the versions of the packages and federated extensions
    that make the lite site. None when it also reads files of the sources
    (``jupyterlite_contents``): then the lite site is always built."""
    config = app.config
    if config.jupyterlite_contents:
        return None
    suma = hashlib.sha256()

    def parte(etiqueta: str, datos: bytes) -> None:
        suma.update(f"{etiqueta}\0{len(datos)}\0".encode())
        suma.update(datos)

    ajustes = {nombre: config[nombre] for nombre in AJUSTES_LITE}
    parte("ajustes", json.dumps(ajustes, sort_keys=True, default=str).encode())
    for paquete in PAQUETES:
        try:
            version = metadata.version(paquete)
        except metadata.PackageNotFoundError:
            version = ""
        parte(f"paquete:{paquete}", version.encode())
    extensiones = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    paquetes = [*extensiones.glob("*/package.json"), *extensiones.glob("@*/*/package.json")]
    for paquete in sorted(paquetes):
        parte(f"extension:{paquete.relative_to(extensiones).as_posix()}", paquete.read_bytes())

    base = trabajo(app)
    for archivo in sorted(base.rglob("*")):
        relativa = archivo.relative_to(base)
        if archivo.is_file() and not relativa.parts[0].startswith("."):
            parte(f"trabajo:{relativa.as_posix()}", archivo.read_bytes())
    if config.jupyterlite_overrides:
        parte("overrides", (Path(app.srcdir) / config.jupyterlite_overrides).read_bytes())
    if config.jupyterlite_config:
        ajustes_lite = json.loads(Path(config.jupyterlite_config).read_text(encoding="utf-8"))
        for url in ajustes_lite.get("PipliteAddon", {}).get("piplite_urls", []):
            if Path(url).is_file():
                parte(f"rueda:{url}", Path(url).read_bytes())
    return suma.hexdigest()


def construir_lite(app: Sphinx, exception) -> None:
    """jupyterlite-sphinx's build-finished listener (``jupyter lite build``), run only when the
    lite site is missing or its inputs' :func:`huella` differs from the last build's; with
    ``bucle_jupyterlite_una_vez`` (the live preview), only when it is missing: an edited
    lesson's notebook waits for the next ``make html`` rather than adding 2–3 s to every save.
    Its own messages (it prints them) are shown only if it fails."""
    if exception is not None or not activo(app):
        jupyterlite_build(app, exception)
        return
    guardada = trabajo(app) / HUELLA
    hecho = (Path(app.outdir) / LITE / "jupyter-lite.json").is_file()
    if hecho and app.config.bucle_jupyterlite_una_vez:
        logger.info("JupyterLite: ya construido; en la vista previa no se reconstruye al guardar.")
        return
    nueva = huella(app)
    if hecho and nueva is not None and guardada.is_file() and guardada.read_text().strip() == nueva:
        logger.info("JupyterLite: sin cambios en los cuadernos ni en sus ajustes; "
                    "no se reconstruye.")
        return
    guardada.unlink(missing_ok=True)  # a failed or interrupted lite build leaves no fingerprint
    mensajes = io.StringIO()
    try:
        with contextlib.redirect_stdout(mensajes):
            jupyterlite_build(app, exception)
    except BaseException:
        sys.stderr.write(mensajes.getvalue())
        raise
    logger.info("JupyterLite: sitio reconstruido.")
    if nueva is not None:
        guardada.write_text(nueva + "\n")


def reemplazar_construccion_lite(app: Sphinx) -> None:
    """Put :func:`construir_lite` in place of jupyterlite-sphinx's build-finished listener,
    at the same priority (so :func:`preparar` still runs before it, :func:`publicar` after)."""
    suyos = [oyente for oyente in app.events.listeners["build-finished"]
             if oyente.handler is jupyterlite_build]
    if len(suyos) != 1:
        raise ExtensionError("widgets.jupyterlite: no se encontró el paso de jupyterlite-sphinx "
                             "que construye el sitio de JupyterLite (¿cambió su versión?)")
    app.disconnect(suyos[0].id)
    app.connect("build-finished", construir_lite, priority=suyos[0].priority)


def publicar(app: Sphinx, exception) -> None:
    """After ``jupyter lite build``: the kernel's lock and wheels; no source maps; no leftovers.
    Idempotent: when the lite build was skipped, it runs again on the lite site it made."""
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


def ajustar_pagina(pagina: Path, lite: Path) -> None:
    """A JupyterLite page in Spanish, loading :data:`ESPERA` first, with its inline scripts moved
    into files beside it. They import ``../config-utils.js`` by a relative URL, so they must stay
    in the page's folder: the site's rewriting for a strict CSP (:mod:`widgets.construccion.csp`) would
    otherwise move them to ``_static/``. A page already adjusted is left as it is."""
    html = pagina.read_text(encoding="utf-8")
    for ingles, espanol in textos.JUPYTERLITE_EN_ESPANOL.items():
        html = html.replace(ingles, espanol)
    ruta = relpath(lite / ESPERA_SALIDA, pagina.parent).replace(os.sep, "/")
    espera = f'<script src="{ruta}"></script>'
    if espera not in html:  # a page adjusted by an earlier build (the lite build was skipped)
        html = html.replace("<head>", f"<head>\n    {espera}", 1)

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
    reemplazar_construccion_lite(app)
    # the wheels' cache (fetched there once), relative to the confdir like every path setting
    app.add_config_value("bucle_jupyterlite_ruedas", "_build/ruedas-pyodide", "", types=[str])
    # the live preview (widgets/autor/vista.py) builds the lite site once, not on every save
    app.add_config_value("bucle_jupyterlite_una_vez", False, "", types=[bool])
    app.add_node(boton_jupyterlite, html=(visit_boton_html, None),
                 latex=(_saltar, None), text=(_saltar, None), man=(_saltar, None),
                 texinfo=(_saltar, None))
    app.connect("config-inited", configurar, priority=400)
    app.connect("doctree-resolved", poner_boton)
    app.connect("build-finished", preparar, priority=400)
    app.connect("build-finished", publicar, priority=600)

