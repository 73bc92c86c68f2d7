"""What ``make mutantes`` reads and prints, with no mutation tool: pure, tested by
``tests/test_mutantes.py``.

- :func:`de_volcado`: the mutants of one challenge, from the JSON lines of ``cosmic-ray dump``
  (one ``[work_item, result]`` per mutant; result null while not yet run).
- :func:`explicaciones`: the survivors a challenge's ``clausulas.md`` explains as equivalent, in
  its section «## Mutantes equivalentes»::

      ## Mutantes equivalentes

      - `core/ReplaceComparisonOperator_Eq_Is`: `if x == "a":` → `if x is "a":`
        Por qué no puede cambiar nada, en una línea.

  One bullet per survivor: the operator, the line as it is in ``solucion.py`` and as the mutant
  has it (each stripped of its indentation: no line number, which moves), then, indented, one
  line saying why it is equivalent. Free text between the bullets (not starting with ``- ``) is
  allowed; a bullet without its reason, or twice, is an error.
- :func:`cuenta` and :func:`tabla`: one row per challenge (mutants, killed, survived, explained)
  and the unexplained survivors, each with its file, line and the mutation as diff lines; how
  many of the killed were stopped by the time limit, and any killed without a grading (the
  grader broke: listed, since no test said why).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

SECCION = "## Mutantes equivalentes"
#: A bullet: `operator`: `line before` → `line after`
VINETA = re.compile(r"- `(?P<operador>[^`]+)`: `(?P<antes>.*)` → `(?P<despues>.*)`")
#: How the lines of a mutation that spans several are joined into one (in a bullet too).
SALTO = " ⏎ "
#: The grader's last line when it graded (``python -m challenges``); Cosmic Ray's output when it
#: killed a run past its time limit.
CALIFICO = re.compile(r"^\d+ passed, \d+ failed$", re.MULTILINE)
TIEMPO = "timeout"


class ExplicacionMal(ValueError):
    """A «## Mutantes equivalentes» section that cannot be read."""


@dataclass(frozen=True)
class Mutante:
    """One mutant: its operator, the line (1-based) of ``solucion.py`` it changes, the line(s)
    before and after (stripped), and what the grader made of it: ``killed``, ``survived``,
    ``incompetent`` (the grader could not run it) or ``None`` (not run)."""

    operador: str
    linea: int
    antes: str
    despues: str
    veredicto: str | None
    salida: str = ""

    @property
    def clave(self) -> tuple[str, str, str]:
        """What identifies it across edits of the file: the operator and the lines' text."""
        return (self.operador, self.antes, self.despues)

    def vineta(self) -> str:
        """Its bullet in «## Mutantes equivalentes»."""
        return f"- `{self.operador}`: `{self.antes}` → `{self.despues}`"


def cambio(diff: str) -> tuple[str, str]:
    """The lines a unified diff removes and adds, each side stripped and joined by SALTO."""
    quitadas, puestas = [], []
    for linea in diff.splitlines():
        if linea.startswith(("---", "+++")):
            continue
        if linea.startswith("-"):
            quitadas.append(linea[1:].strip())
        elif linea.startswith("+"):
            puestas.append(linea[1:].strip())
    return SALTO.join(quitadas), SALTO.join(puestas)


def de_volcado(lineas: Iterable[str]) -> list[Mutante]:
    """The mutants in ``cosmic-ray dump``'s output. A work item cosmic-ray found it could not
    mutate (worker outcome ``no-test``) is not a mutant."""
    mutantes = []
    for texto in lineas:
        if not texto.strip():
            continue
        trabajo, resultado = json.loads(texto)
        (mutacion,) = trabajo["mutations"]
        if resultado is not None and resultado.get("worker_outcome") == "no-test":
            continue
        antes, despues = cambio(resultado.get("diff") or "") if resultado else ("", "")
        mutantes.append(Mutante(
            operador=mutacion["operator_name"],
            linea=mutacion["start_pos"][0],
            antes=antes,
            despues=despues,
            veredicto=resultado.get("test_outcome") if resultado else None,
            salida=(resultado or {}).get("output") or "",
        ))
    return sorted(mutantes, key=lambda m: (m.linea, m.operador, m.despues))


def explicaciones(texto: str) -> dict[tuple[str, str, str], str]:
    """{(operator, before, after): why} from the «## Mutantes equivalentes» section of a
    ``clausulas.md`` (none if it has no such section)."""
    _, hay, resto = texto.partition(f"\n{SECCION}\n")
    if not hay:
        return {}
    seccion = re.split(r"\n(?=## )", resto)[0]
    leidas: dict[tuple[str, str, str], str] = {}
    lineas = seccion.splitlines()
    for i, linea in enumerate(lineas):
        if not linea.startswith("- "):
            continue
        m = VINETA.fullmatch(linea.rstrip())
        if not m:
            raise ExplicacionMal(f"no se entiende la viñeta {linea!r}: "
                                 "- `operador`: `línea` → `línea mutada`")
        siguiente = lineas[i + 1] if i + 1 < len(lineas) else ""
        if not siguiente.startswith("  ") or not siguiente.strip():
            raise ExplicacionMal(f"{linea!r}: falta, debajo y sangrada, la línea que dice "
                                 "por qué es equivalente")
        clave = (m["operador"], m["antes"], m["despues"])
        if clave in leidas:
            raise ExplicacionMal(f"{linea!r} está dos veces")
        leidas[clave] = siguiente.strip()
    return leidas


@dataclass
class Cuenta:
    """One challenge's row, and what the table lists under it."""

    desafio: str
    archivo: str
    mutantes: int = 0
    muertos: int = 0
    sobreviven: int = 0
    explicados: int = 0
    sin_explicar: list[Mutante] = field(default_factory=list)
    sin_veredicto: list[Mutante] = field(default_factory=list)
    #: Explanations that match no survivor (the mutant is now killed, or no longer made).
    sobrantes: list[tuple[str, str, str]] = field(default_factory=list)
    #: Killed mutants whose grading Cosmic Ray stopped at its time limit (they count as killed).
    por_tiempo: list[Mutante] = field(default_factory=list)
    #: Killed mutants the grader did not grade (no «N passed, M failed»: it broke; they count as
    #: killed, and are listed, since no test said why).
    sin_calificar: list[Mutante] = field(default_factory=list)
    #: Why the challenge could not be mutation-tested at all (its reference fails, …).
    problema: str | None = None

    @property
    def bien(self) -> bool:
        return self.problema is None and not self.sin_explicar and not self.sin_veredicto


def cuenta(desafio: str, archivo: str, mutantes: list[Mutante],
           explicados: dict[tuple[str, str, str], str]) -> Cuenta:
    c = Cuenta(desafio, archivo, mutantes=len(mutantes))
    usadas = set()
    for m in mutantes:
        if m.veredicto == "killed":
            c.muertos += 1
            if m.salida.strip() == TIEMPO:
                c.por_tiempo.append(m)
            elif not CALIFICO.search(m.salida):
                c.sin_calificar.append(m)
        elif m.veredicto == "survived":
            c.sobreviven += 1
            if m.clave in explicados:
                c.explicados += 1
                usadas.add(m.clave)
            else:
                c.sin_explicar.append(m)
        else:
            c.sin_veredicto.append(m)
    c.sobrantes = [k for k in explicados if k not in usadas]
    return c


CABECERA = ("desafío", "mutantes", "muertos", "sobreviven", "explicados")


def tabla(cuentas: list[Cuenta]) -> str:
    """The plain table: one row per challenge and a total; then each unexplained survivor (file,
    line, operator, the mutation as diff lines, the bullet that would explain it), each mutant
    without a verdict, each explanation that matches no survivor, each challenge not tested."""
    filas = [CABECERA] + [
        (c.desafio, str(c.mutantes), str(c.muertos), str(c.sobreviven), str(c.explicados))
        for c in cuentas]
    filas.append(("total", *(str(sum(getattr(c, a) for c in cuentas))
                             for a in ("mutantes", "muertos", "sobreviven", "explicados"))))
    anchos = [max(len(f[i]) for f in filas) for i in range(len(CABECERA))]
    tiempo = sum(len(c.por_tiempo) for c in cuentas)
    lineas = ["  ".join(f[0].ljust(anchos[0]) if i == 0 else f[i].rjust(anchos[i])
                        for i in range(len(CABECERA))).rstrip() for f in filas]
    if tiempo:
        lineas.append(f"(de los muertos, {tiempo} por el límite de tiempo)")
    for c in cuentas:
        if c.problema:
            lineas += ["", f"{c.desafio}: no se pudo probar: {c.problema}"]
        for m in c.sin_explicar:
            lineas += ["", f"sobrevive sin explicar: {c.archivo}:{m.linea} {m.operador}",
                       *(f"    - {t}" for t in m.antes.split(SALTO)),
                       *(f"    + {t}" for t in m.despues.split(SALTO)),
                       f"  (si es equivalente, en challenges/{c.desafio}/clausulas.md, "
                       f"«{SECCION[3:]}»: {m.vineta()})"]
        for m in c.sin_veredicto:
            lineas += ["", f"sin veredicto ({m.veredicto or 'sin ejecutar'}): "
                           f"{c.archivo}:{m.linea} {m.operador}",
                       *(f"    {t}" for t in m.salida.strip().splitlines()[-5:])]
        for m in c.sin_calificar:
            lineas += ["", f"aviso: muerto sin que el calificador calificara: "
                           f"{c.archivo}:{m.linea} {m.operador}",
                       *(f"    {t}" for t in m.salida.strip().splitlines()[-5:])]
        for operador, antes, despues in c.sobrantes:
            lineas += ["", f"aviso: challenges/{c.desafio}/clausulas.md explica un mutante que ya "
                           f"no sobrevive: `{operador}`: `{antes}` → `{despues}`"]
    return "\n".join(lineas)
