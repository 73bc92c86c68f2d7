"""The challenges of lessons 1 and 3: «ejecutar-llamada» (the reader writes an ``ejecutar`` that
validates, runs and answers one call) and «errores-como-observaciones» (the reader rewrites it so
the model's errors come back as observations), graded by the same grader as «bucle-con-tope».

Also: the grader's support for tests that call the reader's function several times in one
namespace (``Envio.funcion``), and the `traza` directive running the lesson-3 conversation with
the ``ejecutar`` of that challenge (``:ejecutar: errores-como-observaciones``).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import challenges
from tests.conftest import construir
from tests.test_challenges import en_pyodide, lo_mismo

RAIZ = Path(__file__).resolve().parent.parent
LECCION_1, LECCION_3, LECCION_4 = "ejecutar-llamada", "errores-como-observaciones", "pedir-permiso"
DESAFIOS = (LECCION_1, LECCION_3)
#: With lesson 4's challenge, whose ejecutar also takes preguntar: the tests of the content.
CON_PERMISO = DESAFIOS + (LECCION_4,)


def leer(desafio: str, archivo: str) -> str:
    return (RAIZ / "challenges" / desafio / archivo).read_text(encoding="utf-8")


ERRORES = {d: challenges.errores_conocidos(d) for d in CON_PERMISO}
TODOS_LOS_ERRORES = [(d, e) for d in CON_PERMISO for e in ERRORES[d]]

#: The mistakes the task asks for, by file.
PEDIDOS = {
    LECCION_1: {"sin_validar", "id_fijo", "devuelve_el_texto", "usa_ENTORNO", "valida_despues",
                "otra_excepcion", "cambia_la_llamada", "argumentos_por_posicion", "atrapa_el_error"},
    LECCION_3: {"atrapa_exception", "sin_comprobar_el_esquema", "sin_is_error",
                "con_el_nombre_de_la_clase", "deja_pasar_OSError", "deja_pasar_ValueError",
                "ejecuta_aunque_incumpla", "devuelve_el_mensaje", "usa_repr"},
    LECCION_4: {"pregunta_a_todas", "solo_si_sobrescribe", "ejecuta_y_luego_pregunta",
                "ignora_la_respuesta", "lanza_si_deniega", "denegado_sin_is_error",
                "pide_confirmacion", "pregunta_por_el_nombre", "pregunta_antes_de_comprobar"},
}


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()


def con_su_runtime(c, desafio):
    """The names of ``desafio``'s tests (a new load) with those of the runtime they import."""
    pruebas = c.pruebas(desafio)
    return {**vars(c.modulos(desafio)["runtime"]), **pruebas}


def calificar(ns, desafio, codigo, **opciones):
    return ns.calificar(desafio, textwrap.dedent(codigo), **opciones)


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def sin_reloj(resultado):
    return {k: v for k, v in resultado.items() if k != "segundos"}


# ------------------------------------------------------------------ the content


@pytest.mark.parametrize("desafio,total", [(LECCION_1, 16), (LECCION_3, 21), (LECCION_4, 11)])
def test_la_referencia_pasa_todas_las_pruebas(ns, desafio, total):
    r = calificar(ns, desafio, leer(desafio, "solucion.py"))
    assert r["error"] is None
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"] == total


def test_el_codigo_inicial_de_la_leccion_1_no_pasa_ninguna(ns):
    r = calificar(ns, LECCION_1, leer(LECCION_1, "inicial.py"))
    assert r["superadas"] == 0
    p = r["pruebas"][0]
    assert (p["tipo"], p["linea"]) == ("error", 22)
    assert p["mensaje"].startswith("ejecutar lanzó NotImplementedError en la línea 22: "
                                   "escribe aquí ejecutar")


def test_el_codigo_inicial_de_la_leccion_3_es_el_ejecutar_de_la_1(ns):
    """The starter's ejecutar raises on errors: it passes what still holds (success, harness
    bugs propagate) and fails every error, and the lesson's conversation dies in turn 1."""
    r = calificar(ns, LECCION_3, leer(LECCION_3, "inicial.py"))
    assert [p["nombre"] for p in r["pruebas"] if p["ok"]] == [
        "si todo va bien, el resultado de siempre",
        "un fallo del arnés se propaga: KeyError",
        "un fallo del arnés se propaga: ZeroDivisionError",
        "un fallo del arnés se propaga: TypeError",
        "un fallo del arnés se propaga: AttributeError",
        "cada llamada corre su herramienta una sola vez",
        "un entorno vacío y ficheros vacíos: el resultado de siempre",
    ]
    p = prueba(r, "la conversación de la lección")
    assert (p["tipo"], p["turno"]) == ("fallo", 1)
    assert p["mensaje"].startswith(
        "En el turno 1, de ejecutar salió FileNotFoundError («no existe el fichero "
        "'gazpacho.txt' (¿querías decir 'recetas/gazpacho.txt'?)») con llamada e1 "
        "leer(ruta='gazpacho.txt'), y la conversación murió a medias")


def test_el_inicial_de_la_leccion_3_trae_el_bucle_de_referencia():
    """The reader sees the loop of «El bucle» in the starter, as it is; the reference solution
    only writes ejecutar (the loop is defined once, in bucle-con-tope/solucion.py)."""
    referencia = leer("bucle-con-tope", "solucion.py")
    bucle = referencia[referencia.index("def bucle("):]
    assert leer(LECCION_3, "inicial.py").endswith(bucle)
    assert "def bucle(" not in leer(LECCION_3, "solucion.py")


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_hay_los_errores_pedidos_y_al_menos_ocho(desafio):
    nombres = {e.archivo.stem for e in ERRORES[desafio]}
    assert PEDIDOS[desafio] <= nombres, PEDIDOS[desafio] - nombres
    assert len(ERRORES[desafio]) >= 8
    for error in ERRORES[desafio]:
        assert error.error and error.falla and error.mensajes, error.archivo


@pytest.mark.parametrize("desafio,error", TODOS_LOS_ERRORES,
                         ids=[f"{d}/{e.archivo.stem}" for d, e in TODOS_LOS_ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(ns, desafio, error):
    r = calificar(ns, desafio, error.codigo)
    p = prueba(r, error.falla)
    assert (p["ok"], p["tipo"]) == (False, "fallo"), p
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    assert r["error"] is None and r["superadas"] < r["total"]


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_las_comprobaciones_del_desafio_pasan(desafio):
    assert challenges.comprobar(desafio) == []


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_ningun_mensaje_ensena_las_pruebas_ni_el_calificador(ns, desafio):
    for codigo in [leer(desafio, "inicial.py")] + [e.codigo for e in ERRORES[desafio]]:
        for p in calificar(ns, desafio, codigo)["pruebas"]:
            texto = p["mensaje"] or ""
            for prohibido in ("Traceback", "pruebas.py", "calificador", "def prueba", 'File "',
                              "Veredicto", "Detenido", "interno"):
                assert prohibido not in texto, texto


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_un_archivo_con_solo_ejecutar_se_califica_como_el_inicial_completo(ns, desafio):
    inicial = leer(desafio, "inicial.py")
    inicio = inicial.index("def ejecutar(")
    fin = inicial.index("\n\n\n", inicio) if "def bucle(" in inicial else len(inicial)
    for error in ERRORES[desafio][:5]:
        solo = error.codigo[error.codigo.index("def ejecutar("):]
        completo = inicial[:inicio] + solo.rstrip("\n") + inicial[fin:]
        assert completo.count("def ejecutar(") == 1
        # the same verdicts; only the line numbers of the reader's errors move
        assert sin_lineas(calificar(ns, desafio, solo)) == sin_lineas(calificar(ns, desafio, completo))


def sin_lineas(resultado):
    return [(p["nombre"], p["tipo"], re.sub(r"línea \d+", "línea N", p["mensaje"] or ""))
            for p in resultado["pruebas"]]


def test_datos_para_la_pagina(ns):
    for desafio in CON_PERMISO:
        datos = ns.datos(desafio)
        parametros = ["ll", "entorno", "preguntar"] if desafio == LECCION_4 else ["ll", "entorno"]
        assert datos["a_escribir"] == {"ejecutar": parametros}
        assert datos["pruebas"] == ns.nombres(desafio) and datos["pista"]
        json.dumps(calificar(ns, desafio, leer(desafio, "inicial.py")))


@pytest.mark.parametrize("desafio", CON_PERMISO)
def test_las_pruebas_no_pisan_el_runtime_de_su_espacio(ns, desafio):
    """The tests import their own runtime, a module of its own: its names are the runtime's as
    its files leave them (GuionRoto uses muestra...), the very objects the tests use."""
    pruebas = ns.pruebas(desafio)
    runtime = vars(ns.modulos(desafio)["runtime"])
    solo_runtime = {}
    for nombre in ("entorno", "guionizado", "escenarios", "permisos"):
        archivo = f"runtime/{nombre}.py"
        exec(compile((RAIZ / archivo).read_text(), archivo, "exec"), solo_runtime)
    for nombre, valor in solo_runtime.items():
        if not nombre.startswith("__"):
            assert lo_mismo(runtime[nombre], valor), nombre
            assert pruebas.get(nombre, runtime[nombre]) is runtime[nombre], nombre


# ---------------------------------------------- the helpers the tests share: comun.py


def definidos(texto: str) -> set[str]:
    """The names a module's top level defines (functions, classes, assignments)."""
    nombres = set()
    for nodo in ast.parse(texto).body:
        if isinstance(nodo, (ast.FunctionDef, ast.ClassDef)):
            nombres.add(nodo.name)
        elif isinstance(nodo, ast.Assign):
            nombres |= {t.id for t in nodo.targets if isinstance(t, ast.Name)}
    return nombres


@pytest.mark.parametrize("desafio", ["bucle-con-tope", *CON_PERMISO])
def test_cada_prueba_usa_comun_y_no_redefine_nada_suyo(ns, desafio):
    """Each pruebas.py imports the shared helpers from comun.py and defines none of them
    again: a helper lives in one place."""
    pruebas = leer(desafio, "pruebas.py")
    assert "from ..comun import" in pruebas
    comun = definidos((RAIZ / "challenges" / "comun.py").read_text(encoding="utf-8"))
    assert definidos(pruebas) & comun == set()
    espacio = ns.pruebas(desafio)
    for nombre in comun & set(espacio):
        codigo = getattr(espacio[nombre], "__code__", None)
        assert codigo is None or codigo.co_filename == "comun.py", nombre


# ------------------------------------------- the runtime holds no answer to a challenge


def con_la_referencia(desafio: str) -> dict:
    """A page's namespace (the three runtime files) with ``desafio``'s reference solution."""
    from runtime import espacio

    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    exec(compile(leer(desafio, "solucion.py"), f"{desafio}/solucion.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("conversacion,desafios", [
    ("BUCLE", ("bucle-con-tope", LECCION_1, LECCION_3)),
    ("ERRORES", (LECCION_3,)),
])
def test_las_observaciones_de_los_escenarios_son_las_de_las_referencias(conversacion, desafios):
    """escenarios.py writes the observations of the lessons' scripts as data: they are what the
    reference solutions' ejecutar gives, call after call, on a copy of ENTORNO."""
    for desafio in desafios:
        ns = con_la_referencia(desafio)
        entorno = dict(ns["ENTORNO"])
        calculadas = [[ns["ejecutar"](b, entorno) for b in r if b["type"] == "tool_use"]
                      for r in ns[f"RESPUESTAS_{conversacion}"]]
        assert calculadas == ns[f"OBSERVACIONES_{conversacion}"], desafio


def funciones_del_runtime() -> dict:
    """Every function the runtime leaves in a reader's namespace, private ones included."""
    from runtime import espacio

    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    return {n: v for n, v in ns.items()
            if inspect.isfunction(v) and v.__code__.co_filename.startswith("runtime/")}


def envios_con(nombre: str, parametros, funcion: str, f) -> list[str]:
    """Submissions whose ``nombre`` is the runtime's ``funcion``: as it is and, for a function
    of the responses (like ``f(respuestas, entorno)``), applied to one call."""
    firma = ", ".join(parametros)
    envios = [f"{nombre} = {funcion}\n"]
    if len(inspect.signature(f).parameters) == len(parametros) == 2:
        envios.append(f"def {nombre}({firma}):\n    return {funcion}([[ll]], entorno)[0][0]\n")
    return envios


@pytest.mark.parametrize("desafio", ["bucle-con-tope", *CON_PERMISO])
def test_ninguna_funcion_del_runtime_pasa_un_desafio(ns, desafio):
    """What a reader loads in every lesson (entorno.py, guionizado.py, escenarios.py) holds no
    function that, handed in as the reader's, passes a challenge's tests."""
    (nombre, parametros), = ns.datos(desafio)["a_escribir"].items()
    aprobadas = []
    for funcion, f in sorted(funciones_del_runtime().items()):
        for codigo in envios_con(nombre, parametros, funcion, f):
            r = ns.calificar(desafio, codigo, limite=0.5)
            if r["error"] is None and r["superadas"] == r["total"]:
                aprobadas.append(codigo)
    assert aprobadas == []


# ------------------------------------------------ lesson 3: the conversations


def test_la_conversacion_de_la_leccion_es_la_del_guion_de_errores(ns):
    pruebas = con_su_runtime(ns, LECCION_3)
    leccion = pruebas["CONVERSACIONES"][0]
    assert leccion.nombre == "la conversación de la lección"
    assert leccion.guion == pruebas["guion_errores"]()
    assert (len(leccion.M), leccion.errores) == (11, 2)
    assert leccion.texto == "El gazpacho lleva ajo: lo he añadido a lista.txt."
    assert leccion.entorno_final["lista.txt"] == "pan, leche, patatas, ajo"


def test_las_conversaciones_generadas_traen_errores_que_la_leccion_no_muestra():
    uno, dos = challenges.calificador(), challenges.calificador()
    a, b = con_su_runtime(uno, LECCION_3), con_su_runtime(dos, LECCION_3)
    generadas = a["CONVERSACIONES"][1:]
    assert len(generadas) >= 2
    leccion = a["CONVERSACIONES"][0]

    def errores(c):
        return [r["content"] for obs in c.observaciones for r in obs if r["is_error"]]
    vistos = set()
    for c, otra in zip(generadas, b["CONVERSACIONES"][1:]):
        assert c.nombre.startswith("otra conversación") and c.nombre in uno.nombres(LECCION_3)
        assert (c.guion, c.nombre) == (otra.guion, otra.nombre)  # seeded: the same every time
        assert c.errores >= 5
        assert not set(errores(c)) & set(errores(leccion))
        vistos |= set(errores(c))
    # between them, every kind of error the lesson never shows
    assert len(vistos) == len(a["ERRORES_NUEVOS"])
    clases = set()
    for nombre, hacer in a["ERRORES_NUEVOS"].items():
        ll = hacer("x")
        if a["incumple"](ll) is None:
            try:
                a["FUNCIONES"][ll["name"]](dict(a["ENTORNO"]), **ll["input"])
            except (OSError, ValueError) as e:
                clases.add(type(e).__name__)
            else:
                pytest.fail(f"{nombre} does not fail")
    assert clases == {"IsADirectoryError", "NotADirectoryError", "FileNotFoundError", "ValueError"}


def test_el_mensaje_del_modelo_guionizado_llega_al_lector(ns):
    """A wrong observation reaches the scripted model, whose GuionRoto message is the test's,
    with a hint about error contents instead of its own about successful results."""
    error = next(e for e in ERRORES[LECCION_3] if e.archivo.stem == "con_el_nombre_de_la_clase")
    p = prueba(calificar(ns, LECCION_3, error.codigo), "la conversación de la lección")
    assert p["turno"] == 2
    assert p["mensaje"].split("\n") == [
        "En el turno 2 el modelo recibió 4 mensajes, tantos como esperaba, pero no son los esperados.",
        "Primer mensaje distinto: M[3]",
        "  esperado: usuario: [resultado e1 (error): «no existe el fichero 'gazpacho.txt' (¿querías dec…»]",
        "  recibido: usuario: [resultado e1 (error): «FileNotFoundError: no existe el fichero 'gazpacho…»]",
        "Pista: el contenido del error de e1 es el mensaje tal cual: str(error), o el motivo de "
        "incumple. Al tuyo le sobra «FileNotFoundError: » delante.",
    ]
    sin_marca = next(e for e in ERRORES[LECCION_3] if e.archivo.stem == "sin_is_error")
    p = prueba(calificar(ns, LECCION_3, sin_marca.codigo), "la conversación de la lección")
    assert p["mensaje"].endswith("Pista: el resultado de e1 debía llevar is_error=True.")


def test_un_bucle_reescrito_por_el_lector_es_el_que_se_prueba(ns):
    inicial = leer(LECCION_3, "inicial.py")
    bucle = inicial[inicial.index("def bucle("):]
    roto = leer(LECCION_3, "solucion.py") + "\n\n" + bucle.replace("for _ in range(tope):",
                                                                   "for _ in range(2):")
    r = calificar(ns, LECCION_3, roto)
    assert not prueba(r, "la conversación de la lección")["ok"]
    assert prueba(r, "si todo va bien, el resultado de siempre")["ok"]


# ------------------------------------------------------- spies and broken tools


def capturar_funciones(envio):
    """Record the wrappers ``envio.funcion`` returns, to look at their namespaces later."""
    hechas = []
    original = envio.funcion

    def funcion(nombre):
        f = original(nombre)
        hechas.append(f)
        return f
    envio.funcion = funcion
    return hechas


@pytest.mark.parametrize("desafio,nombre", [
    (LECCION_1, "falta un argumento: ValueError sin ejecutar nada"),
    (LECCION_3, "falta un argumento: error con el motivo, sin ejecutar nada"),
    (LECCION_3, "un fallo del arnés se propaga: KeyError"),
    (LECCION_3, "un fallo del arnés se propaga: ZeroDivisionError"),
])
def test_las_herramientas_cambiadas_vuelven_a_su_sitio(ns, desafio, nombre):
    """Spies and broken tools live in the reader's namespace of one test and are put back
    when it ends, whatever the reader did; the tests' own tools are never touched."""
    pruebas = con_su_runtime(ns, desafio)
    funcion_de_prueba = dict(pruebas["PRUEBAS"])[nombre]
    for codigo in [leer(desafio, "solucion.py")] + [e.codigo for e in ERRORES[desafio]]:
        envio = ns.envio(desafio, codigo)
        hechas = capturar_funciones(envio)
        try:
            funcion_de_prueba(envio)
        except Exception:  # a Fallo or the reader's error: only the tools matter here
            pass
        for f in hechas:
            espacio = f.espacio
            for herramienta in ("listar", "leer", "escribir", "buscar"):
                assert espacio["FUNCIONES"][herramienta] is espacio[herramienta]
                assert espacio[herramienta].__code__.co_filename == "runtime/entorno.py"
    for herramienta in ("listar", "leer", "escribir", "buscar"):
        assert pruebas["FUNCIONES"][herramienta] is pruebas[herramienta]


# ------------------------------------ the grader: the reader's exceptions in a test


LANZAN = {
    "NameError": ("def ejecutar(ll, entorno):\n    return resultado(ll['id'], funcion(entorno))\n",
                  "error", 2, "ejecutar lanzó NameError en la línea 2: name 'funcion' is not defined"),
    "exit": ("def ejecutar(ll, entorno):\n    exit()\n",
             "exit", 2, "ejecutar llamó a sys.exit() (o a exit o quit) en la línea 2"),
    "print sin fin": ("def ejecutar(ll, entorno):\n    while True:\n        print(ll)\n",
                      "salida", 3, "ejecutar escribió más de 100 000 caracteres en la línea 3"),
}


@pytest.mark.parametrize("desafio", DESAFIOS)
@pytest.mark.parametrize("nombre", LANZAN)
def test_lo_que_lanza_el_lector_y_la_prueba_no_espera_es_su_error_con_su_linea(ns, desafio, nombre):
    codigo, tipo, linea, mensaje = LANZAN[nombre]
    r = calificar(ns, desafio, codigo)
    p = r["pruebas"][0]
    assert (p["tipo"], p["linea"]) == (tipo, linea), p
    assert p["mensaje"].startswith(mensaje), p["mensaje"]
    assert not {q["tipo"] for q in r["pruebas"]} & {"interno", "ok"}


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_el_limite_de_tiempo_no_se_vuelve_un_fallo(ns, desafio):
    """A loop without end only on a call that does not fit: the test that expects an exception
    there must not take the grader's time limit for the reader's exception."""
    codigo = ("def ejecutar(ll, entorno):\n    while incumple(ll):\n        pass\n"
              "    return resultado(ll['id'], FUNCIONES[ll['name']](entorno, **ll['input']))\n")
    r = calificar(ns, desafio, codigo, limite=0.3)
    tipos = [p["tipo"] for p in r["pruebas"]]
    primera = tipos.index("tiempo")
    assert r["pruebas"][primera]["nombre"].startswith("una herramienta que no existe")
    assert r["pruebas"][primera]["mensaje"].startswith("ejecutar no terminó en 0,3 s")
    assert set(tipos[primera + 1:]) == {"no-probada"}
    assert "fallo" not in tipos[:primera]


def test_un_fallo_de_la_prueba_sigue_siendo_interno(ns, tmp_path):
    """Only what the reader's function raised counts as theirs: a test's own bug is «interno»."""
    carpeta = tmp_path / "desafios" / "prueba-rota"
    carpeta.mkdir(parents=True)
    (carpeta / "inicial.py").write_text("def f(x):\n    pass\n")
    (carpeta / "pruebas.py").write_text(textwrap.dedent("""
        A_ESCRIBIR = {"f": ("x",)}
        PISTA = ""

        def rota(envio):
            f = envio.funcion("f")
            f(1)
            return {}["no hay"]

        def del_lector(envio):
            envio.funcion("f")(2)

        PRUEBAS = [("rota", rota), ("del lector", del_lector)]
    """))
    propio = challenges.calificador(tmp_path / "desafios")
    r = propio.calificar("prueba-rota", "def f(x):\n    if x == 2:\n        raise KeyError(x)\n")
    rota, del_lector = r["pruebas"]
    assert rota["tipo"] == "interno" and "KeyError: 'no hay'" in rota["mensaje"]
    assert (del_lector["tipo"], del_lector["linea"]) == ("error", 3)
    assert del_lector["mensaje"].startswith("f lanzó KeyError en la línea 3: 2")


# ------------------------------------------------------------------ the command


def cli(*args):
    return subprocess.run([sys.executable, "-m", "challenges", *map(str, args)], cwd=RAIZ,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


@pytest.mark.parametrize("desafio,total", [(LECCION_1, 16), (LECCION_3, 21), (LECCION_4, 11)])
def test_la_orden_aprueba_la_referencia_y_suspende_un_error(desafio, total):
    p = cli(desafio, RAIZ / "challenges" / desafio / "solucion.py")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == f"{total} passed, 0 failed"
    error = ERRORES[desafio][0]
    p = cli(desafio, error.archivo)
    assert p.returncode == 1
    linea = next(li for li in p.stdout.splitlines() if li.startswith(f"✘ {error.falla}: "))
    assert error.mensajes[0] in linea or error.mensajes[0] in p.stdout


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
    assert f"{fuente / 'index.md'}:3: ERROR: con tope 1, el bucle de referencia no puede " \
           f"seguir el guion; el modelo guionizado se queja (FileNotFoundError)" in proceso.stderr


# ------------------------------------------------------------- same in Pyodide

def test_los_desafios_dan_lo_mismo_en_pyodide(ns, tmp_path):
    casos = {}
    for desafio in DESAFIOS:
        casos[f"{desafio}/solucion"] = (desafio, leer(desafio, "solucion.py"))
        casos[f"{desafio}/inicial"] = (desafio, leer(desafio, "inicial.py"))
        casos.update({f"{desafio}/{e.archivo.stem}": (desafio, e.codigo) for e in ERRORES[desafio]})
        casos.update({f"{desafio}/{n}": (desafio, c) for n, (c, *_) in LANZAN.items()})
    pyo = en_pyodide(tmp_path, DESAFIOS, casos)["resultados"]
    for nombre, (desafio, codigo) in casos.items():
        assert sin_reloj(pyo[nombre]) == sin_reloj(calificar(ns, desafio, codigo)), nombre


# ------------------------------------------------ lesson 4: asking for permission


@pytest.mark.parametrize("respuestas", [["sí", "sí"], ["sí", "no"], ["no", "sí"], ["no", "no"]])
def test_las_observaciones_de_pedir_permiso_son_las_de_la_referencia(respuestas):
    """escenarios.py writes lesson 4's observations as data for given answers: they are what the
    reference ejecutar gives with a user who answers so, and its script follows that loop."""
    ns = con_la_referencia(LECCION_4)
    entorno = dict(ns["ENTORNO"])
    usuario = ns["Respuestas"](respuestas)
    calculadas = [[ns["ejecutar"](b, entorno, usuario) for b in r if b["type"] == "tool_use"]
                  for r in ns["RESPUESTAS_PERMISO"]] + [[]]
    assert calculadas == ns["observaciones_permiso"](respuestas)
    assert [ll["id"] for ll in usuario.preguntas] == ["p3", "p4"]  # only the writes ask
    denegadas = [b for obs in calculadas for b in obs if b["content"] == ns["NO_PERMITIDO"]]
    assert len(denegadas) == respuestas.count("no")
    modelo = ns["ModeloGuionizado"](ns["guion_permiso"](respuestas))
    como, final, M = ns["bucle"](modelo, ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 10,
                                 ns["Respuestas"](respuestas))
    assert como == "fin" and len(M) == 7
    assert final == ns["FINALES_PERMISO"][tuple(r == "sí" for r in respuestas)]


def test_guion_permiso_rechaza_respuestas_que_no_son_dos_si_o_no():
    ns = con_la_referencia(LECCION_4)
    for malas in (["sí"], ["sí", "quizá"], ["sí", "no", "no"]):
        with pytest.raises(ValueError, match="da dos respuestas"):
            ns["guion_permiso"](malas)


def test_las_conversaciones_de_pedir_permiso(ns):
    """The lesson's conversation with two different answers and with nobody to ask, and generated
    ones with several writes in one response, some denied, and calls the lesson never shows."""
    pruebas = con_su_runtime(ns, LECCION_4)
    leccion, al_reves, sin_usuario, *generadas = pruebas["CONVERSACIONES"]
    assert leccion.guion == pruebas["guion_permiso"](["sí", "no"])
    assert al_reves.guion == pruebas["guion_permiso"](["no", "sí"])
    assert sin_usuario.guion == pruebas["guion_permiso"](["no", "no"])
    assert sin_usuario.usuario is None
    assert leccion.entorno_final["lista.txt"] == "pan, leche, patatas, huevos, cebolla"
    assert leccion.entorno_final["notas.txt"] == pruebas["ENTORNO"]["notas.txt"]
    assert len(generadas) >= 2
    for c in generadas:
        assert c.nombre.startswith("otra conversación") and c.guion != leccion.guion
        assert "sí" in c.usuario and "no" in c.usuario
        varias = [r for r in c.respuestas
                  if sum(ll["name"] == "escribir" for ll in pruebas["llamadas_de"](r)) >= 2]
        assert varias, c.nombre  # a denial must not stop the other calls of a response
    raras = generadas[-1]
    llamadas = [ll for r in raras.respuestas for ll in pruebas["llamadas_de"](r)]
    assert any(pruebas["incumple"](ll) for ll in llamadas)
    assert any(b["is_error"] and b["content"] != pruebas["NO_PERMITIDO"]
               for obs in raras.observaciones for b in obs)


def test_el_inicial_de_pedir_permiso_trae_el_bucle_de_su_referencia():
    """The starter's loop, which passes preguntar on (denegar by default), is the reference's."""
    referencia = leer(LECCION_4, "solucion.py")
    inicial = leer(LECCION_4, "inicial.py")
    bucle = referencia[referencia.index("def bucle("):]
    assert inicial.endswith(bucle)
    assert "def bucle(modelo, inicio, entorno, tope, preguntar=denegar):" in bucle


def test_el_inicial_de_pedir_permiso_es_el_ejecutar_de_la_leccion_3(ns):
    """The starter never asks: what still holds passes, every asking test fails."""
    r = calificar(ns, LECCION_4, leer(LECCION_4, "inicial.py"))
    assert [p["nombre"] for p in r["pruebas"] if p["ok"]] == [
        "las llamadas que solo miran no preguntan",
        "una escritura que no encaja no pregunta ni se ejecuta",
    ]
    p = prueba(r, "la conversación de la lección: sí a lista.txt, no a notas.txt")
    assert (p["tipo"], p["turno"]) == ("fallo", 2)
    assert p["mensaje"].startswith("En el turno 2, ejecutar no preguntó por p3 (escribir)")


def test_en_pedir_permiso_el_turno_de_un_fallo_es_el_que_dice_su_mensaje(ns):
    """A conversation's failure names its turn twice, in the message and in the result's
    «turno» (the badge on the page): the two agree."""
    vistos = 0
    for codigo in [leer(LECCION_4, "inicial.py")] + [e.codigo for e in ERRORES[LECCION_4]]:
        for p in calificar(ns, LECCION_4, codigo)["pruebas"]:
            m = re.match(r"En el turno (\d+)", p["mensaje"] or "")
            if m:
                vistos += 1
                assert p["turno"] == int(m.group(1)), p
    assert vistos >= 20


def test_pedir_permiso_da_lo_mismo_en_pyodide(ns, tmp_path):
    """With permisos.py among the runtime modules, as conf.py has them."""
    casos = {"solucion": (LECCION_4, leer(LECCION_4, "solucion.py")),
             "inicial": (LECCION_4, leer(LECCION_4, "inicial.py"))}
    casos.update({e.archivo.stem: (LECCION_4, e.codigo) for e in ERRORES[LECCION_4]})
    pyo = en_pyodide(tmp_path, [LECCION_4], casos,
                     ("entorno", "guionizado", "escenarios", "permisos"))["resultados"]
    for nombre, (desafio, codigo) in casos.items():
        assert sin_reloj(pyo[nombre]) == sin_reloj(calificar(ns, desafio, codigo)), nombre
