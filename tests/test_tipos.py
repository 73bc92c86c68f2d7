"""The front end's logic is type-checked: TypeScript (pinned in package.json) reads the JSDoc of
widgets/front/lib/ and widgets/front/modelo/ (tsconfig.front.json) and finds no error.

tsconfig.front.json checks only the files that say `// @ts-check` (checkJs stays off so that the
page's other scripts these folders import, python.js, piezas/dom.js, are read for their types but
not checked): so every file of the two folders must start with it, or a new file would escape.
It is not a tsconfig.json: esbuild would read that one while bundling (and its `strict` puts
"use strict" in the service worker's bundle).

`noImplicitAny` is on (a parameter without a type is an error), for every file of the two folders:
no file is left out of it.
"""

import re
import subprocess
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
TSC = RAIZ / "node_modules" / ".bin" / "tsc"
CARPETAS = [RAIZ / "widgets" / "front" / "lib", RAIZ / "widgets" / "front" / "modelo"]


def _tsc(*opciones):
    assert TSC.exists(), "TypeScript is not installed: run `npm ci` (make test does)"
    orden = [str(TSC), "-p", str(RAIZ / "tsconfig.front.json"), "--noEmit", "--pretty", "false", *opciones]
    return subprocess.run(orden, cwd=RAIZ, capture_output=True, text=True, timeout=120, check=False)


def _archivos():
    return sorted(p for carpeta in CARPETAS for p in carpeta.rglob("*.js"))


def test_tsc_no_encuentra_errores():
    proceso = _tsc()
    assert proceso.returncode == 0, "tsc found type errors:\n" + proceso.stdout + proceso.stderr


def test_ningun_archivo_tiene_any_implicito():
    """noImplicitAny is on in the configuration, so test_tsc_no_encuentra_errores holds every file
    of the two folders to it (a parameter without a JSDoc type is an error), and none is excluded."""
    configuracion = (RAIZ / "tsconfig.front.json").read_text(encoding="utf-8")
    assert re.search(r'^\s*"noImplicitAny": true,', configuracion, re.M), "noImplicitAny must be on"
    assert '"exclude"' not in configuracion


def test_cada_archivo_empieza_por_ts_check():
    archivos = _archivos()
    assert len(archivos) > 20
    sin = [str(p.relative_to(RAIZ)) for p in archivos
           if p.read_text(encoding="utf-8").splitlines()[:1] != ["// @ts-check"]]
    assert not sin, "these files do not start with `// @ts-check`:\n" + "\n".join(sin)


def test_ninguna_excepcion_sin_su_razon():
    """`@ts-ignore` / `@ts-expect-error` say why on their line; `@ts-nocheck` is never used."""
    malas = []
    for p in _archivos():
        for n, linea in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if "@ts-nocheck" in linea:
                malas.append(f"{p.relative_to(RAIZ)}:{n}: {linea.strip()}")
            m = re.search(r"@ts-(?:ignore|expect-error)\b(.*)", linea)
            if m and len(m.group(1).strip(" :-—")) < 10:
                malas.append(f"{p.relative_to(RAIZ)}:{n}: {linea.strip()}")
    assert not malas, "type-check exceptions without their reason:\n" + "\n".join(malas)


def test_el_empaquetado_no_lee_la_configuracion_de_tipos():
    """esbuild reads a tsconfig.json or jsconfig.json in the folders above what it bundles."""
    carpetas = [RAIZ, RAIZ / "widgets", RAIZ / "widgets" / "front", *CARPETAS]
    leidas = [str(c / n) for c in carpetas for n in ("tsconfig.json", "jsconfig.json") if (c / n).exists()]
    assert not leidas, "esbuild would read these while bundling: " + ", ".join(leidas)
