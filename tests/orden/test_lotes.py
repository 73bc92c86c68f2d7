"""``python -m challenges`` over batches: files, folders and exported progress, graded in
parallel, each exactly as in one process; the table, the JSON and the CSV; exit codes, usage
errors and the progress bar."""

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
from pathlib import Path

import pytest

import challenges
from widgets.aislamiento import lote
from tests.orden.comun import (DESAFIO, DESAFIOS, INICIAL, PAGINAS, RAIZ, SOLUCION, TOTAL, USO, cli,
                               en_paralelo, sin_reloj)


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


#: How many of each other challenge's known-wrong solutions the batch grades as files (all of
#: them are graded, one by one, by their challenge's own tests and by the build).
MUESTRA = 3


def lotes(solo: Path):
    """{challenge: (the files the batch grades, in its order; its arguments)}: «bucle-con-tope»'s
    folder of known-wrong solutions whole, with its reference, its starter and a file with only the
    reference's ``bucle``; for every other challenge, as files, its reference, its starter and
    its first :data:`MUESTRA` known-wrong solutions."""
    resultado = {}
    for desafio in challenges.desafios():
        base = DESAFIOS / desafio
        errores = sorted((base / "errores").glob("*.py"))
        otros = [base / "solucion.py", base / "inicial.py"]
        if desafio == DESAFIO:
            resultado[desafio] = ([*errores, *otros, solo], [base / "errores", *otros, solo])
        else:
            archivos = [*errores[:MUESTRA], *otros]
            resultado[desafio] = (archivos, archivos)
    return resultado


SOLO_BUCLE = SOLUCION[SOLUCION.index("def bucle("):]


@pytest.fixture(scope="module")
def solo(tmp_path_factory) -> Path:
    """A file with only the reference's ``bucle``."""
    archivo = tmp_path_factory.mktemp("solo") / "solo_bucle.py"
    archivo.write_text(SOLO_BUCLE, encoding="utf-8")
    return archivo


@pytest.fixture(scope="module")
def referencia(solo):
    """(challenge, code) → its result in one process, for every code the batches grade (and the
    ones the other tests grade)."""
    casos = {(d, a.read_text(encoding="utf-8")) for d, (archivos, _) in lotes(solo).items()
             for a in archivos}
    casos |= {(d, e.codigo) for d in challenges.desafios() for e in challenges.errores_conocidos(d)[:2]}
    casos = sorted(casos)
    return dict(zip(casos, en_un_proceso(casos), strict=True))


@pytest.fixture(scope="module")
def en_proceso(referencia):
    return lambda desafio, codigo: referencia[(desafio, codigo)]


# ------------------------------------------------------------------ the same as in one process


@pytest.fixture(scope="module")
def lotes_conocidos(solo):
    """One batch command (in parallel) per challenge over its files of :func:`lotes`:
    {challenge: (the files, the process)}."""
    todos = lotes(solo)
    procesos = en_paralelo(lambda d: cli(d, *todos[d][1], "--json", timeout=120), list(todos))
    return {d: (todos[d][0], p) for d, p in zip(todos, procesos, strict=True)}


def test_los_veredictos_son_los_de_un_solo_proceso(lotes_conocidos, en_proceso):
    """A whole folder of known-wrong solutions and, for every challenge, its reference, its
    starter and some of its known-wrong solutions, graded by the batch command (folders and
    files), get exactly the in-process result."""
    total = 0
    for desafio, (archivos, p) in lotes_conocidos.items():
        assert p.returncode == 1, p.stderr
        envios = json.loads(p.stdout)["envios"]
        assert [Path(e["archivo"]) for e in envios] == archivos
        for archivo, e in zip(archivos, envios, strict=True):
            r = en_proceso(desafio, archivo.read_text(encoding="utf-8"))
            assert sin_reloj(e["resultado"]) == sin_reloj(r), archivo
            assert e["desafio"] == desafio
            assert (e["superadas"], e["total"]) == (r["superadas"], r["total"])
            pasa = archivo.name in ("solucion.py", "solo_bucle.py")
            assert (r["superadas"] == r["total"]) == pasa, archivo
        total += len(envios)
    assert total > 50


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
    for archivo, linea in zip(archivos, lineas[1:], strict=False):
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
    for (nombre, (_, problema)), aviso in zip(malos.items(), avisos[1:], strict=False):
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
    [hecho] = lote.calificar([envio], challenges.curso(), arranque=0.001)
    assert hecho.resultado is None and not hecho.aprobado
    assert hecho.problema == "el proceso del calificador no arrancó a tiempo"


def test_si_el_calificador_falla_la_orden_sale_con_2(tmp_path):
    shutil.copytree(DESAFIOS, tmp_path / "challenges", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "challenges" / DESAFIO / "pruebas.py").write_text("raise ImportError('roto')\n")
    shutil.copytree(RAIZ / "runtime", tmp_path / "runtime",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(RAIZ / "conf.py", tmp_path / "conf.py")
    p = subprocess.run([sys.executable, "-m", "challenges", DESAFIO,
                        tmp_path / "challenges" / DESAFIO / "solucion.py"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(RAIZ)}, check=False)
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
