"""Serve a built course on 127.0.0.1, as a static host would, with the headers Python needs.

    python -m widgets.serve _build/html [--port 8000] [--prefijo /curso/] [--sin-aislamiento] [--csp]

HTTP/1.1 with threads; ``.wasm`` as ``application/wasm`` and ``.mjs`` as JavaScript; text
(HTML, CSS, JavaScript, JSON, SVG, Python) gzip-compressed when the browser accepts it, as static
hosts do (Pyodide's wasm and zip go as they are: the worker shows their download's progress);
by default ``Cross-Origin-Opener-Policy: same-origin`` and ``Cross-Origin-Embedder-Policy:
require-corp`` so that the page is cross-origin isolated and can interrupt Python.
``--sin-aislamiento`` sends neither (like most static hosts); ``--csp`` adds the strict
Content-Security-Policy the site must work under; ``--prefijo`` serves the site under a
sub-path. The tests use :func:`servir`.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import threading
from pathlib import Path
from urllib.parse import urlsplit

#: The strict policy the site must work under. ``connect-src`` adds to the site itself only the
#: loopback addresses, where the reader's own model server runs (lesson «El bucle con un modelo
#: real»): the worker's guard (widgets/front/lib/solo-origen.js) still refuses every one of them
#: but the address the reader typed and confirmed on the page.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; connect-src 'self' http://localhost:* http://127.0.0.1:*"
)

#: Content types sent gzip-compressed to a browser that accepts it.
COMPRIMIBLES = ("text/", "application/javascript", "application/json", "application/manifest+json",
                "image/svg+xml")


@functools.lru_cache(maxsize=256)
def _comprimido(ruta: str, modificado: float, tamano: int) -> bytes:
    return gzip.compress(Path(ruta).read_bytes(), 6)


class Manejador(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as static hosts set it (nginx's tcp_nodelay): with Nagle's algorithm on, a
    # response's body waited for the browser's delayed ACK of its headers, about 40 ms a file on
    # a kept-alive connection (BENCHMARKS.md).
    disable_nagle_algorithm = True
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".py": "text/x-python; charset=utf-8",
        ".json": "application/json",
        ".zip": "application/zip",
        ".webmanifest": "application/manifest+json",
    }
    aislamiento = True
    csp = False
    prefijo = "/"
    registro: list | None = None

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefijo):
            return str(Path(self.directory) / "__fuera_del_prefijo__")
        return super().translate_path("/" + path[len(self.prefijo):])

    def send_head(self):
        ruta = Path(self.translate_path(self.path))
        if ruta.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # its redirect to the folder's URL
            ruta = ruta / "index.html"
        tipo = self.guess_type(str(ruta))
        if ("gzip" not in self.headers.get("Accept-Encoding", "") or not ruta.is_file()
                or not tipo.startswith(COMPRIMIBLES)):
            return super().send_head()
        estado = ruta.stat()
        if self._sin_cambios(estado.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        datos = _comprimido(str(ruta), estado.st_mtime, estado.st_size)
        self.send_response(200)
        self.send_header("Content-Type", tipo)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(datos)))
        self.send_header("Last-Modified", self.date_time_string(int(estado.st_mtime)))
        self.end_headers()
        return io.BytesIO(datos)

    def _sin_cambios(self, modificado: float) -> bool:
        """Whether the request's If-Modified-Since says the browser's copy is current."""
        fecha = self.headers.get("If-Modified-Since")
        if not fecha or self.headers.get("If-None-Match"):
            return False
        try:
            return int(modificado) <= email.utils.parsedate_to_datetime(fecha).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False

    def end_headers(self) -> None:
        if self.aislamiento:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        if self.csp:
            self.send_header("Content-Security-Policy", CSP)
        # Revalidate pages and widgets; the HTTP cache still serves Pyodide on later visits.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if self.registro is not None:
            self.registro.append((self.command, self.path, args[1] if len(args) > 1 else ""))


def servir(directorio, puerto=0, *, prefijo="/", aislamiento=True, csp=False, registro=None,
           manejador=Manejador):
    """Start a server in a thread; return it (``server_address``, ``shutdown()``). ``manejador``
    is :class:`Manejador` or a subclass of it (the bench's far host: bench/lejos.py)."""
    if not prefijo.startswith("/") or not prefijo.endswith("/"):
        raise ValueError("the prefix must start and end with '/'")
    clase = type("ManejadorConfigurado", (manejador,), {
        "aislamiento": aislamiento, "csp": csp, "prefijo": prefijo, "registro": registro,
    })
    servidor = http.server.ThreadingHTTPServer(
        ("127.0.0.1", puerto), functools.partial(clase, directory=str(directorio)))
    servidor.daemon_threads = True
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    return servidor


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directorio", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefijo", default="/")
    parser.add_argument("--sin-aislamiento", action="store_true")
    parser.add_argument("--csp", action="store_true")
    args = parser.parse_args(argv)
    if not (args.directorio / "index.html").is_file():
        parser.error(f"{args.directorio} holds no built site (run 'make html')")
    servidor = servir(args.directorio, args.port, prefijo=args.prefijo,
                      aislamiento=not args.sin_aislamiento, csp=args.csp)
    host, port = servidor.server_address[:2]
    print(f"Serving the course at http://{host}:{port}{args.prefijo}  (Ctrl+C to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        servidor.shutdown()


if __name__ == "__main__":
    main()
