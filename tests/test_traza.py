"""Traces: the recorder (widgets/calificador/trazas.py) on the real loop of «El bucle» and on buggy loops,
the `traza` directive that embeds one trace per cap, and the build errors of a bad scenario."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from runtime import espacio
from tests.conftest import ROOT, construir
from widgets.calificador import trazas

TRAZAS_PY = ROOT / "widgets" / "calificador" / "trazas.py"
SOLUCION = ROOT / "challenges" / "bucle-con-tope" / "solucion.py"
LISTA_COMPLETA = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"
FINAL = "He añadido a lista.txt tomates, pepino, pimiento, ajo, huevos y cebolla."




def pagina(codigo: str = "") -> dict:
    """A page's namespace: the runtime, the reference loop, then ``codigo`` (a reader's loop)."""
    ns = espacio("entorno", "guionizado", "escenarios")
    exec(compile(SOLUCION.read_text(encoding="utf-8"), str(SOLUCION), "exec"), ns)
    exec(compile(codigo, "<tu código>", "exec"), ns)
    return ns


def trazar(ns: dict, tope: int, bucle: str = "bucle", **opciones) -> dict:
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    return trazas.trazar(ns[bucle], modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), tope, **opciones)


def mensajes(traza: dict, indices: list[int]) -> list[dict]:
    return [traza["mensajes"][i] for i in indices]


def como_json(x):
    """Tuples as lists, as JSON has them."""
    return json.loads(json.dumps(x))


# ------------------------------------------------------------ the facts of «El bucle»

@pytest.mark.parametrize("tope", range(1, 11))
def test_the_trace_of_el_bucle_for_every_cap(tope):
    ns = pagina()
    traza = trazar(ns, tope)
    turnos = min(tope, 4)
    llamadas_al_modelo = [e for e in traza["eventos"] if e["tipo"] == "modelo"]
    final = traza["eventos"][-1]

    assert [e["turno"] for e in llamadas_al_modelo] == list(range(1, turnos + 1))
    assert [len(e["M"]) for e in llamadas_al_modelo] == [2, 4, 6, 8][:turnos]
    # each call gets exactly the messages the script expects in that turn
    guion = ns["guion_bucle"]()
    for e in llamadas_al_modelo:
        recibidos = [[m["rol"], m["contenido"]] for m in mensajes(traza, e["M"])]
        assert recibidos == como_json(guion[e["turno"] - 1][0])
        assert e["herramientas"] == ["listar", "leer", "escribir", "buscar"]
    assert final["tipo"] == "devuelve"
    M = mensajes(traza, final["M"])
    if tope >= 4:
        assert (final["motivo"], final["texto"], len(M)) == ("fin", FINAL, 9)
        assert M[-1]["lineas"] == ["texto: «He añadido a lista.txt tomates, pepino, pimiento,…»"]
    else:
        assert (final["motivo"], final["texto"], len(M)) == ("tope", None, 2 + 2 * tope)
        assert M[-1]["rol"] == "usuario" and M[-1]["contenido"][0]["type"] == "tool_result"
    if tope == 3:
        assert M[-1]["lineas"] == ["resultado t5: «escrito lista.txt (68 caracteres)»"]
    escrita = tope >= 3
    assert traza["entorno_final"]["lista.txt"] == (LISTA_COMPLETA if escrita else "pan, leche, patatas")
    assert traza["entorno"]["lista.txt"] == "pan, leche, patatas"


def test_calls_are_recorded_with_their_ids_results_and_changes():
    traza = trazar(pagina(), 10)
    llamadas = [e for e in traza["eventos"] if e["tipo"] == "llamada"]
    assert [(e["turno"], e["id"], e["nombre"]) for e in llamadas] == [
        (1, "t1", "listar"), (2, "t2", "leer"), (2, "t3", "leer"), (2, "t4", "leer"), (3, "t5", "escribir")]
    assert llamadas[0]["resultado"] == "gazpacho.txt\ntortilla.txt"
    assert llamadas[0]["linea"] == "llamada t1 listar(carpeta='recetas')"
    assert [e["cambios"] for e in llamadas[:4]] == [[]] * 4
    assert llamadas[4]["cambios"] == [
        {"ruta": "lista.txt", "antes": "pan, leche, patatas", "despues": LISTA_COMPLETA}]
    assert traza["eventos"][-1]["cambios"] == []


def permiso() -> dict:
    """A page of «Pedir permiso»: the runtime with permisos.py and its reference loop."""
    ns = espacio("entorno", "guionizado", "escenarios", "permisos")
    solucion = ROOT / "challenges" / "pedir-permiso" / "solucion.py"
    exec(compile(solucion.read_text(encoding="utf-8"), str(solucion), "exec"), ns)
    return ns


@pytest.mark.parametrize("respuestas", [["sí", "no"], ["no", "sí"]])
def test_each_question_to_the_user_is_an_event_before_its_call(respuestas):
    ns = permiso()
    traza = trazas.trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](respuestas)),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3,
                          preguntar=ns["Respuestas"](respuestas))
    tipos = [(e["tipo"], e.get("id")) for e in traza["eventos"] if e["tipo"] in ("permiso", "llamada")]
    si = [r == "sí" for r in respuestas]
    esperados = [("llamada", "p1"), ("llamada", "p2"), ("permiso", "p3")]
    esperados += [("llamada", "p3")] if si[0] else []
    esperados += [("permiso", "p4")] + ([("llamada", "p4")] if si[1] else [])
    assert tipos == esperados
    p3 = next(e for e in traza["eventos"] if e["tipo"] == "permiso")
    assert p3 == {"tipo": "permiso", "turno": 2, "id": "p3", "nombre": "escribir",
                  "entrada": {"ruta": "lista.txt", "contenido": "pan, leche, patatas, huevos, cebolla"},
                  "linea": "llamada p3 escribir(ruta='lista.txt', contenido='pan, leche, patatas, "
                           "huevos, cebolla')",
                  "pregunta": "¿Permites escribir lista.txt?", "permitido": si[0]}
    final = traza["eventos"][-1]
    assert (final["tipo"], final["motivo"], final["n"]) == ("devuelve", "fin", 7)
    json.dumps(traza)


def test_without_preguntar_the_loop_keeps_its_default_and_nothing_is_asked():
    ns = permiso()
    traza = trazas.trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](["no", "no"])),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3)
    assert not [e for e in traza["eventos"] if e["tipo"] == "permiso"]
    assert traza["eventos"][-1]["motivo"] == "fin" and traza["entorno_final"] == ns["ENTORNO"]


def test_a_user_who_runs_out_of_answers_is_the_error_of_its_event():
    ns = permiso()
    traza = trazas.trazar(ns["bucle"], ns["ModeloGuionizado"](ns["guion_permiso"](["sí", "no"])),
                          ns["INICIO_PERMISO"], dict(ns["ENTORNO"]), 3,
                          preguntar=ns["Respuestas"](["sí"]))
    ultimo = [e for e in traza["eventos"] if e["tipo"] == "permiso"][-1]
    assert ultimo["id"] == "p4" and ultimo["error"]["clase"] == "RuntimeError"
    assert "permitido" not in ultimo
    assert traza["eventos"][-1]["tipo"] == "excepcion"


def test_imported_and_exec_ed_recorders_give_the_same_trace():
    ns = pagina()
    exec(TRAZAS_PY.read_text(encoding="utf-8"), ns)
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    # exec'd: the defaults (FUNCIONES, muestra) come from the loop's namespace
    por_exec = ns["trazar"](ns["bucle"], modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert por_exec == trazar(pagina(), 10)
    assert json.loads(json.dumps(por_exec, allow_nan=False)) == por_exec


# ------------------------------------------------------------------ buggy loops

SIN_HERRAMIENTAS = '''
def sin_herramientas(modelo, inicio, entorno, tope):
    M = list(inicio)
    respuesta = modelo(M)
    return ("fin", "", M)
'''

TRAGA_TODO = '''
def traga_todo(modelo, inicio, entorno, tope):
    M = list(inicio)
    while True:
        try:
            leer(entorno, ruta="lista.txt")
            modelo(M, HERRAMIENTAS)
        except Exception:
            pass
'''

RARO = '''
class Cosa:
    def __repr__(self):
        return "<cosa>"

def raro(modelo, inicio, entorno, tope):
    M = list(inicio)
    M.append(("usuario", [{1, 2}, float("nan"), Cosa()]))
    M.append(M)
    M.append(M)
    modelo(M, HERRAMIENTAS)
'''

DIRECTO = '''
def directo(modelo, inicio, entorno, tope):
    M = list(inicio)
    respuesta = modelo(M, HERRAMIENTAS)
    M.append(("asistente", respuesta))
    M.append(("usuario", [resultado("t1", listar(entorno, carpeta="recetas"))]))
    leer(entorno, ruta="lista.txt")
    entorno["nuevo.txt"] = "hola"
    return 42
'''


def test_an_exception_of_the_loop_is_the_last_event_with_its_line():
    ns = pagina(SIN_HERRAMIENTAS)
    traza = trazar(ns, 10, "sin_herramientas")
    modelo, final = traza["eventos"]
    assert modelo["error"]["clase"] == "TypeError"
    assert "modelo(M, HERRAMIENTAS)" in modelo["error"]["mensaje"]
    assert final["tipo"] == "excepcion" and final["clase"] == "TypeError"
    assert final["linea"] == 4  # `respuesta = modelo(M)` in SIN_HERRAMIENTAS


def test_a_loop_that_swallows_every_error_is_cut_and_the_tools_are_restored():
    ns = pagina(TRAGA_TODO)
    originales = dict(ns["FUNCIONES"])
    leer = ns["leer"]
    traza = trazar(ns, 10, "traga_todo", max_eventos=25)
    assert traza["eventos"][-1] == {"tipo": "cortada", "eventos": 25, "cambios": []}
    assert len(traza["eventos"]) == 26
    # the global `leer` the loop calls was recorded too, then put back
    assert [e["tipo"] for e in traza["eventos"][:4]] == ["llamada", "modelo", "llamada", "modelo"]
    assert ns["FUNCIONES"] == originales and ns["leer"] is leer


PARADO = '''
class SinTiempo(BaseException):
    pass

def parado(modelo, inicio, entorno, tope):
    M = list(inicio)
    respuesta = modelo(M, HERRAMIENTAS)
    leer(entorno, ruta="lista.txt")
    raise MOTIVO
'''


def test_a_time_limit_keeps_the_trace_and_an_interrupt_propagates():
    ns = pagina(PARADO)
    ns["MOTIVO"] = ns["SinTiempo"]()
    traza = trazar(ns, 10, "parado")
    assert [e["tipo"] for e in traza["eventos"]] == ["modelo", "llamada", "excepcion"]
    assert (traza["eventos"][-1]["clase"], traza["eventos"][-1]["linea"]) == ("SinTiempo", 9)
    ns["MOTIVO"] = KeyboardInterrupt()
    leer = ns["leer"]
    with pytest.raises(KeyboardInterrupt):
        trazar(ns, 10, "parado")
    assert ns["leer"] is leer and ns["FUNCIONES"]["leer"] is leer


class Veredicto(Exception):
    """A grader's verdict, raised outside the reader's code from the reader's error."""


def test_a_wrapped_loop_is_recorded_as_the_function_it_wraps():
    ns = pagina(PARADO)
    ns["MOTIVO"] = ValueError("mal")

    def con_limite(*args):  # a grader's wrapper, defined in another module
        try:
            return ns["parado"](*args)
        except Exception as error:
            raise Veredicto("tu bucle lanzó ValueError") from error

    con_limite.__wrapped__ = ns["parado"]
    modelo = ns["ModeloGuionizado"](ns["guion_bucle"]())
    # no funciones, no muestra: they come from the wrapped function's namespace
    traza = trazas.trazar(con_limite, modelo, ns["INICIO_BUCLE"], dict(ns["ENTORNO"]), 10)
    assert [e["tipo"] for e in traza["eventos"]] == ["modelo", "llamada", "excepcion"]
    assert traza["eventos"][1]["linea"] == "llamada None leer(ruta='lista.txt')"
    assert (traza["eventos"][-1]["clase"], traza["eventos"][-1]["linea"]) == ("Veredicto", 9)


def test_whatever_a_loop_puts_in_M_the_trace_is_json():
    ns = pagina(RARO)
    traza = trazar(ns, 10, "raro")
    json.dumps(traza, allow_nan=False)
    recibido = traza["eventos"][0]
    assert recibido["n"] == 5
    assert traza["mensajes"][recibido["M"][2]]["contenido"] == ["{1, 2}", "nan", "<cosa>"]
    assert traza["eventos"][-1]["clase"] == "GuionRoto"


def test_direct_calls_unmatched_calls_odd_returns_and_untracked_changes():
    ns = pagina(DIRECTO)
    traza = trazar(ns, 10, "directo")
    llamadas = [e for e in traza["eventos"] if e["tipo"] == "llamada"]
    assert [(e["id"], e["nombre"]) for e in llamadas] == [("t1", "listar"), (None, "leer")]
    assert llamadas[1]["linea"] == "llamada None leer(ruta='lista.txt')"
    final = traza["eventos"][-1]
    assert final["tipo"] == "devuelve"
    assert (final["motivo"], final["M"], final["valor"]) == (None, None, "42")
    assert final["cambios"] == [{"ruta": "nuevo.txt", "antes": None, "despues": "hola"}]
    assert traza["entorno_final"]["nuevo.txt"] == "hola"


# ------------------------------------------------------------ the directive's output

def datos_de(html: Path, ident: str) -> dict:
    texto = html.read_text(encoding="utf-8")
    m = re.search(rf'<bucle-traza [^>]*id="{ident}"[^>]*>(.*?)</bucle-traza>', texto, re.S)
    assert m, f"no trace {ident} in {html}"
    datos = re.search(r'<script type="application/json" class="bucle-datos">(.*?)</script>', m.group(1), re.S)
    return {"html": m.group(1), "datos": json.loads(datos.group(1))}


def test_the_directive_embeds_the_reference_loop_trace_for_every_cap(sitio_de_prueba):
    salida = sitio_de_prueba("trazas")
    widget = datos_de(salida / "index.html", "el-bucle")
    datos = widget["datos"]
    assert (datos["titulo"], datos["tope"]) == ("El bucle, paso a paso", 10)
    assert list(datos["trazas"]) == [str(t) for t in range(1, 11)]
    ns = pagina()
    for tope in range(1, 11):
        assert datos["trazas"][str(tope)] == trazar(ns, tope)
    # without JavaScript: the final M of cap 10, one item per message, one line per block
    final = re.search(r'<ol class="[^"]*bucle-traza-final[^"]*" start="0">(.*)</ol>', widget["html"], re.S)
    mensajes_finales = re.findall(r"<li><p><strong>(\w+)</strong></p>", final.group(1))
    assert mensajes_finales == ["sistema", "usuario"] + ["asistente", "usuario"] * 3 + ["asistente"]
    assert "M tiene 9 mensajes" in widget["html"]
    assert "resultado</span> <span class=\"pre\">t5:" in final.group(1)


def test_a_trace_with_its_own_environment_and_cap(sitio_de_prueba):
    datos = datos_de(sitio_de_prueba("trazas") / "otra.html", "traza-1")["datos"]
    assert list(datos["trazas"]) == ["1", "2", "3"]
    uno, dos = datos["trazas"]["1"], datos["trazas"]["2"]
    assert uno["entorno"] == {"hola.txt": "hola"}
    assert (uno["eventos"][-1]["motivo"], uno["entorno_final"]) == ("tope", {"hola.txt": "adiós"})
    assert (dos["eventos"][-1]["motivo"], dos["eventos"][-1]["texto"]) == ("fin", "Hecho.")


def test_a_trace_reads_the_runtime_with_open_url_as_a_cell_does(sitio_de_prueba):
    """The line a cell loads the runtime with works in a trace, at build time: ``open_url``
    resolves against the page and reads the published runtime from the author's folder."""
    datos = datos_de(sitio_de_prueba("trazas") / "otra.html", "traza-2")["datos"]
    comienzo = (ROOT / "runtime" / "entorno.py").read_text(encoding="utf-8")[:60]
    assert datos["trazas"]["1"]["entorno"] == {"comienzo.txt": comienzo}
    assert datos["trazas"]["1"]["eventos"][-1]["motivo"] == "fin"


def test_a_trace_on_a_real_folder_shows_each_steps_changes_to_its_files(sitio_de_prueba):
    """Lesson 8's project (runtime/escenario_de_ficheros.py) under the loop of «Pedir permiso»
    with the folder's tools: every cap starts from a copy of the project, the trace's
    environment is the folder's files, and only the edit changes one; the user is asked before
    each run of the tests and before the edit, never before a search or a read."""
    datos = datos_de(sitio_de_prueba("trazas") / "otra.html", "traza-3")["datos"]
    proyecto = espacio("entorno", "guionizado", "pruebas_de_carpeta", "ficheros", "herramientas_de_ficheros",
                       "escenario_de_ficheros")["PROYECTO_TIENDA"]
    arreglado = proyecto["descuentos.py"].replace("if unidades > ", "if unidades >= ")
    for tope, traza in datos["trazas"].items():
        assert traza["entorno"] == proyecto, tope  # the copy of its cap, untouched before
    seis = datos["trazas"]["6"]
    assert (seis["eventos"][-1]["motivo"], seis["entorno_final"]) == ("fin", {**proyecto, "descuentos.py": arreglado})
    pasos = [(e["tipo"], e.get("id"), e.get("nombre")) for e in seis["eventos"] if e["tipo"] in ("llamada", "permiso")]
    assert pasos == [("permiso", "f1", "ejecutar_pruebas"), ("llamada", "f1", "ejecutar_pruebas"),
                     ("llamada", "f2", "buscar_en"), ("llamada", "f3", "leer_lineas"),
                     ("permiso", "f4", "editar"), ("llamada", "f4", "editar"),
                     ("permiso", "f5", "ejecutar_pruebas"), ("llamada", "f5", "ejecutar_pruebas")]
    cambios = {e["id"]: e["cambios"] for e in seis["eventos"] if e["tipo"] == "llamada"}
    assert cambios == {"f1": [], "f2": [], "f3": [], "f5": [],
                       "f4": [{"ruta": "descuentos.py", "antes": proyecto["descuentos.py"], "despues": arreglado}]}
    resultados = {e["id"]: e["resultado"] for e in seis["eventos"] if e["tipo"] == "llamada"}
    assert resultados["f1"].startswith("4 pruebas: 1 falla, 3 pasan\n\nFALLA: test_descuentos.")
    assert "AssertionError: 20.0 != 18.0" in resultados["f1"]
    assert resultados["f5"] == "4 pruebas: todas pasan"
    # a smaller cap stops where the run got to, on its own copy: with 4 turns, the edit is done
    cuatro = datos["trazas"]["4"]
    assert (cuatro["eventos"][-1]["motivo"], cuatro["entorno_final"]["descuentos.py"]) == ("tope", arreglado)
    assert datos["trazas"]["3"]["entorno_final"] == proyecto


# --------------------------------------------------------------- build errors

CONF = f'''
import sys
sys.path.insert(0, {str(ROOT)!r})
project = "Errores"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
'''

ERRORES = {
    # page: (source, line of the error, what the message must say)
    "rechaza": ('''# Rechaza

```{traza}
:tope: 3
inicio = [("usuario", "otra cosa")]
guion = guion_bucle()
```
''', 3, ["con tope 1, el bucle de referencia no puede seguir el guion", "(GuionRoto)",
        "En el turno 1 el modelo recibió 1 mensaje; esperaba 2.",
        "recibido: usuario: «otra cosa»"]),
    "se_acaba": ('''# Se acaba

Texto.

```{traza}
inicio = INICIO_BUCLE
guion = guion_de(inicio, RESPUESTAS_BUCLE[:2], OBSERVACIONES_BUCLE[:2])
```
''', 5, ["con tope 3", "(RuntimeError)", "El guion se acabó"]),
    "nombre": ('''# Nombre

```{traza}
:id: mal
inicio = INICIO_BUCLE
guion = guoin_bucle()
```
''', 3, ["el código de la traza falla en su línea 2 (línea 6 del archivo)",
        "NameError: name 'guoin_bucle' is not defined"]),
    "falta": ('''# Falta

```{traza}
inicio = INICIO_BUCLE
```
''', 3, ["el código de la traza debe definir guion (el guion del modelo)"]),
    "bucle": ('''# Bucle

```{traza}
:bucle: no-existe
inicio = INICIO_BUCLE
guion = guion_bucle()
```
''', 3, ["«:bucle: no-existe»: no existe el desafío «no-existe» (se buscó "]),
    "fuera": ('''# Fuera

```{traza}
inicio = INICIO_BUCLE
datos = open_url("https://ejemplo.org/datos.py").read()
guion = guion_bucle()
```
''', 3, ["el código de la traza falla en su línea 2 (línea 5 del archivo)",
        "ValueError: open_url('https://ejemplo.org/datos.py'): al construir, una traza solo lee "
        "archivos del runtime"]),
    "no_runtime": ('''# No es del runtime

```{traza}
inicio = INICIO_BUCLE
exec(open_url("../conf.py").read())
guion = guion_bucle()
```
''', 3, ["el código de la traza falla en su línea 2 (línea 5 del archivo)",
        "open_url('../conf.py'): desde la página no_runtime eso es ../conf.py, que no es un "
        "archivo del runtime (runtime/…)"]),
    "no_existe": ('''# No existe

```{traza}
inicio = INICIO_BUCLE
exec(open_url("runtime/no-existe.py").read())
guion = guion_bucle()
```
''', 3, ["FileNotFoundError: open_url('runtime/no-existe.py'): el runtime no publica "
        "runtime/no-existe.py"]),
    "tope": ('''# Tope

```{traza}
:tope: cero
inicio = INICIO_BUCLE
guion = guion_bucle()
```
''', 3, ["«:tope: cero» no vale: el tope debe ser un número entero de 1 a 50"]),
}


@pytest.fixture(scope="module")
def construccion_con_errores(tmp_path_factory):
    fuente = tmp_path_factory.mktemp("errores")
    (fuente / "conf.py").write_text(CONF, encoding="utf-8")
    (fuente / "index.md").write_text(
        "# Errores\n\n```{toctree}\n" + "\n".join(ERRORES) + "\n```\n", encoding="utf-8")
    for nombre, (texto, _, _) in ERRORES.items():
        (fuente / f"{nombre}.md").write_text(texto, encoding="utf-8")
    return fuente, construir(fuente, fuente / "_build", comprobar=False)


@pytest.mark.parametrize("pagina_mala", list(ERRORES))
def test_a_bad_scenario_fails_the_build_at_the_directive_line(construccion_con_errores, pagina_mala):
    fuente, proceso = construccion_con_errores
    assert proceso.returncode != 0
    _, linea, partes = ERRORES[pagina_mala]
    salida = proceso.stderr
    inicio = salida.find(f"{fuente / pagina_mala}.md:{linea}: ERROR: ")
    assert inicio >= 0, salida
    error = salida[inicio:].split("[docutils]")[0]
    for parte in partes:
        assert parte in error, error
