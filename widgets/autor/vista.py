"""``python -m widgets servir [fuente] [-c conf] [--salida …] [--puerto 8000]``: the live preview.

Builds the course (``sphinx-build -b html``, without the offline service worker), serves it on
127.0.0.1 with the headers of :mod:`widgets.serve` (cross-origin isolation: Python can be
interrupted), and watches the course's files: the sources, ``conf.py``, the runtime and the
challenges. On a save it builds again (Sphinx's own incremental build: only what changed; with
``widgets.jupyterlite``, its lite site only the first time, ``bucle_jupyterlite_una_vez``) and
every open page reloads itself (``vista/recarga.js``, which each served page loads, asks
``/_vista/version`` four times a second). A build with errors (a warning is one, as in ``make
html``) still writes every page, and the open pages show its messages at their top until a build
without them; a build that stops (a missing npm package) keeps the last site. ``sw.js`` is served as
a worker that removes itself (``vista/quitar-sw.js``), so that an offline worker a browser kept
from an earlier ``make html`` on the same address never hides an edit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..ajustes import ajustes_de_conf
from ..serve import Manejador, servir as servir_sitio

VISTA = Path(__file__).resolve().parent / "vista"
NO_SE_MIRAN = {"_build", "node_modules", "__pycache__", ".git", ".venv"}


class Estado:
    """The build's number and the last build's error (``None`` when it went well)."""

    def __init__(self):
        self.version = 0
        self.error: str | None = None
        self.segundos = 0.0
        self.cerrojo = threading.Lock()


def _huella(carpetas: list[Path], salida: Path) -> dict[str, float]:
    """Path → modification time of every file under ``carpetas`` that a build reads."""
    vistos = {}
    for carpeta in carpetas:
        if carpeta.is_file():
            vistos[str(carpeta)] = carpeta.stat().st_mtime
            continue
        for raiz, dirs, archivos in os.walk(carpeta):
            dirs[:] = [d for d in dirs if d not in NO_SE_MIRAN and not d.startswith(".")
                       and Path(raiz, d).resolve() != salida]
            for nombre in archivos:
                ruta = os.path.join(raiz, nombre)
                try:
                    vistos[ruta] = os.stat(ruta).st_mtime
                except OSError:
                    pass
    return vistos


class Vista:
    def __init__(self, fuente: Path, conf: Path | None = None, salida: Path | None = None):
        self.fuente = Path(fuente).resolve()
        self.conf = Path(conf).resolve() if conf else self.fuente
        self.salida = Path(salida).resolve() if salida else self.conf / "_build" / "vista"
        self.estado = Estado()
        self.leido: dict[str, float] | None = None  # the watched files as the last build read them
        ajustes = ajustes_de_conf(self.conf / "conf.py")
        self.miradas = [self.fuente, self.conf / "conf.py",
                        *(self.conf / ajustes[n] for n in ("bucle_runtime_dir", "bucle_desafios_dir"))]
        # with widgets.jupyterlite, its lite site is built once, not on every save
        self.opciones = (["-D", "bucle_jupyterlite_una_vez=1"]
                         if "widgets.jupyterlite" in ajustes["extensions"] else [])

    def construir(self) -> bool:
        """One build, as ``make html`` builds (``-W --keep-going``: every page is written, and a
        warning is an error); note its errors (or none) and, when it wrote the site, a new
        version. Return whether it went without a warning. The watched files are read first:
        an edit saved while it builds is a change for :meth:`mirar`, never lost."""
        self.leido = _huella(self.miradas, self.salida)
        inicio = time.perf_counter()
        proceso = subprocess.run(
            [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
             "-D", "bucle_sin_conexion=0", *self.opciones, "-c", str(self.conf), str(self.fuente),
             str(self.salida)],
            capture_output=True, text=True, cwd=self.conf, check=False)
        ok = proceso.returncode == 0
        escrito = proceso.returncode in (0, 1)  # 1: written, with warnings; 2: stopped
        avisos = (proceso.stderr or "").strip()
        with self.estado.cerrojo:
            self.estado.segundos = time.perf_counter() - inicio
            self.estado.error = None if ok else (avisos or proceso.stdout.strip() or "error")
            if escrito:
                self.estado.version += 1
        return ok

    def mirar(self, intervalo: float = 0.1, escribir=print, parar: threading.Event | None = None):
        """Build again whenever a watched file differs from what the last build read (until
        ``parar`` is set): an edit saved before this starts, or during a build, is not missed."""
        parar = parar or threading.Event()
        if self.leido is None:
            self.leido = _huella(self.miradas, self.salida)
        while not parar.wait(intervalo):
            antes, ahora = self.leido, _huella(self.miradas, self.salida)
            if ahora == antes:
                continue
            cambiados = sorted({Path(r).name for r in set(ahora) ^ set(antes)}
                               | {Path(r).name for r in ahora if ahora[r] != antes.get(r, ahora[r])})
            ok = self.construir()
            escribir(f"{', '.join(cambiados) or 'cambios'}: "
                     + (f"construido en {self.estado.segundos:.1f} s" if ok
                        else f"con errores ({self.estado.segundos:.1f} s):\n"
                             f"{self.estado.error}"))

    def manejador(self):
        """The request handler: the site's, plus the preview's three addresses and the script
        each page loads."""
        estado = self.estado

        class ManejadorDeVista(Manejador):
            def do_GET(self):
                camino = self.path.split("?", 1)[0]
                if camino == "/_vista/version":
                    with estado.cerrojo:
                        datos = {"version": estado.version, "error": estado.error}
                    return self._enviar(json.dumps(datos).encode(), "application/json")
                if camino == "/_vista/recarga.js":
                    return self._enviar((VISTA / "recarga.js").read_bytes(), "text/javascript")
                if camino.endswith("/sw.js"):
                    return self._enviar((VISTA / "quitar-sw.js").read_bytes(), "text/javascript")
                ruta = Path(self.translate_path(self.path))
                if ruta.is_dir() and camino.endswith("/"):
                    ruta = ruta / "index.html"
                if ruta.suffix == ".html" and ruta.is_file():
                    html = ruta.read_bytes().replace(
                        b"</head>", b'<script src="/_vista/recarga.js" defer></script></head>', 1)
                    return self._enviar(html, "text/html; charset=utf-8")
                return super().do_GET()

            def _enviar(self, datos: bytes, tipo: str):
                self.send_response(200)
                self.send_header("Content-Type", tipo)
                self.send_header("Content-Length", str(len(datos)))
                self.end_headers()
                self.wfile.write(datos)

        return ManejadorDeVista

    def servir(self, puerto: int = 8000):
        return servir_sitio(self.salida, puerto, manejador=self.manejador())


def principal(fuente: Path, conf: Path | None, salida: Path | None, puerto: int) -> int:
    sys.stdout.reconfigure(line_buffering=True)
    vista = Vista(fuente, conf, salida)
    print(f"Construyendo {vista.fuente} en {vista.salida}…", flush=True)
    if not vista.construir():
        print(f"La construcción tiene errores:\n{vista.estado.error}", file=sys.stderr)
        if not (vista.salida / "index.html").is_file():
            return 1
    servidor = vista.servir(puerto)
    host, puerto = servidor.server_address[:2]
    print(f"Vista previa en http://{host}:{puerto}/ (se vuelve a construir al guardar; "
          f"Ctrl+C para parar)", flush=True)
    try:
        vista.mirar()
    except KeyboardInterrupt:
        servidor.shutdown()
    return 0
