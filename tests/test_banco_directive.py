"""The ``banco`` directive: its widget and data, a recording read without JavaScript (tables and
plot written at build time from the same summary the page's worker makes), the recording it
publishes for the page's list of runs, and the build's errors, with the lesson's file and line.

The test site is tests/sites/banco/ (its recording: tests/sites/banco/medidas/ejemplo.json).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from runtime import espacio
from tests.conftest import SITES, construir
from widgets.trabajador import trabajador_banco as banco

RAIZ = Path(__file__).resolve().parent.parent
GRABACION = SITES / "banco" / "medidas" / "ejemplo.json"
AVISO = re.compile(r"^(?P<ruta>/\S+?\.md):(?P<linea>\d+): (?P<nivel>ERROR|WARNING): (?P<mensaje>.*)$")

CONF = f"""
import sys
sys.path.insert(0, {str(RAIZ)!r})
project = "Bancos rotos"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
bucle_curso = "bancos-rotos"
bucle_sin_conexion = False
"""


@pytest.fixture(scope="module")
def html(sitio_de_prueba) -> Path:
    return sitio_de_prueba("banco")


def bancos_de(pagina: Path):
    sopa = BeautifulSoup(pagina.read_text(encoding="utf-8"), "html.parser")
    return sopa, {w["id"]: (w, json.loads(w.find("script", class_="bucle-datos").string))
                  for w in sopa.find_all("bucle-banco")}


def test_the_widget_carries_its_options_as_data(html):
    sopa, bancos = bancos_de(html / "index.html")
    w, datos = bancos["banco-ruidoso"]
    assert (w["data-bucle-id"], w["data-bucle-curso"], w["data-bucle-pagina"]) == (
        "banco-ruidoso", "banco-de-prueba", "index")
    grabacion = datos.pop("grabacion")
    assert datos == {"tareas": "tareas_del_banco()", "variantes": ["agente", "agente_mudo"],
                     "modelos": ["modelo_ruidoso"], "veces": 20, "tope": 10, "limite": 10.0}
    assert grabacion["archivo"] == "ejemplo.json" and grabacion["ejecuciones"] == 40
    assert re.fullmatch(r"_static/bucle/banco/[0-9a-f]{20}\.json", grabacion["url"])
    # what «Medir» does, read before pressing it (and all there is without JavaScript)
    assert w.find("p", class_="bucle-banco-descripcion").get_text() == (
        "El banco ejecuta las variantes agente y agente_mudo 20 veces en cada tarea de "
        "tareas_del_banco(), con el modelo modelo_ruidoso y tope 10, y da la tasa de éxito de "
        "cada una con su intervalo de Wilson del 95 %.")
    # the page loads the bench's module, and Python's worker as it loads
    modulos = [s["src"] for s in sopa.find_all("script", src=True)]
    assert any(m.startswith("_static/bucle/banco.js") for m in modulos)
    assert any("python-temprano.js" in m for m in modulos)


def test_without_options_the_defaults_and_a_numbered_id(html):
    _, bancos = bancos_de(html / "lento.html")
    (ident, (_, datos)), = bancos.items()
    assert ident == "banco-1"
    assert datos == {"tareas": "tareas_del_banco()", "variantes": ["agente_lento"],
                     "modelos": ["modelo_ruidoso"], "veces": 20, "tope": None, "limite": 10.0,
                     "grabacion": None}
    _, bancos = bancos_de(html / "errores.html")
    assert bancos["banco-sin-fin"][1]["limite"] == 1.0


def test_a_recording_reads_as_tables_and_a_plot_without_javascript(html):
    grabacion = json.loads(GRABACION.read_text(encoding="utf-8"))
    vista = banco.vista(banco.resumir(grabacion["ejecuciones"], grabacion["variantes"]))
    _, bancos = bancos_de(html / "index.html")
    w, _ = bancos["banco-ruidoso"]
    grabada = w.find("div", class_="bucle-banco-grabada")
    tablas = grabada.find_all("table", class_="bucle-banco-tabla")
    esperadas = vista["tablas"] + [vista["pareo"]]
    assert [t.caption.get_text() for t in tablas] == [
        "Resultados de agente", "Resultados de agente_mudo", "Cambiaron (mismas tareas y semillas)"]
    for tabla, esperada in zip(tablas, esperadas, strict=True):
        filas = [[th.get_text(), td.get_text()] for th, td in
                 ((tr.find("th", scope="row"), tr.find("td")) for tr in tabla.find_all("tr"))]
        assert filas == esperada["filas"]
    # the numbers are the recording's own: successes per variant, counted here
    for v, tabla in zip(grabacion["variantes"], tablas, strict=False):
        suyas = [e for e in grabacion["ejecuciones"] if e["variante"] == v]
        exitos = sum(e["motivo"] == "resuelta" for e in suyas)
        assert tabla.find("td").get_text() == f"{exitos} de {len(suyas)}"
    # the plot: an image named, described by its words, one bar per variant
    svg = grabada.find("svg")
    assert svg["role"] == "img" and svg["aria-label"] == "Tasas de éxito con sus intervalos de Wilson"
    palabras = grabada.find(id=svg["aria-describedby"])
    assert palabras.get_text() == vista["texto"]
    assert len(svg.find_all("rect")) == 2
    assert [t.get_text() for t in svg.find_all("text", class_="bucle-banco-nombre")] == ["agente", "agente_mudo"]
    assert "40 ejecuciones de agente y agente_mudo en 20 tareas con 1 semilla, tope 10" in \
        grabada.find("p", class_="bucle-banco-pie").get_text()
    # nothing that a strict CSP would refuse, no duplicated id
    assert not grabada.find(style=True)
    ids = [e["id"] for e in BeautifulSoup((html / "index.html").read_text(encoding="utf-8"),
                                          "html.parser").find_all(id=True)]
    assert len(ids) == len(set(ids))


def test_the_recording_is_published_with_a_line_per_block_for_the_traces(html):
    _, bancos = bancos_de(html / "index.html")
    url = bancos["banco-ruidoso"][1]["grabacion"]["url"]
    publicado = json.loads((html / urlsplit(urljoin("http://x/index.html", url)).path.lstrip("/"))
                           .read_text(encoding="utf-8"))
    grabacion = json.loads(GRABACION.read_text(encoding="utf-8"))
    assert publicado["grabacion"] == grabacion
    muestra = espacio("entorno")["muestra"]
    assert len(publicado["lineas"]) == len(grabacion["ejecuciones"])
    for e, lineas in zip(grabacion["ejecuciones"], publicado["lineas"], strict=True):
        assert lineas == banco.lineas_de(e["M"], muestra)
    primera = grabacion["ejecuciones"][0]
    assert publicado["lineas"][0][1] == [f"«{primera['pedido']}»"]


def test_other_builders_read_the_recording_as_text(tmp_path):
    salida = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "text", str(SITES / "banco"),
                             str(tmp_path / "texto")], capture_output=True, text=True, cwd=RAIZ, check=False)
    assert salida.returncode == 0, salida.stderr
    texto = (tmp_path / "texto" / "index.txt").read_text(encoding="utf-8")
    assert "Resultados de agente_mudo" in texto
    assert re.search(r"Éxitos\s+\|?\s*13 de 20", texto)
    assert "Tasa de éxito de cada variante" in texto
    assert "<svg" not in texto


ROTAS = {
    "tope_cero.md": ("""\
        # Un tope de cero

        ```{banco}
        :variantes: agente
        :tope: 0
        ```
        """, 5, "«:tope: 0» no vale en {banco}: debe ser un número entero mayor que 0"),
    "limite.md": ("""\
        # Un límite que no es un número

        ```{banco}
        :variantes: agente
        :limite: nada
        ```
        """, 5, "«:limite: nada» no vale en {banco}: son los segundos que puede durar una ejecución"),
    "tareas.md": ("""\
        # Unas tareas que no son Python

        ```{banco}
        :tareas: tareas_del_banco(
        :variantes: agente
        ```
        """, 4, "«:tareas: tareas_del_banco(» no es una expresión de Python ('(' was never closed)"),
    "nombres.md": ("""\
        # Un nombre que no es de Python

        ```{banco}
        :variantes: agente
        :modelos: modelo_ruidoso, modelo-de-la-pagina
        ```
        """, 5, "«:modelos: modelo_ruidoso, modelo-de-la-pagina» no vale: escribe nombres de funciones"),
    "sin_variantes.md": ("""\
        # Sin variantes

        ```{banco}
        :veces: 3
        ```
        """, 3, "falta «:variantes:»: el nombre de uno o dos agentes"),
    "repetida.md": ("""\
        # Una variante repetida

        ```{banco}
        :variantes: agente, agente
        ```
        """, 4, "«:variantes: agente, agente» repite un nombre"),
    "veces.md": ("""\
        # Demasiadas veces

        ```{banco}
        :variantes: agente
        :veces: 10000
        ```
        """, 5, "«:veces: 10000» no vale en {banco}: debe ser un número entero de 1 a 1000"),
    "otra_variante.md": ("""\
        # Una grabación de una variante que no dice

        ```{banco}
        :variantes: agente
        :grabacion: medidas/otra.json
        ```
        """, 5, "la grabación «medidas/otra.json» no vale: la ejecución 20 es de «agente_mudo», "
                "que no está en «variantes»"),
    "sub/motivo.md": ("""\
        # Una grabación con un motivo que no existe, en otra carpeta

        ```{banco}
        :variantes: agente
        :grabacion: ../medidas/motivo.json
        ```
        """, 5, "la grabación «../medidas/motivo.json» no vale: la ejecución 0 tiene «motivo» 'ganada'"),
}


def test_broken_benches_fail_the_build_each_at_its_file_and_line(tmp_path):
    fuente = tmp_path / "fuente"
    for nombre, (texto, _, _) in ROTAS.items():
        (fuente / nombre).parent.mkdir(parents=True, exist_ok=True)
        (fuente / nombre).write_text(textwrap.dedent(texto), encoding="utf-8")
    paginas = "\n".join(n.removesuffix(".md") for n in ROTAS)
    (fuente / "index.md").write_text(f"# Bancos rotos\n\n```{{toctree}}\n{paginas}\n```\n", encoding="utf-8")
    # (the recordings are data, not pages)
    (fuente / "conf.py").write_text(CONF + "exclude_patterns = ['medidas']\n", encoding="utf-8")
    buena = json.loads(GRABACION.read_text(encoding="utf-8"))
    (fuente / "medidas").mkdir()
    otra = {**buena, "variantes": ["agente"]}
    (fuente / "medidas" / "otra.json").write_text(json.dumps(otra), encoding="utf-8")
    motivo = {**buena, "ejecuciones": [{**buena["ejecuciones"][0], "motivo": "ganada"}]}
    (fuente / "medidas" / "motivo.json").write_text(json.dumps(motivo), encoding="utf-8")

    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    avisos = [m.groupdict() for linea in proceso.stderr.splitlines() if (m := AVISO.match(linea))]
    otras = [linea for linea in proceso.stderr.splitlines()
             if ("ERROR" in linea or "WARNING" in linea) and not AVISO.match(linea)]
    assert otras == [], proceso.stderr
    for nombre, (_, linea, mensaje) in ROTAS.items():
        suyos = [a for a in avisos if Path(a["ruta"]) == fuente / nombre]
        assert len(suyos) == 1, (nombre, proceso.stderr)
        assert (suyos[0]["nivel"], int(suyos[0]["linea"])) == ("ERROR", linea), (nombre, suyos[0])
        assert suyos[0]["mensaje"].startswith(mensaje), (nombre, suyos[0]["mensaje"])
    assert len(avisos) == len(ROTAS)
