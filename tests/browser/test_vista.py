"""The live preview in Chromium: ``python -m widgets servir`` on a new course (``python -m widgets
nuevo``); a lesson edited and saved shows in the open page by itself, a broken one shows its
error at the page's top with the file and line, and the fix clears it. A cell runs in the
preview's page (cross-origin isolated, as the site's server). Nothing leaves 127.0.0.1."""

import threading

import pytest
from playwright.sync_api import expect

from tests.test_autor import con_paquetes
from widgets.autor import nuevo
from widgets.autor.vista import Vista

pytestmark = pytest.mark.navegador


@pytest.fixture
def vista(tmp_path):
    curso = tmp_path / "curso"
    nuevo.crear(curso)
    con_paquetes(curso)
    v = Vista(curso)
    assert v.construir(), v.estado.error
    servidor = v.servir(0)
    parar = threading.Event()
    hilo = threading.Thread(target=v.mirar, kwargs={"parar": parar, "escribir": lambda *_: None})
    hilo.start()
    host, puerto = servidor.server_address[:2]
    yield curso, f"http://{host}:{puerto}/"
    parar.set()
    hilo.join(timeout=60)
    servidor.shutdown()
    servidor.server_close()


def test_an_edit_saved_shows_in_the_open_page_and_an_error_shows_at_its_top(vista, pagina):
    curso, url = vista
    pagina.goto(url + "primera-leccion.html")
    expect(pagina.get_by_role("heading", name="Un modelo que cuenta palabras")).to_be_visible()
    assert pagina.evaluate("crossOriginIsolated")
    celda = pagina.locator("bucle-celda").first
    celda.get_by_role("button", name="Ejecutar", exact=True).click()
    expect(celda.get_by_role("status").first).to_contain_text("3 palabras", timeout=90_000)

    leccion = curso / "primera-leccion.md"
    texto = leccion.read_text(encoding="utf-8")
    leccion.write_text(texto + "\nUn párrafo que escribí ahora mismo.\n", encoding="utf-8")
    expect(pagina.get_by_text("Un párrafo que escribí ahora mismo.")).to_be_visible(timeout=30_000)

    leccion.write_text(texto.replace(":tope: 3", ":tope: cero"), encoding="utf-8")
    aviso = pagina.get_by_role("alert")
    expect(aviso).to_contain_text("La construcción tiene errores", timeout=30_000)
    expect(aviso).to_contain_text(f"{leccion}:22: ERROR: «:tope: cero» no vale")

    leccion.write_text(texto, encoding="utf-8")
    expect(pagina.get_by_role("alert")).to_have_count(0, timeout=30_000)
    expect(pagina.get_by_text("Un párrafo que escribí ahora mismo.")).to_have_count(0)
