"""The fault suite of Python's own files: a file of Pyodide missing (404) or cut short on the
host. The reader gets a clear message and a «Reintentar» button, never a notice that spins
forever; once the host serves the file again, «Reintentar» starts Python and the cell runs.

Each case serves a copy of a built test site from tmp_path with the file removed or truncated,
in a fresh browser context (an empty Cache API, so the bad file is really fetched).
"""

from __future__ import annotations

import os
import shutil
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_fallos_celdas import ESPERA, Celda
from tests.conftest import SIN_INSTANTANEA, pegar_codigo

pytestmark = pytest.mark.navegador

# How long a failure may take to show: it must not wait for a timeout of the page's own.
PRONTO = 20_000

# (file, how it is broken, what the reader is told after «No se pudo iniciar Python: »)
CASOS = {
    "wasm-404": ("_static/pyodide/pyodide.asm.wasm", "falta",
                 "no se pudo descargar {base}_static/pyodide/pyodide.asm.wasm (HTTP 404)"),
    "wasm-cortado": ("_static/pyodide/pyodide.asm.wasm", "cortado",
                     "el archivo {base}_static/pyodide/pyodide.asm.wasm llegó incompleto"),
    "stdlib-cortada": ("_static/pyodide/python_stdlib.zip", "cortado",
                       "el archivo {base}_static/pyodide/python_stdlib.zip llegó incompleto"),
    "mjs-404": ("_static/pyodide/pyodide.mjs", "falta",
                "no se pudo descargar {base}_static/pyodide/pyodide.mjs"),
    "asm-mjs-cortado": ("_static/pyodide/pyodide.asm.mjs", "cortado", ""),
}
# A new visitor each time: what an earlier attempt cached (its good files) is forgotten.
OLVIDAR = "caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k))))"


def escribir(archivo, datos):
    """Write `datos` with a date later than any before: the browser revalidates what it cached
    by date, to the second, and these tests replace a file within the same second."""
    global _RELOJ
    archivo.write_bytes(datos)
    _RELOJ = max(_RELOJ + 2, time.time())
    os.utime(archivo, (_RELOJ, _RELOJ))


_RELOJ = 0.0


def estropear(carpeta, ruta, como):
    """Remove or cut `ruta` in `carpeta`; return a function that puts it back."""
    archivo = carpeta / ruta
    bueno = archivo.read_bytes()
    if como == "falta":
        archivo.unlink()
    else:
        escribir(archivo, bueno[: len(bueno) // 2])
    return lambda: escribir(archivo, bueno)


def copia_de(sitio_de_prueba, nombre, tmp_path):
    copia = tmp_path / nombre
    shutil.copytree(sitio_de_prueba(nombre), copia)
    return copia


def reintentar_cuando_quepa(pagina):
    """«Reintentar», once no start is under way. The page starts Python on its own too (at idle,
    with the worker made as it loads, at the click on Ejecutar): a start begun before the file
    was put back fails and gives the button back; one begun after may bring Python up by itself,
    and then the notice goes with nothing to click (a real click would wait for it forever)."""
    boton = pagina.locator(".bucle-aviso-python button")
    expect(boton).not_to_have_attribute("aria-disabled", "true")
    if boton.is_visible():
        boton.dispatch_event("click")  # ignored if a start began since (aria-disabled)


def test_each_broken_file_of_python_is_told_with_reintentar_and_the_retry_works(
        sitio_de_prueba, tmp_path, servidor, pagina):
    """One page goes through every case: each attempt fails at once with its own reason, the
    cell is not left running, and once the files are right again «Reintentar» starts Python."""
    copia = copia_de(sitio_de_prueba, "celdas", tmp_path)
    base = servidor(copia)
    arreglar = estropear(copia, *CASOS["wasm-404"][:2])
    pagina.add_init_script(SIN_INSTANTANEA)
    pagina.goto(base)
    celda = Celda(pagina)
    aviso = pagina.locator(".bucle-aviso-python")
    reintentar = aviso.get_by_role("button", name="Reintentar")

    celda.boton("Ejecutar").click()
    for caso, (ruta, como, motivo) in CASOS.items():
        if caso != "wasm-404":
            arreglar()
            arreglar = estropear(copia, ruta, como)
            pagina.evaluate(OLVIDAR)
            reintentar.click()
        expect(aviso).to_contain_text("No se pudo iniciar Python: " + motivo.format(base=base),
                                      timeout=PRONTO)
        expect(aviso).to_contain_text("pulsa Reintentar")
        expect(reintentar).to_be_visible()
        expect(reintentar).not_to_have_attribute("aria-disabled", "true")
        expect(celda.boton("Detener")).to_be_hidden()
        print(f"\n[fallos] {caso}: {aviso.locator('p').inner_text()}")
    expect(celda.fin).to_contain_text("No se pudo ejecutar")

    arreglar()
    reintentar.click()
    expect(aviso).to_be_hidden(timeout=ESPERA)
    expect(celda.boton("Ejecutar")).to_be_focused()  # Reintentar had the focus, and went
    celda.correr()
    expect(celda.texto).to_have_text("hola\n")


def test_a_worker_that_cannot_load_is_told_with_reintentar(sitio_de_prueba, tmp_path, servidor, pagina):
    """The worker's own script missing: the start fails (no notice spinning forever)."""
    copia = copia_de(sitio_de_prueba, "celdas", tmp_path)
    arreglar = estropear(copia, "_static/bucle/trabajador.js", "falta")
    pagina.add_init_script(SIN_INSTANTANEA)
    pagina.goto(servidor(copia))
    celda = Celda(pagina)
    celda.boton("Ejecutar").click()
    aviso = pagina.locator(".bucle-aviso-python")
    expect(aviso).to_contain_text("No se pudo iniciar Python", timeout=PRONTO)
    expect(celda.boton("Detener")).to_be_hidden()
    arreglar()
    reintentar_cuando_quepa(pagina)
    expect(aviso).to_be_hidden(timeout=ESPERA)
    celda.correr()
    expect(celda.texto).to_have_text("hola\n")


def test_a_worker_made_as_the_page_loads_that_cannot_load_is_told_too(sitio_de_prueba, tmp_path, servidor,
                                                                      pagina):
    """Where Python started before, the worker is made as the page loads (python-temprano.js),
    before the page listens to it: its script missing is told as on a first visit."""
    copia = copia_de(sitio_de_prueba, "celdas", tmp_path)
    pagina.add_init_script(SIN_INSTANTANEA)
    pagina.goto(servidor(copia))
    celda = Celda(pagina)
    celda.correr()
    expect(celda.texto).to_have_text("hola\n")

    arreglar = estropear(copia, "_static/bucle/trabajador.js", "falta")
    pagina.reload()
    celda.boton("Ejecutar").click()
    aviso = pagina.locator(".bucle-aviso-python")
    expect(aviso).to_contain_text("No se pudo iniciar Python", timeout=PRONTO)
    arreglar()
    reintentar_cuando_quepa(pagina)
    expect(aviso).to_be_hidden(timeout=ESPERA)
    celda.correr()
    expect(celda.texto).to_have_text("hola\n")


def test_a_challenge_tells_the_same_and_its_next_check_works(sitio_de_prueba, tmp_path, servidor, pagina):
    from challenges import CARPETA

    copia = copia_de(sitio_de_prueba, "desafios", tmp_path)
    arreglar = estropear(copia, "_static/pyodide/pyodide.asm.wasm", "falta")
    base = servidor(copia)
    pagina.add_init_script(SIN_INSTANTANEA)
    pagina.goto(base)
    desafio = pagina.locator("bucle-desafio")
    comprobar = desafio.get_by_role("button", name="Comprobar", exact=True)
    resumen = desafio.locator(".bucle-desafio-resumen")

    comprobar.click()
    aviso = pagina.locator(".bucle-aviso-python")
    expect(aviso).to_contain_text("No se pudo iniciar Python: no se pudo descargar", timeout=PRONTO)
    expect(resumen).to_contain_text("No se pudo comprobar")
    expect(desafio.get_by_role("button", name="Detener")).to_be_hidden()

    arreglar()
    aviso.get_by_role("button", name="Reintentar").click()
    expect(aviso).to_be_hidden(timeout=ESPERA)
    pegar_codigo(pagina.get_by_role("textbox", name="Código del desafío"),
                 (CARPETA / "bucle-con-tope" / "solucion.py").read_text(encoding="utf-8"))
    comprobar.click()
    expect(resumen).to_contain_text("16 de 16 pruebas superadas", timeout=ESPERA)
