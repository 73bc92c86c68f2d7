"""The harness's own guard: a request that leaves 127.0.0.1, from a page or from its worker, is
caught. Without this test, a broken proxy set-up would make every other browser test pass
vacuously."""

import time

import pytest

from tests.conftest import Vigia

pytestmark = pytest.mark.navegador

PAGINA = """<!doctype html><meta charset="utf-8"><title>fuga</title>
<img src="http://imagenes.example/fuga.png" alt="">
<script src="fuga.js"></script>"""
FUGA_JS = """
new Worker(URL.createObjectURL(new Blob(
  ['fetch("http://trabajador.example/fuga").catch(() => {})'], {type: "text/javascript"})));
"""


def test_requests_off_127_0_0_1_are_recorded(navegador, registro_externo, servidor, tmp_path):
    (tmp_path / "index.html").write_text(PAGINA)
    (tmp_path / "fuga.js").write_text(FUGA_JS)
    base = servidor(tmp_path, aislamiento=False)
    antes = len(registro_externo.peticiones)
    context = navegador.new_context()
    vigia = Vigia(context)
    page = context.new_page()
    page.goto(base)
    limite = time.monotonic() + 20
    while time.monotonic() < limite:
        hosts = " ".join(registro_externo.peticiones[antes:])
        if "imagenes.example" in hosts and "trabajador.example" in hosts:
            break
        page.wait_for_timeout(100)
    context.close()
    recorded = " ".join(registro_externo.peticiones[antes:])
    assert "imagenes.example" in recorded
    assert "trabajador.example" in recorded
    assert any("imagenes.example" in url for url in vigia.externas)
    # Take them out of the record: they were this test's on purpose.
    del registro_externo.peticiones[antes:]
