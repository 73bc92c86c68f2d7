"""A reader walks the lesson «El bucle» end to end, in one page of the built course.

In the order the lesson is read: step through the trace (buttons and keys), look at what the
model sees, lower the cap to 3; run the two cells; answer every question of «Comprueba tu
intuición», and the predictions and «Cámbialo tú» questions outside it; pass the challenge
«bucle-con-tope» with its reference solution; find the lesson's progress in the course map on
the index; and come back to the lesson to find the answers, the code and the best result still
there.

What is asserted is what the lesson's prose says (the trace's 9 messages in 4 turns and its list
written by turn 3; the first cell's 11 messages in 5 turns, 2, 4, 6, 8 and 10 messages received,
the RuntimeError at turn 12...). The correct answers and the
number of tests are never written here: they are read from the page's own data (the JSON each
widget carries), as the page itself reads them.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_desafio import SOLUCION, Desafio
from tests.browser.test_fallos_celdas import Celda
from tests.browser.test_traza import boton, evento, fichero, mensajes, posicion

pytestmark = [pytest.mark.navegador, pytest.mark.arranque("instantanea")]

LECCION = "el-bucle.html"
LLAMA = re.compile(r"El bucle llama al modelo con (\d+) mensajes\.")


def datos(elemento):
    """The JSON a widget carries (``<script class="bucle-datos">``, see widgets/base/nodos.py)."""
    return json.loads(elemento.locator(":scope > script.bucle-datos").text_content())


def paso_y_total(traza):
    m = re.fullmatch(r"Paso (\d+) de (\d+)", posicion(traza).inner_text())
    assert m, posicion(traza).inner_text()
    return int(m.group(1)), int(m.group(2))


def contenido(traza, ruta):
    return fichero(traza, ruta).locator(".bucle-traza-contenido").inner_text()


def recorrer_la_traza(page):
    """Step the trace as the lesson asks; return the final lista.txt it shows."""
    w = page.locator("bucle-traza#traza-bucle")
    expect(w.locator(".bucle-traza-ui")).to_be_visible()
    tope = w.get_by_label("Tope")
    topes = [int(t) for t in tope.locator("option").all_inner_texts()]
    expect(tope).to_have_value("10")  # «con tope 10», as the lesson's questions say
    assert max(topes) == 10 and 3 in topes, topes
    inicial = contenido(w, "lista.txt")

    # «Activa Lo que ve el modelo en los pasos en que se le llama. ¿Ve el entorno?»
    conmutador = boton(w, "Lo que ve el modelo")
    conmutador.click()
    expect(conmutador).to_have_attribute("aria-pressed", "true")
    nota = w.locator(".bucle-traza-nota")

    expect(boton(w, "Anterior")).to_have_attribute("aria-disabled", "true")
    paso, total = paso_y_total(w)
    assert paso == 1
    recibidos, cambia_la_lista = [], []
    while True:
        turno = w.locator(".bucle-traza-turno").inner_text()
        llamada = LLAMA.fullmatch(evento(w).inner_text())
        if llamada:
            n = int(llamada.group(1))
            recibidos.append((turno, n))
            expect(mensajes(w)).to_have_count(n)
            # the model is given exactly M[0]..M[n-1], and not the environment
            expect(w.locator(".bucle-traza-lo-recibe")).to_have_count(n)
            expect(nota).to_contain_text(f"El modelo recibe estos {n} mensajes, M[0] a M[{n - 1}]")
            expect(nota).to_contain_text("No recibe el entorno")
            expect(w.get_by_text("el modelo no lo ve", exact=True)).to_be_visible()
        else:
            expect(w.locator(".bucle-traza-lo-recibe")).to_have_count(0)
            expect(nota).to_have_text(re.compile("^En este paso no se llama al modelo"))
        if re.search(r"\bbucle-traza-cambiado\b", fichero(w, "lista.txt").get_attribute("class") or ""):
            cambia_la_lista.append(turno)
        if paso == total:
            break
        # the first steps with the button, the rest with the keys (focus stays in the widget)
        if paso < 3:
            boton(w, "Siguiente").click()
        else:
            page.keyboard.press("ArrowRight")
        paso += 1
        expect(posicion(w)).to_have_text(f"Paso {paso} de {total}")

    # «M solo crece en dos momentos de cada turno»: the model receives 2, 4, 6 and 8 messages.
    assert recibidos == [("Turno 1", 2), ("Turno 2", 4), ("Turno 3", 6), ("Turno 4", 8)], recibidos
    assert cambia_la_lista == ["Turno 3"], cambia_la_lista  # one step changes the list, in turn 3
    expect(boton(w, "Siguiente")).to_have_attribute("aria-disabled", "true")
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 4")
    expect(evento(w)).to_contain_text('El bucle devuelve ("fin", texto, M) tras el turno 4.')
    expect(evento(w)).to_contain_text("M tiene 9 mensajes.")
    expect(mensajes(w)).to_have_count(9)
    final = contenido(w, "lista.txt")
    # «La lista acaba con los seis ingredientes que faltaban»: the old ones stay, six are added.
    assert final.startswith(inicial + ", ") and len(final.split(", ")) == len(inicial.split(", ")) + 6, \
        (inicial, final)

    page.keyboard.press("Home")
    expect(posicion(w)).to_have_text(f"Paso 1 de {total}")
    conmutador.click()
    expect(conmutador).to_have_attribute("aria-pressed", "false")
    expect(nota).to_be_hidden()

    # «Después baja el Tope a 3 y vuelve al final.»
    tope.select_option("3")
    expect(posicion(w)).to_have_text(re.compile(r"^Paso 1 de \d+$"))
    boton(w, "Final").click()
    expect(w.locator(".bucle-traza-turno")).to_have_text("Turno 3")
    expect(evento(w)).to_contain_text('El bucle devuelve ("tope", None, M) tras el turno 3.')
    expect(evento(w)).to_contain_text("No hay texto para el usuario.")
    # «la traza termina justo después de escribir lista.txt: el trabajo está hecho»
    expect(mensajes(w).last.locator(".bucle-traza-bloques")).to_contain_text("escrito lista.txt")
    assert contenido(w, "lista.txt") == final
    return final


def ejecutar_las_celdas(page):
    uno, dos = Celda(page, 1), Celda(page, 2)
    expect(page.locator("bucle-celda")).to_have_count(2)

    uno.correr()
    expect(uno.fin).to_have_text("")  # it ran to the end, with output
    expect(uno.texto.locator(".bucle-stderr")).to_have_count(0)
    salida = uno.texto.inner_text()
    # «Verás 11 mensajes en 5 turnos»: M[0]..M[10], one line each.
    assert "11 mensajes en 5 turnos" in salida, salida
    assert re.findall(r"^M\[(\d+)\]", salida, re.M) == [str(i) for i in range(11)], salida
    # «La lista acaba con los huevos y la cebolla que faltaban para la tortilla.»
    assert "lista.txt: pan, leche, patatas, huevos, cebolla" in salida.splitlines(), salida

    dos.correr()
    expect(dos.fin).to_have_text("")
    expect(dos.texto.locator(".bucle-stderr")).to_have_count(0)  # the RuntimeError was caught
    expect(dos.salida).not_to_contain_text("Antes se ejecuta")  # the first cell had already run
    salida = dos.texto.inner_text()
    assert "mensajes recibidos en cada turno: [2, 4, 6, 8, 10]" in salida, salida
    # «en el turno 12 el modelo guionizado lanza RuntimeError porque su guion se acabó»
    assert "El guion se acabó" in salida and "(turno 12)" in salida, salida


def responder_bien(q):
    """Answer question ``q`` right, from its data, and check it."""
    dato = datos(q)
    if dato["tipo"] == "numero":
        respuesta = dato["respuesta"]
        texto = str(int(respuesta)) if respuesta == int(respuesta) else str(respuesta).replace(".", ",")
        q.get_by_role("textbox", name="Tu respuesta").fill(texto)
    else:
        rol = "radio" if dato["tipo"] == "una" else "checkbox"
        opciones = q.get_by_role(rol)
        expect(opciones).to_have_count(dato["opciones"])
        for i in range(dato["opciones"]):
            if i in dato["correctas"]:
                opciones.nth(i).check()
            elif rol == "checkbox":
                opciones.nth(i).set_checked(False)
    q.get_by_role("button", name="Comprobar").click()
    expect(q.get_by_role("status")).to_contain_text("Correcto.")


def responder_las_sueltas(page):
    """Answer right every question outside the group (the predictions, «Cámbialo tú»); return
    their ids, in page order."""
    sueltas = page.locator("bucle-pregunta:not(bucle-grupo bucle-pregunta)")
    ids = [sueltas.nth(i).get_attribute("id") for i in range(sueltas.count())]
    assert ids, "the lesson asks before it tells"
    for ident in ids:
        responder_bien(page.locator(f"bucle-pregunta#{ident}"))
    return ids


def responder_las_preguntas(page):
    """Answer every question of the group right, from each question's data; return their ids."""
    grupo = page.get_by_role("region", name="Comprueba tu intuición")
    ids = datos(page.locator("bucle-grupo"))["preguntas"]
    assert ids, "the group lists its questions"
    puntuacion = grupo.get_by_role("status").last
    expect(puntuacion).to_have_text(f"0 de {len(ids)} correctas")
    for hechas, ident in enumerate(ids, start=1):
        responder_bien(page.locator(f"bucle-pregunta#{ident}"))
        expect(puntuacion).to_have_text(f"{hechas} de {len(ids)} correctas")
    return ids


def superar_el_desafio(page):
    """Paste the reference solution, check it; return the number of tests."""
    d = Desafio(page)
    nombres = datos(d.elemento)["pruebas"]
    d.escribir(SOLUCION)
    d.comprobar()
    m = re.match(r"(\d+) de (\d+) pruebas? superadas?", d.resumen.inner_text())
    assert m, d.resumen.inner_text()
    superadas, total = int(m.group(1)), int(m.group(2))
    assert superadas == total == len(nombres), (d.resumen.inner_text(), nombres)
    expect(d.pruebas).to_have_count(total)
    for i, nombre in enumerate(nombres):
        expect(d.pruebas.nth(i)).to_have_text(f"✔{nombre}superada")
    expect(d.error).to_be_hidden()
    return total


def test_a_reader_walks_el_bucle_end_to_end(sitio, servidor, pagina):
    base = servidor(sitio)
    pagina.goto(base + LECCION)

    recorrer_la_traza(pagina)
    ejecutar_las_celdas(pagina)
    sueltas = responder_las_sueltas(pagina)
    preguntas = responder_las_preguntas(pagina)
    total = superar_el_desafio(pagina)
    mejor = f"Tu mejor resultado: {total} de {total} pruebas superadas."

    # The course map on the index shows the lesson done.
    pagina.goto(base + "index.html")
    mapa = pagina.locator("bucle-progreso")
    lecciones = {x["pagina"]: x for x in datos(mapa)["lecciones"]}
    assert lecciones["el-bucle"]["preguntas"] == sueltas + preguntas  # the page's order
    assert lecciones["el-bucle"]["desafios"] == ["bucle-con-tope"]
    # (a filter's inner locator starts at the page: it is queried inside each list item)
    leccion = mapa.get_by_role("listitem").filter(
        has=pagina.get_by_role("link", name="El bucle", exact=True))
    estado = leccion.locator(".bucle-progreso-estado")
    todas = len(sueltas) + len(preguntas)
    expect(estado).to_contain_text(f"{todas} de {todas} preguntas correctas")
    expect(estado).to_contain_text("desafío superado")
    expect(estado).to_contain_text("✔ completada")
    expect(leccion).to_have_class(re.compile(r"\bbucle-completa\b"))
    # only this lesson: the others are untouched
    otra = mapa.get_by_role("listitem").filter(
        has=pagina.get_by_role("link", name="Llamar a herramientas", exact=True))
    expect(otra.locator(".bucle-progreso-estado")).to_contain_text("desafío sin intentar")
    expect(otra).not_to_have_class(re.compile(r"\bbucle-completa\b"))

    # Back to the lesson from the map: the answers, the code and the best result are still there.
    leccion.get_by_role("link", name="El bucle", exact=True).click()
    expect(pagina).to_have_url(re.compile(re.escape(LECCION) + "$"))
    expect(pagina.get_by_role("region", name="Comprueba tu intuición").get_by_role("status").last) \
        .to_have_text(f"{len(preguntas)} de {len(preguntas)} correctas")
    for ident in preguntas:
        q = pagina.locator(f"bucle-pregunta#{ident}")
        dato = datos(q)
        expect(q.get_by_role("status")).to_contain_text("Correcto.")
        if dato["tipo"] == "numero":
            campo = q.get_by_role("textbox", name="Tu respuesta")
            assert float(campo.input_value().replace(",", ".")) == dato["respuesta"]
        else:
            opciones = q.get_by_role("radio" if dato["tipo"] == "una" else "checkbox")
            for i in range(dato["opciones"]):
                if i in dato["correctas"]:
                    expect(opciones.nth(i)).to_be_checked()
                else:
                    expect(opciones.nth(i)).not_to_be_checked()
    d = Desafio(pagina)
    assert d.codigo() == SOLUCION
    expect(d.elemento.locator(".bucle-desafio-mejor")).to_have_text(mejor)
