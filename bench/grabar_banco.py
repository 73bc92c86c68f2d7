"""Record lesson 7's bench on the course's in-page model: ``python -m bench.grabar_banco``.

What the lesson «Medir el agente» reports of the real model is not typed by anyone: like
``python -m bench.grabar`` (whose site, browser and model loading this reuses), this script
builds ``tests/sites/modelo-preparado``, serves it on 127.0.0.1, opens it in Debian's Chromium
under the course's service worker, downloads the pinned model, and runs in the page's Python the
lesson's own cells (``lessons/medir.md``: the harness, its variants and ``modelo_de_la_pagina``)
followed by the bench: every task of ``tareas_del_banco()`` with each variant, a fresh
environment and a fresh model per run, the same record per run as the ``banco`` widget keeps.
The page's model runs at temperature 0, so each task runs once per variant (a second run would
repeat the first). Nothing leaves 127.0.0.1.

It writes ``lessons/datos/banco-modelo-del-curso.json``, the recording the lesson's ``banco``
shows (``:grabacion:``): the model's file and SHA-256, the temperature, the seeds, the cap, the
variants, the tasks, the wall time and every run.

    python -m bench.grabar_banco [--variantes agente agente_sin_repetir_v2] [--salida …]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from datetime import date
from pathlib import Path

from widgets.construccion.modelo_local import fijado

from tests.lecciones.comun import celdas_de

from .grabar import con_el_modelo

ROOT = Path(__file__).resolve().parents[1]
SALIDA = ROOT / "lessons" / "datos" / "banco-modelo-del-curso.json"
MARCA = "@@EJECUCION@@"
VARIANTES = ("agente", "agente_sin_repetir_v2")
TOPE = 10

#: Python run in the page after the lesson's cells: one run, printed as one record. Each run is
#: its own press of «Ejecutar» (the cell's output keeps 50 000 characters: a record, with its M,
#: fits; forty do not); the cells share one namespace, as on a lesson's page.
UNA = '''
import json, time

tarea = tareas_del_banco()[%(indice)d]
entorno, modelo = dict(tarea.entorno), modelo_de_la_pagina(tarea, 0)
inicio = time.perf_counter()
como = final = error = None
M = []
try:
    como, final, M = %(variante)s(modelo, tarea.pedido, entorno, usuario(tarea), tope=%(tope)d)
    motivo = ("tope" if como == "tope" else
              "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
except Exception as e:
    motivo, error = "error", f"{type(e).__name__}: {e}"
print("%(marca)s %(variante)s %(indice)d:" + json.dumps({
    "variante": %(variante)r, "tarea": %(indice)d, "tipo": tarea.tipo, "pedido": tarea.pedido,
    "semilla": 0, "motivo": motivo, "turnos": sum(1 for rol, _ in M if rol == "asistente"),
    "tokens": modelo.tokens, "segundos": round(time.perf_counter() - inicio, 2),
    "final": final, "error": error, "M": M}, ensure_ascii=False))
'''


def avisar(texto):
    print(texto, file=sys.stderr, flush=True)


def definiciones() -> str:
    """The lesson's cells that define the harness, its variants and the page's model."""
    return "\n\n".join(c for c in celdas_de("medir") if any(nombre in c for nombre in (
        "def agente(", "def agente_con(", "agente_sin_repetir_v2 =", "def modelo_de_la_pagina(")))


def ejecutar(page, codigo: str, hasta: str) -> str:
    """Run ``codigo`` in the page's cell; return its output once it holds ``hasta``."""
    import re

    from playwright.sync_api import expect

    celda = page.locator("bucle-celda").first
    celda.scroll_into_view_if_needed()  # its editor comes when it is near the screen
    celda.get_by_role("textbox").fill(codigo)
    celda.get_by_role("button", name="Ejecutar", exact=True).click()
    salida = celda.locator(".bucle-celda-salida")
    expect(salida).to_have_text(re.compile(re.escape(hasta)), timeout=600_000)
    return salida.inner_text()


def correr(page, variantes, cuantas_tareas: int) -> list[dict]:
    ejecutar(page, definiciones() + '\nprint("@@LISTO@@")', "@@LISTO@@")
    ejecuciones = []
    for variante in variantes:
        for indice in range(cuantas_tareas):
            marca = f"{MARCA} {variante} {indice}:"  # this run's, not the last one's
            texto = ejecutar(page, UNA % {"indice": indice, "variante": variante, "tope": TOPE,
                                          "marca": MARCA}, marca)
            ejecuciones.append(json.loads(texto.split(marca, 1)[1].strip().splitlines()[0]))
            e = ejecuciones[-1]
            avisar(f"  {variante} {indice}: {e['motivo']} ({e['turnos']} turns, {e['segundos']} s)")
    return ejecuciones


def grabar(variantes=VARIANTES) -> dict:
    from runtime import espacio

    ns = espacio("entorno", "permisos", "palabras", "tareas", "escrituras", "entrenamiento",
                 "ruidoso", "banco")
    tareas = ns["tareas_del_banco"]()
    with con_el_modelo() as (page, aislada, version):
        avisar(f"running the bench in the page: {len(variantes) * len(tareas)} runs…")
        inicio = time.monotonic()
        ejecuciones = correr(page, variantes, len(tareas))
        segundos = time.monotonic() - inicio
        avisar(f"done in {segundos:.0f} s")
    pin = fijado()
    return {
        "modelo": {"nombre": pin.archivo, "sha256": pin.publicado_sha256},
        "temperatura": 0,
        "semillas": [0],
        "tope": TOPE,
        "variantes": list(variantes),
        "tareas": [{"tipo": t.tipo, "pedido": t.pedido} for t in tareas],
        "segundos": round(segundos, 1),
        "navegador": f"Chromium {version.split('.')[0]} sin interfaz, "
                     f"{'aislada' if aislada else 'sin aislar'}, en {platform.machine()}",
        "fecha": date.today().isoformat(),
        "ejecuciones": ejecuciones,
    }


def main(argv=None) -> None:
    partes = argparse.ArgumentParser(prog="python -m bench.grabar_banco",
                                     description=__doc__.split("\n")[0])
    partes.add_argument("--variantes", nargs="+", default=list(VARIANTES))
    partes.add_argument("--salida", type=Path, default=SALIDA)
    args = partes.parse_args(argv)
    grabacion = grabar(args.variantes)
    args.salida.parent.mkdir(parents=True, exist_ok=True)
    args.salida.write_text(json.dumps(grabacion, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for variante in grabacion["variantes"]:
        propias = [e for e in grabacion["ejecuciones"] if e["variante"] == variante]
        print(f"{variante}: {sum(e['motivo'] == 'resuelta' for e in propias)} of {len(propias)} solved, "
              f"{sum(e['segundos'] for e in propias):.0f} s")
    print(f"wrote {args.salida.relative_to(ROOT)} ({grabacion['segundos']:.0f} s in the page)")


if __name__ == "__main__":
    main()
