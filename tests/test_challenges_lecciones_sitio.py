"""The challenges of lessons 1 and 3 in a built site: the traza directive of lesson 3 runs the
reader's ``ejecutar`` (``:ejecutar:``), and the challenges' pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import challenges
from tests.conftest import construir
from tests.test_challenges_lecciones import DESAFIOS, LECCION_3, RAIZ, leer


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()

# ------------------------------------------------- the traza directive, lesson 3

CONF = f"""
import sys
sys.path.insert(0, {str(RAIZ)!r})
project = "Errores"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
html_theme = "furo"
"""

PAGINA = """# Errores

```{{traza}}
:id: traza-errores
:tope: 6
{opcion}inicio = INICIO_ERRORES
guion = guion_errores()
```
"""


def datos_de_traza(html: Path, ident: str) -> tuple[str, dict]:
    texto = html.read_text(encoding="utf-8")
    m = re.search(rf'<bucle-traza [^>]*id="{ident}"[^>]*>(.*?)</bucle-traza>', texto, re.S)
    assert m, f"no trace {ident} in {html}"
    datos = re.search(r'<script type="application/json" class="bucle-datos">(.*?)</script>',
                      m.group(1), re.S)
    return m.group(1), json.loads(datos.group(1))


#: The ```{desafio} statements of the lesson drafts, as they are there.
DESAFIOS_MD = """# Desafíos

```{desafio} ejecutar-llamada
Escribe `ejecutar(ll, entorno)`:

- Si `incumple(ll)` da un motivo, lanza `ValueError` con ese motivo y no ejecutes nada.
- Si no, llama a la herramienta de `FUNCIONES` con el entorno y los argumentos de la llamada.
- Devuelve un `tool_result` (usa `resultado`) con el id de la llamada y lo que devolvió la
  herramienta.
```

```{desafio} errores-como-observaciones
Reescribe `ejecutar(ll, entorno)` para que los errores sean observaciones:

- Si `incumple(ll)` da un motivo, devuelve `resultado(id, motivo, es_error=True)` sin ejecutar.
- Si la herramienta lanza `OSError` o `ValueError`, devuelve `resultado(id, mensaje, es_error=True)`
  con el mensaje de la excepción (`str(error)`).
- Cualquier otra excepción debe propagarse: es un fallo del arnés, no del modelo.
- Si todo va bien, devuelve el resultado como hasta ahora.

El código inicial trae el `bucle` de la lección anterior; las pruebas lo usan con tu `ejecutar`.
```
"""


@pytest.fixture(scope="module")
def sitio_lecciones(tmp_path_factory) -> Path:
    """A small site: the lesson-3 trace with `:ejecutar:` and the two challenges."""
    fuente = tmp_path_factory.mktemp("lecciones")
    (fuente / "conf.py").write_text(CONF, encoding="utf-8")
    (fuente / "index.md").write_text(
        PAGINA.format(opcion=":ejecutar: errores-como-observaciones\n")
        + "\n```{toctree}\ndesafios\n```\n", encoding="utf-8")
    (fuente / "desafios.md").write_text(DESAFIOS_MD, encoding="utf-8")
    construir(fuente, fuente / "_build")
    return fuente / "_build"


def test_los_desafios_de_las_lecciones_se_construyen_y_se_publican(sitio_lecciones, ns):
    texto = (sitio_lecciones / "desafios.html").read_text(encoding="utf-8")
    for desafio in DESAFIOS:
        m = re.search(rf'<bucle-desafio [^>]*id="{desafio}"[^>]*>(.*?)</bucle-desafio>', texto, re.S)
        assert m, desafio
        datos = json.loads(re.search(r'<script type="application/json" class="bucle-datos">'
                                     r'(.*?)</script>', m.group(1), re.S).group(1))
        assert datos["pruebas"] == ns.nombres(desafio)
        assert datos["inicial"] == leer(desafio, "inicial.py")
        assert datos["solucion"] == leer(desafio, "solucion.py")
        publicados = sitio_lecciones / "_static" / "bucle" / "desafios" / desafio
        for nombre in challenges.ARCHIVOS_DESAFIO:
            assert (publicados / nombre).read_text(encoding="utf-8") == leer(desafio, nombre)
        # the tests of lesson 3 compute what they expect with its reference solution
        assert (publicados / "solucion.py").exists() == (desafio == LECCION_3)
    comun = sitio_lecciones / "_static" / "bucle" / "desafios" / "comun.py"
    assert comun.read_text(encoding="utf-8") == (RAIZ / "challenges" / "comun.py").read_text()


def test_una_traza_con_el_ejecutar_de_la_leccion_3(sitio_lecciones):
    html, datos = datos_de_traza(sitio_lecciones / "index.html", "traza-errores")
    assert list(datos["trazas"]) == [str(t) for t in range(1, 7)]
    seis = datos["trazas"]["6"]
    final = seis["eventos"][-1]
    assert (final["tipo"], final["motivo"], final["n"]) == ("devuelve", "fin", 11)
    assert final["texto"] == "El gazpacho lleva ajo: lo he añadido a lista.txt."
    llamadas = [e for e in seis["eventos"] if e["tipo"] == "llamada"]
    # e4 (no contenido) does not fit its schema: it is never run
    assert [e["id"] for e in llamadas] == ["e1", "e2", "e3", "e5"]
    assert llamadas[0]["error"]["clase"] == "FileNotFoundError"
    M = [seis["mensajes"][i] for i in final["M"]]
    errores = [b for m in M if m["rol"] == "usuario" and isinstance(m["contenido"], list)
               for b in m["contenido"] if b["is_error"]]
    assert [b["tool_use_id"] for b in errores] == ["e1", "e4"]
    assert errores[1]["content"] == "a escribir le falta el argumento 'contenido'"
    assert seis["entorno_final"]["lista.txt"] == "pan, leche, patatas, ajo"
    assert (datos["trazas"]["1"]["eventos"][-1]["motivo"], datos["trazas"]["1"]["eventos"][-1]["n"]) \
        == ("tope", 4)
    assert "Al final, con tope 6, el bucle devuelve «fin» y M tiene 11 mensajes:" in html


def test_sin_el_ejecutar_de_la_leccion_3_la_traza_de_errores_no_se_construye(tmp_path):
    """The reference loop of «El bucle» lets leer's FileNotFoundError through: the build says so
    at the directive's line."""
    fuente = tmp_path / "fuente"
    fuente.mkdir()
    (fuente / "conf.py").write_text(CONF, encoding="utf-8")
    (fuente / "index.md").write_text(PAGINA.format(opcion=""), encoding="utf-8")
    proceso = construir(fuente, tmp_path / "html", comprobar=False)
    assert proceso.returncode != 0
    assert (f"{fuente / 'index.md'}:3: ERROR: con tope 1, el bucle de referencia no puede "
            f"seguir el guion; el modelo guionizado se queja (FileNotFoundError)") in proceso.stderr
