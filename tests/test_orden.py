"""``python -m challenges`` as a teacher uses it: each submission in a child process whose result
cannot be forged, deaths and limits told in Spanish, batches of files, folders and exported
progress (CPython only; the children run in parallel, as the command runs them)."""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import challenges
from challenges import aislado, lote

RAIZ = Path(__file__).resolve().parent.parent
DESAFIOS = RAIZ / "challenges"
DESAFIO = "bucle-con-tope"
SOLUCION = (DESAFIOS / DESAFIO / "solucion.py").read_text(encoding="utf-8")
INICIAL = (DESAFIOS / DESAFIO / "inicial.py").read_text(encoding="utf-8")
PRIMERA = "la conversación de la lección"
#: How many tests the challenge has, as the engine counts them.
TOTAL = len(challenges.calificador().nombres(DESAFIO))
#: The page of each challenge (the lesson's docname), as the page keys its storage.
PAGINAS = {"bucle-con-tope": "el-bucle", "ejecutar-llamada": "llamar-herramientas",
           "errores-como-observaciones": "errores", "pedir-permiso": "pedir-permiso",
           "pruebas-del-agente": "el-agente", "modelo-api": "modelo-real"}
USO = "uso: python -m challenges <desafío> <archivo.py> [--json]\nerror: "


def sin_reloj(r):
    return {k: v for k, v in r.items() if k != "segundos"}


def bucle_de(cuerpo):
    """A submission whose ``bucle`` does ``cuerpo`` (the first test runs it)."""
    return "def bucle(modelo, inicio, entorno, tope):\n" + textwrap.indent(
        textwrap.dedent(cuerpo), "    ")


def cli(*args, timeout=60, **opciones):
    return subprocess.run([sys.executable, "-m", "challenges", *map(str, args)], cwd=RAIZ,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout,
                          **opciones)


def en_paralelo(funcion, elementos):
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as grupo:
        return list(grupo.map(funcion, elementos))


#: Grades [(challenge, code)] with Calificador.calificar, all in that one process, and prints
#: the results. A process of its own, small: the engine's wall walks sys.modules on each call of
#: the reader's code, and pytest's process holds some 900 modules.
EN_UN_PROCESO = """
import json, sys
sys.path.insert(0, sys.argv[1])
import challenges
c = challenges.calificador()
print(json.dumps([c.calificar(d, codigo) for d, codigo in json.load(sys.stdin)]))
"""


def en_un_proceso(casos):
    p = subprocess.run([sys.executable, "-I", "-c", EN_UN_PROCESO, str(RAIZ)],
                       input=json.dumps(casos), capture_output=True, text=True, timeout=120,
                       check=True)
    return json.loads(p.stdout)


def conocidos():
    """(challenge, file) of every challenge's known-wrong solutions, reference and starter."""
    return [(d, archivo) for d in challenges.desafios()
            for archivo in [*sorted((DESAFIOS / d / "errores").glob("*.py")),
                            DESAFIOS / d / "solucion.py", DESAFIOS / d / "inicial.py"]]


SOLO_BUCLE = SOLUCION[SOLUCION.index("def bucle("):]


@pytest.fixture(scope="module")
def referencia():
    """(challenge, code) → its result in one process, for every known code."""
    casos = [(d, a.read_text(encoding="utf-8")) for d, a in conocidos()] + [(DESAFIO, SOLO_BUCLE)]
    return dict(zip(casos, en_un_proceso(casos)))


@pytest.fixture(scope="module")
def en_proceso(referencia):
    return lambda desafio, codigo: referencia[(desafio, codigo)]


# ------------------------------------------------------------------ the two fooling submissions

#: What a passing run prints last, which the first fooling submission prints itself.
APROBADO = f"{TOTAL} passed, 0 failed"
ENGANO_IMPRIME = f"print({APROBADO!r})\nimport os\nos._exit(0)\n"
ENGANO_ATEXIT = ("import atexit, os\natexit.register(lambda: os._exit(0))\n" + SOLUCION
                 + "\nraise SystemExit\n")


@pytest.fixture(scope="module")
def enganos(tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("enganos")
    archivos = []
    for nombre, codigo in (("imprime", ENGANO_IMPRIME), ("atexit", ENGANO_ATEXIT),
                           ("escribe_en_1", f"import os\nos.write(1, {(APROBADO + chr(10)).encode()!r})\n"
                                            "os._exit(0)\n")):
        archivos.append(carpeta / f"{nombre}.py")
        archivos[-1].write_text(codigo, encoding="utf-8")
    return dict(zip(("imprime", "atexit", "escribe_en_1"),
                    en_paralelo(lambda a: cli(DESAFIO, a), archivos)))


def test_el_que_imprime_12_passed_y_sale_con_os_exit_suspende(enganos):
    p = enganos["imprime"]
    assert p.returncode == 1
    lineas = p.stdout.splitlines()
    assert lineas[0] == ("✘ tu código terminó el proceso con os._exit(0) mientras se cargaba: "
                         "aquí no se termina el programa; devuelve el resultado con return.")
    assert lineas[1] == f"✘ {PRIMERA}: no se probó: tu código no se pudo cargar"
    assert lineas[-1] == f"0 passed, {TOTAL} failed"
    assert APROBADO not in p.stdout


def test_lo_que_escribe_en_la_salida_del_proceso_no_sale_en_la_de_la_orden(enganos):
    p = enganos["escribe_en_1"]
    assert p.returncode == 1
    assert APROBADO not in p.stdout + p.stderr
    assert p.stdout.splitlines()[-1] == f"0 passed, {TOTAL} failed"


def test_el_que_registra_atexit_con_os_exit_y_lanza_SystemExit_suspende(enganos):
    p = enganos["atexit"]
    assert p.returncode == 1
    lineas = p.stdout.splitlines()
    assert lineas[0].startswith("✘ Tu código llamó a sys.exit() (o a exit o quit) en la línea ")
    assert lineas[-1] == f"0 passed, {TOTAL} failed"


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
        r = aislado.calificar(DESAFIO, codigo, **limites)
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


# ------------------------------------------------------------------ the channel

FALSO = {"tipo": "resultado", "resultado": {
    "desafio": DESAFIO, "superadas": 12, "total": 12, "segundos": 0.1, "error": None,
    "pruebas": [{"nombre": f"p{i}", "ok": True, "tipo": "ok", "mensaje": None, "linea": None,
                 "turno": None, "salida": "", "traza": None} for i in range(12)]}}


def falsificador(y_despues):
    """A submission that writes fake result lines (unsigned, signed with a guessed key, with
    every sequence number) to every fd it can, then does ``y_despues``."""
    return textwrap.dedent(f"""
        import hashlib, hmac, json, os
        falso = {FALSO!r}
        lineas = []
        for n in range(20):
            cuerpo = json.dumps({{"m": falso, "n": n}}, sort_keys=True, separators=(",", ":"))
            for clave in (b"", b"0" * 32, bytes(32)):
                firma = hmac.new(clave, cuerpo.encode(), "sha256").hexdigest()
                lineas.append(firma + " " + cuerpo)
            lineas.append(cuerpo)
        texto = ("\\n" + "\\n".join(lineas) + "\\n").encode()
        for fd in range(256):
            try:
                os.write(fd, texto)
            except OSError:
                pass
    """) + y_despues


def test_nadie_falsifica_el_canal():
    casos = [falsificador("import os\nos._exit(0)\n"),
             falsificador(SOLUCION.replace("for _ in range(tope):", "while True:"))]
    sale, sigue = en_paralelo(lambda codigo: aislado.calificar(DESAFIO, codigo), casos)
    assert sale["superadas"] == 0
    assert sale["error"]["mensaje"].startswith("tu código terminó el proceso con os._exit(0)")
    assert 0 < sigue["superadas"] < 12
    assert [p["nombre"] for p in sigue["pruebas"]] == aislado.nombres(DESAFIO)


def test_el_canal_solo_acepta_lo_firmado_y_en_orden():
    import hmac
    clave = os.urandom(32)

    def linea(m, n, con=clave):
        cuerpo = json.dumps({"m": m, "n": n}).encode()
        return hmac.new(con, cuerpo, "sha256").hexdigest().encode() + b" " + cuerpo

    canal = aislado._Canal(clave, 10_000)
    datos = b"\n".join([b"basura sin fin de linea" + linea({"tipo": "x"}, 0),
                        linea({"tipo": "otra clave"}, 0, os.urandom(32)),
                        linea({"tipo": "listo"}, 0), linea({"tipo": "repetido"}, 0),
                        linea({"tipo": "salta"}, 2), b"", linea({"tipo": "empieza"}, 1)])
    # In two pieces, cut inside a line: the channel waits for its end.
    assert canal.leer(datos[:-10]) == [{"tipo": "listo"}]
    assert canal.leer(datos[-10:] + b"\n") == [{"tipo": "empieza"}]
    assert not canal.excedido


def test_el_canal_cuenta_la_salida_en_el_orden_en_que_se_escribio():
    import hmac
    clave = os.urandom(32)

    def linea(m, n):
        cuerpo = json.dumps({"m": m, "n": n}).encode()
        return b"\n" + hmac.new(clave, cuerpo, "sha256").hexdigest().encode() + b" " + cuerpo + b"\n"

    # The child's steps, as it writes them (each line starts with a newline), cost nothing.
    canal = aislado._Canal(clave, 100)
    assert canal.leer(linea({"tipo": "listo"}, 0) + linea({"tipo": "empieza"}, 1)) == [
        {"tipo": "listo"}, {"tipo": "empieza"}]
    assert canal.ajenos == 0
    # What comes before a step in the stream counts before it, byte for byte.
    assert canal.leer(b"x" * 60 + b"\n" + linea({"tipo": "prueba"}, 2)) == [{"tipo": "prueba"}]
    assert (canal.ajenos, canal.excedido) == (61, False)
    # A flood in one read with a step before it and one after: the one before counts, the
    # one after never does, even once more is read.
    canal = aislado._Canal(clave, 100)
    assert canal.leer(linea({"tipo": "empieza"}, 0) + b"x" * 101
                      + linea({"tipo": "prueba"}, 1)) == [{"tipo": "empieza"}]
    assert canal.excedido
    assert canal.leer(linea({"tipo": "resultado"}, 2)) == []
    # A flood that never ends its line counts as it comes.
    canal = aislado._Canal(clave, 100)
    assert canal.leer(b"y" * 50) == [] and not canal.excedido
    assert canal.leer(b"y" * 51) == [] and canal.excedido


# ------------------------------------------------------------------ the same as in one process


@pytest.fixture(scope="module")
def lotes_conocidos(tmp_path_factory):
    """For each challenge, one batch command (in parallel) over its folder of known-wrong
    solutions and, as files, its reference and its starter (for «bucle-con-tope», also a file
    with only the reference's ``bucle``): {challenge: (the files, the process)}."""
    solo = tmp_path_factory.mktemp("solo") / "solo_bucle.py"
    solo.write_text(SOLO_BUCLE, encoding="utf-8")
    lotes = {}
    for desafio in challenges.desafios():
        base = DESAFIOS / desafio
        archivos = [a for d, a in conocidos() if d == desafio]
        argumentos = [base / "errores", base / "solucion.py", base / "inicial.py"]
        if desafio == DESAFIO:
            archivos.append(solo)
            argumentos.append(solo)
        lotes[desafio] = (archivos, argumentos)
    procesos = en_paralelo(lambda d: cli(d, *lotes[d][1], "--json", timeout=120), list(lotes))
    return {d: (lotes[d][0], p) for d, p in zip(lotes, procesos)}


def test_los_veredictos_son_los_de_un_solo_proceso(lotes_conocidos, en_proceso):
    """Every known-wrong solution, reference and starter of every challenge, graded by the
    batch command (folders and files), gets exactly the in-process result."""
    total = 0
    for desafio, (archivos, p) in lotes_conocidos.items():
        assert p.returncode == 1, p.stderr
        envios = json.loads(p.stdout)["envios"]
        assert [Path(e["archivo"]) for e in envios] == archivos
        for archivo, e in zip(archivos, envios):
            r = en_proceso(desafio, archivo.read_text(encoding="utf-8"))
            assert sin_reloj(e["resultado"]) == sin_reloj(r), archivo
            assert e["desafio"] == desafio
            assert (e["superadas"], e["total"]) == (r["superadas"], r["total"])
            pasa = archivo.name in ("solucion.py", "solo_bucle.py")
            assert (r["superadas"] == r["total"]) == pasa, archivo
        total += len(envios)
    assert total > 40


# ------------------------------------------------------------------ batches


def exportar(datos, curso="el-bucle", version=1):
    return json.dumps({"curso": curso, "version": version, "datos": datos}, ensure_ascii=False)


def clave(desafio):
    return f"bucle:el-bucle:{PAGINAS[desafio]}:{desafio}"


def guardado(codigo):
    return {"codigo": codigo, "mejor": {"superadas": 12, "total": 12}, "fallos": 0,
            "superado": True}  # what the page says: never believed


@pytest.fixture(scope="module")
def progresos(tmp_path_factory):
    """Two readers' exports (one in a folder), from real known-wrong and reference code."""
    carpeta = tmp_path_factory.mktemp("progresos")
    (carpeta / "clase").mkdir()
    errores = {d: challenges.errores_conocidos(d)[0] for d in challenges.desafios()}
    ana = {clave(d): guardado(e.codigo) for d, e in errores.items()}
    ana["bucle:el-bucle:el-bucle:celda-1"] = "print('otra cosa')"  # a cell: not graded
    ana["bucle:el-bucle:progreso"] = {"el-bucle": {"preguntas": {"p1": True}}}
    luis = {clave(d): guardado((DESAFIOS / d / "solucion.py").read_text(encoding="utf-8"))
            for d in challenges.desafios()}
    luis[clave("ejecutar-llamada")] = guardado(None)  # null: the starter
    (carpeta / "ana.json").write_text(exportar(ana), encoding="utf-8")
    (carpeta / "clase" / "luis.json").write_text(exportar(luis), encoding="utf-8")
    esperado = {(str(carpeta / "ana.json"), d): e.archivo.read_text(encoding="utf-8")
                for d, e in errores.items()}
    for d in challenges.desafios():
        esperado[(str(carpeta / "clase" / "luis.json"), d)] = (
            DESAFIOS / d / ("inicial.py" if d == "ejecutar-llamada" else "solucion.py")
        ).read_text(encoding="utf-8")
    return carpeta, esperado


def test_un_lote_de_archivos_y_carpetas_en_una_tabla(en_proceso, tmp_path):
    carpeta = tmp_path / "clase"
    carpeta.mkdir()
    errores = challenges.errores_conocidos("ejecutar-llamada")[:2]
    for e in errores:
        (carpeta / e.archivo.name).write_text(e.codigo, encoding="utf-8")
    suelto = DESAFIOS / "ejecutar-llamada" / "solucion.py"
    p = cli("ejecutar-llamada", carpeta, suelto.relative_to(RAIZ))
    assert p.returncode == 1, p.stderr
    lineas = p.stdout.splitlines()
    assert lineas[0].split() == ["archivo", "desafío", "superadas", "primera", "fallida"]
    archivos = [carpeta / e.archivo.name for e in errores] + [suelto]
    assert len(lineas) == len(archivos) + 2
    for archivo, linea in zip(archivos, lineas[1:]):
        r = en_proceso("ejecutar-llamada", archivo.read_text(encoding="utf-8"))
        primera = next((x["nombre"] for x in r["pruebas"] if not x["ok"]), "—")
        nombre = archivo if archivo != suelto else suelto.relative_to(RAIZ)
        assert linea.split(None, 3) == [str(nombre), "ejecutar-llamada",
                                        f"{r['superadas']}/{r['total']}", primera], linea
    assert lineas[-1] == "3 envíos: 1 supera todas las pruebas, 2 no"


def test_un_lote_de_progresos_en_json_vuelve_a_calificar_el_codigo(progresos, en_proceso):
    carpeta, esperado = progresos
    p = cli("--progreso", carpeta / "ana.json", carpeta / "clase", "--json")
    assert p.returncode == 1, p.stderr
    salida = json.loads(p.stdout)
    assert salida["problemas"] == []
    vistos = {(e["archivo"], e["desafio"]): e for e in salida["envios"]}
    assert set(vistos) == set(esperado)
    for (archivo, desafio), codigo in esperado.items():
        e = vistos[(archivo, desafio)]
        r = en_proceso(desafio, codigo)
        assert sin_reloj(e["resultado"]) == sin_reloj(r), (archivo, desafio)
        assert (e["superadas"], e["total"]) == (r["superadas"], r["total"])
    # Luis kept the starter of ejecutar-llamada: it fails, whatever his export says.
    luis = str(carpeta / "clase" / "luis.json")
    assert vistos[(luis, "ejecutar-llamada")]["superadas"] == 0
    assert vistos[(luis, DESAFIO)]["superadas"] == TOTAL


def test_csv_con_su_cabecera_y_una_fila_por_envio(progresos, en_proceso):
    carpeta, esperado = progresos
    p = cli("--progreso", carpeta, "--csv")
    assert p.returncode == 1, p.stderr
    assert p.stdout.splitlines()[0] == "archivo,desafio,superadas,total,primera_fallida"
    filas = list(csv.DictReader(io.StringIO(p.stdout)))
    assert len(filas) == len(esperado)
    for fila in filas:
        r = en_proceso(fila["desafio"], esperado[(fila["archivo"], fila["desafio"])])
        assert (int(fila["superadas"]), int(fila["total"])) == (r["superadas"], r["total"])
        assert fila["primera_fallida"] == next((x["nombre"] for x in r["pruebas"] if not x["ok"]), "")


def test_sale_con_0_si_todo_pasa(tmp_path):
    datos = {clave(d): guardado((DESAFIOS / d / "solucion.py").read_text(encoding="utf-8"))
             for d in challenges.desafios()}
    (tmp_path / "bien.json").write_text(exportar(datos), encoding="utf-8")
    p = cli("--progreso", tmp_path / "bien.json")
    assert p.returncode == 0, p.stdout + p.stderr
    n = len(challenges.desafios())
    assert n == len(PAGINAS)
    assert p.stdout.splitlines()[-1] == f"{n} envíos: {n} superan todas las pruebas, 0 no"


def test_las_entradas_malas_son_una_linea_cada_una_y_el_resto_se_califica(tmp_path):
    (tmp_path / "latin1.py").write_bytes("# año\n".encode("latin-1") + SOLUCION.encode())
    (tmp_path / "vacia").mkdir()
    (tmp_path / "bien.py").write_text(SOLUCION, encoding="utf-8")
    p = cli(DESAFIO, tmp_path / "latin1.py", tmp_path / "vacia", tmp_path / "no-existe.py",
            tmp_path / "bien.py")
    assert p.returncode == 1
    assert p.stderr.splitlines() == [
        f"aviso: {tmp_path / 'vacia'}: la carpeta no tiene ningún archivo .py",
        f"aviso: {tmp_path / 'no-existe.py'}: no existe",
        f"aviso: {tmp_path / 'latin1.py'}: no está en UTF-8: no se puede leer",
    ]
    assert p.stdout.splitlines()[1].split()[:3] == [str(tmp_path / "bien.py"), DESAFIO, f"{TOTAL}/{TOTAL}"]

    bien = {clave(DESAFIO): guardado(SOLUCION)}
    malos = {
        "otro-curso.json": (exportar(bien, curso="otro-curso"),
                            "es un progreso de otro curso («otro-curso»), no de «el-bucle»"),
        "vieja.json": (exportar(bien, version=0),
                       "es un progreso de la versión 0 del curso; esta orden lee la versión 1"),
        "no-export.json": ('{"hola": 1}', "no es un progreso exportado (le faltan «curso», "
                                          "«version» o «datos»)"),
        "roto.json": ("{no es json", "no es un progreso exportado: no es JSON"),
        "sin-desafios.json": (exportar({}), "no tiene ningún desafío guardado"),
        "valor-raro.json": (exportar({clave(DESAFIO): {"codigo": 3}}),
                            f"el valor de «{clave(DESAFIO)}» no es el de un desafío"),
    }
    for nombre, (texto, _) in malos.items():
        (tmp_path / nombre).write_text(texto, encoding="utf-8")
    (tmp_path / "bien.json").write_text(exportar(bien), encoding="utf-8")
    (tmp_path / "latin1.json").write_bytes(exportar(bien).replace("el-bucle", "el-bucle\xf1")
                                           .encode("latin-1"))
    p = cli("--progreso", tmp_path / "vacia", *(tmp_path / n for n in malos),
            tmp_path / "latin1.json", tmp_path / "bien.json")
    assert p.returncode == 1
    avisos = p.stderr.splitlines()
    assert avisos[0] == f"aviso: {tmp_path / 'vacia'}: la carpeta no tiene ningún archivo .json"
    for (nombre, (_, problema)), aviso in zip(malos.items(), avisos[1:]):
        assert aviso.startswith(f"aviso: {tmp_path / nombre}: {problema}"), aviso
    assert avisos[-1] == f"aviso: {tmp_path / 'latin1.json'}: no está en UTF-8: no se puede leer"
    assert len(avisos) == len(malos) + 2
    filas = p.stdout.splitlines()[1:-1]
    assert [f.split()[:3] for f in filas] == [[str(tmp_path / "bien.json"), DESAFIO, f"{TOTAL}/{TOTAL}"]]


@pytest.mark.parametrize("args, problema", [
    (("--progreso",), "hacen falta los progresos exportados"),
    ((DESAFIO, "challenges", "--json", "--csv"), "--json y --csv no van juntas"),
    (("no-existe", "challenges"), "no hay ningún desafío «no-existe»"),
    ((DESAFIO, "challenges", "--rapido"), "no hay ninguna opción --rapido"),
], ids=["progreso sin nada", "json y csv", "desafío desconocido", "opción desconocida"])
def test_errores_de_uso_de_un_lote(args, problema):
    p = cli(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith(USO + problema)


def test_sin_nada_que_calificar_sale_con_2(tmp_path):
    p = cli("--progreso", tmp_path)
    assert p.returncode == 2
    assert p.stderr.splitlines() == [
        f"aviso: {tmp_path}: la carpeta no tiene ningún archivo .json",
        "error: no hay nada que calificar"]


def test_si_el_proceso_no_arranca_no_hay_veredicto():
    envio = lote.Envio("a.py", DESAFIO, SOLUCION)
    [hecho] = lote.calificar([envio], arranque=0.001)
    assert hecho.resultado is None and not hecho.aprobado
    assert hecho.problema == "el proceso del calificador no arrancó a tiempo"


def test_si_el_calificador_falla_la_orden_sale_con_2(tmp_path):
    shutil.copytree(DESAFIOS, tmp_path / "challenges", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "challenges" / DESAFIO / "pruebas.py").write_text("raise ImportError('roto')\n")
    shutil.copytree(RAIZ / "runtime", tmp_path / "runtime",
                    ignore=shutil.ignore_patterns("__pycache__"))
    p = subprocess.run([sys.executable, "-m", "challenges", DESAFIO,
                        tmp_path / "challenges" / DESAFIO / "solucion.py"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(RAIZ)})
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.splitlines()[-1] == "error: el calificador falló: ImportError: roto"


def test_la_barra_de_progreso_solo_en_una_terminal(tmp_path):
    (tmp_path / "a.py").write_text(SOLUCION, encoding="utf-8")
    (tmp_path / "b.py").write_text(INICIAL, encoding="utf-8")
    maestro, esclavo = pty.openpty()
    proceso = subprocess.Popen([sys.executable, "-m", "challenges", DESAFIO, tmp_path],
                               cwd=RAIZ, stdout=subprocess.PIPE, stderr=esclavo)
    os.close(esclavo)
    visto = b""
    while True:
        listos, _, _ = select.select([maestro], [], [], 30)
        if not listos:
            break
        try:
            trozo = os.read(maestro, 4096)
        except OSError:  # the command ended: the pty is closed
            break
        if not trozo:
            break
        visto += trozo
    salida = proceso.communicate(timeout=30)[0].decode()
    os.close(maestro)
    assert proceso.returncode == 1
    assert b"] 2/2 calificados" in visto
    assert visto.endswith(b"\r\x1b[K")
    assert "calificados" not in salida
    assert cli(DESAFIO, tmp_path).stderr == ""  # not a terminal: no bar
