"""The bridge from the reader's Python to the model, in a real browser (widgets/front/modelo/
servidor.js, the course's service worker, widgets/trabajador/trabajador.py): a cell POSTs with
urllib.request (through pyodide-http, published with the site) to trabajador.url_del_modelo(),
the service worker hands the request to the page that serves a stub model and answers with its
JSON; with no page serving, a 503 that says how to load the model; without the service worker,
one sentence saying to reload; Detener while Python waits. And the reader's own server: a fake
model server on another port of 127.0.0.1, refused by the worker's guard until the reader types
and confirms its address, then reached (200, a 404, a cut response) under the strict CSP.
On the test site tests/sites/modelo/."""

from __future__ import annotations

import http.server
import json
import threading

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import EJECUTAR_EN_LA_PAGINA, ESPERA, Celda
from tests.conftest import contexto_vigilado
from widgets.serve import CSP

pytestmark = pytest.mark.navegador

SIN_MODELO = ("El modelo del curso no está cargado en ninguna página abierta: descárgalo con el "
              "botón «Descargar el modelo» de la lección «El bucle con un modelo real» y vuelve a "
              "ejecutar la celda.")
SIN_SERVICIO = ("RuntimeError: El modelo del curso responde a través del service worker del "
                "curso, que aún no controla esta página: recárgala")
EXTERIOR = "El curso no sale de este sitio"  # the worker's guard (lib/solo-origen.js)


@pytest.fixture(scope="module")
def modelo_html(sitio_de_prueba):
    return sitio_de_prueba("puente")


@pytest.fixture
def con_servicio(navegador, registro_externo):
    with contexto_vigilado(navegador, registro_externo, service_workers="allow") as context:
        yield context


def controlada(page):
    """Wait until the course's service worker has saved the site and controls the page."""
    page.wait_for_selector("html[data-bucle-sin-conexion=guardado]", state="attached", timeout=ESPERA)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=ESPERA)


def test_the_site_publishes_the_pinned_pyodide_http_wheel(modelo_html):
    from widgets.construccion.ruedas_pyodide import DE_LA_PAGINA, fijadas, sha256

    rueda = modelo_html / "_static" / "bucle" / "ruedas" / "pyodide_http-0.2.2-py3-none-any.whl"
    assert fijadas(DE_LA_PAGINA) == {sha256(rueda): "pyodide-http==0.2.2"}


def test_a_cell_posts_to_the_course_model_through_the_service_worker(modelo_html, servidor, con_servicio):
    posts = []
    con_servicio.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    base = servidor(modelo_html)
    # (No memory snapshot, as in every test that does not ask for it: its throwaway worker's
    # downloads would be cut when the service worker is stopped below, which a browser never does
    # to a busy one.)
    sin = con_servicio.new_page()
    sin.goto(base + "index.html")
    controlada(sin)

    # No page serves the model: a 503 whose message says how to load it.
    defs, llamada = Celda(sin, 1), Celda(sin, 2)
    llamada.correr()
    expect(defs.texto).to_have_text("listo\n")
    expect(llamada.texto).to_have_text(f"503 {SIN_MODELO}\n")

    # Another page serves it: the same cell, on the page without a model, gets its answer.
    sirve = con_servicio.new_page()
    sirve.goto(base + "sirve.html")
    sirve.wait_for_function("window.sirviendo === true && navigator.serviceWorker.controller !== null")
    llamada.correr()
    expect(llamada.texto).to_have_text("200 [{'type': 'text', 'text': 'eco: hola'}]\n")
    mensajes = [p for p in posts if p.url == base + "modelo/v1/messages"]
    assert len(mensajes) == 2, [p.url for p in posts]
    assert json.loads(mensajes[-1].post_data) == {
        "model": "prueba", "max_tokens": 8, "messages": [{"role": "user", "content": "hola"}]}
    assert mensajes[-1].headers["content-type"] == "application/json"
    respuesta = mensajes[-1].response()
    assert respuesta.status == 200 and respuesta.from_service_worker
    assert respuesta.headers["content-type"] == "application/json"
    # On the serving page itself.
    Celda(sirve, 2).correr()
    expect(Celda(sirve, 2).texto).to_have_text("200 [{'type': 'text', 'text': 'eco: hola'}]\n")
    assert sirve.evaluate("[window.atendidas.length, window.preguntada]") == [2, 0]

    # The browser stops an idle service worker (both Pythons have started: nothing is being
    # downloaded through it), which forgets who serves: it asks the pages.
    cdp = con_servicio.new_cdp_session(sirve)
    cdp.send("ServiceWorker.enable")
    cdp.send("ServiceWorker.stopAllWorkers")
    llamada.correr()
    expect(llamada.texto).to_have_text("200 [{'type': 'text', 'text': 'eco: hola'}]\n")
    assert sirve.evaluate("[window.atendidas.length, window.preguntada]") == [3, 1]

    # Detener while Python waits for the model.
    lenta = Celda(sirve, 4)
    lenta.ejecutar()
    sirve.wait_for_function("window.atendidas.some(p => p.model === 'lento')", timeout=ESPERA)
    expect(lenta.texto).to_contain_text("esperando al modelo")
    sirve.wait_for_timeout(300)
    lenta.boton("Detener").click()
    lenta.esperar_fin()
    expect(lenta.salida).to_contain_text("Ejecución detenida.")
    expect(lenta.salida).not_to_contain_text("reiniciado")
    expect(lenta.salida).not_to_contain_text("no llega aquí")
    assert sirve.evaluate("window.abortadas") == 1
    # The same Python goes on.
    Celda(sirve, 2).correr()
    expect(Celda(sirve, 2).texto).to_have_text("200 [{'type': 'text', 'text': 'eco: hola'}]\n")


class _ServidorPropio(http.server.BaseHTTPRequestHandler):
    """A model server of the reader's: CORS for any origin; model "bien" → 200, "no-existe" → 404
    with a protocol error, "corto" → a response cut at max_tokens."""

    protocol_version = "HTTP/1.1"
    vistas: list = []
    cuerpos: list = []  # each POST's JSON, whole

    def _cabeceras(self, estado, largo=0):
        self.send_response(estado)
        self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin", "*"))
        self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")
        # the headers the request asks for (the adapter's anthropic-version too), as permissive
        # servers answer a preflight
        self.send_header("Access-Control-Allow-Headers",
                         self.headers.get("Access-Control-Request-Headers", "content-type"))
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(largo))
        self.end_headers()

    def do_OPTIONS(self):
        self.vistas.append(("OPTIONS", self.path))
        self._cabeceras(204)

    def do_POST(self):
        cuerpo = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.vistas.append(("POST", self.path, cuerpo["model"]))
        self.cuerpos.append(cuerpo)
        if cuerpo["model"] == "no-existe":
            estado, datos = 404, {"type": "error", "error": {"type": "not_found_error",
                                                            "message": "no tengo el modelo no-existe"}}
        else:
            estado, datos = 200, {"type": "message", "role": "assistant", "content": [],
                                  "stop_reason": "max_tokens" if cuerpo["model"] == "corto" else "end_turn",
                                  "usage": {"input_tokens": 1, "output_tokens": 0}}
        salida = json.dumps(datos).encode()
        self._cabeceras(estado, len(salida))
        self.wfile.write(salida)

    def log_message(self, *args):
        pass


MODULOS_DE_LA_RED = ("import sys\nprint('pyodide_http' in sys.modules, 'urllib.request' in sys.modules and "
                     "sys.modules['urllib.request'].urlopen.__module__)")


def modulos_de_la_red_en_reposo(page):
    """What the worker has imported for HTTP, asked again (each ask keeps it busy a moment)
    until it has been idle long enough to prepare it, or for about 5 s."""
    for _ in range(10):
        modulos = page.evaluate(EJECUTAR_EN_LA_PAGINA, MODULOS_DE_LA_RED)["salida"].strip()
        if modulos.startswith("True"):
            break
        page.wait_for_timeout(500)
    return modulos


# A normal start: Python's snapshot imported urllib.request before its dump (instantanea.js, PRECARGA).
@pytest.mark.arranque("normal")
def test_a_page_that_serves_the_model_imports_what_a_request_needs_while_idle(modelo_html, servidor, pagina):
    base = servidor(modelo_html)
    pagina.goto(base + "sirve.html")
    pagina.wait_for_function("window.sirviendo === true")
    # No cell has run: the worker installed pyodide-http and patched urllib.request by itself.
    assert modulos_de_la_red_en_reposo(pagina) == "True pyodide_http._urllib"
    # A page that does not serve it (and has no server of the reader's) imports none of it.
    pagina.goto(base + "index.html")
    assert modulos_de_la_red_en_reposo(pagina) == "False False"


@pytest.fixture
def servidor_propio():
    _ServidorPropio.vistas, _ServidorPropio.cuerpos = [], []
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ServidorPropio)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address[1], _ServidorPropio.vistas
    srv.shutdown()
    srv.server_close()


def test_without_its_service_worker_the_course_model_says_to_reload_and_the_own_server_needs_confirming(
        modelo_html, servidor, pagina, servidor_propio):
    # (The default context blocks service workers: the page is never controlled.)
    puerto, vistas = servidor_propio
    respuesta = pagina.goto(servidor(modelo_html, csp=True) + f"sirve.html?puerto={puerto}")
    assert respuesta.headers["content-security-policy"] == CSP
    violaciones = []
    pagina.on("console", lambda m: violaciones.append(m.text)
              if "Content Security Policy" in m.text or "Refused to" in m.text else None)
    pagina.wait_for_function("window.sirviendo === true")
    celda = Celda(pagina, 3)
    celda.correr()  # cells 1 and 2 run first
    expect(Celda(pagina, 2).texto).to_contain_text(SIN_SERVICIO)
    assert pagina.evaluate("window.atendidas.length") == 0
    texto = celda.texto.inner_text()
    assert texto.startswith("propio: None\n"), texto
    for modelo in ("bien", "no-existe", "corto"):
        assert f"{modelo} JsException: TypeError: {EXTERIOR}" in texto, texto
    assert vistas == []

    control = pagina.get_by_role("region", name="Tu propio servidor")
    campo = control.get_by_role("textbox", name="Dirección de tu servidor")
    campo.fill("ftp://127.0.0.1")
    control.get_by_role("button", name="Usar este servidor").click()
    expect(control.get_by_role("status")).to_have_text(
        "La dirección debe empezar por http:// o https://, no por ftp://.")
    direccion = f"http://127.0.0.1:{puerto}"
    campo.fill(direccion + "/")
    control.get_by_role("button", name="Usar este servidor").click()
    expect(control.get_by_role("status")).to_contain_text(f"¿Enviar las peticiones de Python a {direccion}?")
    control.get_by_role("button", name="Sí, usarlo").click()
    expect(control.get_by_role("status")).to_contain_text(f"Python puede enviar peticiones a {direccion}/v1/messages")

    celda.correr()
    expect(celda.texto).to_have_text(
        f"propio: {direccion}/v1/messages\n"
        "bien 200 end_turn\n"
        "no-existe 404 no tengo el modelo no-existe\n"
        "corto 200 max_tokens\n"
        f"otro puerto JsException: TypeError: {EXTERIOR}: no hay acceso a la red desde Python.\n")
    assert [v for v in vistas if v[0] == "POST"] == [
        ("POST", "/v1/messages", "bien"), ("POST", "/v1/messages", "no-existe"),
        ("POST", "/v1/messages", "corto")]
    assert violaciones == []

    # Forgotten: refused again.
    control.get_by_role("button", name="Dejar de usarlo").click()
    expect(control.get_by_role("status")).to_contain_text("Ningún servidor propio")
    antes = len(vistas)
    celda.correr()
    expect(celda.texto).to_contain_text("propio: None\n")
    expect(celda.texto).to_contain_text(f"bien JsException: TypeError: {EXTERIOR}")
    assert len(vistas) == antes
