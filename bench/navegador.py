"""Debian's Chromium for the bench, watched as the browser tests watch it.

Chromium's proxy points at a recorder like the one of tests/conftest.py: loopback requests go
direct, anything else reaches the recorder (which answers 403 and remembers it). Contexts also
record every request of their pages and workers that is not for 127.0.0.1. Lighthouse's Chromium
uses the same proxy. Before measuring, the bench checks that the recorder does see a request
(:meth:`Registro.comprobar`). The bench prints every request recorded; there must be none.
Chromium's own services (the hosts of ``SERVICIOS_DEL_NAVEGADOR``, which it calls whatever the
page does) are counted apart, as the browser tests ignore them.
"""

from __future__ import annotations

import socketserver
import threading
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

from tests.conftest import ARGUMENTOS_CHROMIUM, CHROMIUM, SERVICIOS_DEL_NAVEGADOR, _host

#: A host that cannot exist: the recorder's self-check asks for it (the request stops there).
COMPROBACION = "http://comprobacion-del-registro.invalid/"


class _Grabador(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.peticiones: list[str] = []  # request lines off 127.0.0.1
        self.servicios: list[str] = []  # the same, for Chromium's own services
        super().__init__(("127.0.0.1", 0), _ManejadorGrabador)


class _ManejadorGrabador(socketserver.StreamRequestHandler):
    def handle(self):
        linea = self.rfile.readline(8192).decode("latin-1").strip()
        if linea:
            servicio = _host(linea) in SERVICIOS_DEL_NAVEGADOR
            (self.server.servicios if servicio else self.server.peticiones).append(linea)
        self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


#: The flags of the browser tests.
ARGUMENTOS = ARGUMENTOS_CHROMIUM


class Registro:
    """The proxy recorder, started in a thread; ``fuera`` lists what tried to leave."""

    def __init__(self):
        self.servidor = _Grabador()
        threading.Thread(target=self.servidor.serve_forever, daemon=True).start()
        self.externas: list[str] = []  # seen by Playwright (pages and workers)
        self.comprobado = False

    @property
    def proxy(self) -> str:
        return "http://127.0.0.1:%d" % self.servidor.server_address[1]

    @property
    def fuera(self) -> list[str]:
        """Request lines that reached the proxy, then URLs Playwright saw (pages, workers)."""
        return list(self.servidor.peticiones) + self.externas

    @property
    def servicios(self) -> list[str]:
        """Chromium's own calls to its services (not the pages')."""
        return list(self.servidor.servicios)

    def vigilar(self, context):
        def peticion(request):
            partes = urlsplit(request.url)
            if partes.scheme not in ("data", "blob", "about") and partes.hostname != "127.0.0.1":
                self.externas.append(request.url)
        context.on("request", peticion)

    def comprobar(self, navegador, limite=15.0):
        """A page of an unwatched context asks for :data:`COMPROBACION`: the recorder must see
        it (else it would see nothing at all). The request is then taken off the list."""
        context = navegador.new_context()
        try:
            page = context.new_page()
            page.evaluate("(u) => { fetch(u, { mode: 'no-cors' }).catch(() => 0); }", COMPROBACION)
            host = urlsplit(COMPROBACION).hostname
            inicio = time.monotonic()
            while time.monotonic() - inicio < limite:
                vistas = [x for x in self.servidor.peticiones if _host(x) == host]
                if vistas:
                    for x in vistas:
                        self.servidor.peticiones.remove(x)
                    self.comprobado = True
                    return
                time.sleep(0.1)
            raise SystemExit("the proxy recorder saw no request for %s: the bench could not tell "
                             "whether anything leaves 127.0.0.1" % COMPROBACION)
        finally:
            context.close()

    def cerrar(self):
        self.servidor.shutdown()
        self.servidor.server_close()


@contextmanager
def chromium(registro: Registro):
    """A Playwright browser: Debian's Chromium, headless, through the recorder."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        navegador = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=ARGUMENTOS + [f"--proxy-server={registro.proxy}"],
        )
        try:
            yield navegador
        finally:
            navegador.close()


@contextmanager
def contexto(navegador, registro: Registro, *, init: str | None = None, servicio: bool = False):
    """A fresh context (a new profile: empty caches and storage), watched. The course's service
    worker is blocked unless ``servicio``: the figures without it are the site as it was before."""
    context = navegador.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES",
                                    service_workers="allow" if servicio else "block")
    context.set_default_timeout(120_000)
    registro.vigilar(context)
    if init:
        context.add_init_script(init)
    try:
        yield context
    finally:
        context.close()
