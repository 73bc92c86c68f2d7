"""Python's memory snapshot for the browser tests: made once per run, then put in each new
context's Cache API, so that its pages start Python as a returning reader's do.

A fresh browser context that opens a page and runs a cell spends 6.4-8.3 s of CPU when Python
starts normally, and 3.5-4.0 s when it restores the snapshot (this machine, 2 CPUs; /proc/stat
around the visit and 3 s after it, three of each). A fresh context per test means a first start
per test, about 200 of them in a run: so the browser tests start Python as a reader who has been
here before does, from the snapshot (widgets/front/lib/instantanea.js), and only the tests of
the first start (and of the layer itself) start it otherwise (tests/conftest.py, ARRANQUES).

How: the first browser test of the run (:func:`hacer_semilla`, under a lock shared by the xdist
workers) visits a test site with the layer on and waits for its snapshot, then keeps its
stored bytes, key and headers in a folder. Every test server (:class:`ManejadorDePruebas`)
serves that folder under :data:`RUTA`. Before a test's page goes to a site, the snapshot is
copied into its context's Cache API under that site's root (:func:`sembrar`), for every pair of
a context that asks for it and a site the test serves, whichever was opened first
(:func:`con_contexto`, :func:`con_raiz`). A context's pages have the layer off (the reader's switch,
«bucle:sin-instantanea», :data:`APAGAR`) on an origin nothing was copied to: a start there is a
normal one, as before, and never makes a snapshot of its own in the background.
"""

from __future__ import annotations

import base64
import contextlib
import json
import time
from pathlib import Path
from urllib.parse import urlsplit

from widgets.serve import Manejador, servir

#: Where the test servers serve the seed (at the origin's root, whatever the site's prefix).
RUTA = "/__bucle-semilla__/"
#: The seed's folder in this process (set by :func:`hacer_semilla`'s caller: tests/conftest.py).
CARPETA: Path | None = None

#: Marks, in an origin's localStorage, that the seed was copied there.
_SEMBRADA = "bucle-pruebas:sembrada"
#: The context's init script: the layer off on an origin the seed was not copied to.
APAGAR = ('try { if (localStorage.getItem("%s") !== "1") '
          'localStorage.setItem("bucle:sin-instantanea", "1"); } catch {}' % _SEMBRADA)
#: Copies the seed under the site's root, in the page's origin, and turns the layer on there.
_COPIAR = """async ({ raiz, ruta, marca }) => {
  const meta = await (await fetch(ruta + "semilla.json")).json();
  const cache = await caches.open(meta.cache);
  const url = new URL(meta.ruta, raiz).href;
  if (!(await cache.match(url))) {
    const datos = await (await fetch(ruta + "semilla.bin")).blob();
    await cache.put(url, new Response(datos, { headers: meta.cabeceras }));
  }
  localStorage.removeItem("bucle:sin-instantanea");
  localStorage.setItem(marca, "1");
}"""

#: The stored snapshot of the page's site, read out of its Cache API (null until there is one).
_LEER = """async () => {
  const cache = await caches.open("bucle-instantanea");
  const raiz = new URL("./", location.href).href;
  for (const peticion of await cache.keys()) {
    if (!peticion.url.endsWith(".bin")) continue;
    const respuesta = await cache.match(peticion);
    const bytes = new Uint8Array(await respuesta.arrayBuffer());
    let texto = "";
    for (let i = 0; i < bytes.length; i += 32768) texto += String.fromCharCode(...bytes.subarray(i, i + 32768));
    return { ruta: peticion.url.slice(raiz.length), cabeceras: Object.fromEntries(respuesta.headers),
             datos: btoa(texto) };
  }
  return null;
}"""


def hacer_semilla(navegador, sitio_con_celdas: Path, destino: Path) -> None:
    """Visit the site's first page with the snapshot layer on, run its first cell, wait for the
    snapshot the page makes in the background, and keep it in ``destino`` (semilla.bin, and
    semilla.json: its path under the site's root, its headers and the cache's name)."""
    srv = servir(sitio_con_celdas, 0)
    contexto = navegador.new_context(service_workers="block")
    try:
        pagina = contexto.new_page()
        pagina.goto("http://127.0.0.1:%d/" % srv.server_address[1])
        pagina.locator("bucle-celda").first.get_by_role("button", name="Ejecutar", exact=True).click()
        limite = time.monotonic() + 120
        while (leida := pagina.evaluate(_LEER)) is None and time.monotonic() < limite:
            pagina.wait_for_timeout(250)
    finally:
        contexto.close()
        srv.shutdown()
        srv.server_close()
    assert leida is not None, ("no snapshot of Python was stored within 120 s of a first visit, so "
                               "no browser test can start from one: tests/browser/test_instantanea.py "
                               "tests how a snapshot is made")
    assert leida["ruta"].startswith("_static/pyodide/instantanea/"), leida["ruta"]
    destino.mkdir(parents=True, exist_ok=True)
    (destino / "semilla.bin").write_bytes(base64.b64decode(leida["datos"]))
    meta = {"ruta": leida["ruta"], "cabeceras": leida["cabeceras"], "cache": "bucle-instantanea"}
    (destino / "semilla.json").write_text(json.dumps(meta), encoding="utf-8")


class ManejadorDePruebas(Manejador):
    """The course's server (widgets/serve.py) that also serves the seed under :data:`RUTA`,
    left out of the request log a test may read."""

    def translate_path(self, path: str) -> str:
        if path.startswith(RUTA) and CARPETA is not None:
            return str(CARPETA / Path(path[len(RUTA):].split("?")[0]).name)
        return super().translate_path(path)

    def log_message(self, format: str, *args) -> None:
        if not self.path.startswith(RUTA):
            super().log_message(format, *args)


def sembrar(contexto, raiz: str) -> None:
    """Copy the seed into ``contexto``'s Cache API under the site ``raiz`` (its root URL). It is
    done from the context's blank page if it has one (the test's own, which then goes on to the
    site, in the same process), else from a page of its own, closed after."""
    origen = "{0.scheme}://{0.netloc}".format(urlsplit(raiz))
    pagina = next((p for p in contexto.pages if p.url == "about:blank"), None)
    propia = pagina is None
    pagina = pagina or contexto.new_page()
    try:
        pagina.goto(origen + RUTA + "semilla.json")
        pagina.evaluate(_COPIAR, {"raiz": raiz, "ruta": RUTA, "marca": _SEMBRADA})
    finally:
        if propia:
            pagina.close()


#: This test's contexts that start from the seed, and the roots of the sites it serves.
_contextos: list = []
_raices: list[str] = []


def con_contexto(contexto):
    """While open, ``contexto`` gets the seed under every site this test serves."""
    contexto.add_init_script(APAGAR)
    for raiz in _raices:
        sembrar(contexto, raiz)
    return _mientras(_contextos, contexto)


def con_raiz(raiz: str):
    """While open, every context of this test that asks for the seed gets it under ``raiz``."""
    for contexto in _contextos:
        sembrar(contexto, raiz)
    return _mientras(_raices, raiz)


@contextlib.contextmanager
def _mientras(lista: list, elemento):
    """``elemento`` in ``lista`` while the block runs."""
    lista.append(elemento)
    try:
        yield elemento
    finally:
        lista.remove(elemento)
