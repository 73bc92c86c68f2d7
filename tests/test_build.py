"""The built course: what every page holds, and what it must not hold."""

from __future__ import annotations

import re
import zlib

from tests.conftest import ROOT
from widgets.construccion.publicar import ARCHIVOS_PYODIDE
from widgets.construccion.traducir import TRADUCCIONES

INGLES = ["Made with", "Back to top", "On this page", "Skip to content", "Toggle ",
          "Link to this heading", "<span>Next</span>", "<span>Previous</span>"]


def paginas(sitio):
    return {p.relative_to(sitio).as_posix(): p.read_text(encoding="utf-8")
            for p in sitio.rglob("*.html") if "_static" not in p.parts}


def test_every_page_is_spanish_and_has_no_theme_english_left(sitio):
    for nombre, html in paginas(sitio).items():
        assert re.search(r"<html [^>]*lang=\"es\"", html), nombre
        for ingles in [*INGLES, *TRADUCCIONES]:
            assert ingles not in html, f"{nombre} still says {ingles!r}"


def test_every_heading_role_has_its_level(sitio):
    """role="heading" requires aria-level (axe and Lighthouse's aria-required-attr): Sphinx's
    toctree caption, Furo's sidebar «Las lecciones», gets one in the written pages."""
    vistos = 0
    for nombre, html in paginas(sitio).items():
        for etiqueta in re.findall(r"<[^>]*\brole=\"heading\"[^>]*>", html):
            vistos += 1
            assert re.search(r'\baria-level="\d"', etiqueta), f"{nombre}: {etiqueta}"
    assert vistos, "the sidebar's caption was expected on every page"


def test_no_inline_code_that_a_strict_csp_would_block(sitio):
    for nombre, html in paginas(sitio).items():
        for attrs, codigo in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in attrs or "application/json" in attrs or not codigo.strip(), \
                f"inline script in {nombre}: {codigo[:80]!r}"
        assert "<style" not in html, f"inline <style> in {nombre}"
        assert not re.search(r"<[^>]+\sstyle=\"", html), f"style attribute in {nombre}"
        assert not re.search(r"\son[a-z]+=\"", html), f"inline event handler in {nombre}"
    traducciones = (sitio / "_static" / "translations.js").read_text(encoding="utf-8")
    assert "new Function" not in traducciones and "addTranslations" not in traducciones


def test_nothing_is_loaded_from_elsewhere_or_from_the_root(sitio):
    for nombre, html in paginas(sitio).items():
        for etiqueta in re.findall(r"<(?:script|link|img|iframe|source)\b[^>]*>", html):
            url = re.search(r"(?:src|href)=\"([^\"]*)\"", etiqueta)
            if not url or (etiqueta.startswith("<link") and "stylesheet" not in etiqueta \
                    and "preload" not in etiqueta and "modulepreload" not in etiqueta):
                continue
            assert not re.match(r"^(https?:)?//", url.group(1)), f"{nombre} loads {url.group(1)}"
            assert not url.group(1).startswith("/"), f"{nombre} uses a root path {url.group(1)}"


def test_the_runtime_and_pyodide_are_published(sitio):
    for archivo in ("entorno.py", "guionizado.py", "escenarios.py"):
        assert (sitio / "runtime" / archivo).read_bytes() == (ROOT / "runtime" / archivo).read_bytes()
    assert not (sitio / "runtime" / "__init__.py").exists()
    for archivo in ARCHIVOS_PYODIDE:
        publicado = sitio / "_static" / "pyodide" / archivo
        assert publicado.stat().st_size == (ROOT / "node_modules" / "pyodide" / archivo).stat().st_size


def test_pages_load_only_the_widgets_they_use(sitio):
    todas = paginas(sitio)
    assert "_static/bucle/progreso.js" in todas["index.html"]
    assert "_static/bucle/celda.js" not in todas["index.html"]
    # A page with no widget loads only what every page loads: the offline module (and the chunks
    # it imports) and its note.
    pagina = todas["como-funciona.html"]
    for trozo in importados(sitio / "_static" / "bucle", "sin-conexion.js"):
        pagina = pagina.replace(f"_static/bucle/{trozo}", "")
    solo_texto = re.sub(r"_static/bucle/(csp/|sin-conexion\.(js|css))", "", pagina)
    assert "_static/bucle/" not in solo_texto


def importados(carpeta, modulo):
    """The files the bundle's module ``modulo`` imports statically, all the way down, as read in
    the built files (``import"./x.js"``, ``…from"./x.js"``; not ``import("./x.js")``)."""
    vistos, pendientes = set(), [modulo]
    while pendientes:
        texto = (carpeta / pendientes.pop()).read_text(encoding="utf-8")
        for trozo in re.findall(r'(?:\bfrom|\bimport)\s*"\./([\w.-]+\.js)"', texto):
            if trozo not in vistos:
                vistos.add(trozo)
                pendientes.append(trozo)
    return vistos


def test_each_page_preloads_the_chunks_its_modules_import_and_no_others(sitio):
    carpeta = sitio / "_static" / "bucle"
    vistas = 0
    for ruta, html in paginas(sitio).items():
        prefijo = re.escape("../" * ruta.count("/"))
        modulos = re.findall(r'<script type="module" src="' + prefijo + r'_static/bucle/([\w.-]+\.js)[?"]', html)
        precargados = re.findall(r'<link rel="modulepreload" href="' + prefijo + r'_static/bucle/([\w.-]+\.js)">', html)
        esperados = set().union(*(importados(carpeta, m) for m in modulos)) if modulos else set()
        assert sorted(precargados) == sorted(esperados), ruta
        assert all((carpeta / t).is_file() for t in precargados)
        vistas += bool(precargados)
    assert vistas >= 8  # every lesson, the index and «Cómo funciona»


def test_a_page_that_runs_python_can_make_its_worker_from_the_head(sitio):
    """python-temprano.js: in the head of each page with a cell or a challenge (the theme puts
    scripts at the end of the body, where it would run only once the page is parsed), in no
    other page, and importing nothing, so that it runs as soon as it arrives."""
    con, sin = 0, 0
    suma = f'{zlib.crc32((sitio / "_static" / "bucle" / "python-temprano.js").read_bytes()):08x}'
    for ruta, html in paginas(sitio).items():
        cabeza = html.split("</head>", 1)[0]
        prefijo = "../" * ruta.count("/")
        etiqueta = f'<script type="module" async src="{prefijo}_static/bucle/python-temprano.js?v={suma}"></script>'
        if "<bucle-celda" in html or "<bucle-desafio" in html:
            assert cabeza.count(etiqueta) == 1, ruta
            con += 1
        else:
            assert "python-temprano" not in html, ruta
            sin += 1
    assert con >= 5 and sin >= 2
    assert importados(sitio / "_static" / "bucle", "python-temprano.js") == set()
    assert "import(" not in (sitio / "_static" / "bucle" / "python-temprano.js").read_text(encoding="utf-8")


def test_each_script_and_stylesheet_of_the_bundle_is_linked_with_its_checksum(sitio):
    """The bundle is in the output before the pages are written (construccion.publicar.publicar_paquete), so
    every link to one of its scripts or stylesheets carries the published file's checksum
    (``?v=``, Sphinx's CRC-32): a browser that kept an older script does not run it under a newer
    page. (The chunks and the CSP files have their content's hash in their names.)"""
    vistos = 0
    for ruta, html in paginas(sitio).items():
        enlaces = re.findall(r'(?:src|href)="(?:\.\./)*_static/bucle/((?!chunk-|csp/)[\w./-]+\.(?:js|css))'
                             r'(?:\?v=([0-9a-f]{8}))?"', html)
        for nombre, suma in enlaces:
            publicado = (sitio / "_static" / "bucle" / nombre).read_bytes()
            assert suma == f"{zlib.crc32(publicado):08x}", (ruta, nombre)
            vistos += 1
    assert vistos >= 20


def test_a_new_bundle_rewrites_every_page_and_removes_the_old_chunks(tmp_path):
    """Pages whose source did not change are written again when the bundle changed (its
    fingerprint is a value of the build: construccion.publicar), so that none keeps the ``?v=``
    and ``modulepreload`` links of a bundle that is gone; its old files leave ``_static/bucle``."""
    from tests.conftest import SITES, construir

    construir(SITES / "preguntas", tmp_path)
    pagina = tmp_path / "index.html"
    viejo = tmp_path / "_static" / "bucle" / "chunk-DE-UN-PAQUETE-ANTERIOR.js"
    viejo.write_text("export {};\n", encoding="utf-8")
    pagina.write_text(pagina.read_text(encoding="utf-8") + "<!-- escrita antes -->", encoding="utf-8")

    construir(SITES / "preguntas", tmp_path)  # the same bundle: the page is left as it was
    assert pagina.read_text(encoding="utf-8").endswith("<!-- escrita antes -->")

    construir(SITES / "preguntas", tmp_path, ajustes={"bucle_huella_del_paquete": "otro paquete"})
    assert not pagina.read_text(encoding="utf-8").endswith("<!-- escrita antes -->")
    assert not viejo.exists()
    assert (tmp_path / "_static" / "bucle" / "pregunta.js").is_file()


def test_the_bundles_fingerprint_follows_its_files_names_and_contents_not_its_stamp(tmp_path):
    from widgets.construccion.publicar import huella_del_paquete

    assert huella_del_paquete(tmp_path / "no-hecho") == ""
    (tmp_path / "ort").mkdir()
    (tmp_path / "celda.js").write_text("a", encoding="utf-8")
    (tmp_path / "ort" / "ort.mjs").write_text("b", encoding="utf-8")
    primera = huella_del_paquete(tmp_path)
    (tmp_path / ".stamp").write_text("", encoding="utf-8")
    assert huella_del_paquete(tmp_path) == primera, "make's stamp is not the bundle"
    (tmp_path / "ort" / "ort.mjs").write_text("c", encoding="utf-8")
    cambiada = huella_del_paquete(tmp_path)
    assert cambiada != primera
    (tmp_path / "ort" / "ort.mjs").rename(tmp_path / "ort" / "otro.mjs")
    assert huella_del_paquete(tmp_path) not in (primera, cambiada), "a file renamed is another bundle"
