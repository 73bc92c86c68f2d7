"""A cell's code in a real browser: it reads as the build wrote it (without JavaScript too), does
not move when its editor takes its place, is edited and run by keyboard, and the reader's copy
is kept, or offered beside a lesson that changed."""

import json

import pytest
from playwright.sync_api import expect

from tests.browser.celdas import CURSO, ESPERA, PYTHON_QUE_NO_ARRANCA, Celda

pytestmark = pytest.mark.navegador


LINEAS = """() => [...document.querySelectorAll("bucle-celda .bucle-celda-codigo")].map((bloque) => {
  const editor = bloque.querySelector(".cm-content");
  const lineas = editor ? editor.querySelectorAll(".cm-line")
    : bloque.querySelectorAll("pre > span[id], pre > .bucle-linea");
  const medio = (x) => Math.round(x * 2) / 2;
  return [medio(bloque.getBoundingClientRect().height), ...[...lineas].map((linea) => {
    const caja = linea.getBoundingClientRect();
    const texto = document.createTreeWalker(linea, NodeFilter.SHOW_TEXT, (n) => n.data.trim() ? 1 : 3).nextNode();
    let x = null;
    if (texto) {
      const rango = document.createRange();
      rango.setStart(texto, texto.data.search(/\\S/));
      rango.setEnd(texto, texto.data.search(/\\S/) + 1);
      x = medio(rango.getBoundingClientRect().left);
    }
    return { arriba: medio(caja.top + scrollY), alto: medio(caja.height), x };
  })];
})"""


def el_codigo_no_se_mueve(page, url):
    """Until its editor comes (its module held back here), a cell shows the code as the build
    wrote it, or the reader's own: every line must already sit where the editor puts it."""
    retenidas = []
    page.route("**/_static/bucle/editor.js", lambda ruta: retenidas.append(ruta))
    page.add_init_script(PYTHON_QUE_NO_ARRANCA)
    page.goto(url)
    # The reader's own code in the second cell: a long line, and a last empty one.
    mia = 'n = len(saludo)\nprint("una línea larga que no cabe en un teléfono sin partirse", n)\n'
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [
        f"bucle:{CURSO}:index:celda-2", json.dumps({"codigo": mia, "original": "n = len(saludo)\nprint(n)"})])
    page.reload()
    expect(page.locator(".bucle-celda-barra")).to_have_count(4)
    page.wait_for_function("window.__pedido")
    page.wait_for_timeout(300)
    expect(page.locator(".cm-editor")).to_have_count(0)
    antes = page.evaluate(LINEAS)
    for ruta in retenidas:
        ruta.continue_()
    page.unroute("**/_static/bucle/editor.js")
    expect(page.locator(".cm-editor")).to_have_count(4, timeout=ESPERA)
    despues = page.evaluate(LINEAS)
    assert [len(c) - 1 for c in antes] == [2, 3, 1, 2]  # the reader's code ends in an empty line
    assert antes == despues
    return antes


def test_the_code_does_not_move_when_its_editor_takes_its_place(celdas_html, servidor, pagina):
    el_codigo_no_se_mueve(pagina, servidor(celdas_html))


def test_on_a_phone_the_code_wraps_as_its_editor_wraps_it(celdas_html, servidor, movil):
    celdas = el_codigo_no_se_mueve(movil, servidor(celdas_html))
    alto = celdas[0][1]["alto"]
    assert celdas[1][2]["alto"] >= 2 * alto  # the long line wraps…
    assert celdas[3][1]["alto"] >= 2 * alto  # …and so does the lesson's own long line


def test_the_keyboard_edits_runs_and_leaves_the_editor_and_the_code_is_kept(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    uno = Celda(pagina, 1)
    leccion = ['saludo = "hola"', "print(saludo)"]
    assert uno.lineas() == leccion
    expect(uno.modificada).to_be_hidden()

    uno.editor.click()
    pagina.keyboard.press("ControlOrMeta+a")
    for linea in ['saludo = "adiós"', "if saludo:", "print(saludo)"]:
        pagina.keyboard.type(linea)
        pagina.keyboard.press("Enter")
    assert uno.lineas()[:3] == ['saludo = "adiós"', "if saludo:", "    print(saludo)"]  # auto-indent
    expect(uno.modificada).to_be_visible()

    pagina.keyboard.press("ControlOrMeta+Enter")
    uno.esperar_fin()
    expect(uno.texto).to_have_text("adiós\n")

    # Tab indents inside the editor; Esc then Tab leaves it: no keyboard trap.
    uno.editor.focus()
    pagina.keyboard.press("Tab")
    expect(uno.editor).to_be_focused()
    pagina.keyboard.press("Escape")
    pagina.keyboard.press("Tab")
    expect(uno.boton("Ejecutar")).to_be_focused()

    # The edited code survives a reload…
    pagina.reload()
    assert uno.lineas()[:3] == ['saludo = "adiós"', "if saludo:", "    print(saludo)"]
    expect(uno.modificada).to_be_visible()
    guardado = pagina.evaluate("k => JSON.parse(localStorage.getItem(k))", f"bucle:{CURSO}:index:primera")
    assert guardado["codigo"].startswith('saludo = "adiós"\nif saludo:\n')
    assert guardado["original"] == "\n".join(leccion)

    # …and Restablecer brings the lesson's code back, for good.
    uno.boton("Restablecer").click()
    assert uno.lineas() == leccion
    expect(uno.modificada).to_be_hidden()
    pagina.reload()
    assert uno.lineas() == leccion
    assert pagina.evaluate("k => localStorage.getItem(k)", f"bucle:{CURSO}:index:primera") is None


def test_a_copy_saved_before_the_lesson_changed_lets_the_reader_choose(celdas_html, servidor, pagina):
    pagina.goto(servidor(celdas_html))
    clave = f"bucle:{CURSO}:index:primera"
    vieja = json.dumps({"codigo": "print('la mía')", "original": "print('la de antes')"})
    guardar = "([k, v]) => localStorage.setItem(k, v)"
    pagina.evaluate(guardar, [clave, vieja])
    pagina.evaluate(guardar, [f"bucle:{CURSO}:index:celda-2", "{esto no es JSON"])
    pagina.reload()

    uno, dos = Celda(pagina, 1), Celda(pagina, 2)
    aviso = uno.elemento.get_by_text("El código de esta celda ha cambiado en la lección")
    expect(aviso).to_be_visible()
    assert uno.lineas() == ["print('la mía')"]
    expect(uno.modificada).to_be_visible()
    # Corrupt storage does not break the page: the cell shows the lesson's code.
    assert dos.lineas() == ["n = len(saludo)", "print(n)"]

    uno.boton("Seguir con la mía").click()
    expect(aviso).to_be_hidden()
    expect(uno.boton("Ejecutar")).to_be_focused()
    pagina.reload()
    assert uno.lineas() == ["print('la mía')"]
    expect(aviso).to_be_hidden()

    pagina.evaluate(guardar, [clave, vieja])
    pagina.reload()
    expect(aviso).to_be_visible()
    uno.boton("Usar la versión nueva").click()
    expect(aviso).to_be_hidden()
    nueva = ['saludo = "hola"', "print(saludo)"]
    for _ in range(50):  # the lesson's code goes in after the click (a loaded machine: later)
        if uno.lineas() == nueva:
            break
        pagina.wait_for_timeout(100)
    assert uno.lineas() == nueva
    expect(uno.modificada).to_be_hidden()
    assert pagina.evaluate("k => localStorage.getItem(k)", clave) is None


def test_without_javascript_the_code_still_reads(celdas_html, servidor, navegador):
    contexto = navegador.new_context(java_script_enabled=False)
    try:
        page = contexto.new_page()
        page.goto(servidor(celdas_html))
        bloque = page.locator("bucle-celda").first.locator("pre")
        expect(bloque).to_have_text('saludo = "hola"\nprint(saludo)\n')
        # Numbered as the editor will number it, from the build's markup alone.
        primera = bloque.locator("span[id]").first
        assert primera.evaluate("(s) => [getComputedStyle(s).display, getComputedStyle(s, '::before').content]") == [
            "block", "counter(bucle-linea)"]
        expect(page.get_by_role("button", name="Ejecutar")).to_have_count(0)
    finally:
        contexto.close()
