"""The worker's Python half (widgets/trabajador/trabajador.py) in CPython: how a cell's code ends and
how its errors are told, in the reader's terms. The same file runs in Pyodide (see
tests/browser/test_celda_ejecucion.py); nothing in it needs the browser except ``open_url``."""

import builtins
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import pytest

ARCHIVO = Path(__file__).resolve().parent.parent / "widgets" / "trabajador" / "trabajador.py"


@pytest.fixture
def trabajador(monkeypatch):
    """A fresh copy of the module, prepared as the worker prepares it; input/stdin restored after."""
    monkeypatch.setattr(builtins, "input", builtins.input)
    monkeypatch.setattr(sys, "stdin", sys.stdin)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))  # preparar adds the wheels' finder
    spec = importlib.util.spec_from_file_location("trabajador_de_prueba", ARCHIVO)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    modulo.preparar("http://127.0.0.1/curso/leccion.html")
    return modulo


def test_cells_share_one_namespace_and_a_restart_empties_it(trabajador, capsys):
    assert trabajador.ejecutar("x = 20", "<celda 1>") == {"estado": "ok"}
    assert trabajador.ejecutar("print(x + 22)", "<celda 2>") == {"estado": "ok"}
    assert capsys.readouterr().out == "42\n"
    trabajador.reiniciar()
    assert trabajador.ejecutar("print(x)", "<celda 2>") == {"estado": "error", "tipo": "NameError"}


def test_a_traceback_shows_only_the_readers_cells(trabajador, capsys):
    trabajador.ejecutar("def dividir(a, b):\n    return a / b\n", "<celda 1>")
    resultado = trabajador.ejecutar("x = 1\nprint(dividir(x, 0))", "<celda 2>")
    assert resultado == {"estado": "error", "tipo": "ZeroDivisionError"}
    assert capsys.readouterr().err == (
        "Rastreo (la llamada más reciente, al final):\n"
        "  Celda 2, línea 2\n"
        "    print(dividir(x, 0))\n"
        "  Celda 1, línea 2, en dividir\n"
        "    return a / b\n"
        "ZeroDivisionError: division by zero\n"
    )


def test_frames_outside_the_cells_are_left_out(trabajador, capsys):
    # Code loaded with exec(open_url(...).read()) runs as "<string>": the reader did not write it.
    trabajador.ejecutar("exec('def leer(ruta):\\n    raise KeyError(ruta)')", "<celda 1>")
    trabajador.ejecutar("leer('nada.txt')", "<celda 2>")
    error = capsys.readouterr().err
    assert error.splitlines() == [
        "Rastreo (la llamada más reciente, al final):",
        "  Celda 2, línea 1",
        "    leer('nada.txt')",
        "KeyError: 'nada.txt'",
    ]
    assert "File" not in error and "trabajador" not in error


def test_a_syntax_error_points_at_its_line(trabajador, capsys):
    resultado = trabajador.ejecutar("x = 1\nif x > 0\n    print(x)", "<celda 3>")
    assert resultado == {"estado": "error", "tipo": "SyntaxError"}
    lineas = capsys.readouterr().err.splitlines()
    assert lineas[0] == "  Celda 3, línea 2"
    assert lineas[1] == "    if x > 0"
    assert lineas[2].strip() == "^" and lineas[2].index("^") == len("    if x > 0")
    assert lineas[3] == "SyntaxError: expected ':'"


def test_chained_exceptions_are_both_told(trabajador, capsys):
    trabajador.ejecutar("try:\n    {}['a']\nexcept KeyError as e:\n    raise ValueError('mal') from e",
                        "<celda 1>")
    error = capsys.readouterr().err
    assert "KeyError: 'a'" in error
    assert "Esa excepción causó esta otra:" in error
    assert error.rstrip().endswith("ValueError: mal")
    assert "Celda 1, línea 2" in error and "Celda 1, línea 4" in error


class Pagina:
    """The worker's ``esperar`` (trabajador.js) as trabajador.py sees it: JSON in, JSON out. It
    answers from ``respuestas`` (each a dict the worker would return) and records what it was
    asked, with what the cell had printed by then."""

    def __init__(self, capsys, *respuestas):
        self.capsys = capsys
        self.respuestas = list(respuestas)
        self.preguntas = []
        self.impreso = []

    def __call__(self, peticion):
        assert isinstance(peticion, str)
        self.preguntas.append(json.loads(peticion))
        self.impreso.append(self.capsys.readouterr().out)
        return json.dumps(self.respuestas.pop(0))


def respondido(texto):
    return {"estado": "respondido", "texto": texto}


def test_input_outside_the_browser_says_why_it_cannot_read(trabajador, capsys):
    assert trabajador._ESPERAR is None  # CPython: no page to wait for
    resultado = trabajador.ejecutar('nombre = input("¿Cómo te llamas? ")', "<celda 1>")
    assert resultado == {"estado": "error", "tipo": "EntradaNoDisponible"}
    salida = capsys.readouterr()
    assert salida.out == "¿Cómo te llamas? \n"
    assert f"EntradaNoDisponible: {trabajador.SIN_LECTOR}" in salida.err
    assert "OSError" not in salida.err
    trabajador.ejecutar("import sys\nsys.stdin.readline()", "<celda 2>")
    assert f"EntradaNoDisponible: {trabajador.SIN_LECTOR}" in capsys.readouterr().err


def test_on_a_page_that_is_not_isolated_input_says_so_in_one_sentence(trabajador, capsys):
    trabajador._ESPERAR = Pagina(capsys, {"estado": "sin-aislamiento"}, {"estado": "sin-aislamiento"})
    resultado = trabajador.ejecutar('nombre = input("¿Cómo te llamas? ")', "<celda 1>")
    assert resultado == {"estado": "error", "tipo": "EntradaNoDisponible"}
    error = capsys.readouterr().err
    assert error.endswith(f"EntradaNoDisponible: {trabajador.SIN_AISLAMIENTO}\n")
    assert "no está aislada" in trabajador.SIN_AISLAMIENTO
    assert "escribe el valor directamente en el código" in trabajador.SIN_AISLAMIENTO
    assert trabajador.SIN_AISLAMIENTO.count(". ") == 0  # one sentence
    trabajador.ejecutar("import sys\nsys.stdin.readline()", "<celda 2>")
    assert f"EntradaNoDisponible: {trabajador.SIN_AISLAMIENTO}" in capsys.readouterr().err


def test_input_returns_the_line_the_reader_typed(trabajador, capsys):
    pagina = Pagina(capsys, respondido("Ada"), respondido("Grace"))
    trabajador._ESPERAR = pagina
    codigo = ('print("antes", end="")\nnombre = input("¿Nombre? ")\nprint("hola,", nombre)\n'
              "import sys\nprint(repr(sys.stdin.readline()))")
    assert trabajador.ejecutar(codigo, "<celda 1>") == {"estado": "ok"}
    assert pagina.preguntas == [{"tipo": "entrada", "pregunta": "¿Nombre? "},
                                {"tipo": "entrada", "pregunta": ""}]
    # What the cell printed was out before each question, a partial line too.
    assert pagina.impreso == ["antes", "hola, Ada\n"]
    assert capsys.readouterr().out == "'Grace\\n'\n"


def test_input_reads_another_stdin_put_in_its_place_as_pythons_does(trabajador, capsys):
    trabajador._ESPERAR = Pagina(capsys)  # asking the page would fail the test: no answers
    codigo = ('import io, sys\nsys.stdin = io.StringIO("Ada\\n")\nprint("hola,", input("¿Nombre? "))\n'
              "input()")
    assert trabajador.ejecutar(codigo, "<celda 1>") == {"estado": "error", "tipo": "EOFError"}
    assert capsys.readouterr().out == "¿Nombre? hola, Ada\n"


def test_preguntar_en_la_pagina_returns_the_readers_choice(trabajador, capsys):
    pagina = Pagina(capsys, respondido("denegar"), respondido("permitir"))
    trabajador._ESPERAR = pagina
    pregunta = trabajador.preguntar_en_la_pagina
    assert pregunta("¿Permites escribir lista.txt?", 'escribir(ruta="lista.txt")') is False
    assert pregunta("¿Permites escribir notas.txt?", 'escribir(ruta="notas.txt")') is True
    assert pagina.preguntas == [
        {"tipo": "permiso", "pregunta": "¿Permites escribir lista.txt?", "detalle": 'escribir(ruta="lista.txt")'},
        {"tipo": "permiso", "pregunta": "¿Permites escribir notas.txt?", "detalle": 'escribir(ruta="notas.txt")'},
    ]


@pytest.mark.parametrize("estado", ["sin-aislamiento", "sin-lector"])
def test_preguntar_en_la_pagina_is_none_where_the_page_cannot_wait(trabajador, capsys, estado):
    trabajador._ESPERAR = Pagina(capsys, {"estado": estado})
    assert trabajador.preguntar_en_la_pagina("¿Permites escribir lista.txt?", "escribir(…)") is None


def test_preguntar_en_la_pagina_is_none_outside_the_browser(trabajador):
    assert trabajador.preguntar_en_la_pagina("¿Permites escribir lista.txt?", "escribir(…)") is None


def test_a_stop_while_waiting_is_a_keyboard_interrupt_and_the_namespace_survives(trabajador, capsys):
    trabajador._ESPERAR = Pagina(capsys, {"estado": "detenido"}, {"estado": "detenido"})
    assert trabajador.ejecutar("x = 41", "<celda 1>") == {"estado": "ok"}
    codigo = "from trabajador_de_prueba import preguntar_en_la_pagina\npreguntar_en_la_pagina('¿Sí?', '')"
    sys.modules["trabajador_de_prueba"] = trabajador
    try:
        assert trabajador.ejecutar(codigo, "<celda 2>") == {"estado": "detenido"}
    finally:
        del sys.modules["trabajador_de_prueba"]
    assert trabajador.ejecutar("input()", "<celda 3>") == {"estado": "detenido"}
    assert trabajador.ejecutar("print(x + 1)", "<celda 4>") == {"estado": "ok"}
    assert capsys.readouterr().out == "42\n"


def test_the_runtimes_preguntar_al_lector_reaches_the_page(trabajador, capsys, monkeypatch):
    # runtime/permisos.py imports it as the worker names the module: trabajador.
    monkeypatch.setitem(sys.modules, "trabajador", trabajador)
    pagina = Pagina(capsys, respondido("permitir"))
    trabajador._ESPERAR = pagina
    raiz = ARCHIVO.parents[2] / "runtime"
    espacio = {}
    exec((raiz / "entorno.py").read_text(encoding="utf-8"), espacio)
    exec((raiz / "permisos.py").read_text(encoding="utf-8"), espacio)
    ll = {"type": "tool_use", "id": "t1", "name": "escribir", "input": {"ruta": "lista.txt", "texto": "pan"}}
    assert espacio["preguntar_al_lector"](ll) is True
    assert pagina.preguntas[0]["tipo"] == "permiso"
    assert pagina.preguntas[0]["pregunta"] == "¿Permites escribir lista.txt?"
    assert pagina.preguntas[0]["detalle"] == espacio["muestra"](ll)
    assert "partes" not in pagina.preguntas[0]  # nothing written whole: no contenido
    # A write over a file of the environment: the whole content, then what changes, as lines.
    pagina.respuestas.append(respondido("denegar"))
    largo = "pan, leche, patatas, y una línea mucho más larga de lo que cabe en una llamada"
    ll = espacio["llamada"]("t2", "escribir", ruta="lista.txt", contenido=f"pan\n{largo}")
    assert espacio["preguntar_al_lector"](ll, {"lista.txt": "pan"}) is False
    assert largo not in pagina.preguntas[1]["detalle"]
    assert pagina.preguntas[1]["partes"] == [
        {"titulo": "lista.txt quedará así (2 líneas):", "lineas": [["", "pan"], ["", largo]]},
        {"titulo": "Lo que cambia en lista.txt: 1 línea que se añade (- se quita, + se añade):",
         "lineas": [[" ", "pan"], ["+", largo]]}]


@pytest.mark.parametrize("codigo, esperado", [
    ("import sys\nsys.exit()", None),
    ("import sys\nsys.exit(3)", 3),
    ("raise SystemExit(0)", 0),
    ("exit()", None),
    ("quit(2)", 2),
])
def test_sys_exit_ends_the_run_not_the_worker(trabajador, codigo, esperado):
    assert trabajador.ejecutar(codigo, "<celda 1>") == {"estado": "salida", "codigo": esperado}
    assert trabajador.ejecutar("y = 1", "<celda 2>") == {"estado": "ok"}


def test_sys_exit_with_a_message_prints_it(trabajador, capsys):
    assert trabajador.ejecutar('import sys\nsys.exit("adiós")', "<celda 1>") == {"estado": "salida", "codigo": 1}
    assert capsys.readouterr().err == "adiós\n"


def test_a_keyboard_interrupt_is_a_stop(trabajador):
    assert trabajador.ejecutar("raise KeyboardInterrupt", "<celda 1>") == {"estado": "detenido"}


def test_open_url_resolves_against_the_page(trabajador, monkeypatch):
    pedidas = []
    monkeypatch.setattr(trabajador, "_open_url", pedidas.append)
    trabajador.ejecutar('open_url("runtime/entorno.py")', "<celda 1>")
    assert pedidas == ["http://127.0.0.1/curso/runtime/entorno.py"]


def test_a_file_the_worker_fetched_ahead_is_read_without_a_request(trabajador, monkeypatch, capsys):
    pedidas = []
    monkeypatch.setattr(trabajador, "_open_url", pedidas.append)
    trabajador.precargado("runtime/entorno.py", "ENTORNO = {'lista.txt': 'pan'}\n")
    trabajador.ejecutar('exec(open_url("runtime/entorno.py").read())\nprint(ENTORNO)', "<celda 1>")
    trabajador.ejecutar('exec(open_url("../curso/runtime/entorno.py").read())', "<celda 2>")
    assert capsys.readouterr().out == "{'lista.txt': 'pan'}\n"
    assert pedidas == []  # both name the same absolute URL
    trabajador.ejecutar('open_url("runtime/guionizado.py")', "<celda 3>")
    assert pedidas == ["http://127.0.0.1/curso/runtime/guionizado.py"]


def test_warming_up_compiles_the_files_fetched_ahead_and_runs_or_writes_nothing(trabajador, capsys):
    trabajador.precargado("runtime/a.py", 'print("corrió")\nraise SystemExit(3)\n')
    trabajador.precargado("runtime/b.py", "y = 2\nprint(y is 1)\n")  # compiling it warns
    trabajador.precargado("runtime/c.py", "def (:\n")  # does not compile
    with warnings.catch_warnings(record=True) as avisos:
        warnings.simplefilter("always")
        assert trabajador.calentar() == 2
    assert avisos == []
    assert capsys.readouterr() == ("", "")
    assert "y" not in trabajador.ESPACIO
    # What the reader runs is told as ever: the warning, then the error.
    with warnings.catch_warnings(record=True) as avisos:
        warnings.simplefilter("always")
        trabajador.ejecutar('exec(open_url("runtime/b.py").read())', "<celda 1>")
    assert [aviso.category for aviso in avisos] == [SyntaxWarning]
    assert trabajador.ejecutar('exec(open_url("runtime/c.py").read())', "<celda 2>") == {
        "estado": "error", "tipo": "SyntaxError"}


# ---- the course's model and the reader's own server (what the page told the worker) ----

@pytest.fixture
def pagina_js(monkeypatch):
    """A stand-in for the worker's JS module ``_bucle_pagina``: ``sitio`` answers ``estado``
    (lib/sitio.js's paraPython), ``leer`` serves ``archivos`` (URL → bytes)."""
    import types

    estado = {"raiz": "http://127.0.0.1:8000/curso/", "ruedas": "http://127.0.0.1:8000/curso/_static/bucle/ruedas/",
              "controlado": True, "propio": None}
    archivos = {}

    class Bytes:
        def __init__(self, datos):
            self.datos = datos

        def to_bytes(self):
            return self.datos

    modulo = types.ModuleType("_bucle_pagina")
    modulo.sitio = lambda: json.dumps(estado)
    modulo.leer = lambda url: Bytes(archivos[url])
    monkeypatch.setitem(sys.modules, "_bucle_pagina", modulo)
    return estado, archivos


def test_outside_the_page_there_is_no_course_model_and_no_own_server(trabajador):
    with pytest.raises(RuntimeError) as error:
        trabajador.url_del_modelo()
    assert str(error.value) == trabajador.FUERA_DE_LA_PAGINA
    assert trabajador.servidor_propio() is None


def test_the_course_model_answers_at_the_sites_root_only_under_its_service_worker(trabajador, pagina_js):
    estado, _ = pagina_js
    assert trabajador.url_del_modelo() == "http://127.0.0.1:8000/curso/modelo/v1/messages"
    estado["controlado"] = False
    with pytest.raises(RuntimeError) as error:
        trabajador.url_del_modelo()
    assert str(error.value).startswith("El modelo del curso responde a través del service worker del "
                                       "curso, que aún no controla esta página: recárgala")
    assert trabajador.servidor_propio() is None
    estado["propio"] = "http://localhost:11434/v1/messages"
    assert trabajador.servidor_propio() == "http://localhost:11434/v1/messages"


def _rueda(modulo, codigo):
    import io
    import zipfile

    datos = io.BytesIO()
    with zipfile.ZipFile(datos, "w") as z:
        z.writestr(f"{modulo}/__init__.py", codigo)
        z.writestr(f"{modulo}-1.0.dist-info/METADATA", f"Name: {modulo}\nVersion: 1.0\n")
    return datos.getvalue()


def test_a_published_wheel_is_installed_on_its_first_import_if_its_hash_matches(trabajador, pagina_js,
                                                                                 monkeypatch, tmp_path):
    import hashlib
    import importlib

    _, archivos = pagina_js
    buena, mala = _rueda("rueda_de_prueba", "VALOR = 42\n"), _rueda("rueda_cambiada", "VALOR = 0\n")
    archivos["http://127.0.0.1:8000/curso/_static/bucle/ruedas/buena.whl"] = buena
    archivos["http://127.0.0.1:8000/curso/_static/bucle/ruedas/mala.whl"] = mala
    monkeypatch.setattr(trabajador, "RUEDAS", {
        "rueda_de_prueba": ("buena.whl", hashlib.sha256(buena).hexdigest()),
        "rueda_cambiada": ("mala.whl", hashlib.sha256(b"otra cosa").hexdigest()),
    })
    monkeypatch.setattr(trabajador._RuedasDelSitio, "destino", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    for nombre in ("rueda_de_prueba", "rueda_cambiada"):
        monkeypatch.delitem(sys.modules, nombre, raising=False)
    assert trabajador._RuedasDelSitio in sys.meta_path
    assert importlib.import_module("rueda_de_prueba").VALOR == 42
    assert (tmp_path / "rueda_de_prueba-1.0.dist-info" / "METADATA").is_file()
    with pytest.raises(ImportError, match=r"mala\.whl, tal como lo sirve el sitio, no es el fijado"):
        importlib.import_module("rueda_cambiada")
    assert not (tmp_path / "rueda_cambiada").exists()


def test_preparing_the_network_installs_pyodide_http_from_the_site_and_patches_urllib(trabajador, pagina_js,
                                                                                       monkeypatch, tmp_path):
    import hashlib

    monkeypatch.delitem(sys.modules, "pyodide_http", raising=False)
    assert trabajador.preparar_red() is False, "outside the browser there is nothing to prepare"
    assert "pyodide_http" not in sys.modules

    _, archivos = pagina_js
    rueda = _rueda("pyodide_http", "PARCHES = []\ndef patch_all():\n    PARCHES.append(1)\n")
    archivos["http://127.0.0.1:8000/curso/_static/bucle/ruedas/pyodide_http.whl"] = rueda
    monkeypatch.setattr(trabajador, "RUEDAS", {"pyodide_http": ("pyodide_http.whl", hashlib.sha256(rueda).hexdigest())})
    monkeypatch.setattr(trabajador._RuedasDelSitio, "destino", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert trabajador.preparar_red() is True
    assert (tmp_path / "pyodide_http" / "__init__.py").is_file()
    assert sys.modules["pyodide_http"].PARCHES == [1]
    assert "urllib.request" in sys.modules


def test_the_workers_wheels_are_the_ones_pinned_for_the_page(trabajador):
    from widgets.construccion.ruedas_pyodide import DE_LA_PAGINA, fijadas

    pinned = fijadas(DE_LA_PAGINA)
    assert set(pinned) == {suma for _, suma in trabajador.RUEDAS.values()}
    for _nombre, (archivo, suma) in trabajador.RUEDAS.items():
        proyecto, version = pinned[suma].split("==")
        assert archivo == f"{proyecto.replace('-', '_')}-{version}-py3-none-any.whl"


def test_the_pages_module_handed_to_preparar_is_the_one_python_imports(trabajador, monkeypatch):
    """The worker hands preparar its JS module ``_bucle_pagina`` (esperar, sitio, leer); Python
    imports that one, and input() asks the page through its esperar."""
    import types

    monkeypatch.setitem(sys.modules, "_bucle_pagina", None)  # restored (removed) after the test
    pedidas = []
    modulo = types.SimpleNamespace(
        esperar=lambda peticion: (pedidas.append(json.loads(peticion)),
                                  json.dumps({"estado": "respondido", "texto": "Ada"}))[1],
        sitio=lambda: json.dumps({"raiz": "http://127.0.0.1/curso/", "controlado": False,
                                  "propio": "http://localhost:11434/v1/messages"}),
        leer=None,
    )
    trabajador.preparar("http://127.0.0.1/curso/leccion.html", modulo)
    import _bucle_pagina

    assert _bucle_pagina is modulo
    assert trabajador.servidor_propio() == "http://localhost:11434/v1/messages"
    assert trabajador.ejecutar("nombre = input('¿Nombre? ')\nprint(nombre)", "<celda 1>") == {"estado": "ok"}
    assert pedidas == [{"tipo": "entrada", "pregunta": "¿Nombre? "}]


def test_releer_carpetas_makes_a_file_written_into_a_listed_folder_importable(trabajador, tmp_path, monkeypatch):
    """A module written into a folder Python has already listed is found once releer_carpetas ran
    (the folder's mtime put back, as Pyodide's file system may leave it: the finder cannot notice)."""
    import os

    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "uno_ya_listado.py").write_text("", encoding="utf-8")
    importlib.import_module("uno_ya_listado")  # the folder's finder lists it now
    antes = os.stat(tmp_path).st_mtime_ns
    (tmp_path / "escrito_despues.py").write_text("VALOR = 7\n", encoding="utf-8")
    os.utime(tmp_path, ns=(antes, antes))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("escrito_despues")
    trabajador.releer_carpetas()
    assert importlib.import_module("escrito_despues").VALOR == 7
    for nombre in ("uno_ya_listado", "escrito_despues"):
        sys.modules.pop(nombre, None)
