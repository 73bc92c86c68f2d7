"""The course served as static hosts serve it: ``widgets.serve`` plus gzip for text.

``widgets.serve`` (what ``make serve`` and the tests use) sends files as they are; GitHub Pages,
Netlify or any CDN compress HTML, CSS, JavaScript and JSON. Lighthouse runs against both,
since its score depends on it (its slow-network simulation). Bench only.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import os
import threading
from pathlib import Path

from widgets.serve import Manejador

COMPRIMIBLES = ("text/", "application/javascript", "application/json", "image/svg+xml")


@functools.lru_cache(maxsize=None)
def _gzip(ruta: str, modificado: float) -> bytes:
    return gzip.compress(Path(ruta).read_bytes(), 6)


class ManejadorComprimido(Manejador):
    def send_head(self):
        ruta = self.translate_path(self.path)
        if os.path.isdir(ruta):
            ruta = os.path.join(ruta, "index.html")
        tipo = self.guess_type(ruta)
        acepta = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (acepta and os.path.isfile(ruta) and tipo.startswith(COMPRIMIBLES)):
            return super().send_head()
        datos = _gzip(ruta, os.path.getmtime(ruta))
        self.send_response(200)
        self.send_header("Content-Type", tipo)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(datos)))
        self.end_headers()
        return io.BytesIO(datos)

    def log_message(self, format, *args):
        pass


def servir_comprimido(directorio) -> str:
    """Serve ``directorio`` on 127.0.0.1 (cross-origin isolated, like ``widgets.serve``), gzip
    for text; return the base URL."""
    manejador = functools.partial(ManejadorComprimido, directory=str(directorio))
    servidor = http.server.ThreadingHTTPServer(("127.0.0.1", 0), manejador)
    servidor.daemon_threads = True
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/" % servidor.server_address[1]
