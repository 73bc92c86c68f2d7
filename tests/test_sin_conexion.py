"""What the build publishes for the course to work offline and be installable
(widgets/construccion/sin_conexion.py): the service worker's list of files, the web app manifest, the pages'
links to both, and the build's answer when it cannot write them. The browser side is in
tests/browser/test_sin_conexion.py."""

from __future__ import annotations

import hashlib
import json
import re
import struct
from pathlib import Path

from tests.conftest import ROOT, construir

MANIFIESTO_EN_SW = re.compile(r"\[\{\"bytes\".*?\}\]", re.S)


def entradas_del_servicio(sitio: Path) -> dict[str, dict]:
    """url → entry, as the service worker written into the site holds them."""
    texto = (sitio / "sw.js").read_text(encoding="utf-8")
    assert "self.__WB_MANIFEST" not in texto, "the list of files was not put in"
    return {e["url"]: e for e in json.loads(MANIFIESTO_EN_SW.search(texto).group(0))}


def publicados(sitio: Path) -> set[str]:
    return {p.relative_to(sitio).as_posix() for p in sitio.rglob("*") if p.is_file()}


def test_the_service_worker_lists_every_file_of_the_course_with_its_hash_and_size(sitio):
    entradas = entradas_del_servicio(sitio)
    archivos = publicados(sitio)
    # Not JupyterLite's, the sources, hidden files, source maps, the worker's template, nor the
    # in-page model (the reader's choice: tests/test_modelo.py).
    esperados = {a for a in archivos
                 if not a.startswith(("lite/", "_sources/", ".", "_static/bucle/modelo/")) and "/." not in a
                 and not a.endswith(".map")
                 and a not in ("sw.js", "_static/bucle/sw.js", "objects.inv")}
    assert set(entradas) == esperados
    for pagina in ("index.html", "el-bucle.html", "errores.html", "llamar-herramientas.html",
                   "como-funciona.html", "manifest.webmanifest", "runtime/entorno.py",
                   "_static/pyodide/pyodide.asm.wasm", "_static/pyodide/python_stdlib.zip",
                   "_static/bucle/trabajador.js", "_static/bucle/sin-conexion.js"):
        assert pagina in entradas, pagina
    for url, entrada in entradas.items():
        datos = (sitio / url).read_bytes()
        assert entrada["revision"] == hashlib.md5(datos).hexdigest(), url
        assert entrada["bytes"] == len(datos), url
    total = sum(e["bytes"] for e in entradas.values())
    print(f"\n[sin conexión] precached: {len(entradas)} files, {total / 1e6:.1f} MB")


def _png(ruta: Path) -> tuple[int, int]:
    cabecera = ruta.read_bytes()[:24]
    assert cabecera[:8] == b"\x89PNG\r\n\x1a\n", ruta
    return struct.unpack(">II", cabecera[16:24])


def test_the_web_app_manifest_names_the_course_and_its_local_icons(sitio):
    manifiesto = json.loads((sitio / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifiesto["name"] == "El bucle"
    assert manifiesto["lang"] == "es"
    assert manifiesto["display"] == "standalone"
    assert (sitio / manifiesto["start_url"]).is_file()
    tamanos = set()
    for icono in manifiesto["icons"]:
        assert not re.match(r"^[a-z]+:|^/", icono["src"]), "an icon must be the site's own file"
        ancho, alto = _png(sitio / icono["src"])
        assert icono["sizes"] == f"{ancho}x{alto}"
        tamanos.add(ancho)
    assert {192, 512} <= tamanos


def test_every_page_links_the_manifest_and_loads_the_offline_module(sitio):
    paginas = list(sitio.glob("*.html"))
    assert len(paginas) >= 6
    for pagina in paginas:
        html = pagina.read_text(encoding="utf-8")
        assert '<link rel="manifest" href="manifest.webmanifest">' in html, pagina.name
        assert re.search(r'<script[^>]+src="_static/bucle/sin-conexion\.js[^"]*"[^>]*type="module"'
                         r'|<script[^>]+type="module"[^>]+src="_static/bucle/sin-conexion\.js', html), pagina.name


def _sitio_pequeno(tmp_path: Path, **ajustes) -> Path:
    fuente = tmp_path / "fuente"
    fuente.mkdir()
    (fuente / "index.md").write_text("# Un curso pequeño\n\nSolo texto.\n", encoding="utf-8")
    extra = "".join(f"{k} = {v!r}\n" for k, v in ajustes.items())
    (fuente / "conf.py").write_text(
        "from tests.sites.comun import configuracion\n"
        "globals().update(configuracion('Un curso pequeño', 'pequeno'))\n" + extra,
        encoding="utf-8")
    return fuente


def test_an_author_can_turn_it_off(tmp_path):
    salida = tmp_path / "html"
    construir(_sitio_pequeno(tmp_path, bucle_sin_conexion=False), salida)
    assert not (salida / "sw.js").exists()
    assert not (salida / "manifest.webmanifest").exists()
    html = (salida / "index.html").read_text(encoding="utf-8")
    assert "sin-conexion" not in html and 'rel="manifest"' not in html


def test_a_build_that_cannot_write_the_service_worker_says_what_is_missing(tmp_path):
    vacio = tmp_path / "sin-paquetes"
    vacio.mkdir()
    proceso = construir(_sitio_pequeno(tmp_path, bucle_node_modules=str(vacio)), tmp_path / "html",
                        comprobar=False)
    assert proceso.returncode != 0
    salida = proceso.stdout + proceso.stderr
    assert (f"Falta el paquete de npm «workbox-build» (se buscó en {vacio / 'workbox-build'})"
            in salida)
    assert "pon bucle_sin_conexion = False en conf.py" in salida


def test_como_funciona_states_the_sizes_the_build_publishes(sitio):
    """«Cómo funciona» tells the reader how much the interpreter and the saved course weigh."""
    texto = (ROOT / "lessons" / "como-funciona.md").read_text(encoding="utf-8")
    entradas = entradas_del_servicio(sitio)
    curso = sum(e["bytes"] for e in entradas.values()) / 1e6
    interprete = sum(e["bytes"] for url, e in entradas.items() if url.startswith("_static/pyodide/")) / 1e6
    dichos = [int(n) for n in re.findall(r"unos (\d+) MB", texto)]
    assert dichos == [round(interprete), round(curso)], (dichos, interprete, curso)
