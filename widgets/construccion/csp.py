"""A site that works under a strict Content-Security-Policy, whatever the theme writes.

    default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self';
    connect-src 'self' http://localhost:* http://127.0.0.1:*

That policy forbids inline code: ``<script>`` without ``src``, ``<style>`` blocks and ``style=``
attributes (Furo has all three: the dark-mode switch, its CSS variables, its icons). After the
HTML build, every page is rewritten so that nothing inline is left:

- an inline script becomes ``_static/bucle/csp/<hash>.js``, loaded in the same place (a classic
  script with ``src`` runs at the same point of parsing, so behaviour does not change);
- a ``<style>`` block becomes ``_static/bucle/csp/<hash>.css``, linked in its place;
- a ``style="…"`` attribute becomes a class ``bucle-csp-<hash>`` whose rule, in
  ``_static/bucle/csp/atributos.css``, repeats the declarations with ``!important`` (as an inline
  style would win over the stylesheets).

Data blocks (``<script type="application/json">``) are not code and stay where they are.

Stylesheets that embed images as ``data:`` URLs (Furo's icons) would need ``img-src data:``;
each such image is written to ``_static/bucle/csp/<hash>.svg`` and the stylesheet points there.

Sphinx's ``translations.js`` hands its plural rule to ``new Function`` (``unsafe-eval``); it is
rewritten to set the same catalogue with the rule as a plain function, written once at build
time from the catalogue's own expression.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from urllib.parse import unquote
from pathlib import Path

from sphinx.application import Sphinx

_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<codigo>.*?)</script>", re.S | re.I)
_STYLE = re.compile(r"<style(?P<attrs>[^>]*)>(?P<css>.*?)</style>", re.S | re.I)
_ETIQUETA_CON_ESTILO = re.compile(r"<[a-zA-Z][\w:-]*\s[^<>]*?\bstyle=\"[^\"]*\"[^<>]*>")
_ATRIBUTO_STYLE = re.compile(r"\sstyle=\"(?P<decl>[^\"]*)\"")
_ATRIBUTO_CLASS = re.compile(r"\sclass=\"(?P<clases>[^\"]*)\"")
_DATOS = re.compile(r"type=[\"'](application/(ld\+)?json|text/template)[\"']", re.I)

CARPETA = Path("_static") / "bucle" / "csp"


def _hash(texto: str) -> str:
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()[:12]


class _Reescritor:
    def __init__(self, salida: Path):
        self.salida = salida
        self.carpeta = salida / CARPETA
        self.reglas: dict[str, str] = {}

    def _guardar(self, contenido: str, extension: str) -> str:
        nombre = f"{_hash(contenido)}.{extension}"
        self.carpeta.mkdir(parents=True, exist_ok=True)
        destino = self.carpeta / nombre
        if not destino.exists():
            destino.write_text(contenido, encoding="utf-8")
        return nombre

    def pagina(self, ruta: Path) -> None:
        html = ruta.read_text(encoding="utf-8")
        profundidad = len(ruta.relative_to(self.salida).parts) - 1
        base = "../" * profundidad + CARPETA.as_posix() + "/"
        nuevo = _SCRIPT.sub(lambda m: self._script(m, base), html)
        nuevo = _STYLE.sub(lambda m: self._style(m, base), nuevo)
        nuevo, con_clases = _ETIQUETA_CON_ESTILO.subn(self._etiqueta, nuevo)
        if con_clases:
            enlace = f'<link rel="stylesheet" href="{base}atributos.css">'
            nuevo = nuevo.replace("</head>", enlace + "\n</head>", 1)
        if nuevo != html:
            ruta.write_text(nuevo, encoding="utf-8")

    def _script(self, m: re.Match, base: str) -> str:
        attrs, codigo = m.group("attrs"), m.group("codigo")
        if "src=" in attrs or _DATOS.search(attrs) or not codigo.strip():
            return m.group(0)
        return f'<script{attrs} src="{base}{self._guardar(codigo.strip() + chr(10), "js")}"></script>'

    def _style(self, m: re.Match, base: str) -> str:
        return f'<link rel="stylesheet" href="{base}{self._guardar(m.group("css").strip() + chr(10), "css")}">'

    def _etiqueta(self, m: re.Match) -> str:
        etiqueta = m.group(0)
        decl = _ATRIBUTO_STYLE.search(etiqueta).group("decl").strip().rstrip(";")
        clase = f"bucle-csp-{_hash(decl)}"
        reglas = "; ".join(f"{d.strip()} !important" for d in decl.split(";") if d.strip())
        self.reglas[clase] = reglas
        etiqueta = _ATRIBUTO_STYLE.sub("", etiqueta, count=1)
        if _ATRIBUTO_CLASS.search(etiqueta):
            return _ATRIBUTO_CLASS.sub(lambda c: f' class="{c.group("clases")} {clase}"', etiqueta, count=1)
        return etiqueta.replace(">", f' class="{clase}">', 1) if not etiqueta.endswith("/>") \
            else etiqueta[:-2].rstrip() + f' class="{clase}" />'

    def terminar(self) -> None:
        if self.reglas:
            self.carpeta.mkdir(parents=True, exist_ok=True)
            css = "".join(f".{c} {{ {r}; }}\n" for c, r in sorted(self.reglas.items()))
            anterior = self.carpeta / "atributos.css"
            if anterior.exists():  # an incremental build keeps earlier pages' rules
                css = "".join(sorted(set(anterior.read_text().splitlines(True)) | set(css.splitlines(True))))
            anterior.write_text(css, encoding="utf-8")


_TRADUCCIONES = re.compile(r"^Documentation\.addTranslations\((?P<catalogo>\{.*\})\);\s*$", re.S)
_PLURAL_SEGURA = re.compile(r"^[\sn0-9=!<>&|?:%()+\-*/]*$")


def traducciones_sin_eval(ruta: Path) -> None:
    """Rewrite Sphinx's translations.js so that it needs no ``new Function``."""
    if not ruta.is_file():
        return
    m = _TRADUCCIONES.match(ruta.read_text(encoding="utf-8"))
    if not m:
        return
    catalogo = json.loads(m.group("catalogo"))
    plural = catalogo.get("plural_expr") or "n != 1"
    if not _PLURAL_SEGURA.match(plural):  # only arithmetic on n is ever written as code
        plural = "n != 1"
    ruta.write_text(
        "Object.assign(Documentation.TRANSLATIONS, "
        + json.dumps(catalogo.get("messages", {}), ensure_ascii=False) + ");\n"
        + f"Documentation.PLURAL_EXPR = (n) => ({plural});\n"
        + f"Documentation.LOCALE = {json.dumps(catalogo.get('locale', ''))};\n",
        encoding="utf-8",
    )


_URL_DATOS = re.compile(
    r"url\((?P<q>['\"]?)data:image/svg\+xml(?P<base64>;base64)?(?:;charset=utf-8)?,(?P<datos>.*?)(?P=q)\)",
    re.S)


def imagenes_fuera_del_css(salida: Path, reescritor: _Reescritor) -> None:
    """Move the SVG images a stylesheet embeds as data: URLs into files of the site."""
    for hoja in (salida / "_static").rglob("*.css"):
        if CARPETA.as_posix() in hoja.as_posix():
            continue
        css = hoja.read_text(encoding="utf-8")

        def archivo(m: re.Match, hoja: Path = hoja) -> str:
            datos = m.group("datos")
            svg = base64.b64decode(datos).decode("utf-8") if m.group("base64") else unquote(datos)
            nombre = reescritor._guardar(svg, "svg")
            return f'url("{os.path.relpath(reescritor.carpeta / nombre, hoja.parent).replace(os.sep, "/")}")'

        nuevo = _URL_DATOS.sub(archivo, css)
        if nuevo != css:
            hoja.write_text(nuevo, encoding="utf-8")


def sin_codigo_en_linea(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    salida = Path(app.outdir)
    traducciones_sin_eval(salida / "_static" / "translations.js")
    reescritor = _Reescritor(salida)
    imagenes_fuera_del_css(salida, reescritor)
    for ruta in sorted(salida.rglob("*.html")):
        if CARPETA.as_posix() not in ruta.as_posix():
            reescritor.pagina(ruta)
    reescritor.terminar()


def setup_csp(app: Sphinx) -> None:
    app.connect("build-finished", sin_codigo_en_linea, priority=900)
