"""Questions in a real browser, on tests/sites/preguntas: each kind answered right and wrong, the
feedback, the retry, the group's score, the answers kept across a reload, the keyboard, a phone,
no JavaScript, and axe-core."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import Vigia, violaciones_axe

pytestmark = pytest.mark.navegador

QUIEN = "¿Quién decide que el bucle termina en el turno 4?"
QUE_ANADE = "¿Qué bloques añade el arnés a M tras un turno con dos llamadas?"
CUANTOS = "¿Cuántos mensajes tiene M tras seis turnos con llamadas, empezando por uno?"


@pytest.fixture
def abrir(sitio_de_prueba, servidor):
    """Open the test site's page in a browser page; return the page once the questions are built."""
    base = servidor(sitio_de_prueba("preguntas"))

    def ir(page):
        page.goto(base)
        expect(page.locator("bucle-pregunta fieldset")).to_have_count(5)
        page.base = base
        return page

    return ir


def pregunta(page, ident):
    return page.locator(f"bucle-pregunta#{ident}")


def puntuacion(page):
    return page.get_by_role("region", name="Comprueba tu intuición").get_by_role("status").last


def progreso(page):
    return page.evaluate("() => JSON.parse(localStorage.getItem('bucle:pruebas:progreso'))")


def test_one_answer_wrong_then_retry_then_right(abrir, pagina):
    page = abrir(pagina)
    expect(puntuacion(page)).to_have_text("0 de 4 correctas")
    grupo = page.get_by_role("group", name=QUIEN)
    expect(grupo.get_by_role("radio")).to_have_count(3)
    q = pregunta(page, "quien-termina")
    estado = q.get_by_role("status")

    q.get_by_role("button", name="Comprobar").click()
    expect(estado).to_have_text("Elige una opción antes de comprobar.")

    grupo.get_by_role("radio", name="El arnés, porque llegó al tope.").check()
    expect(estado).to_be_empty()  # the notice goes once the reader chooses
    q.get_by_role("button", name="Comprobar").click()
    expect(estado).to_contain_text("No es correcto.")
    expect(estado).to_contain_text("No: el tope es 10 y solo van 4 turnos.")  # announced
    expect(q.locator(".bucle-pregunta-opcion").nth(1).locator(".bucle-pregunta-retro")).to_be_visible()
    expect(grupo.get_by_text("No: el tope es 10 y solo van 4 turnos.", exact=True)).to_be_visible()
    expect(q.get_by_text("El arnés repite mientras la respuesta traiga")).to_be_visible()
    expect(grupo.get_by_text("Exacto: sin bloques")).to_be_hidden()
    reintentar = q.get_by_role("button", name="Reintentar")
    expect(reintentar).to_be_focused()
    expect(q.get_by_role("button", name="Comprobar")).to_be_hidden()
    for radio in grupo.get_by_role("radio").all():
        expect(radio).to_be_disabled()
    expect(puntuacion(page)).to_have_text("0 de 4 correctas")
    assert progreso(page) == {"index": {"preguntas": {"quien-termina": False}}}

    reintentar.press("Enter")
    expect(estado).to_be_empty()
    expect(q.get_by_text("El arnés repite mientras la respuesta traiga")).to_be_hidden()
    elegida = grupo.get_by_role("radio", name="El arnés, porque llegó al tope.")
    expect(elegida).to_be_focused()
    page.keyboard.press("ArrowUp")  # native radios: arrows move the choice within the group
    expect(grupo.get_by_role("radio", name="El modelo, al responder sin llamadas a herramientas.")).to_be_checked()
    q.get_by_role("button", name="Comprobar").click()
    expect(estado).to_contain_text("Correcto.")
    expect(grupo.get_by_text("Exacto: sin bloques tool_use no hay nada que ejecutar.")).to_be_visible()
    expect(grupo.get_by_text("No: el tope es 10")).to_be_hidden()
    expect(reintentar).to_be_hidden()
    expect(q.locator(".bucle-pregunta-acciones")).to_be_hidden()  # nothing left to do
    expect(estado).to_be_focused()
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")
    assert progreso(page) == {"index": {"preguntas": {"quien-termina": True}}}


def test_several_answers_are_graded_all_or_nothing(abrir, pagina):
    page = abrir(pagina)
    grupo = page.get_by_role("group", name=QUE_ANADE)
    expect(grupo).to_have_accessible_description(
        "Marca todas las opciones correctas. Se corrige todo o nada.")
    expect(grupo.get_by_text("Marca todas las opciones correctas. Se corrige todo o nada.")).to_be_visible()
    q = pregunta(page, "que-anade")
    estado = q.get_by_role("status")
    cajas = grupo.get_by_role("checkbox")
    expect(cajas).to_have_count(3)

    q.get_by_role("button", name="Comprobar").click()
    expect(estado).to_have_text("Marca al menos una opción antes de comprobar.")

    intentos = [([0], False), ([0, 1, 2], False), ([0, 1], True)]
    for marcadas, correcta in intentos:
        for n in range(3):
            cajas.nth(n).set_checked(n in marcadas)
        q.get_by_role("button", name="Comprobar").click()
        if correcta:
            expect(estado).to_contain_text("Correcto.")
        else:
            expect(estado).to_contain_text("No es correcto: sobran o faltan opciones.")
        # the feedback of every checked option, and of no other
        esperadas = ["Sí: primero guarda lo que dijo el modelo.",
                     "Sí: un resultado por llamada, en el mismo mensaje.",
                     "No: las herramientas van aparte, en cada llamada al modelo."]
        for n, texto in enumerate(esperadas):
            retro = grupo.get_by_text(texto, exact=True)
            if n in marcadas:
                expect(retro).to_be_visible()
            else:
                expect(retro).to_be_hidden()
        if not correcta:
            expect(puntuacion(page)).to_have_text("0 de 4 correctas")
            q.get_by_role("button", name="Reintentar").click()
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")
    expect(q.get_by_text("Cada turno añade dos mensajes")).to_be_visible()


def test_a_number_within_its_margin(abrir, pagina):
    page = abrir(pagina)
    grupo = page.get_by_role("group", name=CUANTOS)
    expect(grupo.get_by_text("Se acepta un margen de ±0.", exact=True)).to_be_visible()
    q = pregunta(page, "cuantos-mensajes")
    estado = q.get_by_role("status")
    campo = grupo.get_by_role("textbox", name="Tu respuesta")

    campo.fill("trece")
    campo.press("Enter")
    expect(estado).to_have_text("«trece» no es un número: escribe, por ejemplo, 13 o 2,5.")
    campo.fill("12")
    expect(estado).to_be_empty()
    campo.press("Enter")
    expect(estado).to_contain_text("No es correcto.")
    expect(q.get_by_text("El mensaje inicial, más dos por turno")).to_be_visible()
    expect(campo).to_be_disabled()
    q.get_by_role("button", name="Reintentar").click()
    expect(campo).to_be_focused()
    campo.fill("13")
    q.get_by_role("button", name="Comprobar").click()
    expect(estado).to_contain_text("Correcto.")
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")

    # a decimal answer with a decimal margin, Spanish comma, edge of the margin
    suelta = pregunta(page, "suelta")
    expect(suelta.get_by_text("Se acepta un margen de ±0,1.", exact=True)).to_be_visible()
    campo = suelta.get_by_role("textbox", name="Tu respuesta")
    campo.fill("0,61")
    campo.press("Enter")
    expect(suelta.get_by_role("status")).to_contain_text("No es correcto.")
    suelta.get_by_role("button", name="Reintentar").click()
    campo.fill("0,6")
    campo.press("Enter")
    expect(suelta.get_by_role("status")).to_contain_text("Correcto.")
    # a question outside the group does not change the group's score
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")
    assert progreso(page)["index"]["preguntas"] == {"cuantos-mensajes": True, "suelta": True}


def test_answers_and_results_survive_a_reload(abrir, pagina):
    page = abrir(pagina)
    quien = page.get_by_role("group", name=QUIEN)
    quien.get_by_role("radio", name="El modelo, al responder sin llamadas a herramientas.").check()
    pregunta(page, "quien-termina").get_by_role("button", name="Comprobar").click()
    cuantos = pregunta(page, "cuantos-mensajes")
    cuantos.get_by_role("textbox", name="Tu respuesta").fill("12")
    cuantos.get_by_role("button", name="Comprobar").click()
    # chosen but not checked yet: kept as a draft
    page.get_by_role("group", name=QUE_ANADE).get_by_role("checkbox").nth(2).check()
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")

    page.reload()
    expect(page.locator("bucle-pregunta fieldset")).to_have_count(5)
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")
    quien = page.get_by_role("group", name=QUIEN)
    expect(quien.get_by_role("radio", name="El modelo, al responder sin llamadas a herramientas.")).to_be_checked()
    expect(quien.get_by_role("radio").first).to_be_disabled()
    expect(pregunta(page, "quien-termina").get_by_role("status")).to_contain_text("Correcto.")
    expect(quien.get_by_text("Exacto: sin bloques")).to_be_visible()

    cuantos = pregunta(page, "cuantos-mensajes")
    expect(cuantos.get_by_role("textbox", name="Tu respuesta")).to_have_value("12")
    expect(cuantos.get_by_role("status")).to_contain_text("No es correcto.")
    expect(cuantos.get_by_role("button", name="Reintentar")).to_be_visible()

    que = pregunta(page, "que-anade")
    cajas = que.get_by_role("checkbox")
    expect(cajas.nth(2)).to_be_checked()
    expect(cajas.nth(0)).not_to_be_checked()
    expect(cajas.nth(2)).to_be_enabled()
    expect(que.get_by_role("button", name="Comprobar")).to_be_visible()
    expect(que.get_by_role("status")).to_be_empty()

    # a corrupt value does not break the page: the question starts empty
    page.evaluate("() => localStorage.setItem('bucle:pruebas:index:verdadero-falso', '{roto')")
    page.reload()
    vf = pregunta(page, "verdadero-falso")
    expect(vf.get_by_role("radio").first).to_be_enabled()
    expect(vf.get_by_role("radio").first).not_to_be_checked()
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")


def test_a_question_answered_with_the_keyboard_alone(abrir, pagina):
    page = abrir(pagina)
    grupo = page.get_by_role("group", name="El modelo ejecuta las herramientas él mismo.")
    grupo.get_by_role("radio", name="Verdadero.").focus()
    page.keyboard.press("Space")
    expect(grupo.get_by_role("radio", name="Verdadero.")).to_be_checked()
    page.keyboard.press("ArrowDown")
    expect(grupo.get_by_role("radio", name="Falso.")).to_be_checked()
    page.keyboard.press("Tab")  # a radio group is one stop: the next is the button
    q = pregunta(page, "verdadero-falso")
    expect(q.get_by_role("button", name="Comprobar")).to_be_focused()
    page.keyboard.press("Enter")
    expect(q.get_by_role("status")).to_contain_text("Correcto.")
    expect(q.get_by_role("status")).to_contain_text("Correcto: el modelo solo pide; ejecuta el arnés.")


def test_no_serious_accessibility_violation_before_and_after_answering(abrir, pagina):
    page = abrir(pagina)
    assert violaciones_axe(page) == []
    page.get_by_role("group", name=QUIEN).get_by_role("radio").nth(1).check()
    pregunta(page, "quien-termina").get_by_role("button", name="Comprobar").click()
    q = pregunta(page, "que-anade")
    q.get_by_role("checkbox").first.check()
    q.get_by_role("button", name="Comprobar").click()
    q = pregunta(page, "cuantos-mensajes")
    q.get_by_role("textbox").fill("13")
    q.get_by_role("button", name="Comprobar").click()
    expect(puntuacion(page)).to_have_text("1 de 4 correctas")
    assert violaciones_axe(page) == []
    page.emulate_media(color_scheme="dark")
    assert violaciones_axe(page) == []


def test_usable_on_a_phone(abrir, movil):
    page = abrir(movil)
    ancho = page.evaluate("() => document.documentElement.scrollWidth")
    assert ancho <= 375, f"the page scrolls sideways: {ancho} px"
    for caja in page.locator(".bucle-pregunta-opcion > label, .bucle-pregunta-boton:visible, "
                             ".bucle-pregunta-numero > input").all():
        medidas = caja.bounding_box()
        assert medidas["height"] >= 44, f"a tap target is {medidas['height']} px tall"
        assert medidas["x"] >= 0 and medidas["x"] + medidas["width"] <= 375
    grupo = page.get_by_role("group", name=QUIEN)
    grupo.get_by_text("El modelo, al responder sin llamadas a herramientas.").tap()
    expect(grupo.get_by_role("radio").first).to_be_checked()
    pregunta(page, "quien-termina").get_by_role("button", name="Comprobar").tap()
    expect(pregunta(page, "quien-termina").get_by_role("status")).to_contain_text("Correcto.")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_without_javascript_the_questions_read_as_a_list(navegador, sitio_de_prueba, servidor):
    base = servidor(sitio_de_prueba("preguntas"))
    context = navegador.new_context(java_script_enabled=False)
    vigia = Vigia(context)
    page = context.new_page()
    page.goto(base)
    q = page.locator("bucle-pregunta#quien-termina")
    expect(q.get_by_role("listitem")).to_have_count(3)
    expect(q.get_by_role("listitem").first).to_have_text(
        "El modelo, al responder sin llamadas a herramientas.", use_inner_text=True)
    expect(q.get_by_text(QUIEN)).to_be_visible()
    expect(page.locator("bucle-pregunta input, bucle-pregunta button")).to_have_count(0)
    # nothing gives the answer away
    for secreto in ("Exacto: sin bloques", "El arnés repite mientras", "1 + 2 × 6 = 13"):
        expect(page.get_by_text(secreto)).to_be_hidden()
    expect(page.get_by_text("Se acepta un margen de ±0.", exact=True)).to_be_visible()
    expect(page.get_by_text("Comprueba tu intuición")).to_be_visible()
    assert not re.search(r"\[[ xX]\]", page.locator("article").inner_text())
    context.close()
    assert not vigia.externas, vigia.externas


def test_the_group_data_lists_its_questions(abrir, pagina):
    page = abrir(pagina)
    datos = page.locator("bucle-grupo#intuicion > script.bucle-datos").text_content()
    assert json.loads(datos) == {
        "preguntas": ["quien-termina", "que-anade", "cuantos-mensajes", "verdadero-falso"]}



def test_works_served_from_a_sub_path(sitio_de_prueba, servidor, pagina):
    base = servidor(sitio_de_prueba("preguntas"), prefijo="/curso/")
    pagina.goto(base)
    grupo = pagina.get_by_role("group", name="El modelo ejecuta las herramientas él mismo.")
    grupo.get_by_role("radio", name="Falso.").check()
    pregunta(pagina, "verdadero-falso").get_by_role("button", name="Comprobar").click()
    expect(pregunta(pagina, "verdadero-falso").get_by_role("status")).to_contain_text("Correcto.")
    expect(puntuacion(pagina)).to_have_text("1 de 4 correctas")
