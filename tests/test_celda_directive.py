"""The `celda` directive: the HTML it renders (what reads without JavaScript, and the data the
front end needs) and the build errors an author gets, in Spanish, with file and line."""

import json
import re
import textwrap
from html import unescape

import pytest

from tests.conftest import construir
from widgets.base.nodos import codigo_editable

CONF = """
import sys
sys.path.insert(0, {raiz!r})
project = "Prueba"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
myst_enable_extensions = ["colon_fence"]
bucle_curso = "prueba"
"""

BUENA = '''
# Celdas

```{celda}
:id: saludo
saludo = "hola"
print(saludo)
```

Texto entre celdas.

```{celda}
print("</script><script>alert(1)</script>" + saludo)
```

```{celda}

# las líneas en blanco del principio y del final no cuentan
x = 1

```

```{toctree}
:hidden:
otra
'''

MALA = '''
# Mal

```{celda}
:ide: x
print(1)
```

```{celda}
```

```{celda}
:id: Mal Id
print(2)
```

```{celda}
:id: doble
print(3)
```

```{celda}
:id: doble
print(4)
```

```{celda}
:id:
print(5)
```
'''


def sitio(tmp_path, paginas):
    from tests.conftest import ROOT
    fuente = tmp_path / "fuente"
    fuente.mkdir()
    (fuente / "conf.py").write_text(CONF.format(raiz=str(ROOT)))
    for nombre, texto in paginas.items():
        (fuente / f"{nombre}.md").write_text(textwrap.dedent(texto).lstrip("\n"))
    return fuente


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("celda")
    fuente = sitio(tmp_path, {"index": BUENA, "otra": "# Sin celdas\n\nSolo prosa.\n"})
    construir(fuente, tmp_path / "html")
    return tmp_path / "html"


def celdas(pagina):
    return re.findall(r"<bucle-celda (.*?)>(.*?)</bucle-celda>", pagina, re.S)


def test_each_cell_is_a_custom_element_with_its_code_highlighted_and_its_data(html):
    pagina = (html / "index.html").read_text()
    encontradas = celdas(pagina)
    assert len(encontradas) == 3

    atributos, cuerpo = encontradas[0]
    assert 'id="saludo"' in atributos and 'data-bucle-id="saludo"' in atributos
    assert 'data-bucle-curso="prueba"' in atributos and 'data-bucle-pagina="index"' in atributos
    assert 'class="bucle-widget bucle-celda"' in atributos
    # The fallback: Sphinx's highlighted Python block, which reads with no JavaScript.
    assert '<div class="bucle-codigo highlight-python notranslate">' in cuerpo
    assert '<span class="s2">&quot;hola&quot;</span>' in cuerpo or '<span class="s2">"hola"</span>' in cuerpo
    assert unescape(re.sub(r"<[^>]+>", "", cuerpo.split("<script")[0])).strip() == 'saludo = "hola"\nprint(saludo)'
    datos = json.loads(re.search(r'<script type="application/json" class="bucle-datos">(.*?)</script>',
                                 cuerpo).group(1))
    assert datos == {"codigo": 'saludo = "hola"\nprint(saludo)', "orden": 1}
    # One span per line, which the page's CSS numbers and wraps as the editor will.
    assert re.findall(r'<span id="(saludo-linea-\d+)">', cuerpo) == ["saludo-linea-1", "saludo-linea-2"]

    # Without :id:, the id follows the cell's number on the page.
    assert 'id="celda-2"' in encontradas[1][0] and 'id="celda-3"' in encontradas[2][0]
    datos3 = json.loads(re.search(r'class="bucle-datos">(.*?)</script>', encontradas[2][1]).group(1))
    assert datos3 == {"codigo": "# las líneas en blanco del principio y del final no cuentan\nx = 1", "orden": 3}


def test_the_code_block_tells_the_css_what_the_editor_will_show_that_pygments_drops():
    """A final newline (the editor shows an empty line after it) and a hundred lines or more
    (the editor's line numbers are wider) are classes of the block."""
    assert codigo_editable("x = 1", "a")["classes"] == ["bucle-codigo"]
    assert codigo_editable("x = 1\n", "a", ("b",))["classes"] == ["bucle-codigo", "b", "bucle-linea-final"]
    assert codigo_editable("\n" * 98 + "x", "a")["classes"] == ["bucle-codigo"]  # 99 lines
    assert codigo_editable("\n" * 99 + "x", "a")["classes"] == ["bucle-codigo", "bucle-cifras-3"]
    assert codigo_editable("x", "a")["highlight_args"] == {"linespans": "a-linea"}


def test_code_cannot_close_the_data_script(html):
    _atributos, cuerpo = celdas((html / "index.html").read_text())[1]
    crudo = re.search(r'class="bucle-datos">(.*?)</script>', cuerpo, re.S).group(1)
    assert "<" not in crudo and ">" not in crudo
    assert json.loads(crudo)["codigo"] == 'print("</script><script>alert(1)</script>" + saludo)'


def test_assets_load_only_on_pages_with_cells(html):
    con = (html / "index.html").read_text()
    sin = (html / "otra.html").read_text()
    assert re.search(r'<script type="module" src="_static/bucle/celda\.js\?v=[0-9a-f]{8}"></script>', con)
    assert "_static/bucle/bucle.css" in con
    assert "bucle/celda.js" not in sin and "bucle/bucle.css" not in sin
    assert (html / "_static" / "bucle" / "editor.js").is_file()
    assert (html / "_static" / "pyodide" / "pyodide.asm.wasm").is_file()


def test_bad_cells_fail_the_build_with_file_line_and_a_spanish_reason(tmp_path):
    fuente = sitio(tmp_path, {"index": MALA})
    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    salida = proceso.stdout + proceso.stderr
    archivo = str(fuente / "index.md")
    esperados = [
        (4, "opción desconocida «:ide:» en {celda}. ¿Querías decir «:id:»? Las opciones que acepta son :id:"),
        (8, "la celda está vacía"),
        (11, "id no válido «Mal Id»"),
        (21, "el id «doble» ya se usa en esta página (línea 16)"),
        (26, "la opción :id: de la celda necesita un valor"),
    ]
    for linea, mensaje in esperados:
        assert f"{archivo}:{linea}: ERROR: {mensaje}" in salida, salida
