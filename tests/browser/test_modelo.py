"""The course's in-page model in a real browser (widgets/front/modelo.js, modelo/motor.js): the
reader downloads it only when they ask, may cancel, gets it checked and kept, and it answers
from this page; the next visit loads it from the browser without downloading anything.

The figures (download, load, tokens per second) are printed, not asserted: this machine is
shared. The engine is reached through the widget's internal hook ``__bucleMotorDelModelo``.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import violaciones_axe
from widgets.construccion.modelo_local import fijado

pytestmark = pytest.mark.navegador

ESPERA = 120_000
MODELO = "/_static/bucle/modelo/"
ONNX = MODELO + fijado().onnx.archivo  # the model the page runs: the course's tuned one
WASM = "ort-wasm-simd-threaded.wasm"

GENERAR = """async () => {
  const motor = __bucleMotorDelModelo();
  const r = await motor.generar({ mensajes: [{ role: "user", content: "Di hola." }], max_tokens: 8 });
  return { ...r, cifras: motor.cifras };
}"""


def megas(sitio) -> int:
    """What the page downloads: the model, its tokenizer and the engine's wasm."""
    carpeta = sitio / "_static" / "bucle" / "modelo"
    return round(sum(p.stat().st_size for p in carpeta.iterdir()) / 1e6)


def estado(widget, valor):
    expect(widget).to_have_attribute("data-estado", valor, timeout=ESPERA)


def test_the_reader_downloads_the_model_once_cancels_retries_and_it_answers_here(sitio_de_prueba, servidor,
                                                                                 contexto):
    sitio = sitio_de_prueba("modelo")
    base = servidor(sitio)
    pedidas = []
    contexto.on("request", lambda r: pedidas.append(r.url) if MODELO in r.url else None)
    page = contexto.new_page()
    page.goto(base + "index.html")
    widget = page.locator("bucle-modelo")
    descargar = widget.get_by_role("button", name=f"Descargar el modelo ({megas(sitio)} MB)", exact=True)
    expect(descargar).to_be_visible()
    expect(widget).to_contain_text("SmolLM2-135M-Instruct")
    expect(widget.get_by_role("status")).to_have_text("Modelo sin descargar.")
    assert pedidas == [], "nothing is downloaded before the reader asks"

    # A slow connection, so that there is time to cancel: progress, then «Cancelar».
    red = contexto.new_cdp_session(page)
    red.send("Network.enable")
    red.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 0, "downloadThroughput": 4_000_000, "uploadThroughput": -1})
    reloj = time.monotonic()
    descargar.click()
    estado(widget, "descargando")
    barra = widget.get_by_role("progressbar", name="Descarga del modelo")
    expect(barra).to_be_visible()
    expect(widget.locator(".bucle-modelo-cifras")).to_have_text(re.compile(rf"^[1-9]\d* de {megas(sitio)} MB$"),
                                                               timeout=ESPERA)
    widget.get_by_role("button", name="Cancelar").click()
    estado(widget, "sin-descargar")
    expect(widget.get_by_role("status")).to_have_text("Descarga cancelada: el modelo sigue sin descargar.")
    expect(barra).to_be_hidden()
    red.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    print(f"\n[modelo] cancelled after {time.monotonic() - reloj:.1f} s")

    # The second click downloads it all, checks it, keeps it and loads it.
    inicio = time.monotonic()
    descargar.click()
    estado(widget, "listo")
    primera = time.monotonic() - inicio
    expect(widget.get_by_role("status")).to_have_text("Modelo listo")
    r = page.evaluate(GENERAR)
    assert r["texto"].strip(), r
    assert 1 <= r["tokensSalida"] <= 8 and r["fin"] in ("stop", "length") and r["tokensEntrada"] > 0, r
    t = r["tiempos"]
    print(f"\n[modelo] first load {primera:.1f} s (download {r['cifras']['descarga'] / 1e3:.1f} s, "
          f"load {r['cifras']['carga'] / 1e3:.1f} s, {r['cifras']['hilos']} threads); "
          f"prompt {t['prompt_n']} tokens at {t['prompt_per_second']:.1f} tok/s, "
          f"generation {t['predicted_n']} tokens at {t['predicted_per_second']:.1f} tok/s: {r['texto']!r}")

    # The next visit: kept in this browser; the reader chose once, nothing is downloaded again.
    antes = len(pedidas)
    page.reload()
    widget = page.locator("bucle-modelo")
    cargar = widget.get_by_role("button", name="Cargar el modelo (ya descargado)", exact=True)
    expect(cargar).to_be_visible()
    inicio = time.monotonic()
    cargar.click()
    estado(widget, "listo")
    segunda = time.monotonic() - inicio
    otra = page.evaluate(GENERAR)
    assert otra["texto"] == r["texto"], "temperature 0: the same prompt, the same answer"
    assert pedidas[antes:] == [], "nothing of the model is downloaded again"
    # The cancelled request, then each file whole once (the wasm, the tokenizer, the model's graph
    # and its weights).
    pin = fijado().onnx
    assert {u.rsplit("/", 1)[1] for u in pedidas} == {WASM, "tokenizer.json", pin.archivo, pin.pesos}, pedidas
    assert len(pedidas) == 5, pedidas
    print(f"[modelo] cached load {segunda:.1f} s "
          f"(load {otra['cifras']['carga'] / 1e3:.1f} s); "
          f"generation {otra['tiempos']['predicted_per_second']:.1f} tok/s")


def test_the_model_starts_and_answers_under_the_strict_policy_from_the_sites_own_files(sitio_de_prueba, servidor,
                                                                                     contexto):
    """Under ``widgets.serve --csp`` (``worker-src 'self'``, ``connect-src 'self'``: no blob: URL)
    the model's worker, onnxruntime's module and its threads start from the site's files, the
    wasm is the page's checked copy, and the engine answers; nothing is refused by the policy."""
    base = servidor(sitio_de_prueba("modelo"), csp=True)
    pedidas, negadas = [], []
    contexto.on("request", lambda r: pedidas.append(r.url))
    page = contexto.new_page()
    page.on("console", lambda m: negadas.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(base + "index.html")
    widget = page.locator("bucle-modelo")
    widget.get_by_role("button", name=re.compile(r"^Descargar el modelo")).click()
    estado(widget, "listo")
    r = page.evaluate(GENERAR)
    assert r["texto"].strip() and r["cifras"]["hilos"] >= 1, r
    assert negadas == [], negadas
    assert not [u for u in pedidas if u.startswith("blob:")], pedidas
    # The worker, onnxruntime's module and the script of its threads: the site's own files.
    for archivo in ("/_static/bucle/modelo-trabajador.js", "/_static/bucle/ort/ort.wasm.min.mjs",
                    "/_static/bucle/ort/ort-wasm-simd-threaded.mjs"):
        assert any(u.split("?")[0].endswith(archivo) for u in pedidas), (archivo, pedidas)
    # The wasm is handed to onnxruntime by the page: asked of the site once, to download it.
    assert sum(WASM in u for u in pedidas) == 1, [u for u in pedidas if "wasm" in u]


def test_the_widget_reads_on_a_phone_and_has_no_accessibility_violations(sitio_de_prueba, servidor, movil):
    base = servidor(sitio_de_prueba("modelo"))
    movil.goto(base + "index.html")
    widget = movil.locator("bucle-modelo")
    boton = widget.get_by_role("button", name=re.compile(r"^Descargar el modelo \(\d+ MB\)$"))
    expect(boton).to_be_visible()
    caja = widget.bounding_box()
    assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375, caja
    assert movil.evaluate("document.documentElement.scrollWidth") <= 375
    assert violaciones_axe(movil, "bucle-modelo") == []
