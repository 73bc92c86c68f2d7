"""What the browser tests of cells share: the test site's course, how long to wait for Python, a
cell as a reader perceives it (``Celda``), and a worker that never answers."""

from playwright.sync_api import expect

ESPERA = 60_000  # ms: Pyodide takes a few seconds to start on a small machine
CURSO = "celdas-de-prueba"

#: Run ``codigo`` in the page's Python (python.js's ejecutar, as a cell does), from
#: ``page.evaluate(EJECUTAR_EN_LA_PAGINA, codigo)``: {salida, resultado, aislada}.
EJECUTAR_EN_LA_PAGINA = """async (codigo) => {
    const { python } = await import("./_static/bucle/python.js");
    let salida = "";
    const resultado = await python.ejecutar(codigo, "<prueba>", {
        alSalir: (flujo, texto) => { salida += texto; },
    });
    return { salida, resultado, aislada: crossOriginIsolated };
}"""


class Celda:
    """The n-th cell of the page, through what a reader perceives: roles and names."""

    def __init__(self, page, n):
        self.page = page
        self.elemento = page.locator("bucle-celda").nth(n - 1)
        self.salida = self.elemento.get_by_role("status", name=f"Salida de la celda {n}")
        self.texto = self.elemento.locator(".bucle-celda-texto")
        self.n = n
        self.modificada = self.elemento.get_by_text("Modificada", exact=True)

    @property
    def editor(self):
        """The cell's editor, once the reader has gone to the cell (its editor comes when its code
        is near the viewport, or is focused)."""
        self.elemento.scroll_into_view_if_needed()
        return self.page.get_by_role("textbox", name=f"Código de la celda {self.n}")

    def boton(self, nombre):
        return self.elemento.get_by_role("button", name=nombre, exact=True)

    def ejecutar(self):
        # The click shows Detener at once (it hides again when the run ends, maybe already).
        self.boton("Ejecutar").click()

    def esperar_fin(self):
        expect(self.boton("Detener")).to_be_hidden(timeout=ESPERA)

    def correr(self):
        self.ejecutar()
        self.esperar_fin()

    def lineas(self):
        expect(self.editor).to_be_visible()
        return self.elemento.locator(".cm-line").all_inner_texts()


# A worker that never answers: the page's Python stays «arrancando».
PYTHON_QUE_NO_ARRANCA = """
window.__pedido = false;
window.Worker = class {
  constructor() { window.__pedido = true; }
  postMessage() {}
  terminate() {}
  addEventListener() {}
};
"""
