"""«El bucle con un modelo real» in a real browser: the reader downloads the course's model, and
the lesson's cell «un-turno» sends one bounded turn (max_tokens=64) through the lesson's own
ModeloAPI, a real POST to the site's modelo/v1/messages that the course's service worker hands
to this page's model, and prints the blocks that came back and their usage. The model read the
agent's system message and tools when it loaded (the page's ``modelo`` directive), so the turn
reuses them and processes only the user's request. Then, offline, the page reloaded: the model
loads from the browser's cache, what it read of the shared start is put back (not read again),
and the same turn is answered again, reusing it. And the reader's own
server: the lesson's cell «tu-servidor», the same adapter and agent, against a fake model server
on another port of 127.0.0.1 once its address is confirmed, with a 404 and a cut response.
Nothing else leaves 127.0.0.1 (the context's watch fails the test otherwise)."""

import ast
import itertools
import re

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import Celda
from tests.browser.test_fallos_celdas import Celda as CeldaEditable
from tests.browser.test_puente import _ServidorPropio, servidor_propio  # noqa: F401 (a fixture)
from tests.conftest import contexto_vigilado

pytestmark = pytest.mark.navegador

#: ms: the load's preparation reads a 500-token prompt on a shared 2-core machine, then the turn.
TURNO = 240_000

#: A request of the lessons («listar» kind), run whole by the lesson's agent on ModeloAPI().
PEDIDO_DE_LAS_RECETAS = ('como, final, M = agente(ModeloAPI(), "¿Qué recetas hay en la carpeta recetas?", '
                         """dict(ENTORNO))
for mensaje in M[2:]:
    print(muestra(mensaje))
print(como, final)
""")


def test_one_turn_of_the_lesson_goes_through_the_adapter_to_the_model_in_the_page(
        sitio, servidor, navegador, registro_externo):
    base = servidor(sitio)
    with contexto_vigilado(navegador, registro_externo, service_workers="allow") as contexto:
        peticiones = []
        contexto.on("request", lambda r: r.method == "POST" and "/modelo/v1/messages" in r.url
                    and peticiones.append(r))
        page = contexto.new_page()
        page.goto(base + "modelo-real.html")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        page.reload()
        modelo = page.locator("bucle-modelo")
        modelo.get_by_role("button", name=re.compile(r"^Descargar el modelo \(\d+ MB\)$")).click()
        expect(modelo).to_have_attribute("data-estado", "listo", timeout=TURNO)
        expect(modelo.get_by_role("status")).to_have_text("Modelo listo")

        celda = Celda(page, 3)  # «un-turno»: it runs the cells it depends on first
        celda.ejecutar()
        expect(celda.boton("Detener")).to_be_hidden(timeout=TURNO)
        salida = celda.texto.inner_text()
        assert "no hay respuesta del modelo" not in salida and "ha respondido" not in salida, salida
        lineas = salida.splitlines()
        # the blocks, one muestra line each, then the usage the server counted
        assert lineas[-1].startswith("uso: {'input_tokens': "), salida
        assert all(re.match(r"^(llamada toolu_\d+ \w+\(|«)", linea) for linea in lineas[:-1]), salida
        uso = ast.literal_eval(lineas[-1].removeprefix("uso: "))
        # The start read at the load: the system prompt (some 490 tokens) is reused; what is
        # processed anew is the user's request and the turn's own markers.
        assert uso["cache_read_input_tokens"] > 400, uso
        assert 0 < uso["input_tokens"] < 60, uso
        preparada = page.evaluate("__bucleMotorDelModelo().cifras.preparacion")
        assert uso["cache_read_input_tokens"] <= preparada["tokens"], (preparada, uso)

        # the request was a real POST with the JSON the lesson shows, answered by the worker
        assert len(peticiones) == 1
        cuerpo = peticiones[0].post_data_json
        assert (cuerpo["model"], cuerpo["max_tokens"]) == ("smollm2-135m", 64)
        assert [m["role"] for m in cuerpo["messages"]] == ["user"]
        assert [h["name"] for h in cuerpo["tools"]] == ["listar", "leer", "escribir", "buscar"]
        assert peticiones[0].response().from_service_worker

        # One of the lessons' requests, whole, through the lesson's agent and ModeloAPI: the
        # course's tuned model lists the folder and answers with what it found (the base model
        # asked listar('lista.txt') until the cap).
        n = page.locator("bucle-celda").evaluate_all(
            "(celdas) => celdas.findIndex((c) => c.id === 'agente-real')") + 1
        agente_real = CeldaEditable(page, n)
        agente_real.pegar(PEDIDO_DE_LAS_RECETAS)
        page.evaluate("__bucleMotorDelModelo().historial.length = 0")
        agente_real.boton("Ejecutar").click()
        expect(agente_real.boton("Detener")).to_be_hidden(timeout=TURNO)
        lineas = agente_real.texto.inner_text().strip().splitlines()
        assert re.fullmatch(r"asistente: \[llamada toolu_\d+ listar\(carpeta='recetas'\)\]", lineas[0]), lineas
        como, _, final = lineas[-1].partition(" ")
        assert como == "fin" and "gazpacho" in final and "tortilla" in final, lineas
        # Each turn reuses the whole conversation before it (llama.cpp's own counters): all of the
        # turn before but the token that ended it, sampled and never read; what it processes anew
        # is only that end, the observation and the turn's framing.
        turnos = page.evaluate("__bucleMotorDelModelo().historial")
        assert len(turnos) >= 2, turnos
        for antes, despues in itertools.pairwise(turnos):
            leidos = antes["tokensReusados"] + antes["tokensEntrada"] + antes["tokensSalida"] - 1
            assert despues["tokensReusados"] == leidos, [(t["tokensReusados"], t["tokensEntrada"],
                                                          t["tokensSalida"]) for t in turnos]
        hechas = len(peticiones)

        # Offline: the page, Python and the model all come from the browser, and the turn too.
        contexto.set_offline(True)
        page.reload()
        modelo.get_by_role("button", name="Cargar el modelo (ya descargado)", exact=True).click()
        expect(modelo).to_have_attribute("data-estado", "listo", timeout=TURNO)
        # The shared start is not read again: what the model read of it the first time was kept
        # in this browser, and is put back.
        page.wait_for_function("__bucleMotorDelModelo().cifras.preparacion", timeout=TURNO)
        puesta = page.evaluate("__bucleMotorDelModelo().cifras.preparacion")
        assert (puesta["restaurada"], puesta["tokens"]) == (True, 0), puesta
        celda.ejecutar()
        expect(celda.boton("Detener")).to_be_hidden(timeout=TURNO)
        salida = celda.texto.inner_text()
        assert salida.splitlines()[-1].startswith("uso: {'input_tokens': "), salida
        uso = ast.literal_eval(salida.splitlines()[-1].removeprefix("uso: "))
        assert uso["cache_read_input_tokens"] > 400 and 0 < uso["input_tokens"] < 60, uso
        assert len(peticiones) == hechas + 1 and peticiones[-1].response().from_service_worker


def test_the_lessons_adapter_talks_to_the_readers_own_server_once_confirmed(
        sitio, servidor, pagina, servidor_propio):  # noqa: F811 - the fixture
    puerto, vistas = servidor_propio
    pagina.goto(servidor(sitio) + "modelo-real.html")
    n = pagina.locator("bucle-celda").evaluate_all(
        "(celdas) => celdas.findIndex((c) => c.id === 'tu-servidor')") + 1
    assert n > 0
    celda = CeldaEditable(pagina, n)
    leccion = celda.elemento.locator(".highlight").inner_text()
    assert 'ModeloAPI(nombre="qwen2.5:0.5b", url=url)' in leccion

    celda.correr()  # the cells it depends on first
    expect(celda.texto).to_have_text("Escribe y confirma antes la dirección de tu servidor.\n")
    control = pagina.get_by_role("region", name="Tu propio servidor")
    direccion = f"http://127.0.0.1:{puerto}"
    control.get_by_role("textbox", name="Dirección de tu servidor").fill(direccion)
    control.get_by_role("button", name="Usar este servidor").click()
    control.get_by_role("button", name="Sí, usarlo").click()
    expect(control.get_by_role("status")).to_contain_text(f"{direccion}/v1/messages")

    # The lesson's cell as it is: the agent of lessons 1-5 on ModeloAPI, whose answer (no call,
    # no text) ends the conversation.
    celda.correr()
    expect(celda.texto).to_have_text("fin \n")
    cuerpo = _ServidorPropio.cuerpos[-1]
    assert (cuerpo["model"], cuerpo["max_tokens"]) == ("qwen2.5:0.5b", 256)
    assert cuerpo["system"].startswith("Eres un asistente")
    assert [m["role"] for m in cuerpo["messages"]] == ["user"]
    assert [h["name"] for h in cuerpo["tools"]] == ["listar", "leer", "escribir", "buscar"]
    # The server's 404 is ErrorDelServidor with its reason; a cut answer the lesson's adapter
    # does not look at (it reads no stop_reason: the challenge's raises RespuestaCortada), so the
    # loop takes what came, nothing, for the answer.
    celda.correr(leccion.replace("qwen2.5:0.5b", "no-existe"))
    expect(celda.texto).to_have_text(
        "el servidor del modelo ha respondido 404: no tengo el modelo no-existe\n")
    celda.correr(leccion.replace("qwen2.5:0.5b", "corto"))
    expect(celda.texto).to_have_text("fin \n")
    assert [v for v in vistas if v[0] == "POST"] == [
        ("POST", "/v1/messages", "qwen2.5:0.5b"), ("POST", "/v1/messages", "no-existe"),
        ("POST", "/v1/messages", "corto")]
