"""The suite's time by lesson, against a budget: printed at the end of every run (a report, never a
failure: performance targets live in ``make bench``, not in timed tests).

Each test's setup, call and teardown time goes to a lesson when its file is that lesson's
(``tests/lecciones/test_<lección>.py``) or one of its challenges' (``test_<desafío>*.py``), or
when its parameters name one of those challenges; the rest is the course's shared machinery
(«común»: the build, the browser, the grader). A lesson over :data:`PRESUPUESTO` is marked, so a
new lesson that would push a fresh clone's ``make test`` past 12 minutes on 2 CPUs is seen in
the commit that adds it. With pytest-xdist the times are summed over the workers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
#: Seconds of test time (summed over workers) a lesson may cost the suite.
PRESUPUESTO = 150.0
#: Seconds of test time the whole run may cost: 12 minutes on 2 workers, less the set-up.
PRESUPUESTO_TOTAL = 2 * 11 * 60.0
COMUN = "común"
#: How many of the files that cost the most the report lists (where the time went).
ARCHIVOS_MAS_LENTOS = 20


def lecciones(raiz: Path = RAIZ) -> dict[str, list[str]]:
    """{lesson: [its name and its challenges' ids]}, from the lessons' sources."""
    directiva = re.compile(r"^\s*(?:`{3,}|:{3,})\s*\{desafio\}\s+(\S+)", re.M)
    return {md.stem: [md.stem, *directiva.findall(md.read_text(encoding="utf-8"))]
            for md in sorted((raiz / "lessons").glob("*.md")) if md.stem != "index"}


def leccion_de(nodeid: str, claves: dict[str, list[str]]) -> str:
    """The lesson a test belongs to (:data:`COMUN` if none)."""
    archivo, _, resto = nodeid.partition("::")
    nombre = Path(archivo).stem.removeprefix("test_")
    parametros = resto[resto.find("[") + 1:] if "[" in resto else ""
    for leccion, suyas in claves.items():
        for clave in suyas:
            if nombre.startswith(clave.replace("-", "_")):
                return leccion
    for leccion, suyas in claves.items():
        if any(clave in parametros for clave in suyas[1:]):
            return leccion
    return COMUN


class Presupuesto:
    """The pytest plugin: sums each report's duration by lesson, prints the table at the end."""

    def __init__(self):
        self.claves = lecciones()
        self.tiempos: dict[str, float] = defaultdict(float)
        self.pruebas: dict[str, set[str]] = defaultdict(set)
        self.archivos: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        leccion = leccion_de(report.nodeid, self.claves)
        self.tiempos[leccion] += report.duration
        self.pruebas[leccion].add(report.nodeid)
        self.archivos[report.nodeid.partition("::")[0]] += report.duration

    def pytest_terminal_summary(self, terminalreporter):
        if not self.tiempos:
            return
        escribir = terminalreporter.write_line
        terminalreporter.section("test time by lesson (budget per lesson: "
                                 f"{PRESUPUESTO:.0f} s, summed over workers)")
        for leccion in [*self.claves, COMUN]:
            segundos = self.tiempos.get(leccion, 0.0)
            marca = "  OVER BUDGET" if leccion != COMUN and segundos > PRESUPUESTO else ""
            escribir(f"{leccion:<22} {segundos:7.1f} s  {len(self.pruebas[leccion]):4d} tests{marca}")
        total = sum(self.tiempos.values())
        marca = "  OVER BUDGET" if total > PRESUPUESTO_TOTAL else ""
        escribir(f"{'total':<22} {total:7.1f} s  (budget {PRESUPUESTO_TOTAL:.0f} s){marca}")
        escribir(f"the {ARCHIVOS_MAS_LENTOS} files that cost the most:")
        for archivo, segundos in sorted(self.archivos.items(), key=lambda a: -a[1])[:ARCHIVOS_MAS_LENTOS]:
            escribir(f"  {segundos:7.1f} s  {archivo}")
