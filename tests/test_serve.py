"""widgets.serve, the server of `make serve` and of the browser tests: the headers Python needs,
and text compressed as static hosts compress it."""

from __future__ import annotations

import gzip
import socket
import time
import urllib.error
import urllib.request

import pytest

from widgets.serve import Manejador, servir


@pytest.fixture
def base(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>hola</title>" + "<p>hola</p>" * 500)
    (tmp_path / "m.wasm").write_bytes(b"\0asm" + b"\0" * 4000)
    (tmp_path / "curso").mkdir()
    (tmp_path / "curso" / "index.html").write_text("<p>curso</p>")
    srv = servir(tmp_path, 0)
    yield "http://127.0.0.1:%d/" % srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def pedir(url, **cabeceras):
    return urllib.request.urlopen(urllib.request.Request(url, headers=cabeceras))


def test_text_is_gzipped_for_a_browser_that_accepts_it_and_plain_otherwise(base):
    comprimida = pedir(base, **{"Accept-Encoding": "gzip, br"})
    cuerpo = comprimida.read()
    assert comprimida.headers["Content-Encoding"] == "gzip"
    assert int(comprimida.headers["Content-Length"]) == len(cuerpo) < 1000
    assert comprimida.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    plana = pedir(base + "index.html")
    assert plana.headers.get("Content-Encoding") is None
    assert gzip.decompress(cuerpo) == plana.read()


def test_pyodide_binaries_go_as_they_are_so_the_download_can_show_its_progress(base):
    r = pedir(base + "m.wasm", **{"Accept-Encoding": "gzip"})
    assert r.headers["Content-Type"] == "application/wasm"
    assert r.headers.get("Content-Encoding") is None
    assert len(r.read()) == int(r.headers["Content-Length"]) == 4004


def test_a_current_copy_is_revalidated_with_a_304_and_folders_redirect(base):
    r = pedir(base, **{"Accept-Encoding": "gzip"})
    with pytest.raises(urllib.error.HTTPError) as error:
        pedir(base, **{"Accept-Encoding": "gzip", "If-Modified-Since": r.headers["Last-Modified"]})
    assert error.value.code == 304
    assert pedir(base + "curso", **{"Accept-Encoding": "gzip"}).url == base + "curso/"


def test_each_connection_sends_at_once_without_nagles_algorithm(tmp_path):
    """TCP_NODELAY on every connection, as static hosts set it: with Nagle's algorithm on, a
    response's body waited for the browser's delayed ACK of its headers, about 40 ms a file on a
    kept-alive connection."""
    (tmp_path / "a.css").write_text("p{}")
    vistas = []

    class Espia(Manejador):
        def setup(self):
            super().setup()
            vistas.append(self.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    srv = servir(tmp_path, 0, manejador=Espia)
    try:
        assert pedir("http://127.0.0.1:%d/a.css" % srv.server_address[1]).read() == b"p{}"
    finally:
        srv.shutdown()
        srv.server_close()
    assert vistas and all(vistas), vistas


def test_the_benchs_far_host_delays_and_paces_only_while_it_is_on(tmp_path):
    from bench import lejos

    datos = bytes(range(256)) * 160  # 40 KB, sent as they are (not a compressible type)
    (tmp_path / "m.wasm").write_bytes(datos)
    red = lejos.Lejos(tmp_path)
    try:
        assert pedir(red.url + "m.wasm").read() == datos
        assert red.cruzaron == []
        with red.activo():
            inicio = time.monotonic()
            assert pedir(red.url + "m.wasm").read() == datos
            tardo = time.monotonic() - inicio
        # one round trip, then the body at the link's rate
        assert tardo >= lejos.LATENCIA + len(datos) / lejos.BAJADA
        assert red.cruzaron == ["/m.wasm"]
        pedir(red.url + "m.wasm").read()
        assert red.cruzaron == ["/m.wasm"]
    finally:
        red.servidor.shutdown()
        red.servidor.server_close()
