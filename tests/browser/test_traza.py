"""The step-through trace in a real browser: «El bucle» (tests/sites/trazas) stepped with the
buttons, the keys and the slider; the cap switched; what the model sees; no Python, no request
off 127.0.0.1 (checked by the fixtures), no serious axe violation, and a reading without JS."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador

LISTA_COMPLETA = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"


@pytest.fixture
def sitio_trazas(sitio_de_prueba, servidor):
    return servidor(sitio_de_prueba("trazas"))


def abrir(page, base):
    peticiones = []
    page.on("request", lambda r: peticiones.append(r.url))
    page.goto(base)
    widget = page.locator("bucle-traza#el-bucle")
    expect(widget.locator(".bucle-traza-ui")).to_be_visible()
    widget.peticiones = peticiones
    return widget


def boton(widget, nombre):
    return widget.get_by_role("button", name=nombre, exact=True)


def posicion(widget):
    return widget.locator(".bucle-traza-numero")


def evento(widget):
    return widget.locator(".bucle-traza-texto")


def mensajes(widget):
    return widget.locator(".bucle-traza-mensajes > li")


def fichero(widget, ruta):
    return widget.locator(".bucle-traza-fichero").filter(
        has=widget.page.locator(".bucle-traza-ruta", has_text=re.compile(f"^{re.escape(ruta)}$")))


def ir_a(widget, paso):
    widget.get_by_role("slider", name="Paso").fill(str(paso))
    expect(posicion(widget)).to_have_text(re.compile(rf"^Paso {paso} de "))


def test_buttons_step_through_and_stop_at_both_ends(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 1")
    expect(posicion(w)).to_have_text("Paso 1 de 17")
    expect(evento(w)).to_have_text("El bucle llama al modelo con 2 mensajes.")
    expect(boton(w, "Anterior")).to_have_attribute("aria-disabled", "true")
    expect(boton(w, "Inicio")).to_have_attribute("aria-disabled", "true")
    boton(w, "Anterior").click(force=True)  # aria-disabled: a click does nothing
    expect(posicion(w)).to_have_text("Paso 1 de 17")
    boton(w, "Siguiente").click()
    expect(posicion(w)).to_have_text("Paso 2 de 17")
    expect(evento(w)).to_contain_text("la respuesta entra en M como M[2]")
    expect(mensajes(w)).to_have_count(3)
    expect(mensajes(w).nth(2)).to_have_class(re.compile("bucle-traza-nuevo"))
    expect(mensajes(w).nth(2)).to_contain_text("llamada t1 listar(carpeta='recetas')")
    boton(w, "Final").click()
    expect(posicion(w)).to_have_text("Paso 17 de 17")
    expect(boton(w, "Siguiente")).to_have_attribute("aria-disabled", "true")
    expect(boton(w, "Final")).to_be_focused()  # still focused at the end: keys keep working
    boton(w, "Anterior").click()
    expect(posicion(w)).to_have_text("Paso 16 de 17")
    boton(w, "Inicio").click()
    expect(posicion(w)).to_have_text("Paso 1 de 17")
    # the page steps with no Python: no worker, no Pyodide, no editor
    assert not [u for u in w.peticiones if re.search(r"trabajador|pyodide|editor|python", u)], w.peticiones


def test_keys_step_while_focus_is_in_the_widget_and_nowhere_else(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    boton(w, "Siguiente").focus()
    pagina.keyboard.press("ArrowRight")
    expect(posicion(w)).to_have_text("Paso 2 de 17")
    pagina.keyboard.press("End")
    expect(posicion(w)).to_have_text("Paso 17 de 17")
    pagina.keyboard.press("ArrowLeft")
    expect(posicion(w)).to_have_text("Paso 16 de 17")
    pagina.keyboard.press("Home")
    expect(posicion(w)).to_have_text("Paso 1 de 17")
    expect(pagina).to_have_url(re.compile(r"/(index\.html)?$"))
    # Elsewhere the keys are the page's: Furo turns the page with →.
    pagina.locator("h1").click()
    pagina.keyboard.press("End")
    pagina.keyboard.press("ArrowRight")
    expect(pagina).to_have_url(re.compile(r"otra\.html$"))


def test_the_slider_moves_to_any_step(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    barra = w.get_by_role("slider", name="Paso")
    expect(barra).to_have_attribute("max", "17")
    barra.fill("13")
    expect(posicion(w)).to_have_text("Paso 13 de 17")
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 3")
    expect(evento(w)).to_have_text("Se ejecuta escribir (t5): cambia lista.txt.")
    lista = fichero(w, "lista.txt")
    expect(lista).to_have_class(re.compile("bucle-traza-cambiado"))
    expect(lista.locator("ins")).to_have_text(", tomates, pepino, pimiento, ajo, huevos, cebolla")
    expect(lista.locator(".bucle-traza-contenido")).to_have_text(LISTA_COMPLETA)
    expect(fichero(w, "notas.txt")).not_to_have_class(re.compile("bucle-traza-cambiado"))
    barra.focus()
    pagina.keyboard.press("ArrowRight")  # the slider's own keys
    expect(posicion(w)).to_have_text("Paso 14 de 17")
    expect(barra).to_have_attribute("aria-valuetext", "Paso 14 de 17, turno 3")


def test_cap_10_shows_the_facts_of_el_bucle(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    expect(w.get_by_label("Tope")).to_have_value("10")
    recibidos = []
    for paso in range(1, 18):
        texto = evento(w).inner_text()
        m = re.fullmatch(r"El bucle llama al modelo con (\d+) mensajes\.", texto)
        if m:
            turno = w.locator(".bucle-traza-turno").inner_text()
            recibidos.append((turno, int(m.group(1))))
            expect(mensajes(w)).to_have_count(int(m.group(1)))
        if paso < 17:
            boton(w, "Siguiente").click()
            expect(posicion(w)).to_have_text(f"Paso {paso + 1} de 17")
    assert recibidos == [("Turno 1", 2), ("Turno 2", 4), ("Turno 3", 6), ("Turno 4", 8)]
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 4")
    expect(evento(w)).to_have_text('El bucle devuelve ("fin", texto, M) tras el turno 4. '
                                   "El modelo respondió sin llamadas. M tiene 9 mensajes.")
    expect(w.locator(".bucle-traza-detalle")).to_have_text(
        "texto: He añadido a lista.txt tomates, pepino, pimiento, ajo, huevos y cebolla.")
    expect(mensajes(w)).to_have_count(9)
    expect(fichero(w, "lista.txt").locator(".bucle-traza-contenido")).to_have_text(LISTA_COMPLETA)


def test_cap_3_stops_after_turn_3_with_the_list_written_and_no_text(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    w.get_by_label("Tope").select_option("3")
    expect(posicion(w)).to_have_text("Paso 1 de 15")
    boton(w, "Final").click()
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 3")
    expect(evento(w)).to_contain_text('El bucle devuelve ("tope", None, M) tras el turno 3.')
    expect(evento(w)).to_contain_text("Se agotó el tope de 3 llamadas al modelo. M tiene 8 mensajes.")
    expect(evento(w)).to_contain_text("No hay texto para el usuario.")
    expect(w.locator(".bucle-traza-detalle")).to_be_hidden()
    expect(mensajes(w)).to_have_count(8)
    expect(mensajes(w).last).to_contain_text("M[7]usuario")
    expect(mensajes(w).last.locator(".bucle-traza-bloques")).to_have_text(
        "resultado t5: «escrito lista.txt (68 caracteres)»")
    expect(fichero(w, "lista.txt").locator(".bucle-traza-contenido")).to_have_text(LISTA_COMPLETA)


def test_switching_the_cap_keeps_the_turn(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    tope = w.get_by_label("Tope")
    ir_a(w, 8)  # turn 2, its fourth step (the call t3)
    expect(evento(w)).to_contain_text("(t3)")
    tope.select_option("3")
    expect(posicion(w)).to_have_text("Paso 8 de 15")
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 2")
    expect(evento(w)).to_contain_text("(t3)")
    expect(w.get_by_role("status")).to_have_text(re.compile(r"^Tope 3\. Paso 8 de 15, turno 2\."))
    boton(w, "Final").click()  # cap 3 ends in turn 3
    tope.select_option("10")
    expect(posicion(w)).to_have_text("Paso 14 de 17")
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 3")
    boton(w, "Final").click()  # turn 4 does not exist with cap 1: its last step
    tope.select_option("1")
    expect(posicion(w)).to_have_text("Paso 5 de 5")
    expect(evento(w)).to_contain_text('("tope", None, M) tras el turno 1')


def test_what_the_model_sees_marks_exactly_the_messages_of_each_call(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    conmutador = boton(w, "Lo que ve el modelo")
    expect(conmutador).to_have_attribute("aria-pressed", "false")
    ir_a(w, 5)
    expect(w.locator(".bucle-traza-recibe")).to_have_count(0)
    conmutador.click()
    expect(conmutador).to_have_attribute("aria-pressed", "true")
    nota = w.locator(".bucle-traza-nota")
    expect(nota).to_contain_text("El modelo recibe estos 4 mensajes, M[0] a M[3]")
    expect(nota).to_contain_text("No recibe el entorno")
    expect(w.locator(".bucle-traza-entorno").get_by_text("el modelo no lo ve")).to_be_visible()
    for paso in range(1, 18):
        ir_a(w, paso)
        texto = evento(w).inner_text()
        marcados = w.locator(".bucle-traza-recibe .bucle-traza-indice").all_inner_texts()
        m = re.fullmatch(r"El bucle llama al modelo con (\d+) mensajes\.", texto)
        if m:
            n = int(m.group(1))
            assert marcados == [f"M[{i}]" for i in range(n)], (paso, marcados)
            expect(w.locator(".bucle-traza-lo-recibe")).to_have_count(n)
            expect(nota).to_contain_text("No recibe el entorno")
            expect(w.locator(".bucle-traza-entorno").get_by_text("el modelo no lo ve")).to_be_visible()
        else:
            assert marcados == [], (paso, marcados)
            expect(nota).to_have_text(re.compile("^En este paso no se llama al modelo"))
            expect(w.locator(".bucle-traza-entorno").get_by_text("el modelo no lo ve")).to_be_hidden()
    conmutador.click()
    expect(conmutador).to_have_attribute("aria-pressed", "false")
    expect(nota).to_be_hidden()


def test_each_step_is_announced_politely(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    estado = w.get_by_role("status")
    expect(estado).to_have_attribute("aria-live", "polite")
    expect(estado).to_be_empty()  # nothing is announced on load
    boton(w, "Siguiente").click()
    expect(estado).to_have_text(re.compile(
        r"^Paso 2 de 17, turno 1\. El modelo responde con un texto y una llamada \(t1\)"))


def test_axe_finds_nothing_serious_on_desktop(sitio_trazas, pagina):
    w = abrir(pagina, sitio_trazas)
    assert violaciones_axe(pagina) == []
    ir_a(w, 13)  # a call that changes a file
    boton(w, "Lo que ve el modelo").click()
    assert violaciones_axe(pagina) == []
    ir_a(w, 11)  # a call to the model, with what it sees marked
    assert violaciones_axe(pagina) == []


def test_the_phone_layout_fits_375_px_and_passes_axe(sitio_trazas, movil):
    w = abrir(movil, sitio_trazas)
    boton(w, "Lo que ve el modelo").click()
    for paso in (13, 15, 17):
        ir_a(w, paso)
        ancho = movil.evaluate("document.documentElement.scrollWidth")
        assert ancho <= 375, f"the page is {ancho} px wide at step {paso}"
        caja = w.bounding_box()
        assert caja["x"] >= 0 and caja["x"] + caja["width"] <= 375
    for nombre in ("Inicio", "Anterior", "Siguiente", "Final", "Lo que ve el modelo"):
        caja = boton(w, nombre).bounding_box()
        assert caja["height"] >= 24 and caja["x"] + caja["width"] <= 375, nombre
    boton(w, "Anterior").tap()
    expect(posicion(w)).to_have_text("Paso 16 de 17")
    assert violaciones_axe(movil) == []


def test_without_javascript_the_final_M_reads_as_a_list(navegador, sitio_trazas):
    context = navegador.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(sitio_trazas)
        widget = page.locator("bucle-traza#el-bucle")
        expect(widget.get_by_text("Al final, con tope 10, el bucle devuelve «fin» y M tiene 9 mensajes:")
               ).to_be_visible()
        final = widget.locator("ol.bucle-traza-final > li")
        expect(final).to_have_count(9)
        expect(final.nth(7)).to_contain_text("resultado t5: «escrito lista.txt (68 caracteres)»")
        expect(widget.locator(".bucle-traza-ui")).to_have_count(0)
    finally:
        context.close()


def test_the_same_element_shows_a_trace_given_at_run_time_with_a_marked_step(sitio_trazas, pagina):
    """As «Ver tu traza» will: one trace recorded in the page, the step where it departs marked."""
    abrir(pagina, sitio_trazas)
    pagina.evaluate("""() => {
        const datos = JSON.parse(document.querySelector("#el-bucle > script.bucle-datos").textContent);
        const el = document.createElement("bucle-traza");
        el.id = "tuya";
        el.datos = { titulo: "Tu traza", trazas: { "3": datos.trazas["3"] } };
        el.marca = { indice: 4, texto: "Aquí tu bucle se separa del esperado." };
        document.querySelector("article").append(el);
    }""")
    w = pagina.locator("bucle-traza#tuya")
    expect(w.locator(".bucle-traza-titulo")).to_have_text("Tu traza")
    expect(posicion(w)).to_have_text("Paso 5 de 15")
    expect(w.locator(".bucle-traza-marca")).to_have_text("Aquí tu bucle se separa del esperado.")
    expect(w.get_by_label("Tope")).to_have_count(0)  # one trace: nothing to switch
    expect(boton(w, "Predice")).to_have_count(0)  # no questions given: no predict mode
    boton(w, "Siguiente").click()
    expect(w.locator(".bucle-traza-marca")).to_be_hidden()


def test_a_folder_trace_shows_an_edit_as_lines_and_folds_the_files_it_leaves(sitio_trazas, pagina, movil):
    """Lesson 8's project (tests/sites/trazas/otra.md, its third trace): at the edit, the changed
    line of descuentos.py is removed and put, among two unchanged lines on each side; the test
    file, which the step leaves as it was, folds under its name and opens on a click. On a phone,
    long lines of code wrap and the page stays as wide as the screen."""
    for page in (pagina, movil):
        page.goto(sitio_trazas + "otra.html")
        w = page.locator("bucle-traza#traza-3")
        w.scroll_into_view_if_needed()
        ir_a(w, 17)
        expect(evento(w)).to_contain_text("Se ejecuta editar (f4): cambia descuentos.py.")
        codigo = fichero(w, "descuentos.py").locator(".bucle-traza-contenido")
        expect(codigo.locator("del")).to_have_text(["-     if unidades > UNIDADES_PARA_DESCUENTO:\n"])
        expect(codigo.locator("ins")).to_have_text(["+     if unidades >= UNIDADES_PARA_DESCUENTO:\n"])
        expect(codigo.locator(".bucle-traza-oculta")).to_have_text(["⋯ 10 líneas iguales\n", "⋯ 5 líneas iguales\n"])
        pruebas = fichero(w, "test_descuentos.py")
        expect(pruebas.locator("summary")).to_have_text("test_descuentos.py17 líneas, sin cambios")
        expect(pruebas.locator(".bucle-traza-contenido")).to_be_hidden()
        pruebas.locator("summary").click()
        expect(pruebas.locator(".bucle-traza-contenido")).to_contain_text("def test_descuento_justo_en_el_minimo")
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        assert violaciones_axe(page, "bucle-traza#traza-3") == []
