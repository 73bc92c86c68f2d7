"""What the bench measures in the browser, each figure the way a reader meets it.

Times are taken in the page (``performance.now()``: ms since navigation started, or between a
click and what it shows), by a script every page gets before its own (``INICIO``): a
MutationObserver notes when a text appears. Clicks are Playwright's (real input events).
"""

from __future__ import annotations

import gzip
import time
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import expect

ESPERA = 120_000  # ms: a cold start on a busy 2-core machine can take long

#: The first cell's output text on the course; with the bare page's line, the first output.
SALIDA_1 = "bucle-celda .bucle-celda-texto"
PRIMERA = SALIDA_1 + ", #salida"

INICIO = """
(() => {
  const b = (window.__bench = {});
  // The time at which the text of `selector` matches `patron`, having first not matched (so
  // that a text already there, or left from an earlier run, does not count).
  b.cuando = (selector, patron) => new Promise((resolve) => {
    const re = new RegExp(patron);
    let visto = false;
    const mira = () => {
      const el = document.querySelector(selector);
      const si = !!el && re.test(el.textContent);
      if (si && visto) {
        obs.disconnect();
        resolve(performance.now());
      }
      visto ||= !si;
    };
    const obs = new MutationObserver(mira);
    obs.observe(document, { subtree: true, childList: true, characterData: true });
    mira();
  });
  // From navigation to the first output.
  b.primera = b.cuando(%r, "\\\\S");
  // From navigation to the first contentful paint (Chromium's paint timing).
  b.pintura = new Promise((resolve) => {
    new PerformanceObserver((lista) => {
      for (const e of lista.getEntries()) if (e.name === "first-contentful-paint") resolve(e.startTime);
    }).observe({ type: "paint", buffered: true });
  });
  // From navigation to <html data-bucle-arranque> appearing: python.js sets it when the page's
  // Python answered its start, just before its "estado" event says "listo". {t, como}.
  b.arranque = new Promise((resolve) => {
    const mira = () => {
      const como = document.documentElement?.dataset.bucleArranque;
      if (!como) return;
      obs.disconnect();
      resolve({ t: performance.now(), como });
    };
    const obs = new MutationObserver(mira);
    obs.observe(document, { subtree: true, attributes: true, attributeFilter: ["data-bucle-arranque"] });
    mira();
  });
  // The next click on `boton`, then `selector` matching `patron`: {clic, fin}.
  b.armar = (boton, selector, patron) => {
    b.espera = new Promise((resolve) => {
      const alClic = (e) => {
        if (!e.target.closest(boton)) return;
        document.removeEventListener("click", alClic, true);
        const clic = performance.now();
        b.cuando(selector, patron).then((fin) => resolve({ clic, fin }));
      };
      document.addEventListener("click", alClic, true);
    });
  };
})();
""" % PRIMERA

#: With this too, nothing starts Python or loads an editor (both wait for an idle page).
SIN_OCIO = "window.requestIdleCallback = () => 0;"

# The page's Python (the same module instance the widgets use).
PYTHON = 'import(new URL("_static/bucle/python.js", document.baseURI)).then((m) => m.python)'
LISTO = """async () => {
  const python = await %s;  // ready now, or at the next "listo"
  while (python.estado !== "listo")
    await new Promise((r) => python.addEventListener("estado", r, { once: true }));
  return performance.now();
}""" % PYTHON
#: From now on, note when the page's Python last became ready (``window.__bench.listoEn``).
ANOTAR_LISTO = """async () => {
  const python = await %s;
  const b = window.__bench;
  b.listoEn = null;
  b.alEstado ??= ({ detail }) => { b.listoEn = detail === "listo" ? performance.now() : null; };
  python.addEventListener("estado", b.alEstado);
}""" % PYTHON
#: When the page's Python became ready after the noted point: at once if it is, else when it is.
LISTO_EN = """async () => {
  const python = await %s;
  const b = window.__bench;
  while (python.estado !== "listo")
    await new Promise((r) => python.addEventListener("estado", r, { once: true }));
  return b.listoEn ?? performance.now();
}""" % PYTHON
INSTANTANEA_GUARDADA = """async () => {
  const cache = await caches.open("bucle-instantanea");
  return (await cache.keys()).some((r) => r.url.endsWith(".bin"));
}"""


#: The first visit has saved the course (sin-conexion.js) and its service worker controls the page.
GUARDADO = "html[data-bucle-sin-conexion=guardado]"
CONTROLADA = "navigator.serviceWorker.controller !== null"


def celda(page, n):
    return page.locator("bucle-celda").nth(n - 1)


def ejecutar(page, n):
    return celda(page, n).get_by_role("button", name="Ejecutar", exact=True)


# ---- weight ----

@cache
def _gzip(ruta: Path) -> int:
    return len(gzip.compress(ruta.read_bytes(), 6))


def peso(urls, carpeta: Path) -> int:
    """Bytes (gzip, level 6, of each file as served) of the distinct ``urls`` of a site."""
    total = 0
    for url in set(urls):
        ruta = unquote(urlsplit(url).path).lstrip("/")
        archivo = carpeta / (ruta or "index.html")
        if archivo.is_dir():
            archivo = archivo / "index.html"
        if archivo.is_file():
            total += _gzip(archivo)
    return total


def peso_de_lectura(contexto, base, carpeta, pagina) -> tuple[int, list[str]]:
    """What the lesson costs before any Python or editor starts; and any request for Python
    or an editor that happened anyway (it must not). ``contexto(init=…)`` makes a context."""
    urls = []
    with contexto(init=INICIO + SIN_OCIO) as ctx:
        ctx.on("requestfinished", lambda r: urls.append(r.url))
        page = ctx.new_page()
        page.goto(base + pagina, wait_until="networkidle")
    pesados = [u for u in urls if "/pyodide/" in u or u.endswith(("trabajador.js", "editor.js"))]
    return peso(urls, carpeta), pesados


# ---- first output ----

def primera_salida(page, url, curso=True) -> float:
    """Navigate to ``url`` and, on the course, click the first cell's Ejecutar at once; ms
    from navigation to the first output."""
    page.goto(url, wait_until="commit")
    if curso:
        ejecutar(page, 1).click()
    return page.evaluate("window.__bench.primera")


TAMANO_INSTANTANEA = """async () => {
  const cache = await caches.open("bucle-instantanea");
  const clave = (await cache.keys()).find((r) => r.url.endsWith(".bin"));
  return clave ? (await (await cache.match(clave)).arrayBuffer()).byteLength : 0;
}"""


def esperar_instantanea(page, limite=180) -> float:
    """Wait until the page's origin has a snapshot stored; seconds waited."""
    inicio = time.monotonic()
    while not page.evaluate(INSTANTANEA_GUARDADA):
        if time.monotonic() - inicio > limite:
            raise TimeoutError("no snapshot was stored")
        time.sleep(0.25)
    return time.monotonic() - inicio


def clic_y_texto(page, boton, selector, patron, clic) -> float:
    """Arm the page, do ``clic()`` (a click on ``boton``), wait for ``selector`` to match
    ``patron``; ms from click to text."""
    page.evaluate("([b, s, p]) => window.__bench.armar(b, s, p)", [boton, selector, patron])
    clic()
    r = page.evaluate("window.__bench.espera")
    return r["fin"] - r["clic"]


ESTADO = """async () => {
  const python = await %s;
  return [document.documentElement.dataset.bucleArranque || "", python.estado];
}""" % PYTHON


def prevista(page, url, espera=10.0) -> tuple[float, str]:
    """Load ``url``, wait ``espera`` seconds, click the first cell's Ejecutar: ms to output;
    and how Python had started and its state at the click («instantanea, listo»)."""
    page.goto(url, wait_until="load")
    time.sleep(espera)  # the figure's definition: the reader clicks 10 s after the page loaded
    arranque = ", ".join(page.evaluate(ESTADO))
    ms = clic_y_texto(page, ".bucle-celda-ejecutar", SALIDA_1, r"\S", lambda: ejecutar(page, 1).click())
    return ms, arranque


# ---- challenge ----

def poner_codigo(page, codigo):
    """Replace the challenge's code as a reader would: in its editor (which comes once the
    challenge is near the screen, as the reader scrolls to it)."""
    page.locator("bucle-desafio").scroll_into_view_if_needed()
    editor = page.get_by_role("textbox", name="Código del desafío")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(codigo)


def comprobar(page) -> tuple[float, str, float]:
    """Click Comprobar: ms to the verdict («N de M pruebas superadas» or another end), the
    verdict, and ms to the next check being possible: the verdict shown and the page's Python
    ready again (a stopped check may leave it restarting)."""
    boton = page.locator("bucle-desafio").get_by_role("button", name="Comprobar", exact=True)
    page.evaluate(ANOTAR_LISTO)
    ms = clic_y_texto(page, ".bucle-desafio-comprobar", ".bucle-desafio-resumen",
                      r"^(?!Comprobando)\S", boton.click)
    espera = page.evaluate("window.__bench.espera")
    listo = max(espera["fin"], page.evaluate(LISTO_EN)) - espera["clic"]
    return ms, page.locator(".bucle-desafio-resumen").inner_text(), listo


def limite_desafio(page) -> float:
    """The challenge's time limit per test (s), as the page has it."""
    return page.evaluate('document.querySelector("bucle-desafio").datos.limite')


def hay_desafio(page) -> str:
    """Why the challenge cannot be measured on this page, or ''."""
    if not page.locator("bucle-desafio").count():
        return "no <bucle-desafio> on the page"
    boton = page.locator("bucle-desafio").get_by_role("button", name="Comprobar", exact=True)
    try:
        expect(boton).to_be_visible(timeout=10_000)
    except AssertionError:
        return "<bucle-desafio> has no «Comprobar» button yet"
    return ""


# ---- a looping cell, stopped ----

BUCLE_INFINITO = 'print("dando vueltas")\nwhile True:\n    pass\n'

PONER_BUCLE = """(codigo) => {
  const el = document.querySelectorAll("bucle-celda")[1];
  const { bucleCurso, buclePagina, bucleId } = el.dataset;  // lib/almacen.js's claveDe
  const original = JSON.parse(el.querySelector(":scope > script.bucle-datos").textContent).codigo;
  localStorage.setItem(["bucle", bucleCurso, buclePagina, bucleId].join(":"), JSON.stringify({ codigo, original }));
}"""


def preparar_bucle(page, url):
    """Make the page's second cell a loop that never ends (the reader's saved code)."""
    page.goto(url, wait_until="load")
    page.evaluate(PONER_BUCLE, BUCLE_INFINITO)


def detener_bucle(page, url) -> tuple[float, float]:
    """Run the looping second cell, click Detener once it loops, then Ejecutar on the first
    (as a reader would, at once): ms from Detener to Python ready again, and to the first
    cell's output."""
    page.goto(url, wait_until="load")
    page.evaluate(LISTO)
    ejecutar(page, 2).click()
    expect(celda(page, 2).locator(".bucle-celda-texto")).to_have_text("dando vueltas\n", timeout=ESPERA)
    page.evaluate(ANOTAR_DETENER)
    celda(page, 2).get_by_role("button", name="Detener", exact=True).click()
    page.evaluate("() => { window.__bench.salida = window.__bench.cuando(%r, '\\\\S'); }" % SALIDA_1)
    ejecutar(page, 1).click()
    salida = page.evaluate("window.__bench.salida")
    desde, listo = page.evaluate("[window.__bench.detenido, window.__bench.listo]")
    return listo - desde, salida - desde


# When Detener is clicked, and when the page's Python is ready again after it.
ANOTAR_DETENER = """async () => {
  const python = await %s;
  const b = window.__bench;
  b.detenido = b.listo = null;
  document.addEventListener("click", () => (b.detenido = performance.now()), { capture: true, once: true });
  python.addEventListener("estado", ({ detail }) => {
    if (detail === "listo" && b.detenido !== null && b.listo === null) b.listo = performance.now();
  });
}""" % PYTHON


# ---- the service worker: a profile that saved the course, and a second lesson ----

def guardar_curso(page, base, limite=ESPERA):
    """The reader's first visit, on the index: wait until the course is saved for offline use
    and the service worker controls the page."""
    page.goto(base, wait_until="load")
    page.wait_for_selector(GUARDADO, state="attached", timeout=limite)
    page.wait_for_function(CONTROLADA, timeout=limite)


def parar_servicio(page):
    """Stop the service worker (it starts again at the next request), as Chromium does after
    some 30 s idle: a reader who read the last page for a while meets a stopped worker."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("ServiceWorker.enable")
        cdp.send("ServiceWorker.stopAllWorkers")
    finally:
        cdp.detach()


def segunda_leccion(page, url) -> tuple[float, float, str]:
    """Navigate to ``url`` (a lesson this profile never opened): ms from navigation to the
    first contentful paint, to the page's Python ready (it starts when the page is idle), and
    how it started."""
    page.goto(url, wait_until="commit")
    pintura, arranque = page.evaluate("Promise.all([window.__bench.pintura, window.__bench.arranque])")
    return pintura, arranque["t"], arranque["como"]
