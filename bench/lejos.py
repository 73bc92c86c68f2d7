"""A far host for the bench: the course's own server (:mod:`widgets.serve`) whose answers can be
made to cross a slow link, switched on and off while a profile uses it. The origin stays the
same, and with it the profile's HTTP cache, storage and service worker: a reader prepares on a
quick link (the bench's set-up), then opens a page over a slow one.

The link is Lighthouse's mobile one (its simulated throttling's defaults): each request waits one
round trip before its answer, and every answer's body shares one link of 1.6 Mbit/s. It is made
by the server, not by Chromium's network emulation (``Network.emulateNetworkConditions``), which
also delays what the service worker's static routes answer from the browser's own cache (each
file 180 ms later over a 150 ms link, measured on 2026-12-04): only what really comes from the
host crosses this link.
"""

from __future__ import annotations

import contextlib
import threading
import time

from widgets.serve import Manejador, servir

LATENCIA = 0.150  # s: one round trip per request
BAJADA = 1.6e6 / 8  # bytes/s, shared by every answer
BLOQUE = 16 * 1024


class Lejos:
    """``Lejos(carpeta).url`` serves ``carpeta`` on 127.0.0.1; inside ``with lejos.activo():``
    its answers cross the slow link, and the paths asked are kept in ``cruzaron``."""

    def __init__(self, carpeta):
        self.cruzaron: list[str] = []
        self._encendido = False
        self._cerrojo = threading.Lock()
        self._libre = 0.0  # when the link has sent everything it was given
        red = self

        class ManejadorLejano(Manejador):
            def send_head(self):
                if red._encendido:
                    red.cruzaron.append(self.path)
                    time.sleep(LATENCIA)
                return super().send_head()

            def copyfile(self, fuente, destino):
                if not red._encendido:
                    return super().copyfile(fuente, destino)
                while bloque := fuente.read(BLOQUE):
                    red._esperar(len(bloque))
                    destino.write(bloque)
                return None

        self.servidor = servir(carpeta, 0, manejador=ManejadorLejano)
        self.url = "http://127.0.0.1:%d/" % self.servidor.server_address[1]

    def _esperar(self, octetos: int) -> None:
        """Wait until the shared link has carried ``octetos`` more bytes."""
        with self._cerrojo:
            ahora = time.monotonic()
            self._libre = max(ahora, self._libre) + octetos / BAJADA
            fin = self._libre
        time.sleep(max(0.0, fin - time.monotonic()))

    @contextlib.contextmanager
    def activo(self):
        self._encendido = True
        try:
            yield
        finally:
            self._encendido = False
