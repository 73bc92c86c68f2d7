"""The challenge of «El bucle»: attempts to fool the grader (patching the model, the clock, the
builtins, reading the tests...) do not pass, and the wall holds.
"""

from __future__ import annotations

import builtins
import sys

import pytest

import challenges
from tests.test_challenges import CARPETA, calificar_con, prueba


@pytest.fixture(scope="module")
def calificar():
    return calificar_con(challenges.calificador())

# ------------------------------------------------------------- fooling attempts

ENGANOS = {
    "cambia HERRAMIENTAS y ModeloGuionizado": """
        HERRAMIENTAS = []

        class ModeloGuionizado:
            def __init__(self, guion):
                pass

            def __call__(self, M, herramientas=None):
                return [texto("listo")]

        GuionRoto = Exception

        def bucle(modelo, inicio, entorno, tope):
            M = list(inicio)
            for _ in range(tope):
                r = modelo(M, HERRAMIENTAS)
                M.append(("asistente", r))
                if not [b for b in r if b["type"] == "tool_use"]:
                    return ("fin", " ".join(b["text"] for b in r if b["type"] == "text"), M)
            return ("tope", None, M)
    """,
    "parchea el modelo": """
        def bucle(modelo, inicio, entorno, tope):
            ModeloGuionizado.__call__ = lambda self, M, h=None: [texto("listo")]
            modelo.turno = 0
            modelo._guion = []
            M = list(inicio)
            r = modelo(M, HERRAMIENTAS)
            M.append(("asistente", r))
            return ("fin", " ".join(b["text"] for b in r if b["type"] == "text"), M)
    """,
    "devuelve un M calculado de antemano": """
        def bucle(modelo, inicio, entorno, tope):
            guion = guion_de(INICIO_BUCLE, RESPUESTAS_BUCLE, OBSERVACIONES_BUCLE)
            M = guion[-1][0] + [("asistente", RESPUESTAS_BUCLE[-1])]
            return ("fin", RESPUESTAS_BUCLE[-1][0]["text"], M)
    """,
    "lee las pruebas": f"""
        import builtins, types

        def bucle(modelo, inicio, entorno, tope):
            runtime = types.ModuleType("runtime")
            vars(runtime).update(globals())
            api = types.SimpleNamespace(Fallo=Exception, opaca=lambda f, nombre=None: f)
            modulos = {{}}

            def importar(nombre, g=None, l=None, desde=(), nivel=0):
                if nivel:
                    if nombre not in modulos:
                        m = modulos[nombre] = types.ModuleType(nombre)
                        vars(m)["__builtins__"] = propios
                        exec(open({str(CARPETA.parent)!r} + "/" + nombre + ".py").read(), vars(m))
                    return modulos[nombre]
                return {{"runtime": runtime, "calificador": api}}.get(nombre) or __import__(
                    nombre, g, l, desde, nivel)
            propios = dict(vars(builtins), __import__=importar)
            ns = {{"__builtins__": propios}}
            exec(open({str(CARPETA / "pruebas.py")!r}).read(), ns)
            for caso in ns["CASOS"]:
                if caso.inicio == inicio and caso.tope == tope:
                    entorno.clear()
                    entorno.update(caso.entorno_final)
                    return (caso.motivo, caso.texto, caso.M)
    """,
    "parchea builtins y copy": """
        import builtins, copy

        def bucle(modelo, inicio, entorno, tope):
            builtins.len = lambda x: 0
            builtins.isinstance = lambda a, b: True
            copy.deepcopy = lambda x, memo=None: x
            return ("fin", "", list(inicio))
    """,
}


@pytest.mark.parametrize("nombre", ENGANOS)
def test_los_enganos_no_pasan(calificar, nombre):
    len_, isinstance_ = builtins.len, builtins.isinstance
    import copy
    deepcopy = copy.deepcopy
    r = calificar(ENGANOS[nombre])
    assert r["error"] is None
    assert r["superadas"] <= 1, [p["nombre"] for p in r["pruebas"] if p["ok"]]
    assert not prueba(r, "la conversación de la lección")["ok"]
    assert (builtins.len, builtins.isinstance, copy.deepcopy) == (len_, isinstance_, deepcopy)


def test_la_muralla_niega_ganchos_y_esconde_los_modulos_del_calificador(calificar):
    """While the reader's code runs, no audit hook of its own, and no module of the engine, the
    worker or the course in sys.modules (they are back afterwards)."""
    # CPython drops a hook that an earlier one refuses (with a RuntimeError), silently.
    r = calificar("""
        import sys
        VISTOS = []

        def bucle(modelo, inicio, entorno, tope):
            sys.addaudithook(lambda evento, argumentos: VISTOS.append(evento))
            compile("1", "x", "eval")
            print(len(VISTOS))
            return ("fin", "", list(inicio))
    """)
    assert prueba(r, "la conversación de la lección")["salida"] == "0\n"
    r = calificar("""
        import sys

        def bucle(modelo, inicio, entorno, tope):
            vistos = sorted(n for n in sys.modules
                            if n.split(".")[0] in ("widgets", "calificador", "challenges")
                            or n.startswith("trabajador"))
            print(vistos)
            return ("fin", "", list(inicio))
    """)
    assert prueba(r, "la conversación de la lección")["salida"] == "[]\n"
    assert "widgets.calificador.muralla" in sys.modules and "challenges" in sys.modules


def test_la_muralla_no_detiene_los_hilos_del_anfitrion_y_si_los_del_lector(calificar):
    """The wall is the reader's: a thread of the host that was running before (a server that
    prints a traceback meanwhile) may use frames while the reader's code runs; a thread the
    reader's code starts may not, in that test and in every later one."""
    import threading
    import time

    from widgets.calificador import muralla

    visto, fin = [], threading.Event()

    def anfitrion():  # waits for the wall, then looks at its own frame, as traceback does
        while not muralla._MURALLA[0] and not fin.is_set():
            time.sleep(0.001)
        try:
            visto.append(type(sys._getframe()).__name__)
        except Exception as error:  # noqa: BLE001 - what it got is the test's answer
            visto.append(type(error).__name__)

    hilo = threading.Thread(target=anfitrion, daemon=True)
    hilo.start()
    r = calificar("""
        import sys, threading, time
        pedir, listo, VISTO = threading.Event(), threading.Event(), []

        def mira():
            while True:
                pedir.wait()
                pedir.clear()
                try:
                    sys._getframe()
                    VISTO.append("libre")
                except Exception as error:
                    VISTO.append(type(error).__name__)
                listo.set()

        hilo = []

        def bucle(modelo, inicio, entorno, tope):
            if not hilo:
                hilo.append(threading.Thread(target=mira, daemon=True))
                hilo[0].start()
            time.sleep(0.05)  # the host's thread looks meanwhile
            listo.clear()
            pedir.set()
            listo.wait(5)
            print(VISTO[-1])
            return ("fin", "", list(inicio))
    """)
    fin.set()
    hilo.join(5)
    assert visto == ["frame"]
    salidas = [p["salida"] for p in r["pruebas"] if p["tipo"] != "no-probada"]
    assert len(salidas) > 2 and set(salidas) == {"Prohibido\n"}, salidas



def test_un_hilo_del_lector_no_queda_libre_por_heredar_el_ident_de_uno_del_anfitrion(calificar):
    """A host's thread that was running when the wall went up, and then ended: the reader's
    thread started after it gets its ident (CPython gives an ended thread's ident to the next)
    but not its freedom."""
    import threading
    import time

    from widgets.calificador import muralla

    idents = []

    def anfitrion():  # free, and it ends as soon as the wall is up
        while not muralla._MURALLA[0]:
            time.sleep(0.001)
        idents.append(threading.get_ident())

    hilo = threading.Thread(target=anfitrion, daemon=True)
    hilo.start()
    r = calificar("""
        import sys, threading, time
        VISTO = []

        def mira():
            try:
                sys._getframe()
                VISTO.append(f"{threading.get_ident()} libre")
            except Exception as error:
                VISTO.append(f"{threading.get_ident()} {type(error).__name__}")

        def bucle(modelo, inicio, entorno, tope):
            if not VISTO:
                time.sleep(0.2)  # the host's thread has ended by now
                hilo = threading.Thread(target=mira)
                hilo.start()
                hilo.join()
                print(VISTO[0])
            return ("fin", "", list(inicio))
    """)
    hilo.join(5)
    ident, visto = r["pruebas"][0]["salida"].split()
    assert int(ident) == idents[0], "the reader's thread did not get the host's ident: nothing tested"
    assert visto == "Prohibido"

def test_quien_no_llama_al_modelo_no_pasa_aunque_acierte_M(calificar):
    r = calificar(ENGANOS["lee las pruebas"])
    assert prueba(r, "la conversación de la lección")["mensaje"].startswith(
        "Llamaste al modelo 0 veces y debían ser 4.")
