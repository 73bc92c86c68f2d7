"""The challenges of lessons 1, 3 and 4: the conversations their tests hold, the spies and broken
tools they swap in, the reader's exceptions in a test, the command, and the same verdicts in
Pyodide.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

import challenges
from tests.test_challenges import en_pyodide
from tests.test_challenges_lecciones import (
    DESAFIOS,
    ERRORES,
    LECCION_1,
    LECCION_3,
    LECCION_4,
    RAIZ,
    calificar,
    con_la_referencia,
    con_su_runtime,
    leer,
    prueba,
    sin_reloj,
)


@pytest.fixture(scope="module")
def ns():
    return challenges.calificador()

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
    for c, otra in zip(generadas, b["CONVERSACIONES"][1:], strict=False):
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
        except Exception:  # noqa: BLE001 - a Fallo or the reader's error: only the tools matter here
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
                          capture_output=True, text=True, encoding="utf-8", timeout=60, check=False)


@pytest.mark.parametrize("desafio,total", [(LECCION_1, 16), (LECCION_3, 21), (LECCION_4, 14)])
def test_la_orden_aprueba_la_referencia_y_suspende_un_error(desafio, total):
    p = cli(desafio, RAIZ / "challenges" / desafio / "solucion.py")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == f"{total} passed, 0 failed"
    error = ERRORES[desafio][0]
    p = cli(desafio, error.archivo)
    assert p.returncode == 1
    linea = next(li for li in p.stdout.splitlines() if li.startswith(f"✘ {error.falla}: "))
    assert error.mensajes[0] in linea or error.mensajes[0] in p.stdout


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
    llamadas_de = vars(ns.modulos(LECCION_4)["comun.py"])["llamadas_de"]
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
                  if sum(ll["name"] == "escribir" for ll in llamadas_de(r)) >= 2]
        assert varias, c.nombre  # a denial must not stop the other calls of a response
    raras = generadas[-1]
    llamadas = [ll for r in raras.respuestas for ll in llamadas_de(r)]
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
