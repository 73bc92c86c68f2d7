"""The foundation in a real browser: the built course serves, and its worker runs Python that
loads the course runtime by URL, at the root and under a sub-path, isolated or not."""

import pytest

from tests.browser.celdas import EJECUTAR_EN_LA_PAGINA

pytestmark = pytest.mark.navegador

PROGRAMA = 'exec(open_url("runtime/entorno.py").read())\nprint(sorted(ENTORNO))'
ESPERADO = "['lista.txt', 'notas.txt', 'recetas/gazpacho.txt', 'recetas/tortilla.txt']"

def ejecutar_en(pagina, url):
    respuesta = pagina.goto(url)
    assert respuesta.ok
    assert "El bucle" in pagina.title()
    return pagina.evaluate(EJECUTAR_EN_LA_PAGINA, PROGRAMA)


@pytest.mark.parametrize("aislamiento", [True, False], ids=["aislada", "sin-aislar"])
def test_the_index_runs_python_that_loads_the_runtime_by_url(sitio, servidor, pagina, aislamiento):
    base = servidor(sitio, aislamiento=aislamiento)
    r = ejecutar_en(pagina, base)
    assert r["resultado"] == {"estado": "ok"}
    assert r["salida"].strip() == ESPERADO
    assert r["aislada"] is aislamiento


def test_the_same_build_works_under_a_sub_path(sitio, servidor, pagina):
    base = servidor(sitio, prefijo="/curso/")
    assert base.endswith("/curso/")
    r = ejecutar_en(pagina, base)
    assert r["salida"].strip() == ESPERADO
    # and nothing is found at the root: the page really lives under /curso/
    assert pagina.request.get(base.replace("/curso/", "/")).status == 404
