"""«Pedir permiso» in a real browser: the reader is the user. The lesson's cell «tu-permiso» runs
the loop with preguntar_al_lector; the page asks «¿Permites …?» with Permitir and Denegar while
Python waits, and the observations the model gets follow the reader's answers."""

import sys
import types

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, Celda
from tests.lecciones.comun import ejecutar_leccion

pytestmark = pytest.mark.navegador

DENIEGA = "no se ha ejecutado: el usuario no lo ha permitido"


def lo_que_imprime(respuestas, monkeypatch):
    """The cell's output in CPython for a reader who answers ``respuestas``, in order."""
    dadas = []

    def preguntar_en_la_pagina(texto, detalle, partes=()):
        dadas.append(texto)
        return respuestas[len(dadas) - 1]
    monkeypatch.setitem(sys.modules, "trabajador",
                        types.SimpleNamespace(preguntar_en_la_pagina=preguntar_en_la_pagina))
    salidas, _ = ejecutar_leccion("pedir-permiso")
    return salidas[2].splitlines()


def test_the_reader_denies_then_allows_and_the_model_sees_both_observations(sitio, servidor, pagina,
                                                                            monkeypatch):
    esperado = lo_que_imprime([False, True], monkeypatch)
    # (the two observations of the turn that writes: the denial, then the write that ran)
    assert f"  resultado p3 (error): «{DENIEGA}»" in esperado
    assert any(linea.startswith("  resultado p4: «escrito notas.txt") for linea in esperado)

    pagina.goto(servidor(sitio) + "pedir-permiso.html")
    assert pagina.evaluate("crossOriginIsolated") is True
    celda = Celda(pagina, 3)
    celda.ejecutar()
    lista = celda.salida.get_by_role("group", name="¿Permites escribir lista.txt?")
    expect(lista).to_be_visible(timeout=ESPERA)
    expect(lista.locator("code")).to_contain_text("escribir(ruta='lista.txt'")
    lista.get_by_role("button", name="Denegar").click()
    notas = celda.salida.get_by_role("group", name="¿Permites escribir notas.txt?")
    expect(notas).to_be_visible()
    notas.get_by_role("button", name="Permitir").click()
    celda.esperar_fin()

    salida = celda.texto.inner_text()
    assert "no se te puede preguntar" not in salida
    assert "¿Permites escribir lista.txt? Denegado" in salida
    assert "¿Permites escribir notas.txt? Permitido" in salida
    # Everything the cell printed is what CPython prints for the same answers.
    lineas = salida.splitlines()
    assert [linea for linea in lineas if linea in esperado] == esperado
