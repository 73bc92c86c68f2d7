"""The challenge of lesson 6, «modelo-api»: the reference passes, the starter and each known-wrong
solution fail with their message, the tests keep their own runtime, and Pyodide agrees.
"""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

import challenges
from runtime import espacio
from tests.test_challenges import en_pyodide, lo_mismo
from tests.test_modelo_api import DESAFIO, ERRORES, INICIAL, RUNTIME, SOLUCION

# ------------------------------------------------------------------ the challenge


@pytest.fixture(scope="module")
def calificador():
    return challenges.calificador()


def prueba(resultado, nombre):
    return next(p for p in resultado["pruebas"] if p["nombre"] == nombre)


def test_la_referencia_pasa_y_el_inicial_no(calificador):
    r = calificador.calificar(DESAFIO, SOLUCION)
    assert r["error"] is None
    assert [p["nombre"] for p in r["pruebas"] if not p["ok"]] == []
    assert r["superadas"] == r["total"] == 18
    r = calificador.calificar(DESAFIO, INICIAL)
    assert 0 < r["superadas"] < r["total"]
    assert prueba(r, "los mensajes de sistema, unidos en orden en system")["mensaje"].startswith(
        "M tiene 3 mensajes de sistema y la petición no tiene la clave \"system\"")


def test_las_comprobaciones_del_desafio_pasan():
    assert challenges.comprobar(DESAFIO) == []


@pytest.mark.parametrize("error", ERRORES, ids=[e.archivo.stem for e in ERRORES])
def test_cada_error_conocido_falla_su_prueba_con_su_mensaje(calificador, error):
    r = calificador.calificar(DESAFIO, error.codigo)
    p = prueba(r, error.falla)
    assert p["tipo"] == "fallo", p
    for mensaje in error.mensajes:
        assert mensaje in p["mensaje"]
    for otra in r["pruebas"]:
        texto = otra["mensaje"] or ""
        for prohibido in ("Traceback", "pruebas.py", "calificador", 'File "', "error interno"):
            assert prohibido not in texto, (otra["nombre"], texto)


def test_hay_un_error_conocido_por_cada_cosa_que_pide_el_enunciado():
    assert {e.archivo.stem for e in ERRORES} >= {
        "sistema_con_salto", "solo_el_primer_sistema", "sistema_como_usuario",
        "roles_en_castellano", "contenido_como_texto", "quita_el_sistema_de_M",
        "filtra_las_herramientas", "devuelve_la_respuesta", "devuelve_la_cortada",
        "error_como_texto", "acumula_los_mensajes", "url_en_init", "sin_uso",
        "olvida_las_cabeceras"}


def test_nunca_sale_a_la_red_ni_al_modelo_del_curso(calificador, monkeypatch):
    """The tests give the reader fake transports: a ModeloAPI that uses the runtime's enviar
    or url_del_modelo instead of what it gets is told so, and nothing is sent."""
    def sin_red(*args, **kwargs):
        raise AssertionError("the grader reached the network")
    monkeypatch.setattr(urllib.request, "urlopen", sin_red)
    global_ = SOLUCION.replace("respuesta = self.enviar(url,", "respuesta = enviar(url,")
    r = calificador.calificar(DESAFIO, global_)
    assert r["superadas"] == 0
    assert prueba(r, "el modelo y max_tokens")["mensaje"] == (
        "ModeloAPI usó el enviar del runtime, y no el que recibe: guarda el enviar que le dan al "
        "crearlo (self.enviar = enviar) y envía con él.")


def test_un_error_del_lector_se_cuenta_con_su_linea(calificador):
    codigo = SOLUCION.replace('self.uso = respuesta.get("usage")', 'self.uso = respuesta["uso"]')
    r = calificador.calificar(DESAFIO, codigo)
    p = prueba(r, "devuelve el content tal como llega")
    assert p["tipo"] == "error"
    assert "KeyError" in p["mensaje"]
    assert codigo.splitlines()[p["linea"] - 1].strip() == 'self.uso = respuesta["uso"]'


def test_sin_la_clase_lo_dice(calificador):
    r = calificador.calificar(DESAFIO, "x = 1\n")
    assert {p["mensaje"] for p in r["pruebas"]} == {
        "Tu código no define la clase ModeloAPI: escribe class ModeloAPI: … con "
        "__init__(self, nombre=\"smollm2-135m\", max_tokens=256, url=None, cabeceras=None, "
        "enviar=enviar), peticion(self, M, herramientas) y __call__(self, M, herramientas)."}


def test_las_pruebas_no_pisan_el_runtime_de_su_espacio(calificador):
    pruebas = calificador.pruebas(DESAFIO)
    runtime = vars(calificador.modulos(DESAFIO)["runtime"])
    solo_runtime = espacio(*RUNTIME)
    for nombre, valor in solo_runtime.items():
        if not nombre.startswith("__") and nombre != "open_url":
            assert lo_mismo(runtime[nombre], valor), nombre
            assert pruebas.get(nombre, runtime[nombre]) is runtime[nombre], nombre


def test_el_calificador_da_lo_mismo_en_pyodide(tmp_path, calificador):
    """In Pyodide (the wall, the opaque transports, the reader's own ErrorDelServidor) the
    verdicts are CPython's, with the runtime modules in conf.py's order."""
    casos = {"solucion": (DESAFIO, SOLUCION), "inicial": (DESAFIO, INICIAL)}
    casos.update({e.archivo.stem: (DESAFIO, e.codigo) for e in ERRORES})
    pyo = en_pyodide(tmp_path, [DESAFIO], casos, RUNTIME)["resultados"]
    for nombre, (desafio, codigo) in casos.items():
        r = calificador.calificar(desafio, codigo)
        assert {k: v for k, v in pyo[nombre].items() if k != "segundos"} == {
            k: v for k, v in r.items() if k != "segundos"}, nombre
