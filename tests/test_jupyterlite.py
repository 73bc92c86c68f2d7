"""«Abrir en JupyterLite»: the notebooks made from lessons, the kernel's pinned wheels and lock,
the lite site the build publishes (tests/sites/jupyterlite/, built once), and a rebuild that runs
the lite build again only when a notebook changed (a copy of that site, built three times)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from urllib.parse import urljoin

import nbformat
import pytest

from tests.conftest import ROOT, SITES, construir
from widgets.construccion.cuadernos import PREPARACION, bloques, cuaderno
from widgets.construccion.ruedas_pyodide import ErrorDeRuedas, dependencias, fijadas, lock_con_ruedas

LECCION = """\
---
titulo: ignorado
---
(inicio)=
# Una lección

Prosa con `código` y **negrita**.

```{traza}
:guion: g
x = 1
```

## Primera sección

```{celda}
:id: a
print("hola")
```

```python
# un bloque de código que solo se lee
```

:::{pregunta} ¿Sí?
- Sí
:::

```{celda}
print("adiós")
```
"""

NPM_LOCK = ROOT / "node_modules" / "pyodide" / "pyodide-lock.json"


def sha256(ruta: Path) -> str:
    return hashlib.sha256(ruta.read_bytes()).hexdigest()


# --- the notebook of a lesson ------------------------------------------------------------------

def test_a_lesson_becomes_headings_prose_and_its_cells_in_order():
    nb = cuaderno(LECCION, ['print("hola")', 'print("adiós")'])
    resumen = [(c["cell_type"], c["id"]) for c in nb["cells"]]
    assert resumen == [("code", "preparacion"), ("markdown", "md-1"), ("markdown", "md-2"),
                       ("code", "celda-1"), ("markdown", "md-3"), ("code", "celda-2")]
    celdas = nb["cells"]
    assert celdas[0]["source"] == PREPARACION
    assert celdas[1]["source"] == ("# Una lección\n\nProsa con `código` y **negrita**.\n\n"
                                   "*(En la página de la lección: una traza que se recorre paso a paso.)*")
    assert celdas[2]["source"] == "## Primera sección"
    assert celdas[3]["source"] == 'print("hola")'
    assert celdas[4]["source"] == ("```python\n# un bloque de código que solo se lee\n```\n\n"
                                   "*(En la página de la lección: una pregunta.)*")
    assert celdas[5]["source"] == 'print("adiós")'
    assert nb["metadata"]["kernelspec"]["name"] == "python"
    nbformat.validate(nbformat.from_dict(nb))


def test_the_notebook_is_the_same_on_every_build():
    assert cuaderno(LECCION, ["a", "b"]) == cuaderno(LECCION, ["a", "b"])


def test_front_matter_targets_and_options_never_reach_the_notebook():
    texto = "\n".join(c["source"] for c in cuaderno(LECCION, ["a", "b"])["cells"][1:])
    for rastro in ("titulo:", "(inicio)=", ":id:", ":guion:", "```{", ":::{"):
        assert rastro not in texto


def test_a_cell_nested_in_another_directive_is_an_error_not_a_silent_loss():
    anidada = "# T\n\n::::{grupo}\n```{celda}\nprint(1)\n```\n::::\n"
    assert [clase for clase, _ in bloques(anidada)] == ["titulo", "grupo"]
    with pytest.raises(ValueError, match="1 celdas, pero 0 en el nivel superior"):
        cuaderno(anidada, ["print(1)"])


# --- the kernel's wheels and lock --------------------------------------------------------------

def test_the_pinned_wheels_are_exactly_what_the_kernel_loads_from_pyodides_lock():
    lock = json.loads(NPM_LOCK.read_text())
    necesarios = dependencias(lock, ["micropip", "ipython", "jedi"])
    del_lock = {f"{n}=={lock['packages'][n]['version']}" for n in necesarios}
    normal = {re.sub(r"[-_.]+", "-", f).lower() for f in fijadas().values()}
    assert {re.sub(r"[-_.]+", "-", f).lower() for f in del_lock} | {"comm==0-2-3"} == normal


def test_a_malformed_pin_is_reported_with_its_line(tmp_path):
    malo = tmp_path / "r.txt"
    malo.write_text("# comentario\nipython==9.12.0\n")
    with pytest.raises(ErrorDeRuedas, match=r"r.txt:2:"):
        fijadas(malo)


def test_the_kernels_lock_changes_only_the_hashes_of_the_wheels_it_is_given(tmp_path):
    rueda = tmp_path / "uno-1.0-py3-none-any.whl"
    rueda.write_bytes(b"rueda de PyPI")
    otra = tmp_path / "comm-0.2.3-py3-none-any.whl"
    otra.write_bytes(b"fuera del lock")
    lock = {"info": {}, "packages": {
        "uno": {"file_name": rueda.name, "sha256": "0" * 64, "depends": []},
        "dos": {"file_name": "dos-2.0-py3-none-any.whl", "sha256": "1" * 64, "depends": []},
    }}
    nuevo, fuera = lock_con_ruedas(lock, [rueda, otra])
    assert nuevo["packages"]["uno"]["sha256"] == sha256(rueda)
    assert nuevo["packages"]["dos"] == lock["packages"]["dos"]
    assert lock["packages"]["uno"]["sha256"] == "0" * 64  # the original is left alone
    assert fuera == [otra]


# --- the built site ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lite_site(sitio_de_prueba):
    return sitio_de_prueba("jupyterlite")


def test_only_lessons_get_the_link_and_it_opens_their_notebook(lite_site):
    sitio = lite_site
    leccion = (sitio / "leccion.html").read_text(encoding="utf-8")
    enlaces = re.findall(r'<a class="bucle-boton bucle-jupyterlite-enlace" href="([^"]+)"[^>]*>([^<]*)</a>',
                         leccion)
    assert enlaces == [("lite/notebooks/index.html?path=leccion.ipynb", "Abrir en JupyterLite")]
    assert 'target="_blank"' in leccion and 'rel="noopener"' in leccion
    assert "bucle-jupyterlite" not in (sitio / "index.html").read_text(encoding="utf-8")


def test_pages_load_nothing_of_jupyterlite_nor_a_web_font(lite_site):
    sitio = lite_site
    for pagina in sitio.glob("*.html"):
        html = pagina.read_text(encoding="utf-8")
        for rastro in ("fonts.googleapis", "jupyterlite_sphinx", "lite/build", "lite/extensions"):
            assert rastro not in html, f"{pagina.name} refers to {rastro}"
    assert not list((sitio / "_static").glob("jupyterlite_sphinx.*"))


def test_the_notebook_holds_the_cells_the_page_runs(lite_site):
    sitio = lite_site
    datos = re.findall(r'<bucle-celda[^>]*>.*?<script type="application/json" class="bucle-datos">(.*?)</script>',
                       (sitio / "leccion.html").read_text(encoding="utf-8"), re.S)
    en_la_pagina = [json.loads(d)["codigo"] for d in datos]
    nb = json.loads((sitio / "lite" / "files" / "leccion.ipynb").read_text(encoding="utf-8"))
    codigo = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert codigo == [PREPARACION, *en_la_pagina] and len(en_la_pagina) == 3
    assert 'exec(open_url("runtime/entorno.py").read())' in codigo[1]


def test_the_kernel_uses_the_sites_pyodide_its_own_lock_and_never_pypi(lite_site):
    sitio = lite_site
    lite = sitio / "lite"
    config = json.loads((lite / "jupyter-lite.json").read_text())["jupyter-config-data"]
    ajustes = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert ajustes["disablePyPIFallback"] is True
    # pyodideUrl is resolved against the app's page, lockFileURL against the lite root.
    pyodide = urljoin("http://x/lite/notebooks/index.html", ajustes["pyodideUrl"])
    assert pyodide == "http://x/_static/pyodide/pyodide.mjs" and (sitio / "_static/pyodide/pyodide.mjs").is_file()
    lock_url = urljoin("http://x/lite/", ajustes["loadPyodideOptions"]["lockFileURL"])
    lock_kernel = sitio / lock_url.removeprefix("http://x/")
    assert not list(lite.rglob("pyodide.asm.wasm")), "a second Pyodide in the lite site"

    # The page's lock is npm's, untouched; the kernel's differs only by the shipped wheels' hashes.
    assert (sitio / "_static/pyodide/pyodide-lock.json").read_bytes() == NPM_LOCK.read_bytes()
    original = json.loads(NPM_LOCK.read_text())["packages"]
    propio = json.loads(lock_kernel.read_text())["packages"]
    ruedas = {r.name: r for r in lock_kernel.parent.glob("*.whl")}
    assert len(ruedas) == len(fijadas()) - 1  # all but comm
    for nombre, datos in propio.items():
        if datos["file_name"] in ruedas:
            assert datos["sha256"] == sha256(ruedas[datos["file_name"]]) != original[nombre]["sha256"]
        else:
            assert datos == original[nombre]
    indice = json.loads((lite / "pypi" / "all.json").read_text())
    assert list(indice["comm"]["releases"]) == ["0.2.3"]


def test_the_lite_site_is_lean_and_leaves_the_sources_clean(lite_site):
    sitio = lite_site
    lite = sitio / "lite"
    assert not [p for p in lite.rglob("*") if p.suffix == ".map"]
    for app in ("lab", "repl", "edit", "consoles"):
        assert not (lite / app).exists() and not (lite / "build" / app).exists()
    peso = sum(p.stat().st_size for p in lite.rglob("*") if p.is_file())
    assert peso < 30_000_000, f"the lite site weighs {peso / 1e6:.1f} MB"
    fuente = SITES / "jupyterlite"
    assert sorted(p.name for p in fuente.iterdir() if p.name != "__pycache__") == ["conf.py", "index.md", "leccion.md"]


def test_jupyterlite_pages_say_spanish_and_keep_no_inline_script(lite_site):
    sitio = lite_site
    for pagina in (sitio / "lite").rglob("*.html"):
        html = pagina.read_text(encoding="utf-8")
        assert '<html lang="es">' in html and "Loading JupyterLite" not in html, pagina
        for attrs, codigo in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in attrs or "json" in attrs or not codigo.strip(), pagina
        assert "bucle-espera.js" in html.split("</head>")[0].split("<script")[1]


# --- rebuilding: the lite site is built again only when its notebooks or settings change -------

#: Files that every ``jupyter lite build`` writes anew (and the post-processing never touches).
HECHOS_POR_LA_CONSTRUCCION_LITE = ("jupyter-lite.json", "api/contents/all.json",
                                   "files/leccion.ipynb", "pypi/all.json")


def test_the_lite_site_is_rebuilt_only_when_a_notebook_changes(tmp_path):
    fuente, destino = tmp_path / "fuente", tmp_path / "html"
    fuente.mkdir()
    for nombre in ("index.md", "leccion.md"):
        (fuente / nombre).write_text((SITES / "jupyterlite" / nombre).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    lite = destino / "lite"

    def construir_sitio():
        proceso = construir(fuente, destino, SITES / "jupyterlite")
        assert proceso.stdout == "" and proceso.stderr == "", "the build is not quiet"
        return {nombre: (lite / nombre).stat().st_mtime_ns for nombre in HECHOS_POR_LA_CONSTRUCCION_LITE}

    def celdas_del_cuaderno():
        nb = json.loads((lite / "files" / "leccion.ipynb").read_text(encoding="utf-8"))
        return [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]

    primera = construir_sitio()

    # Sphinx reads the lesson again, but its notebook is the same: no lite build.
    leccion = fuente / "leccion.md"
    leccion.touch()
    assert construir_sitio() == primera
    # … and what the extension does after the lite build, run again, leaves a correct site.
    for pagina in lite.rglob("*.html"):
        html = pagina.read_text(encoding="utf-8")
        assert html.count("bucle-espera.js") == 1, pagina
        for attrs, codigo in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in attrs or "json" in attrs or not codigo.strip(), pagina
    assert (lite / "pyodide" / "pyodide-lock.json").is_file()
    assert len(list((lite / "pyodide").glob("*.whl"))) == len(fijadas()) - 1
    assert not list((destino / "_static").glob("jupyterlite_sphinx.*"))
    assert not (fuente / ".jupyterlite.doit.db").exists()

    # A cell changes: the notebook changes, and so does the lite site.
    texto = leccion.read_text(encoding="utf-8")
    assert texto.count("print(sorted(FUNCIONES))") == 1
    leccion.write_text(texto.replace("print(sorted(FUNCIONES))", "print(len(FUNCIONES))"),
                       encoding="utf-8")
    tercera = construir_sitio()
    assert all(tercera[nombre] != primera[nombre] for nombre in primera), "the lite site was not rebuilt"
    assert celdas_del_cuaderno()[-1] == "print(len(FUNCIONES))"
    assert "print(sorted(FUNCIONES))" not in "".join(celdas_del_cuaderno())
