"""The bench's one table: median and range of each figure, the bare page's, ratio, target."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

RAYA = "—"


@dataclass
class Fila:
    """One figure. ``curso``/``desnuda``: the runs (seconds, bytes, points…), or None.

    ``cumple(mediana, razon)`` says whether the target is met; ``falta`` says why a figure
    could not be taken (printed instead of numbers). ``referencia``: runs the ratio is taken
    against when the row has no bare page's (another row's, e.g. the same figure without the
    service worker), named after the ratio by ``frente`` («0.52× no SW»).
    """

    nombre: str
    unidad: str
    curso: list[float] | None = None
    desnuda: list[float] | None = None
    objetivo: str = ""
    cumple: Callable[[float, float | None], bool] | None = None
    falta: str = ""
    notas: list[str] = field(default_factory=list)
    referencia: list[float] | None = None
    frente: str = ""

    @property
    def mediana(self) -> float | None:
        return statistics.median(self.curso) if self.curso else None

    @property
    def razon(self) -> float | None:
        otra = self.desnuda or self.referencia
        if not self.curso or not otra:
            return None
        base = statistics.median(otra)
        return self.mediana / base if base else None

    def veredicto(self) -> str:
        if self.falta or self.cumple is None or self.mediana is None:
            return ""
        return "yes" if self.cumple(self.mediana, self.razon) else "NO"


def _numero(valor: float, unidad: str) -> str:
    if unidad == "s":
        return f"{valor:.2f}"
    if unidad.endswith("/s"):
        return f"{valor:.1f}"
    if unidad == "KB":
        return f"{valor / 1000:,.0f}" if valor >= 10_000 else f"{valor / 1000:.1f}"
    return f"{valor:.0f}"


def celda(valores: list[float] | None, unidad: str) -> str:
    """«3.62 s (3.41–4.02, n=5)»; one run: «3.62 s»."""
    if not valores:
        return RAYA
    mediana = _numero(statistics.median(valores), unidad)
    etiqueta = {"KB": " KB", "s": " s", "ms": " ms", "pts": ""}.get(unidad, f" {unidad}")
    if len(valores) == 1 or min(valores) == max(valores):
        return f"{mediana}{etiqueta}" + (f" (n={len(valores)})" if len(valores) > 1 else "")
    return (f"{mediana}{etiqueta} ({_numero(min(valores), unidad)}–{_numero(max(valores), unidad)}"
            f", n={len(valores)})")


def imprimir(filas: list[Fila], titulo: str, pie: list[str],
             columnas: tuple[str, str] = ("El bucle (median, range)", "Bare Pyodide")) -> str:
    """The table as Markdown (it reads in a terminal and pastes into BENCHMARKS.md);
    ``columnas`` names the figure's column and the one it is compared with."""
    cabecera = ["Figure", *columnas, "Ratio", "Target", "Met"]
    lineas = []
    for fila in filas:
        if fila.falta:
            lineas.append([fila.nombre, f"{RAYA} ({fila.falta})", RAYA, RAYA, fila.objetivo, ""])
            continue
        razon = RAYA
        if fila.razon is not None:
            razon = f"{fila.razon:.2f}×" + (f" {fila.frente}" if fila.frente and not fila.desnuda else "")
        lineas.append([fila.nombre, celda(fila.curso, fila.unidad), celda(fila.desnuda, fila.unidad),
                       razon, fila.objetivo, fila.veredicto()])
    anchos = [max(len(str(x[i])) for x in [cabecera] + lineas) for i in range(len(cabecera))]

    def fila_md(valores):
        return "| " + " | ".join(str(v).ljust(a) for v, a in zip(valores, anchos, strict=True)) + " |"

    texto = [titulo, "", fila_md(cabecera), "|" + "|".join("-" * (a + 2) for a in anchos) + "|"]
    texto += [fila_md(v) for v in lineas]
    notas = [f"- {fila.nombre}: {nota}" for fila in filas for nota in fila.notas]
    if notas or pie:
        texto += [""] + notas + [f"- {linea}" for linea in pie]
    return "\n".join(texto)
