"""Lighthouse scores of a page, with Debian's Chromium and through the bench's proxy recorder.

Lighthouse 12.2.3 (13 needs Node 22) is pinned in bench/lighthouse/package-lock.json and
installed there by ``make bench`` only, so that ``make test``'s ``npm ci`` stays small. Lighthouse
runs with its defaults (a phone, simulated throttling); each run starts Chromium with a new
profile, so every run is a first visit.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
import subprocess
import tempfile
from pathlib import Path

from tests.conftest import CHROMIUM

from .navegador import ARGUMENTOS

CARPETA = Path(__file__).resolve().parent / "lighthouse"
CLI = CARPETA / "node_modules" / "lighthouse" / "cli" / "index.js"


def _una(url: str, banderas: str) -> tuple[dict | None, str]:
    """One Lighthouse run: its report, or None and why."""
    with tempfile.TemporaryDirectory() as tmp:
        salida = Path(tmp) / "informe.json"
        proceso = subprocess.run(
            ["node", str(CLI), url, "--only-categories=performance,accessibility",
             "--output=json", f"--output-path={salida}", "--quiet", "--locale=es",
             f"--chrome-flags={banderas}"],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "CHROME_PATH": CHROMIUM}, check=False,
        )
        if proceso.returncode != 0 or not salida.is_file():
            lineas = [x for x in proceso.stderr.strip().splitlines() if x.strip()]
            return None, (lineas[-1] if lineas else f"exit status {proceso.returncode}")[:160]
        return json.loads(salida.read_text(encoding="utf-8")), ""


@dataclass
class Faro:
    """Scores (0–100) of the runs; ``falta``: why there are none; ``resumen``: of the first."""

    rendimiento: list[float] = field(default_factory=list)
    accesibilidad: list[float] = field(default_factory=list)
    falta: str = ""
    resumen: str = ""


def medir(url: str, proxy: str, veces: int, avisar=print) -> Faro:
    """Lighthouse ``veces`` times on ``url``. A run Lighthouse itself gives up on (it happens:
    «NO_NAVSTART») is tried once more, then left out."""
    if not CLI.is_file():
        return Faro(falta=f"Lighthouse is not installed in {CARPETA} (make bench runs npm ci there)")
    banderas = " ".join(["--headless"] + ARGUMENTOS + [f"--proxy-server={proxy}"])
    r = Faro()
    fallos = []
    for i in range(veces):
        informe, fallo = _una(url, banderas)
        if informe is None:
            avisar(f"  Lighthouse {i + 1}/{veces} failed ({fallo}); once more")
            informe, fallo = _una(url, banderas)
        if informe is None:
            fallos.append(fallo)
            continue
        categorias = informe["categories"]
        r.rendimiento.append(round(categorias["performance"]["score"] * 100))
        r.accesibilidad.append(round(categorias["accessibility"]["score"] * 100))
        avisar(f"  Lighthouse {i + 1}/{veces}: performance {r.rendimiento[-1]}, "
               f"accessibility {r.accesibilidad[-1]}")
        if not r.resumen:
            r.resumen = resumen(informe)
            avisar("  " + r.resumen)
    if fallos:
        r.falta = f"Lighthouse failed: {fallos[0]}"
        if r.rendimiento:
            r.resumen += f"; {len(fallos)} run(s) failed twice ({fallos[0]}) and are left out"
            r.falta = ""
    return r


def resumen(informe: dict) -> str:
    """The metrics behind the performance score, and the accessibility audits not passed."""
    auditorias = informe["audits"]
    metricas = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
                "cumulative-layout-shift", "speed-index"]
    partes = [f"{m}: {auditorias[m].get('displayValue', '?')}" for m in metricas if m in auditorias]
    accesibles = {r["id"] for r in informe["categories"]["accessibility"]["auditRefs"]}
    fallidas = [a for a in accesibles if (auditorias.get(a) or {}).get("score") == 0]
    if fallidas:
        partes.append("accessibility audits not passed: " + ", ".join(
            f"{a} ({nodos(auditorias[a])})" if nodos(auditorias[a]) else a for a in sorted(fallidas)))
    return "; ".join(partes)


def nodos(auditoria: dict, tope=3) -> str:
    """The elements an audit failed on, as Lighthouse names them (selector and markup)."""
    items = (auditoria.get("details") or {}).get("items") or []
    vistos = []
    for item in items:
        nodo = item.get("node") or {}
        if nodo.get("selector"):
            vistos.append(f"`{nodo['selector']}` `{nodo.get('snippet', '')[:120]}`")
    return " · ".join(vistos[:tope]) + (f" and {len(vistos) - tope} more" if len(vistos) > tope else "")
