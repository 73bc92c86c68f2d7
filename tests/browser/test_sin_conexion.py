"""The course offline, updated and isolated by its service worker (widgets/construccion/sin_conexion.py,
widgets/front/servicio/sw.js, widgets/front/sin-conexion.js), in a real browser.

Every other browser test blocks service workers (tests/conftest.py); these allow them. "Offline"
is Playwright's ``context.set_offline(True)``, and the server also records every request, so
that a test can tell that nothing reached it once the browser was offline.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
import time

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import Celda
from tests.browser.test_instantanea import esperar_instantanea
from tests.conftest import ARGUMENTOS_CHROMIUM, CHROMIUM, SITES, construir, contexto_vigilado
from widgets.serve import Manejador

pytestmark = [pytest.mark.navegador, pytest.mark.arranque("instantanea")]

ESPERA = 60_000
LECCION = "el-bucle.html"
NUEVA = "Esta frase solo está en la segunda versión del curso."
GUARDADO = "html[data-bucle-sin-conexion=guardado]"


@pytest.fixture
def con_servicio(navegador, registro_externo):
    """A fresh context in which the course's service worker may register."""
    with contexto_vigilado(navegador, registro_externo, arranque="instantanea", service_workers="allow") as context:
        yield context


#: The URLs of the page (its navigation, scripts, styles, preloads) that its service worker's
#: static routes did not answer from their cache (servicio/rutas.js; Resource Timing's
#: workerFinalSourceType). Each URL is judged by its first entry: a later one is the page
#: reusing it (a module imported after its modulepreload), which reaches nothing.
NO_POR_RUTAS = """() => {
  const primeras = new Map();
  for (const e of [performance.getEntriesByType("navigation")[0],
                   ...performance.getEntriesByType("resource")]) {
    if (["navigation", "script", "link", "css", "other"].includes(e.initiatorType) && !primeras.has(e.name))
      primeras.set(e.name, e);
  }
  return [...primeras.values()].filter((e) => e.workerFinalSourceType !== "cache").map((e) => e.name);
}"""

#: Put at the head of the site's sw.js: a browser without static routes (the worker answers all).
SIN_RUTAS = "delete InstallEvent.prototype.addRoutes;\n"


def esperar_guardado(page):
    """Wait until the first visit has saved the course and its worker controls the page."""
    page.wait_for_selector(GUARDADO, state="attached", timeout=ESPERA)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=ESPERA)


@pytest.mark.parametrize("rutas", [True, False], ids=["rutas", "sin-rutas"])
def test_after_the_first_visit_the_whole_course_works_offline(sitio, servidor, con_servicio, tmp_path,
                                                              rutas):
    if not rutas:  # the service worker's fetch handler answers everything, as in other browsers
        sitio = shutil.copytree(sitio, tmp_path / "sitio")
        (sitio / "sw.js").write_text(SIN_RUTAS + (sitio / "sw.js").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    registro = []
    base = servidor(sitio, registro=registro)
    page = con_servicio.new_page()
    page.goto(base)  # the index: no Python on it
    nota = page.locator(".bucle-sin-conexion")
    expect(nota).to_contain_text("Curso guardado", timeout=ESPERA)
    esperar_guardado(page)
    print(f"\n[sin conexión] saved: {nota.inner_text().splitlines()[0]}")

    con_servicio.set_offline(True)
    atendidas = len(registro)
    page.goto(base + LECCION)  # never visited
    assert page.title().startswith("El bucle")
    assert page.evaluate("crossOriginIsolated") is True
    no_por_rutas = page.evaluate(NO_POR_RUTAS)
    if rutas:  # the browser answered the page and its files itself, isolated
        assert no_por_rutas == []
    else:
        assert base + LECCION in no_por_rutas
    uno = Celda(page, 1)
    uno.correr()
    expect(uno.texto).to_contain_text("M[0] sistema")

    desafio = page.locator("bucle-desafio").first
    desafio.get_by_role("button", name="Comprobar", exact=True).click()
    expect(desafio).to_contain_text(re.compile(r"\d+ de \d+ pruebas superadas"), timeout=ESPERA)

    page.reload()
    expect(page.locator("bucle-celda").first).to_be_visible()
    assert page.title().startswith("El bucle")

    # JupyterLite is not saved: its link says so offline, and so does its page.
    enlace = page.get_by_role("link", name="Abrir en JupyterLite")
    enlace.click()
    expect(page.get_by_text("JupyterLite la necesita")).to_be_visible()
    assert len(con_servicio.pages) == 1  # no new tab opened on the browser's offline page
    page.goto(base + "lite/notebooks/index.html?path=leccion.ipynb")
    expect(page.get_by_role("heading", name="Sin conexión")).to_be_visible()
    expect(page.get_by_text("JupyterLite necesita conexión")).to_be_visible()
    # Only the browser's own update checks of sw.js get through (Playwright's offline mode does
    # not cover them): no page, file or fetch of the course did.
    llegadas = [r for r in registro[atendidas:] if r[1] != "/sw.js"]
    assert llegadas == [], "requests reached the server while offline"


def _leccion_cambiada(tmp_path):
    """The small course of tests/sites/celdas with its lesson «bucle» changed: one sentence
    added after its title, and a line at the end of its first cell."""
    fuente = tmp_path / "lecciones"
    shutil.copytree(SITES / "celdas", fuente, ignore=shutil.ignore_patterns("conf.py", "__pycache__"))
    leccion = fuente / "bucle.md"
    texto = leccion.read_text(encoding="utf-8")
    primer_parrafo = texto.index("\n\n", texto.index("# ")) + 2
    texto = texto[:primer_parrafo] + NUEVA + "\n\n" + texto[primer_parrafo:]
    fin_de_la_celda = texto.index("\n```", texto.index("```{celda}"))
    texto = texto[:fin_de_la_celda] + "\n# (segunda versión)" + texto[fin_de_la_celda:]
    leccion.write_text(texto, encoding="utf-8")
    return fuente


def test_a_new_build_is_offered_on_the_next_visit_and_the_readers_code_stays(sitio_de_prueba, servidor,
                                                                              con_servicio, tmp_path):
    # A small course (its build takes seconds, the whole course's a minute): its first build
    # served, then its second, with one lesson changed, built with the same conf.py.
    servido = tmp_path / "servido"
    shutil.copytree(sitio_de_prueba("celdas"), servido)
    nueva = tmp_path / "nueva"
    construir(_leccion_cambiada(tmp_path), nueva, SITES / "celdas")
    base = servidor(servido)

    page = con_servicio.new_page()
    page.goto(base + "bucle.html")
    esperar_guardado(page)
    uno = Celda(page, 1)
    uno.lineas()  # the editor is there
    uno.editor.click()
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type("\n# lo mío")
    expect(uno.modificada).to_be_visible()

    copias = "async () => (await caches.keys()).filter((n) => n.startsWith('bucle-rutas-')).sort()"
    antes = page.evaluate(copias)
    shutil.copytree(nueva, servido, dirs_exist_ok=True)  # the host now serves the new build
    page.reload()
    expect(page.get_by_text(NUEVA)).to_have_count(0)  # this visit: still the saved version
    aviso = page.locator(".bucle-sin-conexion")
    expect(aviso).to_contain_text("Hay una versión nueva del curso", timeout=ESPERA)
    with page.expect_navigation():
        aviso.get_by_role("button", name="Actualizar").click()
    expect(page.get_by_text(NUEVA)).to_be_visible()
    # The reader's code is still theirs, and the page still sees that the lesson's changed.
    assert uno.lineas()[-1] == "# lo mío"
    expect(uno.modificada).to_be_visible()
    expect(uno.elemento.get_by_text("El código de esta celda ha cambiado en la lección")).to_be_visible()
    # The new version's static routes answered the page; the old version's copy is gone, but for
    # the interpreter's, unchanged, in a cache of its own revision (with V8's code beside it).
    assert page.evaluate(NO_POR_RUTAS) == []
    despues = page.evaluate(copias)
    del_archivo = [n for n in antes if n.startswith("bucle-rutas-archivo-")]
    assert len(del_archivo) == 1 and del_archivo[0] in despues
    listas_antes = [n for n in antes if n not in del_archivo]
    listas = [n for n in despues if n not in del_archivo]
    assert len(listas_antes) == 1 and len(listas) == 1 and listas != listas_antes


def test_on_a_host_without_isolation_headers_detener_interrupts_after_the_first_load(
        sitio_de_prueba, servidor, con_servicio):
    base = servidor(sitio_de_prueba("celdas"), aislamiento=False)
    page = con_servicio.new_page()
    page.goto(base + "bucle.html")
    assert page.evaluate("crossOriginIsolated") is False  # the host sends no COOP/COEP
    esperar_guardado(page)

    page.reload()
    assert page.evaluate("crossOriginIsolated") is True  # the static routes' copy has the headers
    assert page.evaluate(NO_POR_RUTAS) == []
    dos, tres = Celda(page, 2), Celda(page, 3)
    dos.ejecutar()
    expect(dos.texto).to_have_text("Dando vueltas…\n", timeout=ESPERA)
    dos.boton("Detener").click()
    dos.esperar_fin()
    expect(dos.salida).to_contain_text("Ejecución detenida.")
    expect(dos.salida).not_to_contain_text("reiniciado")
    tres.correr()  # what the interrupted cell defined is still there
    expect(tres.texto).to_have_text("vueltas > 0: True\n")


#: Chromium's trace events of V8's code cache for a wasm streamed from a response (Blink's
#: v8_wasm_response_extensions.cc): "v8.wasm.moduleCacheHit" (with the url) when a compile reads
#: back the code V8 wrote beside the response's cache entry on an earlier visit.
CODIGO_WASM = "disabled-by-default-devtools.timeline"

#: Resolves once the stored snapshot was made through the service worker (its maker fetched
#: Pyodide's interpreter there), false after `limite` ms.
HECHA_POR_EL_SERVICIO = """async (limite) => {
  const fin = performance.now() + limite;
  while (performance.now() < fin) {
    const cache = await caches.open("bucle-instantanea");
    for (const peticion of await cache.keys()) {
      if ((await cache.match(peticion)).headers.get("X-Bucle-Por-El-Servicio") === "1") return true;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}"""


def eventos_wasm(navegador, page, hacer) -> list[tuple[str, str]]:
    """(name, url) of the wasm code cache's trace events while ``hacer()`` runs."""
    navegador.start_tracing(page=page, categories=[CODIGO_WASM])
    try:
        hacer()
    finally:
        eventos = json.loads(navegador.stop_tracing())["traceEvents"]
    return [(e["name"], (e.get("args") or {}).get("url", "")) for e in eventos
            if e.get("name", "").startswith("v8.wasm.")]


@pytest.mark.parametrize("rutas", [True, False], ids=["rutas", "sin-rutas"])
def test_once_saved_v8_keeps_the_interpreter_it_compiled_for_the_next_visit(
        sitio_de_prueba, servidor, navegador, con_servicio, tmp_path, rutas):
    sitio = sitio_de_prueba("celdas")
    if not rutas:
        sitio = shutil.copytree(sitio, tmp_path / "sitio")
        (sitio / "sw.js").write_text(SIN_RUTAS + (sitio / "sw.js").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    base = servidor(sitio)
    page = con_servicio.new_page()
    # A reader's first visit: Python starts (its snapshot made) before the course is saved, so
    # nothing of it went through the service worker.
    page.goto(base)
    Celda(page, 1).correr()
    esperar_guardado(page)
    esperar_instantanea(page)
    # The next visit restores Python, and has its snapshot made again through the service worker.
    page.goto(base + "bucle.html")
    uno = Celda(page, 1)
    uno.correr()
    expect(uno.texto).to_have_text("antes\n")
    assert page.evaluate(HECHA_POR_EL_SERVICIO, 120_000), "the snapshot was not made again"

    # The visit after it: V8 reads back the interpreter's compiled code.
    page.goto("about:blank")

    def visita():
        page.goto(base + "bucle.html")
        uno.correr()
        expect(uno.texto).to_have_text("antes\n")

    eventos = eventos_wasm(navegador, page, visita)
    assert ("v8.wasm.moduleCacheHit", base + "_static/pyodide/pyodide.asm.wasm") in eventos, eventos


class _Lento(Manejador):
    """Serves Pyodide's files slowly, so that saving the course lasts long enough to refuse."""

    def send_head(self):
        if "/_static/pyodide/" in self.path:
            time.sleep(1.0)
        return super().send_head()


def test_a_reader_who_says_no_gets_the_course_online_as_before(sitio, con_servicio):
    servidor = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Lento, directory=str(sitio)))
    servidor.daemon_threads = True
    threading.Thread(target=servidor.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % servidor.server_address[1]
    try:
        page = con_servicio.new_page()
        page.goto(base)
        nota = page.locator(".bucle-sin-conexion")
        expect(nota).to_contain_text("Guardando el curso para usarlo sin conexión…", timeout=ESPERA)
        expect(nota).to_contain_text(re.compile(r"\d+ de \d+ MB"))
        nota.get_by_role("button", name="No guardar").click()
        expect(nota).to_contain_text("No se guardará el curso")
        page.wait_for_function("""async () =>
            (await navigator.serviceWorker.getRegistrations()).length === 0 &&
            !(await caches.keys()).some((n) => n.startsWith("workbox-precache"))""", timeout=ESPERA)
        assert page.evaluate("localStorage.getItem('bucle:sin-conexion')") == "no"
        # the worker's progress messages sent before it was told to stop do not bring the note back
        expect(nota).to_contain_text("No se guardará el curso")

        page.goto(base + LECCION)
        uno = Celda(page, 1)
        uno.correr()
        expect(uno.texto).to_contain_text("M[0] sistema")
        page.wait_for_timeout(3000)  # longer than the page waits before it would register
        assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
        expect(page.locator(".bucle-sin-conexion")).to_have_count(0)
    finally:
        servidor.shutdown()
        servidor.server_close()


def test_a_file_changed_on_its_way_is_never_kept(sitio_de_prueba, servidor, con_servicio, tmp_path):
    """The install fetches each file with its integrity (manifiesto.mjs): a host that serves a
    copy other than the one built (here the lesson's page, one byte more) saves nothing."""
    sitio = shutil.copytree(sitio_de_prueba("celdas"), tmp_path / "sitio")
    pagina = sitio / "bucle.html"
    pagina.write_bytes(pagina.read_bytes() + b"\n")
    base = servidor(sitio)
    page = con_servicio.new_page()
    page.goto(base)
    nota = page.locator(".bucle-sin-conexion")
    expect(nota).to_contain_text("No se pudo guardar el curso para usarlo sin conexión", timeout=ESPERA)
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration())?.active ?? null") is None
    guardadas = page.evaluate("""async () => {
      const rutas = [];
      for (const nombre of await caches.keys()) {
        for (const peticion of await (await caches.open(nombre)).keys()) rutas.push(new URL(peticion.url).pathname);
      }
      return rutas;
    }""")
    assert "/bucle.html" not in guardadas
    Celda(page, 1).correr()  # the course works online as before
    expect(Celda(page, 1).texto).to_have_text("hola\n")


def test_chromium_finds_the_course_installable(sitio, servidor, navegador, registro_externo, tmp_path):
    """Installable as an app, by Chromium's own checks (in a real profile: the other tests'
    contexts are incognito, where nothing installs)."""
    base = servidor(sitio)
    proxy = "http://127.0.0.1:%d" % registro_externo.server_address[1]
    antes = len(registro_externo.peticiones)
    context = navegador.browser_type.launch_persistent_context(
        tmp_path / "perfil", executable_path=CHROMIUM, headless=True,
        args=[*ARGUMENTOS_CHROMIUM, f"--proxy-server={proxy}"], service_workers="allow")
    try:
        page = context.new_page()
        page.goto(base)
        cdp = context.new_cdp_session(page)
        manifiesto = cdp.send("Page.getAppManifest")
        assert manifiesto["errors"] == [] and manifiesto["url"] == base + "manifest.webmanifest"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()
    assert registro_externo.peticiones[antes:] == []
