"""The extension's settings (``conf.py``), declared in one place, and the one way to read a path.

Every path an author gives is relative to the folder of their ``conf.py`` (``app.confdir``);
an absolute path is taken as it is. Nothing is computed from where the extension is installed
or from this repository's root. The folders the settings below name for the extension's own use,
and the build's output, are never documents (:func:`excluir_carpetas_propias`).

============================  ========================  =============================================
setting                       default                   what it is
============================  ========================  =============================================
``bucle_curso``               ``"curso"``               the course's key in the reader's storage
``bucle_runtime_dir``         ``"runtime"``             the Python the page loads (published as
                                                        ``runtime/`` in the site)
``bucle_runtime_modulos``     ``None``: the runtime     the runtime modules a challenge's tests and
                              folder's ``orden.txt``    a trace's code get, in this order
                              (one name a line), or
                              its ``*.py`` not
                              starting with ``_``,
                              sorted
``bucle_desafios_dir``        ``"challenges"``          one folder per challenge
``bucle_referencia``          ``None``                  id of the challenge whose ``solucion.py``
                                                        defines the ``bucle`` a ``traza`` runs
``bucle_pyodide_dir``         ``"node_modules/pyodide"``  where Pyodide's files are taken from
``bucle_node_modules``        ``"node_modules"``        the npm packages the build runs
                                                        (``workbox-build``, for the service worker)
``bucle_sin_conexion``        ``True``                  publish the service worker and the web app
                                                        manifest (:mod:`widgets.construccion.sin_conexion`)
``bucle_modelo``              ``False``                 publish the in-page model even where no page
                                                        uses the ``modelo`` directive
                                                        (:mod:`widgets.construccion.modelo_local`)
``bucle_modelo_cache``        ``"_build/modelo"``       where the build keeps the model's wheel and
                                                        its checked GGUF
``bucle_modelo_fijado``       ``None``: the extension's the pinned wheel and GGUF (format of
                              ``modelo-fijado.txt``     ``widgets/datos/modelo-fijado.txt``)
``bucle_ruedas_dir``          ``"_build/ruedas-pyodide"``  the cache of the pinned wheels the cells
                                                        may import (``widgets/datos/ruedas-pagina.txt``)
============================  ========================  =============================================
"""

from __future__ import annotations

import io
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only annotations: the author's commands read a conf.py without loading Sphinx
    from sphinx.application import Sphinx

from .calificador.disco import modulos_de
from .calificador.runtime import ejecutar_runtime

#: The extension's own folders: one place says where each lives.
PAQUETE = Path(__file__).resolve().parent
DATOS = PAQUETE / "datos"            # pins and assets
ESTATICOS = PAQUETE / "static"       # the bundled front end (`make bundle`)
FRONT = PAQUETE / "front"            # the front end's sources (JS and CSS)
CONSTRUCCION = PAQUETE / "construccion"
CALIFICADOR = PAQUETE / "calificador"

#: name → (default, rebuild, types). Paths are strings relative to ``confdir``.
AJUSTES = {
    "bucle_curso": ("curso", "html", (str,)),
    "bucle_runtime_dir": ("runtime", "env", (str,)),
    "bucle_runtime_modulos": (None, "env", (list, tuple, type(None))),
    "bucle_desafios_dir": ("challenges", "env", (str,)),
    "bucle_referencia": (None, "env", (str, type(None))),
    "bucle_pyodide_dir": ("node_modules/pyodide", "", (str,)),
    "bucle_node_modules": ("node_modules", "", (str,)),
    "bucle_sin_conexion": (True, "html", (bool,)),
    "bucle_modelo": (False, "html", (bool,)),
    "bucle_modelo_cache": ("_build/modelo", "", (str,)),
    "bucle_modelo_fijado": (None, "env", (str, type(None))),
    "bucle_ruedas_dir": ("_build/ruedas-pyodide", "", (str,)),
}


#: The settings that name the extension's own folders: never documents, wherever they are (a
#: challenge's clausulas.md is not a lesson either).
CARPETAS_PROPIAS = ("bucle_node_modules", "bucle_pyodide_dir", "bucle_modelo_cache",
                    "bucle_ruedas_dir", "bucle_desafios_dir", "bucle_runtime_dir")


def setup_ajustes(app: Sphinx) -> None:
    """Declare every setting of :data:`AJUSTES` (call once, from the extension's setup)."""
    for nombre, (defecto, rebuild, tipos) in AJUSTES.items():
        app.add_config_value(nombre, defecto, rebuild, types=tipos)
    app.connect("config-inited", excluir_carpetas_propias)


def excluir_carpetas_propias(app: Sphinx, config) -> None:
    """Keep the extension's own folders out of the documents, whatever the author's
    ``exclude_patterns`` says: the npm packages (whose Markdown files are not lessons), the
    caches and the build folder, when they are inside the source folder (with ``conf.py`` in it
    or beside it)."""
    fuente = Path(app.srcdir).resolve()
    carpetas = [ruta(app, nombre) for nombre in CARPETAS_PROPIAS]
    carpetas += [Path(app.outdir).resolve(), Path(app.doctreedir).resolve()]
    patrones = list(config.exclude_patterns)
    for carpeta in carpetas:
        try:
            relativa = carpeta.relative_to(fuente)
        except ValueError:
            continue  # outside the documents: nothing to keep out
        if relativa.parts:
            patrones.append(relativa.as_posix())
    config.exclude_patterns = list(dict.fromkeys(patrones))


def ajustes_de_conf(conf: Path) -> dict:
    """The settings of :data:`AJUSTES` that the conf.py ``conf`` sets (the defaults for the
    rest), and its ``extensions``: what the author's commands (widgets/autor/) read of a course
    without starting Sphinx. Paths stay as written, relative to the conf.py's folder."""
    import runpy

    leidos = runpy.run_path(str(conf), run_name="conf")
    return {"extensions": list(leidos.get("extensions", [])),
            **{nombre: leidos.get(nombre, defecto) for nombre, (defecto, _, _) in AJUSTES.items()}}


def ruta(app: Sphinx, nombre: str) -> Path:
    """The path setting ``nombre`` (e.g. ``"bucle_runtime_dir"``), resolved against the folder
    of the author's ``conf.py``; an absolute path stays as it is."""
    valor = Path(getattr(app.config, nombre)).expanduser()
    if valor.is_absolute():
        return valor
    return (Path(app.confdir or app.srcdir) / valor).resolve()


def runtime_modulos(app: Sphinx) -> tuple[str, ...]:
    """``bucle_runtime_modulos``, or by default the runtime folder's ``orden.txt`` (or, without
    one, the stems of its ``*.py`` that do not start with ``_``, sorted)."""
    propios = app.config.bucle_runtime_modulos
    if propios is not None:
        return tuple(propios)
    return modulos_de(ruta(app, "bucle_runtime_dir"))


def espacio_del_runtime(env) -> dict:
    """A fresh namespace with the runtime modules run in it, in order, as a page loads them
    (what a ``traza`` or a ``grabacion`` runs its author's code in), and the ``open_url`` a
    cell has (:func:`open_url_de_la_pagina`); each file read is noted as a dependency of the page
    being read, so that changing it rebuilds the page."""
    carpeta = ruta(env.app, "bucle_runtime_dir")

    def leer(nombre: str) -> str:
        archivo = carpeta / f"{nombre}.py"
        env.note_dependency(str(archivo))
        return archivo.read_text(encoding="utf-8")

    ns = {"__name__": "__main__", "open_url": open_url_de_la_pagina(env)}
    return ejecutar_runtime(ns, runtime_modulos(env.app), leer)


def open_url_de_la_pagina(env):
    """``open_url(url)`` as a cell of the page being read has it, at build time: ``url`` is
    resolved against the page, as the browser resolves it, and a file of the published runtime
    (``runtime/…``, from ``bucle_runtime_dir``) is read from the author's folder. Anything else
    the page could fetch is not there yet when the page is built: the error says so, in Spanish,
    and the directive reports it at its line."""
    carpeta = ruta(env.app, "bucle_runtime_dir")
    pagina = env.docname

    def open_url(url):
        texto = str(url)
        if "://" in texto or texto.startswith("/"):
            raise ValueError(f"open_url({texto!r}): al construir, una traza solo lee archivos del "
                             f"runtime, con una ruta relativa a la página, como la celda (por "
                             f"ejemplo open_url(\"runtime/entorno.py\"))")
        completa = posixpath.normpath(posixpath.join(posixpath.dirname(pagina), texto))
        if not completa.startswith("runtime/"):
            raise ValueError(f"open_url({texto!r}): desde la página {pagina} eso es {completa}, que "
                             f"no es un archivo del runtime (runtime/…): al construir solo se "
                             f"pueden leer los archivos de la carpeta {carpeta.name}/")
        archivo = carpeta / completa.removeprefix("runtime/")
        if not archivo.is_file() or archivo.name.startswith("_"):
            raise FileNotFoundError(f"open_url({texto!r}): el runtime no publica {completa} "
                                    f"(no está {archivo})")
        env.note_dependency(str(archivo))
        return io.StringIO(archivo.read_text(encoding="utf-8"))

    return open_url
