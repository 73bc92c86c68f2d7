"""The fault suite of the reader's storage: localStorage full, holding corrupt values, or not
there at all; and two tabs of the same lesson. The lesson «El bucle» of the course (cells,
questions and a challenge) keeps working, says when progress cannot be kept, and loses nothing
it had; one tab never overwrites the other's code without telling the reader.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_fallos_celdas import ESPERA, Celda, pagina_compartida
from tests.conftest import pegar_codigo

pytestmark = pytest.mark.navegador

PAGINA = "el-bucle.html"
PREFIJO = "bucle:el-bucle:el-bucle:"
AVISO = ("No se puede guardar tu progreso en este navegador (el almacenamiento está lleno o "
         "desactivado). Todo funciona, pero lo que hagas se perderá al cerrar la página.")
# Fills the origin's localStorage to its quota with one key per chunk, halving the chunk each time
# it does not fit; returns how many characters it wrote.
LLENAR = """() => {
  let trozo = "x".repeat(1 << 20), i = 0, n = 0;
  while (trozo.length) {
    try { localStorage.setItem(`relleno-${i++}`, trozo); n += trozo.length; }
    catch { trozo = trozo.slice(0, trozo.length >> 1); }
  }
  return n;
}"""
# What Chromium does when the reader blocks site data: touching localStorage throws. Where
# from is kept, to tell the course's scripts from the theme's and Sphinx's.
SIN_ALMACEN = """window.__accesos = [];
Object.defineProperty(window, "localStorage", { configurable: true, get() {
  window.__accesos.push(new Error().stack.split("\\n").slice(2).join("\\n"));
  throw new DOMException("Access is denied for this document.", "SecurityError");
} });"""
# Scripts that are not the course's and do not expect storage to throw: Furo's theme switch
# (moved out of the page by widgets/construccion/csp.py) and Sphinx's search highlighting.
AJENOS = re.compile(r"/_static/bucle/csp/|/_static/sphinx_highlight\.js")


def crudo(page, clave):
    return page.evaluate("k => localStorage.getItem(k)", PREFIJO + clave)


def poner(page, valores: dict):
    page.evaluate("v => { for (const [k, x] of Object.entries(v)) localStorage.setItem(k, x); }",
                  {PREFIJO + k if not k.startswith("bucle:") else k: v for k, v in valores.items()})


def responder(page, ident, opcion):
    pregunta = page.locator(f"bucle-pregunta#{ident}")
    pregunta.get_by_role("radio", name=opcion).check()
    pregunta.get_by_role("button", name="Comprobar").click()
    expect(pregunta.locator(".bucle-pregunta-resultado")).to_contain_text("Correcto.")
    return pregunta


QUIEN = ("quien-termina", "El modelo, al responder sin ninguna llamada.")
TRES = ("tres-lecturas", "No: añade dos, la respuesta y un mensaje con los tres resultados.")


def comprobar_desafio(page, codigo=None):
    desafio = page.locator("bucle-desafio")
    if codigo is not None:
        desafio.scroll_into_view_if_needed()  # (its editor comes when its code is near)
        editor = page.get_by_role("textbox", name="Código del desafío")
        expect(editor).to_be_visible(timeout=ESPERA)
        pegar_codigo(editor, codigo)
    desafio.get_by_role("button", name="Comprobar", exact=True).click()
    resumen = desafio.locator(".bucle-desafio-resumen")
    expect(resumen).to_contain_text(re.compile(r"\d+ de \d+ pruebas superadas"), timeout=ESPERA)
    return resumen.inner_text()


def esperar_guardado(page, clave, contiene):
    page.wait_for_function("([k, t]) => (localStorage.getItem(k) ?? '').includes(t)",
                           arg=[PREFIJO + clave, contiene])


def test_full_storage_keeps_what_it_had_says_so_and_the_page_works(sitio, servidor, pagina):
    from challenges import CARPETA

    solucion = (CARPETA / "bucle-con-tope" / "solucion.py").read_text(encoding="utf-8")
    pagina.goto(servidor(sitio) + PAGINA)
    responder(pagina, *QUIEN)
    uno = Celda(pagina, 1)
    uno.pegar('print("mío")')
    esperar_guardado(pagina, "bucle-sin-tope", 'print(\\"mío\\")')
    antes = {k: crudo(pagina, k) for k in ("bucle-sin-tope", "quien-termina")}
    progreso = pagina.evaluate("localStorage.getItem('bucle:el-bucle:progreso')")
    assert pagina.evaluate(LLENAR) > 1_000_000

    pagina.reload()
    # What was saved before storage filled up is all there.
    expect(pagina.locator("bucle-pregunta#quien-termina .bucle-pregunta-resultado")).to_contain_text("Correcto.")
    expect(uno.editor).to_have_text('print("mío")', timeout=ESPERA)
    aviso = pagina.get_by_text(AVISO)
    expect(aviso).to_have_count(0)

    # A new change cannot be kept: the reader is told once, and the page goes on working.
    dos = Celda(pagina, 2)
    dos.pegar('print("también mío")')
    expect(aviso).to_be_visible()
    dos.correr()
    expect(uno.texto).to_have_text("mío\n")
    expect(dos.texto).to_have_text("también mío\n")
    responder(pagina, *TRES)
    assert comprobar_desafio(pagina, solucion).startswith("16 de 16 pruebas superadas")
    expect(aviso).to_have_count(1)

    # Nothing that was there is lost; what could not be saved is still on the page.
    assert {k: crudo(pagina, k) for k in antes} == antes
    assert pagina.evaluate("localStorage.getItem('bucle:el-bucle:progreso')") == progreso
    assert crudo(pagina, "bucle-terco") is None
    expect(dos.editor).to_have_text('print("también mío")')


def test_corrupt_values_are_ignored_one_by_one_and_replaced_when_saved(sitio, servidor, pagina):
    base = servidor(sitio)
    pagina.goto(base + PAGINA)
    leccion_2 = pagina.evaluate(
        "JSON.parse(document.querySelectorAll('bucle-celda script.bucle-datos')[1].textContent).codigo")
    poner(pagina, {
        "bucle-sin-tope": "{no es JSON",
        "bucle-terco": json.dumps({"codigo": 'print("guardado")', "original": leccion_2}),
        "quien-termina": "[1, 2",
        "cuantos-mensajes": json.dumps({"respuesta": 13, "resultado": "sí"}),
        "tope-tres": json.dumps("texto"),
        "bucle-con-tope": json.dumps([1, 2, 3]),
        "bucle:el-bucle:progreso": json.dumps({"el-bucle": 5, "otra": {"preguntas": 7}}),
    })
    pagina.reload()
    uno, dos = Celda(pagina, 1), Celda(pagina, 2)
    # Each corrupt value is as if never saved; the good one next to them is restored.
    expect(dos.editor).to_have_text('print("guardado")', timeout=ESPERA)
    expect(uno.editor).to_contain_text("def bucle_sin_tope(modelo, inicio, entorno):")
    for ident in ("quien-termina", "cuantos-mensajes", "tope-tres"):
        expect(pagina.locator(f"bucle-pregunta#{ident} .bucle-pregunta-resultado")).to_be_empty()
    pagina.locator("bucle-desafio").scroll_into_view_if_needed()  # (its editor comes when near)
    expect(pagina.get_by_role("textbox", name="Código del desafío")).to_contain_text(
        "# Escribe aquí el bucle.")

    # Answering and editing write good values over the corrupt ones.
    responder(pagina, *QUIEN)
    assert json.loads(crudo(pagina, "quien-termina"))["resultado"] is True
    progreso = pagina.evaluate("JSON.parse(localStorage.getItem('bucle:el-bucle:progreso'))")
    assert progreso["el-bucle"] == {"preguntas": {"quien-termina": True}}
    uno.pegar('print("nuevo")')
    esperar_guardado(pagina, "bucle-sin-tope", "nuevo")
    dos.correr()
    expect(dos.texto).to_have_text("guardado\n")

    # The course map reads the same progress.
    pagina.goto(base + "index.html")
    expect(pagina.locator("bucle-progreso")).to_contain_text("1 de 9 preguntas correctas")


def test_without_storage_the_reader_is_told_at_once_and_everything_works(
        sitio, navegador, registro_externo):
    proxy = len(registro_externo.peticiones)
    abierta = pagina_compartida(navegador, sitio, PAGINA, guion=SIN_ALMACEN)
    sin = next(abierta)
    try:
        sin_almacen(sin.page)
        accesos = sin.page.evaluate("window.__accesos")
        ajenos = [a for a in accesos if AJENOS.search(a.split("\n")[0])]
        assert len(accesos) > len(ajenos) > 0, accesos
        # The course's scripts catch it; only the theme's and Sphinx's let it through.
        assert sin.vigia.errores == ["pageerror: Access is denied for this document."] * len(ajenos)
        assert sin.vigia.externas == [] and sin.dialogos == []
    finally:
        abierta.close()
    assert registro_externo.peticiones[proxy:] == []


def sin_almacen(pagina):
    expect(pagina.get_by_text(AVISO)).to_be_visible()
    uno = Celda(pagina, 1)
    uno.pegar('print("sin almacén")')
    uno.correr()
    expect(uno.texto).to_have_text("sin almacén\n")
    responder(pagina, *QUIEN)
    expect(pagina.get_by_text(AVISO)).to_have_count(1)
    traza = pagina.locator("bucle-traza").first
    traza.get_by_role("button", name="Siguiente", exact=True).click()
    expect(traza.get_by_text("Paso 2 de 17", exact=True)).to_be_visible()


def test_two_tabs_of_a_lesson_never_overwrite_a_cell_silently(sitio, servidor, contexto):
    base = servidor(sitio)
    a, b = contexto.new_page(), contexto.new_page()
    a.goto(base + PAGINA)
    b.goto(base + PAGINA)
    celda_a, celda_b = Celda(a, 1), Celda(b, 1)
    otra_a = a.locator("bucle-celda").first.locator(".bucle-celda-otra")
    otra_b = b.locator("bucle-celda").first.locator(".bucle-celda-otra")
    expect(celda_b.editor).to_be_visible(timeout=ESPERA)
    expect(otra_b).to_be_hidden()

    # A saves: B keeps its own version and is told, with the choice.
    celda_a.pegar('print("de A")')
    esperar_guardado(a, "bucle-sin-tope", "de A")
    expect(otra_b).to_be_visible()
    expect(otra_b).to_contain_text("Has guardado otra versión de esta celda en otra pestaña.")
    expect(celda_b.editor).to_contain_text("def bucle_sin_tope")
    otra_b.get_by_role("button", name="Usar la de la otra pestaña").click()
    expect(celda_b.editor).to_have_text('print("de A")')
    expect(otra_b).to_be_hidden()
    expect(otra_a).to_be_hidden()  # B took A's: nothing differs

    # B edits: now A is told, and A can keep its own, which B is told about in turn.
    celda_b.pegar('print("de B")')
    esperar_guardado(b, "bucle-sin-tope", "de B")
    expect(otra_a).to_be_visible()
    expect(celda_a.editor).to_have_text('print("de A")')
    otra_a.get_by_role("button", name="Seguir con esta").click()
    esperar_guardado(a, "bucle-sin-tope", "de A")
    expect(otra_a).to_be_hidden()
    expect(otra_b).to_be_visible()
    expect(celda_b.editor).to_have_text('print("de B")')

    # Restablecer in one tab is a change like any other for the other one.
    celda_b.boton("Restablecer").click()
    expect(otra_a).to_be_visible()
    assert crudo(a, "bucle-sin-tope") is None


def test_two_tabs_of_a_lesson_never_lose_a_challenges_code_or_best_result(sitio, servidor, contexto):
    from challenges import CARPETA

    solucion = (CARPETA / "bucle-con-tope" / "solucion.py").read_text(encoding="utf-8")
    base = servidor(sitio)
    a, b = contexto.new_page(), contexto.new_page()
    a.goto(base + PAGINA)
    b.goto(base + PAGINA)
    b.locator("bucle-desafio").scroll_into_view_if_needed()  # (its editor comes when near)
    editor_b = b.get_by_role("textbox", name="Código del desafío")
    expect(editor_b).to_be_visible(timeout=ESPERA)

    # A passes the challenge; B, open since before, then edits its own code.
    assert comprobar_desafio(a, solucion).startswith("16 de 16 pruebas superadas")
    pegar_codigo(editor_b, solucion.replace("for _ in range(tope):", "while True:"))
    b.wait_for_function("k => (localStorage.getItem(k) ?? '').includes('while True')",
                        arg=PREFIJO + "bucle-con-tope")

    # The best result A earned is not lost to B's save…
    guardado = json.loads(crudo(b, "bucle-con-tope"))
    assert guardado.get("mejor") == {"superadas": 16, "total": 16}, guardado
    # …and A, whose code B's save replaced, is told so.
    expect(a.locator("bucle-desafio")).to_contain_text("otra pestaña")
