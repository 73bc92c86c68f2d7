"""The ``desafio`` directive: its widget, the files it publishes, and its build-time checks."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

import challenges
from tests.conftest import construir

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "bucle-con-tope"
CARPETA = RAIZ / "challenges" / DESAFIO
MOTOR = RAIZ / "widgets" / "calificador"

CONF = f"""
import sys
sys.path.insert(0, {str(RAIZ)!r})
project = "Prueba"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
html_theme = "furo"
bucle_curso = "prueba"
"""


@pytest.fixture(scope="module")
def html(sitio_de_prueba) -> Path:
    return sitio_de_prueba("desafios")


def widget_de(pagina: Path):
    sopa = BeautifulSoup(pagina.read_text(encoding="utf-8"), "html.parser")
    widgets = sopa.find_all("bucle-desafio")
    assert len(widgets) == 1
    w = widgets[0]
    datos = json.loads(w.find("script", class_="bucle-datos").string)
    return sopa, w, datos


def sitio(tmp_path: Path, paginas: dict[str, str], conf_extra: str = "") -> Path:
    fuente = tmp_path / "fuente"
    for nombre, texto in paginas.items():
        (fuente / nombre).parent.mkdir(parents=True, exist_ok=True)
        (fuente / nombre).write_text(textwrap.dedent(texto), encoding="utf-8")
    (fuente / "conf.py").write_text(CONF + conf_extra, encoding="utf-8")
    return fuente


def test_el_widget_lleva_sus_datos(html):
    _, w, datos = widget_de(html / "index.html")
    assert w["id"] == w["data-bucle-id"] == DESAFIO
    assert w["data-bucle-curso"] == "prueba-desafios" and w["data-bucle-pagina"] == "index"
    assert w["class"] == ["bucle-widget", "bucle-desafio"]
    c = challenges.calificador()
    assert datos == {
        "desafio": DESAFIO,
        "inicial": (CARPETA / "inicial.py").read_text(encoding="utf-8"),
        "pruebas": c.nombres(DESAFIO),
        "pista": c.datos(DESAFIO)["pista"],
        "pista_tras": 3,
        "solucion": (CARPETA / "solucion.py").read_text(encoding="utf-8"),
        "solucion_tras": 6,
        "limite": 2.0,
        "mensajes": c.datos(DESAFIO)["mensajes"],
        "urls": {
            "desafios": "_static/bucle/desafios/",
            "runtime": "runtime/",
        },
        # the default: the order of runtime/orden.txt (the site's conf.py does not set it)
        "runtime_modulos": ["entorno", "guionizado", "escenarios", "permisos", "api", "grabacion",
                            "palabras", "tareas", "escrituras", "entrenamiento", "ruidoso", "banco",
                            "pruebas_de_carpeta", "ficheros", "herramientas_de_ficheros",
                            "escenario_de_ficheros"],
    }
    assert "«{prueba}»" in datos["mensajes"]["no_probada"]


def test_sin_javascript_se_leen_el_enunciado_y_el_codigo(html):
    sopa, w, _ = widget_de(html / "index.html")
    enunciado = w.find(class_="bucle-desafio-enunciado")
    assert "el bucle de un agente, con tope" in " ".join(enunciado.get_text().split())
    assert enunciado.find("strong").get_text() == "con tope"
    codigo = w.find(class_="bucle-desafio-inicial").find("pre").get_text()
    assert codigo == (CARPETA / "inicial.py").read_text(encoding="utf-8")
    # The prose around the widget stays where it was.
    textos = [p.get_text() for p in sopa.find_all("p")]
    assert textos.index("Antes del desafío, un párrafo de la lección.") < \
        textos.index("Después del desafío, otro párrafo.")


def test_la_pagina_carga_el_modulo_del_desafio(html):
    sopa = BeautifulSoup((html / "index.html").read_text(encoding="utf-8"), "html.parser")
    modulos = [s["src"] for s in sopa.find_all("script", type="module")]
    assert any(src.split("?")[0] == "_static/bucle/desafio.js" for src in modulos), modulos


def test_publica_las_pruebas_y_el_trabajador_lleva_el_calificador(html):
    # The engine is not a folder of the site: the page's worker carries it (lib/calificador.js), every
    # file of the package, keyed by its name.
    assert not (html / "_static" / "bucle" / "calificador").exists()
    trabajador = (html / "_static" / "bucle" / "trabajador.js").read_text(encoding="utf-8")
    for archivo in MOTOR.glob("*.py"):
        assert f'"{archivo.name}":' in trabajador, archivo.name
    publicados = html / "_static" / "bucle" / "desafios"
    # The challenge's folder, and what its tests import (challenges/comun.py), nothing else.
    assert sorted(p.name for p in publicados.iterdir()) == [DESAFIO, "comun.py"]
    assert (publicados / "comun.py").read_bytes() == (CARPETA.parent / "comun.py").read_bytes()
    for nombre in ("inicial.py", "pruebas.py"):
        assert (publicados / DESAFIO / nombre).read_bytes() == (CARPETA / nombre).read_bytes()
    # The reference and the known-wrong solutions are not files of the site.
    assert sorted(p.name for p in (publicados / DESAFIO).iterdir()) == ["inicial.py", "pruebas.py"]


def test_lo_publicado_basta_para_calificar_desde_la_pagina(html, tmp_path):
    """What the worker does: write the engine's files (those it carries: widgets/calificador/)
    into a folder, import the package ``calificador`` from it, resolve the widget's URLs against
    the page and grade with what they fetch."""
    _, _, datos = widget_de(html / "index.html")
    pagina = "http://sitio/index.html"
    urls = datos["urls"]

    def leer(url):
        ruta = urlsplit(urljoin(pagina, url)).path.lstrip("/")
        return (html / ruta).read_text(encoding="utf-8")

    carpeta = tmp_path / "calificador"
    carpeta.mkdir()
    for archivo in MOTOR.glob("*.py"):
        (carpeta / archivo.name).write_bytes(archivo.read_bytes())
    sys.path.insert(0, str(tmp_path))
    try:
        from calificador import Calificador
    finally:
        sys.path.remove(str(tmp_path))
        for nombre in [n for n in sys.modules if n.split(".")[0] == "calificador"]:
            del sys.modules[nombre]
    c = Calificador(leer, desafios=urls["desafios"], runtime=urls["runtime"],
                    runtime_modulos=datos["runtime_modulos"])
    r = c.calificar(DESAFIO, datos["solucion"])
    assert (r["superadas"], r["total"]) == (len(datos["pruebas"]), len(datos["pruebas"]))
    r = c.calificar(DESAFIO, datos["inicial"])
    assert r["superadas"] == 0
    # The challenge files published are exactly those the engine read.
    leidos = {urlsplit(urljoin(pagina, url)).path.lstrip("/") for url in c.leidos()}
    desafios = html / "_static" / "bucle" / "desafios"
    publicados = {p.relative_to(html).as_posix() for p in desafios.rglob("*.py")}
    assert publicados == {r for r in leidos if "/desafios/" in r}


def test_una_pagina_en_una_carpeta_apunta_hacia_arriba(tmp_path):
    fuente = sitio(tmp_path, {
        "index.md": "# Inicio\n\n```{toctree}\ncapitulo/desafio\n```\n",
        "capitulo/desafio.md": f"""
            # Un desafío

            ```{{desafio}} {DESAFIO}
            :pista-tras: 2
            :solucion-tras: 4

            Escribe el bucle.
            ```
        """,
    })
    salida = tmp_path / "html"
    construir(fuente, salida)
    _, w, datos = widget_de(salida / "capitulo" / "desafio.html")
    assert w["data-bucle-pagina"] == "capitulo/desafio"
    assert (datos["pista_tras"], datos["solucion_tras"]) == (2, 4)
    assert datos["urls"]["desafios"] == "../_static/bucle/desafios/"
    assert datos["urls"]["runtime"] == "../runtime/"
    assert (salida / "capitulo" / datos["urls"]["desafios"] / "comun.py").resolve().is_file()
    assert (salida / "capitulo" / datos["urls"]["runtime"] / "entorno.py").resolve().is_file()


def test_se_publican_los_archivos_que_las_pruebas_usan(tmp_path):
    from tests.test_challenges import carpeta_con_comun

    desafios = carpeta_con_comun(tmp_path)
    fuente = sitio(tmp_path, {"index.md": f"# Título\n\n```{{desafio}} {DESAFIO}\n\nEnunciado.\n```\n"},
                   f"bucle_desafios_dir = {str(desafios)!r}\n")
    construir(fuente, tmp_path / "html")
    publicados = tmp_path / "html" / "_static" / "bucle" / "desafios"
    assert (publicados / "comun.py").read_bytes() == (desafios / "comun.py").read_bytes()
    assert sorted(p.name for p in (publicados / DESAFIO).iterdir()) == ["inicial.py", "pruebas.py"]


def test_una_pagina_sin_desafios_no_publica_nada(html, tmp_path):
    fuente = sitio(tmp_path, {"index.md": "# Nada\n\nSin desafíos.\n"})
    construir(fuente, tmp_path / "html")
    assert not (tmp_path / "html" / "_static" / "bucle" / "desafios").exists()


@pytest.mark.parametrize("contenido, linea, mensaje", [
    ("```{desafio} no-existe\n\nEnunciado.\n```\n", 3,
     "no hay ningún desafío «no-existe» en "),
    (f"```{{desafio}} {DESAFIO}\n```\n", 3,
     f"el desafío «{DESAFIO}» necesita un enunciado"),
    ("```{desafio}\n\nEnunciado.\n```\n", 3, "falta el id del desafío, como en ```{desafio} bucle-con-tope"),
], ids=["id desconocido", "sin enunciado", "sin id"])
def test_un_desafio_mal_escrito_rompe_la_construccion_en_su_linea(tmp_path, contenido, linea, mensaje):
    fuente = sitio(tmp_path, {"index.md": "# Título\n\n" + contenido})
    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    salida = proceso.stdout + proceso.stderr
    assert f"index.md:{linea}: ERROR: " in salida, salida
    assert mensaje in salida, salida


def test_un_desafio_que_no_pasa_sus_comprobaciones_rompe_la_construccion(tmp_path):
    desafios = tmp_path / "desafios"
    shutil.copytree(CARPETA, desafios / DESAFIO, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(CARPETA.parent / "comun.py", desafios / "comun.py")  # what its tests usar
    roto = desafios / DESAFIO / "errores" / "sin_tope.py"
    roto.write_text(roto.read_text(encoding="utf-8").replace("una 6.ª vez", "una 9.ª vez"),
                    encoding="utf-8")
    fuente = sitio(tmp_path, {"index.md": f"# Título\n\n```{{desafio}} {DESAFIO}\n\nEnunciado.\n```\n"},
                   f"bucle_desafios_dir = {str(desafios)!r}\n")
    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    salida = proceso.stdout + proceso.stderr
    assert f"index.md:3: ERROR: el desafío «{DESAFIO}» no pasa sus comprobaciones:" in salida, salida
    assert f"{roto}: en «un modelo que nunca para» recibe otro mensaje; esperaba «" in salida, salida


def test_una_leccion_reconstruida_no_comprueba_otra_vez_su_desafio_si_no_cambio(tmp_path):
    desafios = tmp_path / "desafios"
    shutil.copytree(CARPETA, desafios / DESAFIO, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(CARPETA.parent / "comun.py", desafios / "comun.py")
    ajuste = f"bucle_desafios_dir = {str(desafios)!r}\n"
    pagina = f"# Título\n\n```{{desafio}} {DESAFIO}\n\nEnunciado.\n```\n"
    fuente = sitio(tmp_path, {"index.md": pagina}, ajuste)
    construir(fuente, tmp_path / "html")
    # From now on, a check of the challenge fails the build (conf.py runs before any page).
    (fuente / "conf.py").write_text(CONF + ajuste + textwrap.dedent("""
        from widgets.aislamiento import comprobacion as _comprobacion
        def _otra_vez(*a, **k):
            raise RuntimeError("el desafío se comprobó otra vez")
        _comprobacion.comprobar = _otra_vez
        """), encoding="utf-8")

    (fuente / "index.md").write_text(pagina + "\nUna frase más.\n", encoding="utf-8")
    construir(fuente, tmp_path / "html")  # the page is read again; its challenge is not checked
    assert "Una frase más." in (tmp_path / "html" / "index.html").read_text(encoding="utf-8")

    # A file of the challenge changed: it is checked again.
    error = desafios / DESAFIO / "errores" / "sin_tope.py"
    error.write_text(error.read_text(encoding="utf-8") + "\n# otra línea\n", encoding="utf-8")
    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    assert "el desafío se comprobó otra vez" in proceso.stdout + proceso.stderr
