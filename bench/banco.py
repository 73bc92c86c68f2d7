"""The bench widget's throughput in the page (lesson «Medir el agente»): runs per second of
«Medir» on the noisy scripted model, from the click to «Medida completa», as a reader meets it.

The page is tests/sites/banco/index.html (built here): two harnesses, 20 tasks × 20 seeds each,
800 runs per measurement, each streamed from the worker to the page as it ends. The cells run
first, once; then «Medir» is pressed ``n`` times in the same page (a warm Python). Times are the
page's own (``performance.now()``): the click, and the moment the notice says the measurement is
complete.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.conftest import SITES, construir

from .tabla import Fila

ESPERA = 300_000  # ms
#: Lesson 7's recording of the in-page model (python -m bench.grabar_banco).
GRABACION = Path(__file__).resolve().parents[1] / "lessons" / "datos" / "banco-modelo-del-curso.json"

#: In every page before its own scripts: when «Medir» is clicked, and when the bench says it is done.
INICIO = """
(() => {
  const b = (window.__banco = { clic: null, fin: null, texto: "" });
  addEventListener("click", (evento) => {
    if (evento.target.closest?.(".bucle-banco-medir")) { b.clic = performance.now(); b.fin = null; }
  }, true);
  new MutationObserver(() => {
    const aviso = document.querySelector("#banco-ruidoso .bucle-banco-aviso");
    if (b.clic !== null && b.fin === null && aviso && aviso.textContent.startsWith("Medida completa")) {
      b.fin = performance.now();
      b.texto = aviso.textContent;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""


def hacer(destino: Path) -> Path:
    """Build the test site with the bench into ``destino``."""
    construir(SITES / "banco", destino)
    return destino


def medir(ctx, url: str, n: int, avisar) -> tuple[list[float], int]:
    """``n`` measurements of the page's bench; (runs per second of each, runs per measurement)."""
    velocidades, total = [], 0
    with ctx(init=INICIO) as c:
        page = c.new_page()
        page.goto(url, wait_until="load")
        for celda in page.locator("bucle-celda").all():
            celda.get_by_role("button", name="Ejecutar", exact=True).click()
            expect(celda.get_by_role("button", name="Detener", exact=True)).to_be_hidden(timeout=ESPERA)
        banco = page.locator("bucle-banco#banco-ruidoso")
        for i in range(n):
            banco.get_by_role("button", name="Medir", exact=True).click()
            page.wait_for_function("window.__banco.fin !== null", timeout=ESPERA)
            clic, fin, texto = page.evaluate("[window.__banco.clic, window.__banco.fin, window.__banco.texto]")
            total = int(re.match(r"Medida completa: ([\d.]+) ejecuciones", texto).group(1).replace(".", ""))
            velocidades.append(total / ((fin - clic) / 1000))
            avisar(f"  {i + 1}/{n}: {total} runs in {(fin - clic) / 1000:.2f} s, {velocidades[-1]:.0f} runs/s")
    return velocidades, total


def medir_en(r: dict, ctx, url: str, n: int, avisar) -> None:
    """The figure into the bench's results ``r`` (``banco``, ``banco_ejecuciones``)."""
    avisar(f"the bench widget: «Medir» on the noisy scripted model (tests/sites/banco), {n} ×…")
    r["banco"], r["banco_ejecuciones"] = medir(ctx, url, n, avisar)


def fila(r: dict) -> Fila:
    """The bench table's row of the figure."""
    return Fila(f"Bench widget: «Medir», {r['banco_ejecuciones']} runs on the noisy scripted model "
                "(click → «Medida completa»)", "runs/s", r["banco"], notas=[
                    "tests/sites/banco: two harnesses, each run sent from the worker to the page as "
                    "it ends; the cells run once, then Medir again in the same page (the first is "
                    "the coldest)"])


def filas(r: dict) -> list[Fila]:
    """The bench's rows: the widget's throughput, and what lesson 7's recording of the in-page
    model took (read from the recording: it is made by ``make grabaciones``, not by the bench)."""
    g = json.loads(GRABACION.read_text(encoding="utf-8"))
    segundos = [e["segundos"] for e in g["ejecuciones"]]
    nota = (f"lessons/datos/banco-modelo-del-curso.json, recorded {g['fecha']} in {g['navegador']}: "
            f"{len(g['tareas'])} tasks × {len(g['variantes'])} variants, greedy, a fresh model and "
            f"environment per run (make grabaciones)")
    return [fila(r),
            Fila("Bench on the in-page model (lesson 7's recording): one run", "s", segundos,
                 notas=[nota]),
            Fila("  … the whole recording, wall time", "s", [g["segundos"]])]
