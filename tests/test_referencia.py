"""The authors' reference (docs/referencia.md) is a test: every example it marks with
``<!-- ejemplo: nombre -->`` is built, and what it produces is compared with a snapshot.

Each example (the fenced ``markdown`` block right after its marker) becomes one page of a small
site built with ``sphinx-build -W`` (this course's runtime and challenges, as
``tests/sites/comun.py`` sets them). The snapshot ``tests/fixtures/referencia/<nombre>.json``
holds, for the page's widgets, the doctree of each outermost one (``pformat``, its ``datos``
taken out) and the ``datos`` of every widget as JSON. To accept a change on purpose::

    BUCLE_REGENERAR=1 .venv/bin/python -m pytest -p no:cacheprovider tests/test_referencia.py

and review ``git diff tests/fixtures/referencia/``. The reference must also name every option
of every directive and every setting, with its default: a new option cannot go undocumented.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT, construir

REFERENCIA = ROOT / "docs" / "referencia.md"
INSTANTANEAS = Path(__file__).resolve().parent / "fixtures" / "referencia"
REGENERAR = bool(os.environ.get("BUCLE_REGENERAR"))
EJEMPLO = re.compile(r"^<!-- ejemplo: (?P<nombre>[a-z0-9-]+) -->\n"
                     r"(?P<valla>`{4,})markdown\n(?P<texto>.*?)\n(?P=valla)$", re.M | re.S)

CONF = """
import sys
sys.path.insert(0, {raiz!r})
from tests.sites.comun import configuracion
globals().update(configuracion("Referencia", "referencia"))
myst_enable_extensions = ["colon_fence"]
"""


def ejemplos() -> dict[str, str]:
    texto = REFERENCIA.read_text(encoding="utf-8")
    encontrados = {}
    for m in EJEMPLO.finditer(texto):
        assert m["nombre"] not in encontrados, f"two examples are named {m['nombre']!r}"
        encontrados[m["nombre"]] = m["texto"] + "\n"
    marcas = re.findall(r"^<!-- ejemplo: ", texto, re.M)
    assert len(marcas) == len(encontrados), \
        "an «<!-- ejemplo: … -->» mark is not followed by a ````markdown block"
    return encontrados


EJEMPLOS = ejemplos()


@pytest.fixture(scope="module")
def construido(tmp_path_factory) -> Path:
    """The examples' site, built once; returns its doctrees folder."""
    base = tmp_path_factory.mktemp("referencia")
    fuente = base / "fuente"
    fuente.mkdir()
    (fuente / "conf.py").write_text(CONF.format(raiz=str(ROOT)), encoding="utf-8")
    for nombre, texto in EJEMPLOS.items():
        (fuente / f"{nombre}.md").write_text(f"# {nombre}\n\n{texto}", encoding="utf-8")
    (fuente / "index.md").write_text(
        "# Ejemplos\n\n```{toctree}\n:hidden:\n" + "\n".join(EJEMPLOS) + "\n```\n",
        encoding="utf-8")
    destino = base / "html"
    construir(fuente, destino)
    return destino / ".doctrees"


def instantanea(doctree) -> dict:
    """The widgets of a page: the tree of each outermost one, and every one's datos."""
    from widgets.base.nodos import widget

    todos = list(doctree.findall(widget))
    exteriores = [n for n in todos if not any(isinstance(p, widget) for p in _padres(n))]
    arboles = []
    for nodo in exteriores:
        copia = copy.deepcopy(nodo)
        for w in copia.findall(widget):
            del w["datos"]
        arboles.append(copia.pformat().splitlines())
    return {
        "arboles": arboles,
        "datos": [{"tipo": n["tipo"], "ident": n["ident"], "datos": n["datos"]} for n in todos],
    }


def _padres(nodo):
    padre = nodo.parent
    while padre is not None:
        yield padre
        padre = padre.parent


@pytest.mark.parametrize("nombre", sorted(EJEMPLOS))
def test_cada_ejemplo_de_la_referencia_produce_su_instantanea(construido, nombre):
    with open(construido / f"{nombre}.doctree", "rb") as archivo:
        doctree = pickle.load(archivo)
    obtenida = instantanea(doctree)
    assert obtenida["datos"], f"the example {nombre!r} makes no widget"
    ruta = INSTANTANEAS / f"{nombre}.json"
    texto = json.dumps({"ejemplo": EJEMPLOS[nombre], **obtenida}, ensure_ascii=False,
                       indent=1, sort_keys=True) + "\n"
    if REGENERAR:
        INSTANTANEAS.mkdir(parents=True, exist_ok=True)
        ruta.write_text(texto, encoding="utf-8")
    assert ruta.is_file(), f"no snapshot for {nombre!r}: run with BUCLE_REGENERAR=1"
    esperada = json.loads(ruta.read_text(encoding="utf-8"))
    assert json.loads(texto) == esperada, \
        f"the example {nombre!r} now builds something else (BUCLE_REGENERAR=1 to accept it)"


def test_no_queda_ninguna_instantanea_sin_su_ejemplo():
    sobran = sorted(p.stem for p in INSTANTANEAS.glob("*.json") if p.stem not in EJEMPLOS)
    assert not sobran, f"snapshots of examples the reference no longer has: {sobran}"


# -- everything is documented ---------------------------------------------------------------------

class _Registro:
    """Stands in for the Sphinx app to collect the directives the extension registers."""

    def __init__(self):
        self.directivas = {}

    def add_directive(self, nombre, clase, *args, **kwargs):
        self.directivas[nombre] = clase

    def __getattr__(self, nombre):
        return lambda *args, **kwargs: None


def _seccion(texto: str, directiva: str) -> str:
    """The text of the reference's section about ``directiva``."""
    for m in re.finditer(r"^### (?P<titulo>.*)$", texto, re.M):
        if f"`{directiva}`" in m["titulo"]:
            resto = texto[m.end():]
            siguiente = re.search(r"^##", resto, re.M)
            return resto[: siguiente.start()] if siguiente else resto
    return ""


def test_la_referencia_documenta_cada_directiva_y_cada_opcion():
    import widgets

    registro = _Registro()
    widgets.setup(registro)  # as Sphinx loads the extension (only widgets/ imports its registrar)
    texto = REFERENCIA.read_text(encoding="utf-8")
    assert set(registro.directivas) >= {"celda", "traza", "pregunta", "grupo", "explicacion",
                                        "desafio", "progreso"}
    for nombre, clase in registro.directivas.items():
        seccion = _seccion(texto, nombre)
        assert seccion, f"docs/referencia.md has no section for {{{nombre}}}"
        for opcion in dict.keys(clase.option_spec or {}):
            assert f"| `:{opcion}:` |" in seccion, \
                f"the option :{opcion}: of {{{nombre}}} is not in its table in docs/referencia.md"


def test_la_referencia_documenta_cada_ajuste_con_su_valor_por_defecto():
    from widgets.ajustes import AJUSTES

    texto = REFERENCIA.read_text(encoding="utf-8")
    filas = {m[1]: m[2] for m in re.finditer(r"^\| `(bucle_\w+)` \| (.*)$", texto, re.M)}
    for nombre, (defecto, _, _) in AJUSTES.items():
        assert nombre in filas, f"the setting {nombre} is not in docs/referencia.md"
        if isinstance(defecto, str):
            assert f'`"{defecto}"`' in filas[nombre], f"{nombre}: its default is {defecto!r}"


# -- every path it names exists --------------------------------------------------------------------

#: A path under widgets/ (``widgets/datos/modelo-fijado.txt``) or a module (``widgets.serve``), as
#: the reference and the README write them; not the package's name ``el-bucle-widgets``.
RUTA = re.compile(r"(?<![\w-])widgets/[\w./-]*\w/?")
MODULO = re.compile(r"(?<![\w./-])widgets\.([a-z_]\w*)")


def _rutas_que_no_existen(texto: str) -> list[str]:
    rotas = [m[0] for m in RUTA.finditer(texto)
             if not (ROOT / m[0]).exists() and not m[0].startswith("widgets/static")]
    rotas += [m[0] for m in MODULO.finditer(texto)
              if not (ROOT / "widgets" / f"{m[1]}.py").is_file()
              and not (ROOT / "widgets" / m[1] / "__init__.py").is_file()]
    return sorted(set(rotas))


@pytest.mark.parametrize("documento", ["docs/referencia.md", "README.md"])
def test_cada_ruta_de_widgets_que_nombra_existe(documento):
    """widgets/ is laid out by role (ARCHITECTURE.md): a path the authors' reference or the
    README names there (a file, a folder, a module) must still be where it says, not where it was
    (widgets/static/, the bundle, is made by the build)."""
    rotas = _rutas_que_no_existen((ROOT / documento).read_text(encoding="utf-8"))
    assert not rotas, f"{documento} names paths that do not exist: {rotas}"


def test_una_ruta_vieja_se_ve():
    assert _rutas_que_no_existen("`widgets/predice.py`, `widgets/assets/icono.svg`, "
                                 "`widgets.celda`, `widgets/directivas/predice.py`, "
                                 "`widgets.serve`, `el-bucle-widgets.tar.gz`, widgets/static/x.js") == [
        "widgets.celda", "widgets/assets/icono.svg", "widgets/predice.py"]
