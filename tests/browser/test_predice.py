"""Predict mode («Predice») in a real browser, on the course itself: the trace of «El bucle»
predicted through at cap 10 (one answer wrong, its explanation read) and at cap 3, the score
on the course map, the keyboard, the phone, axe; and no mode where it must not be."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador

VUELVE = "Ejecuta sus llamadas, añade las observaciones y vuelve a llamar al modelo"
TOPE = 'Ejecuta sus llamadas, añade las observaciones y devuelve ("tope", None, M)'
FIN = 'Devuelve ("fin", texto, M) con el texto de la respuesta'

# What a reader who knows the loop answers, question by question (statement → answer).
CAP_10 = [
    ("El modelo ha respondido en el turno 1, con un tope de 10. ¿Qué hace ahora el bucle?", VUELVE),
    ("La respuesta tiene una llamada. Al añadir sus resultados, ¿en cuántos mensajes crece M?", "1"),
    ("¿Cuántos mensajes recibe el modelo en su llamada del turno 2?", "4"),
    ("El modelo ha respondido en el turno 2, con un tope de 10. ¿Qué hace ahora el bucle?", VUELVE),
    ("La respuesta tiene 3 llamadas. Al añadir sus resultados, ¿en cuántos mensajes crece M?", "1"),
    ("¿Cuántos mensajes recibe el modelo en su llamada del turno 3?", "6"),
    ("El modelo ha respondido en el turno 3, con un tope de 10. ¿Qué hace ahora el bucle?", VUELVE),
    ("Al ejecutar las llamadas de esta respuesta, ¿qué fichero del entorno cambia?", "lista.txt"),
    ("¿Cuántos mensajes recibe el modelo en su llamada del turno 4?", "8"),
    ("El modelo ha respondido en el turno 4, con un tope de 10. ¿Qué hace ahora el bucle?", FIN),
]
CAP_3 = [(e.replace("tope de 10", "tope de 3"), r) for e, r in CAP_10[:6]] + [
    ("El modelo ha respondido en el turno 3, con un tope de 3. ¿Qué hace ahora el bucle?", TOPE),
    ("Al ejecutar las llamadas de esta respuesta, ¿qué fichero del entorno cambia?", "lista.txt"),
]


@pytest.fixture
def curso(sitio, servidor):
    return servidor(sitio)


def abrir(page, base, pagina="el-bucle.html", ident="traza-bucle"):
    page.goto(base + pagina)
    widget = page.locator(f"bucle-traza#{ident}")
    expect(widget.locator(".bucle-traza-ui")).to_be_visible()
    return widget


def boton(widget, nombre):
    return widget.get_by_role("button", name=nombre, exact=True)


def pregunta(widget):
    return widget.locator(".bucle-predice")


def responder(widget, respuesta):
    """Answer the question on show: type the number or choose the option, then Comprobar."""
    q = pregunta(widget)
    numero = q.get_by_role("spinbutton", name="Tu predicción")
    if numero.count():
        expect(numero).to_be_focused()  # the question takes the focus
        numero.fill(respuesta)
    else:
        expect(q.get_by_role("radio").first).to_be_focused()
        q.get_by_role("radio", name=respuesta, exact=True).check()
    boton(q, "Comprobar").click()
    expect(boton(widget, "Siguiente")).to_be_focused()


def predecir(widget, preguntas, cuantas=None):
    """Siguiente until the end (or `cuantas` questions), answering each question as `preguntas`
    says, in order; returns the statements that were asked."""
    hechas = []
    while boton(widget, "Siguiente").get_attribute("aria-disabled") != "true" and len(hechas) != cuantas:
        antes = widget.locator(".bucle-traza-numero").inner_text()
        boton(widget, "Siguiente").click()
        if not pregunta(widget).is_visible():
            expect(widget.locator(".bucle-traza-numero")).not_to_have_text(antes)
            continue
        enunciado, respuesta = preguntas[len(hechas)]
        expect(pregunta(widget).locator("legend")).to_have_text(f"Predice {enunciado}")
        expect(widget.locator(".bucle-traza-numero")).to_have_text(antes)  # nothing shown yet
        hechas.append(enunciado)
        responder(widget, respuesta)
    return hechas


def resultado(widget):
    return pregunta(widget).locator(".bucle-predice-resultado")


def test_predicting_el_bucle_at_cap_10_and_3_and_the_score_on_the_map(curso, pagina):
    w = abrir(pagina, curso)
    numero = w.locator(".bucle-traza-numero")
    predice = boton(w, "Predice")
    expect(predice).to_have_attribute("aria-pressed", "false")
    boton(w, "Final").click()
    predice.click()
    expect(predice).to_have_attribute("aria-pressed", "true")
    expect(numero).to_have_text("Paso 1 de 17")  # a round starts at the first step
    expect(w.get_by_role("status")).to_have_text(re.compile("^Predice: antes de cada paso"))

    # The first question: the step is not shown yet; Final and the slider stop before it too.
    boton(w, "Siguiente").click()
    expect(numero).to_have_text("Paso 2 de 17")
    boton(w, "Final").click()
    expect(pregunta(w).locator("legend")).to_have_text(f"Predice {CAP_10[0][0]}")
    expect(numero).to_have_text("Paso 2 de 17")
    w.get_by_role("slider", name="Paso").fill("9")
    expect(numero).to_have_text("Paso 2 de 17")
    boton(w, "Anterior").click()
    expect(pregunta(w)).to_be_hidden()
    expect(numero).to_have_text("Paso 1 de 17")

    # Cap 10. The third question, how many messages turn 2's call receives, answered wrong.
    assert predecir(w, CAP_10, cuantas=2) == [e for e, _ in CAP_10[:2]]
    boton(w, "Siguiente").click()
    expect(pregunta(w).locator("legend")).to_have_text(f"Predice {CAP_10[2][0]}")
    pregunta(w).get_by_role("spinbutton").fill("2")
    pregunta(w).get_by_role("spinbutton").press("Enter")
    expect(resultado(w)).to_have_class(re.compile("bucle-pregunta-incorrecta"))
    expect(resultado(w).locator(".bucle-predice-veredicto")).to_have_text("✘ No. La respuesta era: 4.")
    porque = ("El modelo recibe M entera, no solo lo nuevo: los 2 mensajes de la llamada anterior, "
              "su respuesta y el mensaje con las observaciones, 4 en total.")
    expect(resultado(w).locator(".bucle-predice-porque")).to_have_text(porque)
    expect(numero).to_have_text("Paso 5 de 17")  # the step, now shown
    expect(w.locator(".bucle-traza-texto")).to_have_text("El bucle llama al modelo con 4 mensajes.")
    expect(w.get_by_role("status")).to_have_text(
        f"No. La respuesta era: 4. {porque} Paso 5 de 17, turno 2. El bucle llama al modelo con 4 mensajes.")
    # Back and forth over what was answered: nothing is asked again.
    boton(w, "Anterior").click()
    boton(w, "Anterior").click()
    boton(w, "Siguiente").click()
    boton(w, "Siguiente").click()
    expect(pregunta(w)).to_be_hidden()
    expect(numero).to_have_text("Paso 5 de 17")
    assert predecir(w, CAP_10[3:]) == [e for e, _ in CAP_10[3:]]
    expect(w.locator(".bucle-predice-marcador")).to_have_text(
        "Has acertado 9 de 10 predicciones. Inicio empieza otra ronda.")
    expect(w.get_by_role("status")).to_contain_text("Has acertado 9 de 10 predicciones.")
    boton(w, "Inicio").click()
    expect(w.get_by_role("status")).to_have_text(re.compile("^Nueva ronda de predicciones. Paso 1 de 17"))
    expect(w.locator(".bucle-predice-marcador")).to_be_hidden()

    # Cap 3: a new round, every answer right.
    w.get_by_label("Tope").select_option("3")
    expect(numero).to_have_text("Paso 1 de 15")
    expect(w.get_by_role("status")).to_have_text(re.compile(r"^Tope 3\. Nueva ronda de predicciones\."))
    assert predecir(w, CAP_3) == [e for e, _ in CAP_3]
    expect(w.locator(".bucle-predice-marcador")).to_have_text(
        "Has acertado 8 de 8 predicciones. Inicio empieza otra ronda.")

    # The map keeps the best round: 8 of 8 beats 9 of 10.
    pagina.goto(curso + "index.html")
    el_bucle = pagina.get_by_role("link", name="El bucle", exact=True)
    expect(pagina.locator("bucle-progreso li").filter(has=el_bucle)).to_contain_text(
        "8 de 8 predicciones acertadas")
    expect(pagina.locator("bucle-progreso li").filter(has_text="Errores")).not_to_contain_text("predicci")


def test_at_the_cap_the_explanation_says_the_cap_counts_model_calls(curso, pagina):
    w = abrir(pagina, curso)
    w.get_by_label("Tope").select_option("3")
    boton(w, "Predice").click()
    # the seventh, at turn 3, answered wrong: a cap of 3 allows no fourth call
    predecir(w, CAP_3[:6] + [(CAP_3[6][0], VUELVE)], cuantas=7)
    expect(resultado(w).locator(".bucle-predice-veredicto")).to_have_text(f"✘ No. La respuesta era: {TOPE}.")
    expect(resultado(w).locator(".bucle-predice-porque")).to_have_text(
        "El tope cuenta llamadas al modelo: con 3, no hay una cuarta; pero la respuesta pide "
        'herramientas (t5), y el bucle las ejecuta y añade sus resultados antes de devolver ("tope", None, M).')
    expect(w.get_by_role("status")).to_have_text(re.compile(r"Pulsa Siguiente para continuar\.$"))
    predecir(w, CAP_3[7:])
    expect(w.locator(".bucle-predice-marcador")).to_have_text(
        "Has acertado 7 de 8 predicciones. Inicio empieza otra ronda.")
    pagina.goto(curso + "index.html")
    el_bucle = pagina.get_by_role("link", name="El bucle", exact=True)
    expect(pagina.locator("bucle-progreso li").filter(has=el_bucle)).to_contain_text(
        "7 de 8 predicciones acertadas")


def test_the_keyboard_alone_predicts_and_an_empty_answer_is_asked_for(curso, pagina):
    w = abrir(pagina, curso, "llamar-herramientas.html", "traza-un-turno")
    boton(w, "Predice").focus()
    pagina.keyboard.press("Enter")
    expect(boton(w, "Predice")).to_have_attribute("aria-pressed", "true")
    boton(w, "Siguiente").focus()
    pagina.keyboard.press("ArrowRight")
    pagina.keyboard.press("ArrowRight")  # a question: the focus goes into it
    radio = pregunta(w).get_by_role("radio").first
    expect(radio).to_be_focused()
    boton(pregunta(w), "Comprobar").click()
    expect(pregunta(w).locator(".bucle-predice-resultado")).to_have_text("Elige una opción antes de comprobar.")
    expect(w.get_by_role("status")).to_have_text("Elige una opción antes de comprobar.")
    expect(radio).to_be_focused()
    pagina.keyboard.press("Space")  # the first option, «…y vuelve a llamar al modelo»
    pagina.keyboard.press("Tab")
    pagina.keyboard.press("Enter")  # Comprobar
    expect(w.get_by_role("status")).to_have_text(re.compile(r"^Correcto\. La respuesta pide herramientas \(t1\)"))
    expect(boton(w, "Siguiente")).to_be_focused()
    pagina.keyboard.press("Enter")
    numero = pregunta(w).get_by_role("spinbutton", name="Tu predicción")
    expect(numero).to_be_focused()
    pagina.keyboard.press("Enter")
    expect(w.get_by_role("status")).to_have_text("Escribe un número antes de comprobar.")
    pagina.keyboard.type("1")
    pagina.keyboard.press("Enter")
    expect(w.get_by_role("status")).to_have_text(re.compile(r"^Correcto\. El resultado va en un mensaje"))
    # Turning the mode off: the plain trace again
    boton(w, "Predice").click()
    expect(boton(w, "Predice")).to_have_attribute("aria-pressed", "false")
    boton(w, "Final").click()
    expect(pregunta(w)).to_be_hidden()
    expect(w.locator(".bucle-traza-numero")).to_have_text(re.compile(r"^Paso (\d+) de \1$"))


def test_axe_finds_nothing_in_predict_mode(curso, pagina):
    w = abrir(pagina, curso)
    boton(w, "Predice").click()
    boton(w, "Siguiente").click()
    boton(w, "Siguiente").click()  # a choice question
    assert violaciones_axe(pagina, "bucle-traza#traza-bucle") == []
    responder(w, VUELVE)
    boton(w, "Siguiente").click()  # a number question
    assert violaciones_axe(pagina, "bucle-traza#traza-bucle") == []
    responder(w, "3")  # wrong: its explanation
    assert violaciones_axe(pagina) == []
    predecir(w, CAP_10[2:])
    expect(w.locator(".bucle-predice-marcador")).to_be_visible()
    assert violaciones_axe(pagina) == []


def test_at_phone_width_the_question_fits_and_passes_axe(curso, movil):
    w = abrir(movil, curso)
    boton(w, "Predice").tap()
    boton(w, "Siguiente").tap()
    boton(w, "Siguiente").tap()
    q = pregunta(w)
    expect(q).to_be_visible()
    for opcion in q.locator(".bucle-pregunta-opcion").all():
        caja = opcion.bounding_box()
        assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375 and caja["height"] >= 44
    q.get_by_text(TOPE, exact=True).tap()  # wrong
    boton(q, "Comprobar").tap()
    expect(q.locator(".bucle-predice-veredicto")).to_have_text(f"✘ No. La respuesta era: {VUELVE}.")
    assert movil.evaluate("document.documentElement.scrollWidth") <= 375
    assert violaciones_axe(movil) == []


def test_no_predict_mode_where_the_author_or_a_challenge_turns_it_off(sitio_de_prueba, servidor, pagina):
    base = servidor(sitio_de_prueba("trazas"))
    expect(boton(abrir(pagina, base, "index.html", "el-bucle"), "Predice")).to_have_count(1)
    pagina.goto(base + "otra.html")  # `:predice: no`
    otra = pagina.locator("bucle-traza#traza-1")
    expect(otra.locator(".bucle-traza-ui")).to_be_visible()
    expect(boton(otra, "Predice")).to_have_count(0)
    expect(boton(otra, "Lo que ve el modelo")).to_have_count(1)
