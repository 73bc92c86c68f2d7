"""The worker's memory snapshot (widgets/front/lib/instantanea.js), in a real browser.

The first visit starts Python normally and, once the page is idle, a throwaway worker stores a
snapshot in the Cache API; later starts restore from it. The first test walks that whole way; the
others start where a snapshot is already stored, the run's seed (tests/semilla.py, the mark
``arranque("sembrada")``), which is one such snapshot. How a start went is read from
``<html data-bucle-arranque>`` ("normal" or "instantanea"), never from timing. Site:
tests/sites/instantanea/ (cells: «hola», a random number, the runtime, a loop that never ends).
"""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.navegador, pytest.mark.arranque("instantanea")]

ESPERA = 60_000  # ms: Pyodide takes a few seconds to start on a small machine
CACHE = "bucle-instantanea"

# Resolves once a snapshot is stored (checked every 250 ms), false after `limite` ms.
ESPERAR_INSTANTANEA = """async (limite) => {
  const fin = performance.now() + limite;
  while (performance.now() < fin) {
    const cache = await caches.open(%r);
    if ((await cache.keys()).some((r) => r.url.endsWith(".bin"))) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}""" % CACHE

# Replace the stored snapshot: `modo` "bytes" flips bytes and keeps the stored SHA-256 (a
# corrupt file); "basura" stores garbage with its own, matching SHA-256 (it verifies, and
# Pyodide cannot restore it).
ESTROPEAR = """async (modo) => {
  const cache = await caches.open(%r);
  const peticion = (await cache.keys()).find((r) => r.url.endsWith(".bin"));
  const respuesta = await cache.match(peticion);
  let bytes = new Uint8Array(await respuesta.arrayBuffer());
  const cabeceras = new Headers(respuesta.headers);
  if (modo === "bytes") {
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 4096; i++) bytes[i] ^= 0xff;
  } else {
    bytes = crypto.getRandomValues(new Uint8Array(1 << 16));
    const sha = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    cabeceras.set("X-Bucle-Sha256", Array.from(sha, (b) => b.toString(16).padStart(2, "0")).join(""));
  }
  await cache.put(peticion, new Response(bytes, { headers: cabeceras }));
  return peticion.url;
}""" % CACHE

GUARDADAS = """async () => {
  const cache = await caches.open(%r);
  return (await cache.keys()).map((r) => r.url.split("/").pop());
}""" % CACHE


class Celda:
    def __init__(self, page, n):
        self.elemento = page.locator("bucle-celda").nth(n - 1)
        self.texto = self.elemento.locator(".bucle-celda-texto")

    def boton(self, nombre):
        return self.elemento.get_by_role("button", name=nombre, exact=True)

    def correr(self):
        self.boton("Ejecutar").click()
        expect(self.boton("Detener")).to_be_hidden(timeout=ESPERA)


@pytest.fixture(scope="module")
def instantanea_html(sitio_de_prueba):
    return sitio_de_prueba("instantanea")


def arranque(page):
    return page.locator("html").get_attribute("data-bucle-arranque")


def esperar_instantanea(page):
    """Until the throwaway worker has stored the snapshot (it waits for the page to be idle)."""
    assert page.evaluate(ESPERAR_INSTANTANEA, 120_000), "no snapshot was stored"


def primera_visita(page, base):
    page.goto(base)
    uno = Celda(page, 1)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    assert arranque(page) == "normal"
    esperar_instantanea(page)


def visita_con_instantanea(page, base):
    """A visit where a snapshot is stored (a test marked ``arranque("sembrada")``): Python
    restores it."""
    page.goto(base)
    uno = Celda(page, 1)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    assert arranque(page) == "instantanea"


def numero(celda):
    texto = celda.texto.inner_text().strip()
    valor = float(texto)
    assert 0 <= valor < 1, texto
    return valor


def test_a_later_visit_restores_python_from_the_snapshot_and_the_runtime_loads(
        instantanea_html, servidor, pagina):
    base = servidor(instantanea_html)
    primera_visita(pagina, base)

    pagina.reload()
    uno, tres = Celda(pagina, 1), Celda(pagina, 3)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    assert arranque(pagina) == "instantanea"
    # Files written before the snapshot are not in it, and the runtime is fetched after the
    # restore: the lesson's line still works.
    tres.correr()
    expect(tres.texto).to_have_text("pan, leche, patatas\n")


@pytest.mark.arranque("sembrada")  # a snapshot is stored: the run's seed (tests/semilla.py)
def test_random_differs_between_restored_workers_and_a_restart_restores_too(
        instantanea_html, servidor, pagina):
    # Without cross-origin isolation Detener restarts the worker: from the snapshot.
    base = servidor(instantanea_html, aislamiento=False)
    visita_con_instantanea(pagina, base)
    dos, bucle = Celda(pagina, 2), Celda(pagina, 4)
    numeros = []
    for _ in range(2):
        pagina.reload()
        dos.correr()
        assert arranque(pagina) == "instantanea"
        numeros.append(numero(dos))

    bucle.boton("Ejecutar").click()
    expect(bucle.texto).to_have_text("dando vueltas\n", timeout=ESPERA)
    pagina.evaluate("document.documentElement.removeAttribute('data-bucle-arranque')")
    bucle.boton("Detener").click()
    expect(bucle.boton("Detener")).to_be_hidden(timeout=ESPERA)
    dos.correr()
    assert arranque(pagina) == "instantanea"
    numeros.append(numero(dos))
    assert len(set(numeros)) == 3, f"random restored frozen: {numeros}"


@pytest.mark.arranque("sembrada")  # a snapshot is stored: the run's seed (tests/semilla.py)
@pytest.mark.parametrize("modo", ["bytes", "basura"])
def test_a_damaged_snapshot_falls_back_to_a_normal_start(instantanea_html, servidor, pagina, modo):
    base = servidor(instantanea_html)
    visita_con_instantanea(pagina, base)
    estropeada = pagina.evaluate(ESTROPEAR, modo).rsplit("/", 1)[1]

    pagina.reload()
    uno, tres = Celda(pagina, 1), Celda(pagina, 3)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    assert arranque(pagina) == "normal"
    tres.correr()
    expect(tres.texto).to_have_text("pan, leche, patatas\n")

    guardadas = pagina.evaluate(GUARDADAS)
    if modo == "bytes":
        # The corrupt one is gone; once the page is idle a good one is made again.
        esperar_instantanea(pagina)
        pagina.reload()
        uno.correr()
        assert arranque(pagina) == "instantanea"
    else:
        # It verified but did not restore: deleted, and not made again for the same key.
        assert estropeada not in guardadas
        assert estropeada.replace(".bin", ".fallo") in guardadas


@pytest.mark.arranque("sembrada")  # a snapshot is stored: the run's seed (tests/semilla.py)
def test_the_off_switch_starts_python_normally(instantanea_html, servidor, pagina):
    base = servidor(instantanea_html)
    visita_con_instantanea(pagina, base)
    pagina.evaluate("localStorage.setItem('bucle:sin-instantanea', '1')")

    pagina.reload()
    uno = Celda(pagina, 1)
    uno.correr()
    expect(uno.texto).to_have_text("hola\n")
    assert arranque(pagina) == "normal"
