"""``python -m challenges``: a child that dies (os._exit, a signal, a fork, a closed channel) or
runs over a limit (time, CPU, memory, output) is a verdict told in Spanish, and the tests it
did not reach say why."""

from __future__ import annotations

import time

import pytest

import challenges
from widgets.aislamiento import aislado
from tests.orden.comun import DESAFIO, PRIMERA, SOLUCION, TOTAL, bucle_de, en_paralelo


# ------------------------------------------------------------------ deaths and limits

#: name → (code, limits for aislado.calificar)
MUERTES = {
    "os_exit_al_cargar": ("import os\nos._exit(3)\n", {}),
    "os_exit_en_una_prueba": (bucle_de("import os\nos._exit(0)"), {}),
    "sigkill": (bucle_de("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"), {}),
    "sigsegv": (bucle_de("import faulthandler\nfaulthandler._sigsegv()"), {}),
    "sigsegv_por_kill": (bucle_de("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)"), {}),
    "fork": (bucle_de("import os\nos.fork()\nreturn ('fin', '', [])"), {}),
    "cierra_el_canal": ("import os\nfor fd in range(3, 256):\n    try:\n        os.close(fd)\n"
                        "    except OSError:\n        pass\n" + SOLUCION, {}),
    "cambia_el_canal": ("import os\nnulo = os.open(os.devnull, os.O_WRONLY)\n"
                        "for fd in range(3, 256):\n    if fd != nulo:\n        try:\n"
                        "            os.dup2(nulo, fd)\n        except OSError:\n"
                        "            pass\n" + SOLUCION, {}),
    "cierra_stdout": ("import os, sys\nfor fd in (1, 2):\n    try:\n        os.close(fd)\n"
                      "    except OSError:\n        pass\nsys.stdout = sys.stderr = None\n"
                      + SOLUCION, {}),
    "KeyboardInterrupt": (bucle_de("raise KeyboardInterrupt"), {}),
    "hilo_con_os_exit": ("import os, threading, time\n"
                         "threading.Thread(target=lambda: os._exit(5)).start()\n"
                         "time.sleep(0.5)\n" + SOLUCION, {}),
    "atrapa_todo": (bucle_de("while True:\n    try:\n        while True:\n            pass\n"
                             "    except BaseException:\n        pass"),
                    {"limite": 0.5, "margen": 0.5}),
    "cpu": ("import time\n" + bucle_de("t = time.process_time()\n"
                                       "while time.process_time() - t < 0.15:\n    pass"),
            {"cpu": 1}),
    "memoria": (bucle_de("x = bytearray(1 << 30)"), {"memoria": 256 << 20}),
    "memoria_al_cargar": ("x = ' ' * (1 << 30)\n" + SOLUCION, {"memoria": 256 << 20}),
    "salida": (bucle_de("import os\nos.write(2, b'x' * 20_000)"), {"salida": 10_000}),
    "basura_en_el_canal": ("import os\nfor fd in range(3, 64):\n    try:\n"
                           "        os.write(fd, b'x' * 20_000)\n    except OSError:\n"
                           "        pass\n" + SOLUCION, {"salida": 10_000}),
    "mata_al_padre": (bucle_de("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"), {}),
    "otro_proceso": (bucle_de("import subprocess\nsubprocess.Popen(['sleep', '60'])"), {}),
    "lee_su_memoria": (bucle_de("open('/proc/self/mem', 'rb')"), {}),
    "salida_al_cargar": ("import os\nfor _ in range(10):\n    os.write(1, b'x' * 2000)\n"
                         + SOLUCION, {"salida": 10_000}),
}


@pytest.fixture(scope="module")
def muertes():
    def uno(nombre):
        codigo, limites = MUERTES[nombre]
        inicio = time.perf_counter()
        r = aislado.calificar(DESAFIO, codigo, challenges.curso(), **limites)
        return nombre, (r, time.perf_counter() - inicio)
    return dict(en_paralelo(uno, list(MUERTES)))


def primera(r):
    return r["pruebas"][0]


def no_probadas_tras_la_primera(r, motivo):
    assert all(p["tipo"] == "no-probada" for p in r["pruebas"][1:]), r["pruebas"]
    assert {p["mensaje"] for p in r["pruebas"][1:]} == {f"no se probó: {motivo}"}
    assert r["superadas"] == 0


def test_os_exit_al_cargar(muertes):
    r, _ = muertes["os_exit_al_cargar"]
    assert r["error"] == {"tipo": "exit", "linea": None, "mensaje": (
        "tu código terminó el proceso con os._exit(3) mientras se cargaba: aquí no se termina "
        "el programa; devuelve el resultado con return.")}
    assert {p["mensaje"] for p in r["pruebas"]} == {"no se probó: tu código no se pudo cargar"}


def test_os_exit_en_una_prueba_dice_cual(muertes):
    r, _ = muertes["os_exit_en_una_prueba"]
    assert r["error"] is None
    assert primera(r)["tipo"] == "exit"
    assert primera(r)["mensaje"] == (
        f"tu código terminó el proceso con os._exit(0) mientras se calificaba «{PRIMERA}»: aquí "
        f"no se termina el programa; devuelve el resultado con return.")
    no_probadas_tras_la_primera(r, f"el proceso se cortó en «{PRIMERA}»")


@pytest.mark.parametrize("nombre, senal", [("sigkill", "SIGKILL"), ("sigsegv", "SIGSEGV"),
                                            ("sigsegv_por_kill", "SIGSEGV")])
def test_una_senal_se_dice_por_su_nombre(muertes, nombre, senal):
    r, _ = muertes[nombre]
    assert primera(r)["tipo"] == "error"
    assert primera(r)["mensaje"].startswith(
        f"el proceso murió por la señal {senal} mientras se calificaba «{PRIMERA}»: ")
    no_probadas_tras_la_primera(r, f"el proceso se cortó en «{PRIMERA}»")


def test_os_fork_no_se_deja(muertes):
    r, _ = muertes["fork"]
    for p in r["pruebas"]:
        assert p["tipo"] == "error"
        assert p["mensaje"].startswith("bucle intentó usar os.fork en la línea 3: ")


@pytest.mark.parametrize("nombre", ["cierra_el_canal", "cambia_el_canal"])
def test_cerrar_o_cambiar_el_canal_suspende(muertes, nombre):
    r, _ = muertes[nombre]
    assert r["superadas"] == 0
    assert r["error"]["mensaje"] == (
        "tu código cerró o cambió el canal por el que el calificador da su resultado mientras "
        "se cargaba: no toques los descriptores de archivo del proceso.")


def test_cerrar_stdout_no_cambia_el_veredicto(muertes):
    r, _ = muertes["cierra_stdout"]
    assert r["error"] is None
    assert r["superadas"] == r["total"] == TOTAL


def test_KeyboardInterrupt_es_un_veredicto(muertes):
    r, _ = muertes["KeyboardInterrupt"]
    assert primera(r)["mensaje"] == (
        f"tu código lanzó KeyboardInterrupt mientras se calificaba «{PRIMERA}»: aquí nadie lo "
        f"interrumpe; devuelve el resultado con return.")
    no_probadas_tras_la_primera(r, f"el proceso se cortó en «{PRIMERA}»")


def test_un_hilo_que_termina_el_proceso(muertes):
    r, _ = muertes["hilo_con_os_exit"]
    assert r["superadas"] == 0
    assert r["error"]["mensaje"].startswith(
        "tu código terminó el proceso con os._exit(5) mientras se cargaba")


def test_limite_de_tiempo_por_prueba_aunque_atrape_todo(muertes):
    r, tarda = muertes["atrapa_todo"]
    assert primera(r)["tipo"] == "tiempo"
    assert primera(r)["mensaje"] == "bucle no terminó en 0,5 s: ¿falta el tope? (y no se dejó detener)"
    no_probadas_tras_la_primera(r, f"«{PRIMERA}» no terminó")
    assert tarda < 0.5 + 0.5 + 4, tarda  # the engine's clock alone would never stop it


def test_limite_de_cpu(muertes):
    r, _ = muertes["cpu"]
    cortada = next(p for p in r["pruebas"] if p["tipo"] == "tiempo")
    assert cortada["mensaje"] == (
        f"tu código gastó más de 1 s de CPU (el límite de tiempo de CPU de cada envío) mientras "
        f"se calificaba «{cortada['nombre']}»: ¿un bucle que trabaja sin fin?")
    despues = r["pruebas"][r["pruebas"].index(cortada) + 1:]
    assert despues and all(p["tipo"] == "no-probada" for p in despues)


def test_limite_de_memoria(muertes):
    r, _ = muertes["memoria"]
    assert primera(r)["tipo"] == "error"
    assert primera(r)["mensaje"] == (
        "bucle se quedó sin memoria en la línea 2: pasó del límite de memoria de cada envío "
        "(256 MB). ¿Una lista que crece sin fin?\n    x = bytearray(1 << 30)")
    r, _ = muertes["memoria_al_cargar"]
    assert r["error"]["mensaje"].startswith(
        "Tu código se quedó sin memoria en la línea 1: pasó del límite de memoria de cada envío "
        "(256 MB).")


def test_limite_de_salida(muertes):
    r, _ = muertes["salida"]
    assert primera(r)["tipo"] == "salida"
    assert primera(r)["mensaje"] == (
        f"tu código escribió más de 10 000 bytes en la salida del proceso (el límite de salida "
        f"de cada envío) mientras se calificaba «{PRIMERA}»: ¿un bucle sin fin que escribe?")
    no_probadas_tras_la_primera(r, f"el proceso se cortó en «{PRIMERA}»")
    r, _ = muertes["salida_al_cargar"]
    assert r["error"]["tipo"] == "salida"
    assert "mientras se cargaba" in r["error"]["mensaje"]


def test_la_basura_en_el_canal_cuenta_como_salida(muertes):
    r, _ = muertes["basura_en_el_canal"]
    assert r["error"]["tipo"] == "salida"
    assert r["error"]["mensaje"].startswith("tu código escribió más de 10 000 bytes en la "
                                            "salida del proceso")


@pytest.mark.parametrize("nombre, que", [
    ("mata_al_padre", "os.kill sobre otro proceso"), ("otro_proceso", "subprocess.Popen"),
    ("lee_su_memoria", "/proc/self/mem")])
def test_lo_que_el_proceso_no_deja_hacer(muertes, nombre, que):
    r, _ = muertes[nombre]
    assert primera(r)["tipo"] == "error"
    assert primera(r)["mensaje"].startswith(f"bucle intentó usar {que} en la línea ")
    assert r["superadas"] == 0
