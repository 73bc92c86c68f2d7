"""The challenges and their grader, in CPython (and once in Pyodide, under Node).

The grader is the engine the page imports (``widgets.calificador``), reading the site's paths
(here, from disk).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import challenges
from tests.pyodide_en_node import cargar_pyodide
from widgets.calificador import ARCHIVO, Veredicto
from widgets.calificador.trazas import trazar

RAIZ = Path(__file__).resolve().parent.parent
DESAFIO = "bucle-con-tope"
CARPETA = RAIZ / "challenges" / DESAFIO
SOLUCION = (CARPETA / "solucion.py").read_text(encoding="utf-8")
INICIAL = (CARPETA / "inicial.py").read_text(encoding="utf-8")
ERRORES = challenges.errores_conocidos(DESAFIO)

#: The mistakes the issue asks for, by file.
PEDIDOS = {
    "sin_tope", "una_llamada_de_mas", "una_llamada_de_menos", "tope_sin_ejecutar",
    "tope_sin_observaciones", "texto_en_el_tope", "inicio_cambiado", "un_mensaje_por_observacion",
    "sin_observaciones", "texto_sin_espacio", "texto_y_llamadas_como_final", "llamadas_en_desorden",
}


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()


def calificar_con(ns):
    """``calificar(codigo, **opciones)``: ``ns`` grades ``codigo`` (dedented) for this challenge."""
    def hacer(codigo, **opciones):
        return ns.calificar(DESAFIO, textwrap.dedent(codigo), **opciones)
    return hacer


@pytest.fixture(scope="module")
def calificar(ns):
    return calificar_con(ns)


def sin_reloj(resultado):
    return {k: v for k, v in resultado.items() if k != "segundos"}


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def solo_bucle(codigo):
    """The same code without its ``ejecutar`` (the starter gives one)."""
    inicio = codigo.index("def bucle(")
    return codigo[inicio:]


def con_el_inicial(codigo_de_bucle):
    """The full starter file with its ``bucle`` replaced by this one."""
    return INICIAL[:INICIAL.index("def bucle(")] + solo_bucle(codigo_de_bucle)


# ------------------------------------------------------------------ the content


def test_la_referencia_pasa_todas_las_pruebas(calificar):
    r = calificar(SOLUCION)
    assert r["error"] is None
    assert r["total"] >= 12
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"]


def test_el_codigo_inicial_falla_y_dice_por_que(calificar):
    r = calificar(INICIAL)
    assert r["superadas"] == 0
    assert prueba(r, "la conversación de la lección")["mensaje"].startswith(
        "Llamaste al modelo 0 veces y debían ser 4.")


def test_hay_los_errores_pedidos_y_al_menos_doce():
    nombres = {e.archivo.stem for e in ERRORES}
    assert PEDIDOS <= nombres, PEDIDOS - nombres
    assert len(ERRORES) >= 12
    for error in ERRORES:
        assert error.error and error.falla and error.mensajes, error.archivo


@pytest.mark.parametrize("error", ERRORES, ids=[e.archivo.stem for e in ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(calificar, error):
    r = calificar(error.codigo)
    p = prueba(r, error.falla)
    assert not p["ok"]
    assert p["tipo"] == "fallo"
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    assert r["superadas"] < r["total"]


def test_el_mensaje_de_un_turno_sigue_el_formato(calificar):
    error = next(e for e in ERRORES if e.archivo.stem == "un_mensaje_por_observacion")
    p = prueba(calificar(error.codigo), "la conversación de la lección")
    lineas = p["mensaje"].split("\n")
    assert lineas[0] == "En el turno 3 el modelo recibió 8 mensajes; esperaba 6."
    assert lineas[1] == "Primer mensaje distinto: M[5]"
    assert lineas[2].startswith("  esperado: usuario: [resultado t2: «Gazpacho")
    assert lineas[2].count("resultado t") == 3
    assert lineas[3] == "  recibido: usuario: [resultado t2: «Gazpacho: tomates, pepino, pimiento, ajo.»]"
    assert p["turno"] == 3


def test_ningun_mensaje_ensena_las_pruebas_ni_el_calificador(calificar):
    for error in ERRORES:
        for p in calificar(error.codigo)["pruebas"]:
            texto = p["mensaje"] or ""
            for prohibido in ("Traceback", "pruebas.py", "calificador", "def prueba", 'File "'):
                assert prohibido not in texto, (error.archivo.name, texto)


def test_las_comprobaciones_del_desafio_pasan():
    assert challenges.comprobar(DESAFIO) == []


def test_las_comprobaciones_fallan_cuando_el_contenido_miente(tmp_path):
    carpeta = tmp_path / "desafios"
    shutil.copytree(CARPETA, carpeta / DESAFIO)
    shutil.copyfile(CARPETA.parent / "comun.py", carpeta / "comun.py")  # what its tests usar
    base = carpeta / DESAFIO
    # A known-wrong solution with a message it does not get, one that passes its test, and a
    # starter that passes everything.
    (base / "errores" / "sin_tope.py").write_text(
        (base / "errores" / "sin_tope.py").read_text().replace("una 6.ª vez", "una 7.ª vez"))
    (base / "errores" / "no_falla.py").write_text(
        "# Error: ninguno.\n# Falla: un tope de 1\n# Mensaje: nada\n\n" + SOLUCION)
    (base / "inicial.py").write_text((base / "inicial.py").read_text().replace(
        '    M = list(inicio)\n    # Escribe aquí el bucle.\n',
        solo_bucle(SOLUCION).split('"""', 2)[2]))
    problemas = por_archivo(challenges.comprobar(DESAFIO, carpeta))
    assert "una 7.ª vez" in problemas["sin_tope.py"]
    assert "pasa «un tope de 1», y debía fallarla" in problemas["no_falla.py"]
    assert "el código inicial pasa todas las pruebas" in problemas["inicial.py"]
    # And a reference that breaks the contract.
    (base / "solucion.py").write_text(SOLUCION.replace("return (\"tope\", None, M)", "return (\"tope\", \"\", M)"))
    problemas = por_archivo(challenges.comprobar(DESAFIO, carpeta))
    assert "la solución de referencia no pasa «se detiene en el tope»" in problemas["solucion.py"]
    assert set(problemas) == {"sin_tope.py", "no_falla.py", "inicial.py", "solucion.py"}


def carpeta_con_comun(tmp_path):
    """A copy of the challenge and of comun.py (with one name more), the tests importing it."""
    carpeta = tmp_path / "desafios"
    shutil.copytree(CARPETA, carpeta / DESAFIO, ignore=shutil.ignore_patterns("__pycache__"))
    comun = (CARPETA.parent / "comun.py").read_text(encoding="utf-8")  # the course's own
    (carpeta / "comun.py").write_text(comun + '\nCOMUN = "de comun.py"\n', encoding="utf-8")
    pruebas = carpeta / DESAFIO / "pruebas.py"
    texto = pruebas.read_text(encoding="utf-8")
    pruebas.write_text(texto + "\nfrom ..comun import COMUN  # noqa: E402\n", encoding="utf-8")
    return carpeta


def test_un_import_relativo_lee_un_archivo_de_la_carpeta_para_las_pruebas(tmp_path):
    c = challenges.calificador(carpeta_con_comun(tmp_path))
    r = c.calificar(DESAFIO, SOLUCION)
    assert r["superadas"] == r["total"]
    assert c.pruebas(DESAFIO)["COMUN"] == "de comun.py"
    assert "desafios/comun.py" in c.leidos()
    assert [u for u in c.leidos() if u.startswith("desafios/")] == [
        f"desafios/{DESAFIO}/pruebas.py", "desafios/comun.py", f"desafios/{DESAFIO}/inicial.py"]
    assert set(c.modulos(DESAFIO)) == {"runtime", "comun.py"}


def test_el_importador_cerrado_no_lleva_a_las_pruebas(ns):
    """Once the tests are loaded, the __import__ their modules keep (which a reader may reach
    from a helper's function) resolves only Python's own: no runtime, no files of the folder."""
    ns.pruebas(DESAFIO)
    comun = ns.modulos(DESAFIO)["comun.py"]
    importar = vars(comun)["__builtins__"]["__import__"]
    assert importar.modulos is None
    assert importar("json") is json
    for nombre, nivel in (("runtime", 0), ("calificador", 0), ("comun", 2)):
        with pytest.raises(ImportError):
            importar(nombre, {"__file__": f"{DESAFIO}/pruebas.py"}, None, ("x",), nivel)


def test_un_import_relativo_no_sale_de_la_carpeta_de_los_desafios():
    from widgets.calificador.importador import Importador
    importador = Importador(lambda ruta: compile("", ruta, "exec"), lambda ns: None, None)
    assert importador("x", {"__file__": f"{DESAFIO}/pruebas.py"}, None, (), 2).__file__ == "x.py"
    with pytest.raises(ImportError, match="fuera de la carpeta"):
        importador("fuera", {"__file__": f"{DESAFIO}/pruebas.py"}, None, ("X",), 3)


def lo_mismo(a, b):
    """Equal values, or functions and classes made by the same line of the runtime."""
    if hasattr(b, "__code__"):
        return (a.__code__.co_filename, a.__code__.co_firstlineno) == \
            (b.__code__.co_filename, b.__code__.co_firstlineno)
    if isinstance(b, type):
        return a is not b and a.__qualname__ == b.__qualname__ and vars(a).keys() == vars(b).keys()
    if isinstance(b, dict):
        return a.keys() == b.keys() and all(lo_mismo(a[k], b[k]) for k in b)
    return a is b if hasattr(b, "__spec__") else a == b


def por_archivo(problemas):
    """{file name: all its problems, one text}."""
    juntos = {}
    for archivo, texto in problemas:
        juntos[archivo.name] = juntos.get(archivo.name, "") + texto + "\n"
    return juntos


def test_las_conversaciones_generadas_son_deterministas_y_no_son_la_leccion():
    uno, dos = challenges.calificador(), challenges.calificador()
    nombres = uno.nombres(DESAFIO)
    assert nombres == dos.nombres(DESAFIO)
    otras = [n for n in nombres if n.startswith("otra conversación")]
    assert len(otras) >= 3
    leccion = uno.caso(DESAFIO, "la conversación de la lección")
    for nombre in otras:
        caso = uno.caso(DESAFIO, nombre)
        assert caso == dos.caso(DESAFIO, nombre)
        assert caso["guion"][-1][1] != leccion["guion"][-1][1]
    turnos = {len(uno.caso(DESAFIO, n)["guion"]) for n in otras}
    assert len(turnos) >= 3 and turnos != {4}


def test_las_pruebas_no_pisan_el_runtime_de_su_espacio(ns):
    """The tests import their own runtime, a module of its own: its names are the runtime's as
    its files leave them (the teaching messages, GuionRoto's with muestra, _normaliza..., stay),
    the very objects the tests use, and not the reader's."""
    pruebas = ns.pruebas(DESAFIO)
    runtime = vars(ns.modulos(DESAFIO)["runtime"])
    solo_runtime = {}
    for nombre in ("entorno", "guionizado", "escenarios"):
        archivo = f"runtime/{nombre}.py"
        exec(compile((RAIZ / archivo).read_text(), archivo, "exec"), solo_runtime)
    for nombre, valor in solo_runtime.items():
        if not nombre.startswith("__"):  # __builtins__, __doc__: the file's own
            assert lo_mismo(runtime[nombre], valor), nombre
            assert pruebas.get(nombre, runtime[nombre]) is runtime[nombre], nombre
    lector = ns.envio(DESAFIO, "def bucle(a, b, c, d): pass").espacio()
    assert pruebas["ModeloGuionizado"] is not lector["ModeloGuionizado"]
    assert pruebas["HERRAMIENTAS"] is not lector["HERRAMIENTAS"]


# ------------------------------------------------------------ namespaces, hooks


def test_un_archivo_con_solo_bucle_se_califica_como_el_inicial_completo(calificar):
    # (a generous time limit: these all end, and a loaded machine must not turn one test's
    # verdict into «no terminó» in one of the two gradings)
    for codigo in [SOLUCION] + [e.codigo for e in ERRORES[:4]]:
        solo = calificar(solo_bucle(codigo), limite=30)
        completo = calificar(con_el_inicial(codigo), limite=30)
        assert "def ejecutar" not in solo_bucle(codigo)
        assert sin_reloj(solo) == sin_reloj(completo)


def test_cada_prueba_empieza_en_un_espacio_nuevo(calificar):
    r = calificar("""
        print("cargado")
        VISTAS = []

        def bucle(modelo, inicio, entorno, tope):
            VISTAS.append(1)
            print("llamadas antes:", len(VISTAS) - 1)
            return ("fin", "", list(inicio))
    """)
    for p in r["pruebas"]:
        assert p["salida"] == "cargado\nllamadas antes: 0\n", p


def test_caso_argumentos_y_preparar_permiten_repetir_una_prueba_fuera(ns):
    """Rebuild a test's model, inicio, entorno and tope, and run the reader's function under
    the grader's limit: what «Ver tu traza» needs."""
    caso = ns.caso(DESAFIO, "se detiene en el tope")
    assert caso["tope"] == 3 and caso["motivo"] == "tope"
    lector = ns.preparar(DESAFIO, SOLUCION).funcion("bucle")
    assert lector.__wrapped__.__code__.co_filename == ARCHIVO
    modelo, inicio, entorno, tope = ns.argumentos(DESAFIO, "se detiene en el tope")
    assert (inicio, entorno, tope) == (caso["inicio"], caso["entorno"], caso["tope"])
    motivo, texto, M = lector(modelo, inicio, entorno, tope)
    assert (motivo, texto, M) == ("tope", None, caso["M"])
    assert entorno == caso["entorno_final"]

    with pytest.raises(Veredicto) as e:
        ns.preparar(DESAFIO, "def bucle(:\n")
    assert e.value.datos["tipo"] == "sintaxis" and e.value.datos["linea"] == 1
    # The reader's own exception comes out as it is; a time limit, as a Veredicto.
    roto = ns.preparar(DESAFIO, "def bucle(m, i, e, t):\n    return 1 / 0\n").funcion("bucle")
    with pytest.raises(ZeroDivisionError):
        roto(*ns.argumentos(DESAFIO, "un tope de 1"))
    sin_fin = ns.preparar(DESAFIO, "def bucle(m, i, e, t):\n    while True:\n        pass\n",
                             limite=0.2).funcion("bucle")
    with pytest.raises(Veredicto) as e:
        sin_fin(*ns.argumentos(DESAFIO, "un tope de 1"))
    assert e.value.datos["tipo"] == "tiempo"
    assert e.value.__traceback__ is not None


def test_el_gancho_de_traza_recibe_la_funcion_y_los_argumentos(ns, calificar):
    """A recorder with trazar's signature gets, for each failed test, the reader's function and
    that test's arguments; its answer travels in the result. Passing tests get None."""
    def trazador(bucle, modelo, inicio, entorno, tope):
        recibidos = []

        def registrado(M, herramientas):
            recibidos.append(len(M))
            return modelo(M, herramientas)
        try:
            bucle(registrado, inicio, entorno, tope)
        except Exception as e:  # noqa: BLE001 - what the loop raised is the answer
            return {"recibidos": recibidos, "error": type(e).__name__}
        return {"recibidos": recibidos, "error": None}

    error = next(e for e in ERRORES if e.archivo.stem == "sin_observaciones")
    r = calificar(error.codigo, traza=trazador)
    leccion = prueba(r, "la conversación de la lección")
    assert leccion["traza"] == {"recibidos": [2, 3], "error": "GuionRoto"}
    sin_llamadas = prueba(r, "otra conversación: responde sin llamar a nada")
    assert sin_llamadas["ok"] and sin_llamadas["traza"] is None
    sin_traza = calificar(error.codigo)
    assert [dict(p, traza=None) for p in r["pruebas"]] == sin_traza["pruebas"]
    # A recorder that breaks changes nothing.
    roto = calificar(error.codigo, traza=lambda *args: 1 / 0)
    assert sin_reloj(roto) == sin_reloj(sin_traza)


def test_con_la_grabadora_de_trazas_de_verdad(ns, calificar):
    """The engine's trace recorder plugs into the hook as it is."""
    error = next(e for e in ERRORES if e.archivo.stem == "sin_observaciones")
    r = calificar(error.codigo, traza=trazar)
    traza = prueba(r, "la conversación de la lección")["traza"]
    json.dumps(traza)
    modelos = [ev for ev in traza["eventos"] if ev["tipo"] == "modelo"]
    assert [ev["n"] for ev in modelos] == [2, 3]
    final = traza["eventos"][-1]
    assert final["tipo"] == "excepcion" and final["clase"] == "GuionRoto"
    # the reader's line: respuesta = modelo(M, HERRAMIENTAS)
    assert "respuesta = modelo(M, HERRAMIENTAS)" in error.codigo.splitlines()[final["linea"] - 1]


def test_los_resultados_guardados_son_los_del_calificador():
    """tests/fixtures/resultados/*.json (read by the JS tests) are what the engine gives now;
    ``python -m tests.fixtures.resultados`` writes them again."""
    from tests.fixtures import resultados

    guardados = resultados.guardados()
    hechos = resultados.generar()
    assert sorted(guardados) == sorted(hechos)
    for nombre, r in hechos.items():
        assert resultados.sin_reloj(guardados[nombre]) == json.loads(json.dumps(
            resultados.sin_reloj(r))), nombre
    tipos = {p["tipo"] for r in hechos.values() for p in r["pruebas"]}
    assert {"ok", "fallo", "error", "tiempo", "salida", "no-probada"} <= tipos
    assert any(p["turno"] for p in hechos["conocido"]["pruebas"])
    assert hechos["error-del-lector"]["pruebas"][0]["linea"] == 4
    assert hechos["sintaxis"]["error"]["tipo"] == "sintaxis"
    assert hechos["sin-funcion"]["error"]["tipo"] == "falta"


def test_datos_para_la_pagina(ns):
    datos = ns.datos(DESAFIO)
    assert datos["pruebas"] == ns.nombres(DESAFIO)
    assert datos["pista"] and datos["limite"] == 2.0
    assert datos["a_escribir"] == {"bucle": ["modelo", "inicio", "entorno", "tope"]}
    assert datos["mensajes"] == {
        "tiempo": "bucle no terminó en 2 s: ¿falta el tope? (y no se dejó detener)",
        "tiempo_al_cargar": "Tu código no terminó de cargarse en 2 s: ¿un bucle sin fin fuera "
                            "de las funciones? (y no se dejó detener)",
        "no_probada": "no se probó: «{prueba}» no terminó",
        "no_probada_al_cargar": "no se probó: tu código no se pudo cargar",
        "exit": "tu código terminó el proceso con os._exit({codigo}) mientras se calificaba "
                "«{prueba}»: aquí no se termina el programa; devuelve el resultado con return.",
        "exit_al_cargar": "tu código terminó el proceso con os._exit({codigo}) mientras se "
                          "cargaba: aquí no se termina el programa; devuelve el resultado con "
                          "return.",
        "no_probada_tras_exit": "no se probó: el proceso se cortó en «{prueba}»",
    }
    json.dumps(ns.calificar(DESAFIO, SOLUCION))
    json.dumps(ns.caso(DESAFIO, "la conversación de la lección"))


# ------------------------------------------------------------- same in Pyodide

NODE_PYODIDE = """
%(cargar)s
import { readFileSync } from "node:fs";
const archivos = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const [ruta, texto] of Object.entries(archivos)) {
  py.FS.mkdirTree("/sitio/" + ruta.split("/").slice(0, -1).join("/"));
  py.FS.writeFile("/sitio/" + ruta, texto);
}
py.globals.set("CASOS", readFileSync(process.argv[3], "utf8"));
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/sitio/_static/bucle")
from calificador import Calificador
def leer(url):
    return open("/sitio/" + url).read()
c = Calificador(leer, desafios="_static/bucle/desafios/", runtime="runtime/",
                runtime_modulos=%(modulos)s)
r = {"version": sys.version_info[:2], "monitoring": hasattr(sys, "monitoring")}
r["resultados"] = {n: c.calificar(d, codigo) for n, (d, codigo) in json.loads(CASOS).items()}
json.dumps(r, ensure_ascii=False)
`));
"""


def en_pyodide(tmp_path, desafios, casos, modulos=("entorno", "guionizado", "escenarios")):
    """Grade ``casos`` ({name: (challenge, code)}) in Pyodide under Node, with the engine's files
    and those of ``desafios`` written where the site has them, and the runtime ``modulos``;
    return its output."""
    archivos = {f"_static/bucle/calificador/{p.name}": p.read_text()
                for p in sorted((RAIZ / "widgets" / "calificador").glob("*.py"))}
    for desafio in desafios:
        for nombre in challenges.ARCHIVOS_DESAFIO:
            archivos[f"_static/bucle/desafios/{desafio}/{nombre}"] = \
                (RAIZ / "challenges" / desafio / nombre).read_text()
    # and what the tests load with usar (comun.py...), as the build publishes it
    leido = challenges.calificador()
    for desafio in desafios:
        leido.pruebas(desafio)
    for url in leido.leidos():
        if url.startswith("desafios/"):
            archivos[f"_static/bucle/{url}"] = (RAIZ / "challenges" / url[len("desafios/"):]).read_text()
    for nombre in modulos:
        archivos[f"runtime/{nombre}.py"] = (RAIZ / "runtime" / f"{nombre}.py").read_text()
    (tmp_path / "archivos.json").write_text(json.dumps(archivos))
    (tmp_path / "casos.json").write_text(json.dumps(casos))
    (tmp_path / "pyodide.mjs").write_text(NODE_PYODIDE % {"cargar": cargar_pyodide(),
                                                          "modulos": repr(tuple(modulos))})
    p = subprocess.run(["node", tmp_path / "pyodide.mjs", tmp_path / "archivos.json",
                        tmp_path / "casos.json"], capture_output=True, text=True, timeout=180, check=False)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_una_clave_que_no_es_un_nombre_en_sys_modules_no_tumba_la_muralla(calificar):
    """sys.modules is the reader's to spoil too: a key that is not a str leaves the wall working
    (it sifts the names before it looks at them) and the verdict given test by test."""
    try:
        r = calificar("""
            import sys

            def bucle(modelo, inicio, entorno, tope):
                sys.modules[1] = None
                return ("fin", "", list(inicio))
        """)
        assert r["error"] is None
        assert r["pruebas"]
        assert "widgets.calificador.muralla" in sys.modules and "challenges" in sys.modules
    finally:
        sys.modules.pop(1, None)
