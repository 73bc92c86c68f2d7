"""Running a cell in a real browser: errors told in the reader's terms, output as text in order (a
flood cut in the worker and on the page), and Detener stopping an endless loop, isolated or not."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import ESPERA, Celda
from tests.conftest import violaciones_axe

pytestmark = pytest.mark.navegador


# Counts the workers the page creates and the output that crosses postMessage.
CONTAR_MENSAJES = """
window.__trabajadores = 0; window.__cruzado = 0; window.__omitidas_en_el_trabajador = 0;
const TrabajadorOriginal = window.Worker;
window.Worker = class extends TrabajadorOriginal {
  constructor(...args) {
    super(...args);
    window.__trabajadores++;
    this.addEventListener("message", ({ data }) => {
      if (data && data.type === "salida") {
        window.__cruzado += data.texto.length;
        if (data.omitidas) window.__omitidas_en_el_trabajador += data.omitidas.lineas;
      }
    });
  }
};
"""


def test_errors_are_told_in_the_readers_terms(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html) + "errores.html")
    traza, sintaxis, entrada, salida, exit_ = (Celda(pagina, n) for n in range(1, 6))

    traza.correr()
    expect(traza.texto).to_have_text(
        "Rastreo (la llamada más reciente, al final):\n"
        "  Celda 1, línea 4\n"
        "    print(dividir(1, 0))\n"
        "  Celda 1, línea 2, en dividir\n"
        "    return a / b\n"
        "ZeroDivisionError: division by zero\n"
    )
    expect(traza.texto.locator(".bucle-stderr")).to_have_count(1)

    sintaxis.correr()
    texto = sintaxis.texto.inner_text()
    lineas = texto.splitlines()
    assert lineas[0] == "  Celda 2, línea 2", texto
    assert lineas[1] == "    if x > 0"
    assert lineas[2].strip() == "^" and lineas[2].index("^") == len("    if x > 0")
    assert lineas[3] == "SyntaxError: expected ':'"

    # This page is isolated: input() waits for the reader (without isolation it says why it
    # cannot: tests/browser/test_espera.py).
    entrada.ejecutar()
    campo = entrada.salida.get_by_role("textbox", name="¿Cómo te llamas?")
    expect(campo).to_be_focused(timeout=ESPERA)
    campo.fill("Ada")
    entrada.boton("Enviar").click()
    entrada.esperar_fin()
    expect(entrada.texto).to_have_text("¿Cómo te llamas? Ada\n")
    expect(entrada.texto).not_to_contain_text("Error")

    salida.correr()
    expect(salida.texto).to_have_text("me voy\n")
    expect(salida.salida).to_contain_text(
        "La celda terminó al llamar a exit() o sys.exit() (código de salida 3). Python sigue en marcha.")

    # The worker is still there: the next cell runs.
    exit_.correr()
    expect(exit_.texto).to_have_text("antes de exit()\n")
    expect(exit_.salida).to_contain_text("La celda terminó al llamar a exit() o sys.exit().")
    for celda in (traza, sintaxis, entrada, salida, exit_):
        expect(celda.salida).not_to_contain_text("trabajador")
        expect(celda.salida).not_to_contain_text('File "')


def test_output_is_text_in_order_and_a_flood_is_cut_on_both_sides(celdas_html, servidor, pagina):
    dialogos = []
    pagina.on("dialog", lambda d: (dialogos.append(d.message), d.dismiss()))
    pagina.add_init_script(CONTAR_MENSAJES)
    pagina.goto(servidor(celdas_html) + "salida.html")
    uno, dos = Celda(pagina, 1), Celda(pagina, 2)

    uno.correr()
    expect(uno.texto).to_have_text("uno\ndos\ntres\n<img src=x onerror=alert(1)>\n")
    expect(uno.texto.locator(".bucle-stderr")).to_have_text("dos\n")
    expect(uno.salida.locator("img")).to_have_count(0)
    assert violaciones_axe(pagina) == []

    inicio = time.monotonic()
    dos.ejecutar()
    latencias = []
    while dos.boton("Detener").is_visible():
        antes = time.monotonic()
        pagina.evaluate("new Promise(r => requestAnimationFrame(() => r(1)))")
        latencias.append(time.monotonic() - antes)
    dos.esperar_fin()
    print(f"\n[celda] flood of 200000 lines: {time.monotonic() - inicio:.2f} s, "
          f"slowest frame seen by the test {max(latencias or [0]) * 1000:.0f} ms")

    texto = dos.texto.inner_text()
    assert texto.endswith("línea 199999: " + "·" * 60 + "\n")
    primera = int(re.match(r"línea (\d+):", texto).group(1))
    aviso = dos.salida.locator(".bucle-celda-corte").inner_text()
    omitidas = int(re.search(r"se han omitido ([\d.]+) líneas del principio", aviso).group(1).replace(".", ""))
    assert omitidas == primera, "every line before the first shown is counted"
    assert len(texto) <= 100_000
    # The worker cut too: most of the 13 MB never crossed postMessage.
    cruzado, en_el_trabajador = pagina.evaluate("[window.__cruzado, window.__omitidas_en_el_trabajador]")
    total = sum(len(f"línea {i}: " + "·" * 60 + "\n") for i in range(200_000))
    assert en_el_trabajador > 0
    assert cruzado < total
    print(f"[celda] flood: {cruzado} of {total} characters crossed postMessage")
    assert dialogos == []


@pytest.mark.parametrize("aislamiento", [True, False], ids=["aislada", "sin-aislar"])
def test_detener_stops_an_endless_loop_and_the_next_run_works(celdas_html, servidor, pagina, aislamiento):
    pagina.add_init_script(CONTAR_MENSAJES)
    pagina.goto(servidor(celdas_html, aislamiento=aislamiento) + "bucle.html")
    assert pagina.evaluate("crossOriginIsolated") is aislamiento
    uno, dos = Celda(pagina, 1), Celda(pagina, 2)

    dos.ejecutar()
    expect(dos.boton("Detener")).to_be_visible()
    expect(dos.texto).to_have_text("Dando vueltas…\n", timeout=ESPERA)  # now in its `while True`
    expect(uno.texto).to_have_text("antes\n")
    inicio = time.monotonic()
    dos.boton("Detener").click()
    dos.esperar_fin()
    if aislamiento:
        expect(dos.salida).to_contain_text("Ejecución detenida.")
        expect(dos.salida).not_to_contain_text("reiniciado")
    else:
        expect(dos.salida).to_contain_text(
            "Ejecución detenida. Python se ha reiniciado y ha perdido lo definido: "
            "las celdas anteriores se volverán a ejecutar cuando ejecutes otra.")
    expect(dos.boton("Ejecutar")).to_be_focused()

    uno.correr()
    expect(uno.texto).to_have_text("antes\n")
    print(f"\n[celda] Detener → next run done ({'isolated' if aislamiento else 'not isolated'}): "
          f"{time.monotonic() - inicio:.2f} s")
    assert pagina.evaluate("window.__trabajadores") == (1 if aislamiento else 2)
