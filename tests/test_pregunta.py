"""Questions at build time: what an author writes becomes the widget's data and a fallback that
reads without JavaScript (no correct answer marked); every mistake fails the build with its file,
its line and a Spanish message.

The cases live in tests/fixtures/preguntas/ (validas.txt, invalidas.txt): each becomes a page of
a site built with tests/sites/preguntas/conf.py, all the valid ones in one build, all the invalid
ones in another.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "preguntas"
SITE_CONF = Path(__file__).resolve().parent / "sites" / "preguntas" / "conf.py"
ERROR = re.compile(r"^(?P<ruta>\S+?\.md):(?P<linea>\d+): ERROR: (?P<mensaje>.*?)(?: \[[\w.]+\])?$")


@dataclass
class Caso:
    nombre: str
    fuente: str
    partes: dict[str, str]


def leer_casos(archivo: str) -> list[Caso]:
    """``=== name`` starts a case (its page's text); each ``--- header`` line starts a part."""
    texto = (FIXTURES / archivo).read_text(encoding="utf-8")
    trozos = re.split(r"^=== (\S+)\n", texto, flags=re.M)[1:]
    casos = []
    for nombre, cuerpo in zip(trozos[::2], trozos[1::2], strict=True):
        fuente, *resto = re.split(r"^--- ", cuerpo, flags=re.M)
        partes = {}
        for parte in resto:
            cabecera, _, contenido = parte.partition("\n")
            partes[cabecera.strip()] = contenido.strip()
        casos.append(Caso(nombre, fuente.rstrip("\n") + "\n", partes))
    return casos


VALIDAS = leer_casos("validas.txt")
INVALIDAS = leer_casos("invalidas.txt")


def escribir_sitio(carpeta: Path, casos: list[Caso], extra_conf: str = "") -> Path:
    carpeta.mkdir(parents=True)
    (carpeta / "conf.py").write_text(
        # case pages have no title, so that their line 1 is the case's line 1
        f"import runpy\nglobals().update(runpy.run_path({str(SITE_CONF)!r}))\n"
        f"suppress_warnings = ['toc.no_title']\n{extra_conf}\n",
        encoding="utf-8")
    paginas = "\n".join(c.nombre for c in casos)
    (carpeta / "index.md").write_text(f"# Casos\n\n```{{toctree}}\n:hidden:\n{paginas}\n```\n",
                                      encoding="utf-8")
    for caso in casos:
        (carpeta / f"{caso.nombre}.md").write_text(caso.fuente, encoding="utf-8")
    return carpeta


def compilar(fuente: Path, destino: Path, constructor: str = "html") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", constructor,
         str(fuente), str(destino)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )


@pytest.fixture(scope="module", params=["sin-tasklist", "con-tasklist"])
def validas(request, tmp_path_factory) -> Path:
    """The valid cases built to HTML, with MyST's tasklist extension off and on."""
    extra = ('myst_enable_extensions = [*myst_enable_extensions, "tasklist"]'
             if request.param == "con-tasklist" else "")
    base = tmp_path_factory.mktemp(f"validas-{request.param}")
    fuente = escribir_sitio(base / "fuente", VALIDAS, extra)
    proceso = compilar(fuente, base / "html")
    assert proceso.returncode == 0, proceso.stdout + proceso.stderr
    return base / "html"


@pytest.fixture(scope="module")
def errores(tmp_path_factory) -> dict[str, list[tuple[int, str]]]:
    """Build every invalid case at once; the errors reported, by page."""
    base = tmp_path_factory.mktemp("invalidas")
    fuente = escribir_sitio(base / "fuente", INVALIDAS)
    proceso = compilar(fuente, base / "html")
    assert proceso.returncode != 0, "a build full of mistakes must fail"
    por_pagina: dict[str, list[tuple[int, str]]] = {}
    for linea in proceso.stderr.splitlines():
        encontrado = ERROR.match(linea)
        if encontrado:
            pagina = Path(encontrado["ruta"]).stem
            por_pagina.setdefault(pagina, []).append((int(encontrado["linea"]), encontrado["mensaje"]))
    sueltas = [linea for linea in proceso.stderr.splitlines()
               if linea.strip() and not ERROR.match(linea) and "build finished with problems" not in linea]
    assert not sueltas, f"unexpected output from the build: {sueltas}"
    return por_pagina


def widgets_de(html: Path):
    sopa = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
    return sopa, sopa.find_all(lambda e: e.name.startswith("bucle-"))


def texto_sin_js(elemento) -> list[str]:
    """What a reader without JavaScript sees of a widget: no hidden parts, no data."""
    copia = BeautifulSoup(str(elemento), "html.parser")
    for oculto in copia.select("[hidden], script"):
        oculto.decompose()
    lineas = (" ".join(linea.split()) for linea in copia.get_text().splitlines())
    return [linea for linea in lineas if linea]


@pytest.mark.parametrize("caso", VALIDAS, ids=[c.nombre for c in VALIDAS])
def test_a_valid_question_gives_its_data_and_a_readable_fallback(validas, caso):
    _sopa, elementos = widgets_de(validas / f"{caso.nombre}.html")
    vistos = []
    for e in elementos:
        datos = json.loads(e.find("script", class_="bucle-datos", recursive=False).string)
        vistos.append([e.name.removeprefix("bucle-"), e["data-bucle-id"], datos])
        assert e["id"] == e["data-bucle-id"]
        assert (e["data-bucle-curso"], e["data-bucle-pagina"]) == ("pruebas", caso.nombre)
    assert vistos == json.loads(caso.partes["widgets"])

    exterior = elementos[0]
    assert texto_sin_js(exterior) == caso.partes["texto"].splitlines()
    # the fallback never tells which option is right
    texto = " ".join(texto_sin_js(exterior))
    assert "[x]" not in texto.lower() and "[ ]" not in texto
    for item in exterior.select(".bucle-pregunta-opciones > li"):
        assert item.attrs == {}, "an option's markup must not depend on whether it is right"
        assert item.find("input") is None


def test_feedback_and_explanation_are_kept_hidden_for_the_front_end(validas):
    _, (pregunta,) = widgets_de(validas / "una-con-retro-y-explicacion.html")
    opciones = pregunta.select(".bucle-pregunta-opciones > li")
    retros = [item.select_one(":scope > .bucle-pregunta-retro") for item in opciones]
    assert [r is not None and r.has_attr("hidden") for r in retros] == [True, True, False]
    assert " ".join(retros[0].get_text().split()) == "Exacto: sin llamadas no hay nada que ejecutar."
    assert retros[0].find("strong") is not None, "feedback is Markdown"
    explicacion = pregunta.select_one(":scope > .bucle-pregunta-explicacion")
    assert explicacion.has_attr("hidden")
    assert explicacion.find("code").get_text() == "tool_use"
    enunciado = pregunta.select_one(":scope > p.bucle-pregunta-enunciado")
    assert enunciado.get_text() == "¿Quién decide que el bucle termina en el turno 4?"
    # inline code in options survives as code
    assert opciones[0].select_one("p.bucle-pregunta-texto code").get_text() == "tool_use"


def test_a_page_with_questions_loads_their_module_and_the_styles(validas):
    sopa, _ = widgets_de(validas / "varias.html")
    modulos = [s["src"] for s in sopa.find_all("script", src=True) if s.get("type") == "module"]
    assert any(m.split("?")[0].endswith("_static/bucle/pregunta.js") for m in modulos), modulos
    assert any(enlace["href"].startswith("_static/bucle/bucle.css")
               for enlace in sopa.find_all("link", rel="stylesheet"))
    indice, _ = widgets_de(validas / "index.html")  # no widget: neither module nor styles
    assert not [s for s in indice.find_all("script", src=True) if s["src"].endswith("bucle/pregunta.js")]
    assert not [enlace for enlace in indice.find_all("link", rel="stylesheet") if "bucle/bucle.css" in enlace["href"]]


def test_other_builders_read_the_questions_without_revealing_answers(tmp_path):
    caso = next(c for c in VALIDAS if c.nombre == "una-con-retro-y-explicacion")
    fuente = escribir_sitio(tmp_path / "fuente", [caso])
    proceso = compilar(fuente, tmp_path / "texto", "text")
    assert proceso.returncode == 0, proceso.stdout + proceso.stderr
    texto = (tmp_path / "texto" / f"{caso.nombre}.txt").read_text(encoding="utf-8")
    for parte in ("¿Quién decide que el bucle termina en el turno 4?",
                  '* El modelo, al responder sin "tool_use".', "* El arnés, porque llegó al tope.",
                  "* El usuario."):
        assert parte in texto, texto
    for secreto in ("Exacto", "el tope es 10", "El arnés repite", "[x]"):
        assert secreto not in texto


@pytest.mark.parametrize("caso", INVALIDAS, ids=[c.nombre for c in INVALIDAS])
def test_a_mistake_fails_the_build_with_its_line_and_message(errores, caso):
    (cabecera,) = caso.partes
    linea, mensaje = cabecera.split(": ", 1)
    esperado = (int(linea), mensaje)
    assert errores.get(caso.nombre) == [esperado], (
        f"{caso.nombre}: expected {esperado}, the build said {errores.get(caso.nombre)}")


def test_only_the_pages_with_mistakes_report_errors(errores):
    assert set(errores) == {c.nombre for c in INVALIDAS}
