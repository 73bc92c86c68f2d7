"""Any layout an author starts from builds: the extension keeps its own folders (the npm
packages, its caches, the build folder) out of the documents whatever ``exclude_patterns`` says.

The layout is the one ``sphinx-quickstart`` makes without separate folders: ``conf.py`` in the
source folder, the npm packages installed beside it (``npm install`` there), the build inside
it. The packages hold Markdown files (their READMEs) that Sphinx would otherwise read as
lessons: a crash (``KeyError: 'anchorname'``) or, with ``-W``, a failed build.
"""

from __future__ import annotations

import shutil

from tests.conftest import ROOT, SITES, construir

CURSO = SITES / "otro-curso"


def _curso_en_una_carpeta(destino):
    """«Otro curso» with its conf.py in the source folder and its lesson beside it."""
    shutil.copytree(CURSO, destino, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.move(destino / "lecciones" / "index.md", destino / "index.md")
    (destino / "lecciones").rmdir()
    return destino


def _paquetes_al_lado(curso):
    """What ``npm install pyodide workbox-build`` leaves beside conf.py, and a package whose
    README would break the build if it were read as a document."""
    modulos = curso / "node_modules"
    modulos.mkdir()
    for paquete in ("pyodide", "workbox-build"):
        (modulos / paquete).symlink_to(ROOT / "node_modules" / paquete)
    roto = modulos / "un-paquete"
    roto.mkdir()
    (roto / "README.md").write_text("# Un paquete\n\n```{traza}\n:tope: no-es-un-numero\n```\n",
                                    encoding="utf-8")


def test_the_quickstart_layout_with_npm_packages_beside_conf_py_builds(tmp_path):
    curso = _curso_en_una_carpeta(tmp_path / "curso")
    _paquetes_al_lado(curso)
    salida = curso / "_build" / "html"
    construir(curso, salida)  # -W: a README read as a lesson would be a warning at least
    assert (salida / "index.html").is_file()
    publicadas = {p.relative_to(salida).as_posix() for p in salida.rglob("*.html")}
    assert not [p for p in publicadas if "node_modules" in p or p.startswith("_build")]
    # and a second build, with the first one's output inside the sources, reads no page of it
    construir(curso, salida)


def test_the_authors_own_exclude_patterns_are_kept(tmp_path):
    curso = _curso_en_una_carpeta(tmp_path / "curso")
    _paquetes_al_lado(curso)
    (curso / "borrador.md").write_text("# Borrador\n", encoding="utf-8")
    with open(curso / "conf.py", "a", encoding="utf-8") as conf:
        conf.write('exclude_patterns = ["borrador.md"]\n')
    salida = curso / "_build" / "html"
    construir(curso, salida)
    assert not (salida / "borrador.html").exists()
    assert not (salida / "node_modules").exists()


def test_without_the_extension_the_same_layout_reads_the_packages_readmes(tmp_path):
    """The failure this guards against is real: the same folder, built by Sphinx and MyST alone,
    reads the package's README as a document."""
    curso = _curso_en_una_carpeta(tmp_path / "curso")
    _paquetes_al_lado(curso)
    conf = (curso / "conf.py").read_text(encoding="utf-8")
    (curso / "conf.py").write_text(conf.replace('"widgets"', '"sphinx.ext.duration"')
                                   .replace("bucle_", "_bucle_"), encoding="utf-8")
    (curso / "index.md").write_text("# Otro curso\n", encoding="utf-8")
    proceso = construir(curso, curso / "_build" / "html", comprobar=False)
    assert "node_modules/un-paquete/README" in proceso.stdout + proceso.stderr
