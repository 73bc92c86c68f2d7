"""The bench's summary (lesson «Medir el agente»): pure functions of run records, shared by the
page's worker (``trabajador_banco.py``, which writes it beside itself) and the build (a
recording's table and plot, read with JavaScript off). Plain Python, standard library only.

- :func:`wilson`: the Wilson score interval, z = 1.96 (95 %), within [0, 1].
- :func:`resumir`: per variant, successes, runs, rate, Wilson interval, turns and tokens per
  success, seconds per run, counts per motivo; with two variants, :func:`pareo` over (tarea,
  semilla): how many the first solved and the second did not, and the other way round.
- :func:`vista`: the same for the reader, in Spanish: the rows of each table, the plot's shapes
  (:func:`grafico`) and the plot in words; :func:`svg` writes the plot as SVG text (the page
  makes the same shapes as elements).

A run record has (what the summary reads) ``variante``, ``tarea``, ``semilla``, ``motivo``,
``turnos``, ``tokens`` and ``segundos``; the whole record is ``trabajador_banco.py``'s.
"""

import math

#: How a run can end, in order: the worker's and the build's one definition (the page's
#: lib/banco-medida.js and the course's runtime/banco.py say the same:
#: tests/test_trabajador_banco.py).
MOTIVOS = ("resuelta", "equivocada", "tope", "error")
#: z of a 95 % interval.
Z = 1.96


def wilson(exitos, n, z=Z):
    """The Wilson score interval of ``exitos`` out of ``n`` (``[lo, hi]`` within [0, 1]), or
    None when n is 0."""
    if n <= 0:
        return None
    p = exitos / n
    z2 = z * z
    centro = (p + z2 / (2 * n)) / (1 + z2 / n)
    mitad = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [max(0.0, centro - mitad), min(1.0, centro + mitad)]


def _media(valores):
    return sum(valores) / len(valores) if valores else None


def resumir(ejecuciones, variantes):
    """The summary of run records (only variante, tarea, semilla, motivo, turnos, tokens and
    segundos are read): ``{"variantes": [per variant], "pareo": {…} | None}``."""
    por = {v: [] for v in variantes}
    for e in ejecuciones:
        por.setdefault(e["variante"], []).append(e)
    filas = []
    for nombre, suyas in por.items():
        exitos = [e for e in suyas if e["motivo"] == "resuelta"]
        tokens = [e.get("tokens") for e in exitos]
        n = len(suyas)
        filas.append({
            "nombre": nombre, "exitos": len(exitos), "ejecuciones": n,
            "tasa": len(exitos) / n if n else None, "wilson": wilson(len(exitos), n),
            "turnos_por_exito": _media([e["turnos"] for e in exitos]),
            "tokens_por_exito": (_media(tokens) if tokens and all(isinstance(x, (int, float))
                                                                  for x in tokens) else None),
            "segundos_por_ejecucion": _media([e["segundos"] for e in suyas]),
            "motivos": {m: sum(1 for e in suyas if e["motivo"] == m) for m in MOTIVOS},
        })
    return {"variantes": filas, "pareo": pareo(ejecuciones, variantes)}


def pareo(ejecuciones, variantes):
    """With two variants: over each (tarea, semilla) both ran, how many the first solved and
    the second did not (``solo_a``), and the other way round (``solo_b``)."""
    if len(variantes) != 2:
        return None
    a, b = variantes
    resueltas = {}
    for e in ejecuciones:
        resueltas[(e["variante"], e["tarea"], e["semilla"])] = e["motivo"] == "resuelta"
    pares = [(t, s) for (v, t, s) in resueltas if v == a and (b, t, s) in resueltas]
    solo_a = sum(1 for t, s in pares if resueltas[(a, t, s)] and not resueltas[(b, t, s)])
    solo_b = sum(1 for t, s in pares if resueltas[(b, t, s)] and not resueltas[(a, t, s)])
    return {"a": a, "b": b, "pares": len(pares), "solo_a": solo_a, "solo_b": solo_b,
            "cambiaron": solo_a + solo_b}


# ---------------------------------------------------------------- the summary, for the reader

#: The rows of a variant's table, per motivo.
ETIQUETAS_MOTIVO = {"resuelta": "Resueltas", "equivocada": "Equivocadas", "tope": "Tope",
                    "error": "Error"}
RAYA = "—"


def _coma(texto):
    return texto.replace(".", ",")


def _pct(x):
    return RAYA if x is None else _coma(f"{x * 100:.1f}") + " %"


def _decimal(x):
    return RAYA if x is None else _coma(f"{x:.1f}")


def _entero(x):
    if x is None:
        return RAYA
    n = round(x)
    return f"{n:,}".replace(",", ".") if n >= 10000 else str(n)


def _tiempo(s):
    if s is None:
        return RAYA
    return _coma(f"{s * 1000:.1f}") + " ms" if s < 1 else _coma(f"{s:.2f}") + " s"


def _intervalo(w):
    return RAYA if w is None else f"{_pct(w[0])} – {_pct(w[1])}"


def vista(resumen):
    """What the reader reads of a summary: ``{"tablas": [{"variante", "titulo", "filas":
    [[etiqueta, valor], …]}], "pareo": {"titulo", "filas"} | None, "grafico": (see
    :func:`grafico`), "texto": the plot in words}``. The page and the build paint this."""
    tablas = []
    for v in resumen["variantes"]:
        filas = [["Éxitos", f"{v['exitos']} de {v['ejecuciones']}"],
                 ["Tasa de éxito", _pct(v["tasa"])],
                 ["Intervalo de Wilson (95 %)", _intervalo(v["wilson"])],
                 ["Turnos por éxito", _decimal(v["turnos_por_exito"])],
                 ["Tokens por éxito", _entero(v["tokens_por_exito"])],
                 ["Tiempo por ejecución", _tiempo(v["segundos_por_ejecucion"])]]
        filas += [[ETIQUETAS_MOTIVO[m], str(v["motivos"][m])] for m in MOTIVOS]
        tablas.append({"variante": v["nombre"], "titulo": f"Resultados de {v['nombre']}",
                       "filas": filas})
    p = resumen.get("pareo")
    tabla_pareo = None
    if p:
        tabla_pareo = {"titulo": "Cambiaron (mismas tareas y semillas)", "filas": [
            [f"Resueltas por {p['a']} y no por {p['b']}", str(p["solo_a"])],
            [f"Resueltas por {p['b']} y no por {p['a']}", str(p["solo_b"])],
            ["Cambiaron en total", str(p["cambiaron"])],
            ["Pares comparados", str(p["pares"])]]}
    return {"tablas": tablas, "pareo": tabla_pareo, "grafico": grafico(resumen),
            "texto": texto_del_grafico(resumen)}


def texto_del_grafico(resumen):
    """The plot in words, for whoever cannot see it."""
    partes = ["Tasa de éxito de cada variante, con su intervalo de Wilson del 95 %."]
    for v in resumen["variantes"]:
        if not v["ejecuciones"]:
            partes.append(f"{v['nombre']}: sin ejecuciones.")
            continue
        lo, hi = v["wilson"]
        partes.append(f"{v['nombre']}: {_pct(v['tasa'])} ({v['exitos']} de {v['ejecuciones']}), "
                      f"entre el {_pct(lo)} y el {_pct(hi)}.")
    return " ".join(partes)


#: The plot's size in its own units (it scales to the width it gets).
ANCHO, ALTO = 320, 210
_MARGEN = {"izquierda": 46, "derecha": 10, "arriba": 18, "abajo": 34}


def grafico(resumen):
    """The plot of the rates with their intervals, side by side, as shapes: ``{"ancho", "alto",
    "formas": [{"forma": "line" | "rect" | "text", <its SVG attributes>, "clase", "texto"?}]}``
    (the page makes the elements, the build writes :func:`svg`)."""
    izquierda, arriba = _MARGEN["izquierda"], _MARGEN["arriba"]
    ancho = ANCHO - izquierda - _MARGEN["derecha"]
    alto = ALTO - arriba - _MARGEN["abajo"]
    y = lambda p: round(arriba + alto * (1 - p), 1)  # noqa: E731
    formas = []
    for p in (0, 0.25, 0.5, 0.75, 1):
        formas.append({"forma": "line", "x1": izquierda, "x2": izquierda + ancho, "y1": y(p),
                       "y2": y(p), "clase": "bucle-banco-rejilla"})
        formas.append({"forma": "text", "x": izquierda - 6, "y": y(p) + 4, "texto": f"{round(p * 100)} %",
                       "clase": "bucle-banco-eje", "text-anchor": "end"})
    variantes = resumen["variantes"]
    columna = ancho / max(1, len(variantes))
    barra = min(56, columna * 0.45)
    for i, v in enumerate(variantes):
        centro = round(izquierda + columna * (i + 0.5), 1)
        nombre = v["nombre"] if len(v["nombre"]) <= 22 else v["nombre"][:21] + "…"
        formas.append({"forma": "text", "x": centro, "y": ALTO - 12, "texto": nombre,
                       "clase": "bucle-banco-nombre", "text-anchor": "middle"})
        if v["tasa"] is None:
            continue
        formas.append({"forma": "rect", "x": round(centro - barra / 2, 1), "y": y(v["tasa"]),
                       "width": round(barra, 1), "height": round(y(0) - y(v["tasa"]), 1),
                       "clase": f"bucle-banco-barra bucle-banco-barra-{i + 1}"})
        lo, hi = v["wilson"]
        for x1, x2, y1, y2 in ((centro, centro, y(lo), y(hi)), (centro - 9, centro + 9, y(lo), y(lo)),
                               (centro - 9, centro + 9, y(hi), y(hi))):
            formas.append({"forma": "line", "x1": x1, "x2": x2, "y1": y1, "y2": y2,
                           "clase": "bucle-banco-intervalo"})
        formas.append({"forma": "text", "x": round(centro + barra / 2 + 4, 1), "y": y(v["tasa"]) + 4,
                       "texto": _pct(v["tasa"]), "clase": "bucle-banco-valor", "text-anchor": "start"})
    return {"ancho": ANCHO, "alto": ALTO, "formas": formas}


def svg(dibujo, etiqueta, descrito_por=None):
    """The plot as SVG text (for the build): ``role="img"`` named ``etiqueta``, described by the
    element of id ``descrito_por`` (its words)."""
    from xml.sax.saxutils import escape, quoteattr

    atributos = {"viewBox": f"0 0 {dibujo['ancho']} {dibujo['alto']}", "class": "bucle-banco-grafico",
                 "role": "img", "aria-label": etiqueta, "focusable": "false"}
    if descrito_por:
        atributos["aria-describedby"] = descrito_por
    partes = ["<svg xmlns=\"http://www.w3.org/2000/svg\" "
              + " ".join(f"{k}={quoteattr(str(v))}" for k, v in atributos.items()) + ">"]
    for f in dibujo["formas"]:
        campos = {("class" if k == "clase" else k): v for k, v in f.items()
                  if k not in ("forma", "texto")}
        abre = f"<{f['forma']} " + " ".join(f"{k}={quoteattr(str(v))}" for k, v in campos.items())
        partes.append(f"{abre}>{escape(f['texto'])}</{f['forma']}>" if "texto" in f else abre + "/>")
    partes.append("</svg>")
    return "".join(partes)
