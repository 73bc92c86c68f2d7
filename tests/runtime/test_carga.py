"""How runtime/'s files load: each leaves only the names of its contract, in any order, twice."""

import inspect

import pytest

from tests.runtime import test_guionizado
from tests.runtime.comun import RAIZ, cargar, observaciones_de_la_leccion, publicos


CONTRATO_ENTORNO = {"ENTORNO", "listar", "leer", "escribir", "buscar", "FUNCIONES",
                    "HERRAMIENTAS", "incumple", "texto", "llamada", "resultado", "muestra"}
CONTRATO_GUIONIZADO = {"ModeloGuionizado", "guion_de", "GuionRoto"}
#: escenarios.py: conversations as data, and the functions that make their scripts (and the
#: model of «Pedir permiso» for a user who answers on the spot).
CONTRATO_ESCENARIOS = {"SISTEMA_BUCLE", "LISTA_COMPLETA",
                       "INICIO_BUCLE", "RESPUESTAS_BUCLE", "OBSERVACIONES_BUCLE", "guion_bucle",
                       "INICIO_ERRORES", "RESPUESTAS_ERRORES", "OBSERVACIONES_ERRORES",
                       "guion_errores",
                       "INICIO_PERMISO", "LISTA_TORTILLA", "NOTAS_PERMISO", "RESPUESTAS_PERMISO",
                       "FINALES_PERMISO", "observaciones_permiso", "guion_permiso", "modelo_permiso",
                       "SISTEMA_AGENTE", "PEDIDO_TORTILLA", "INICIO_TORTILLA", "RESPUESTAS_TORTILLA",
                       "OBSERVACIONES_TORTILLA", "RESPUESTAS_TORTILLA_DENEGADA",
                       "OBSERVACIONES_TORTILLA_DENEGADA", "guion_tortilla", "guion_tortilla_denegada",
                       "PEDIDO_TERCO", "INICIO_TERCO", "respuestas_terco", "observaciones_terco",
                       "guion_terco", "PEDIDO_SIN_CONTENIDO", "INICIO_SIN_CONTENIDO",
                       "RESPUESTAS_SIN_CONTENIDO", "OBSERVACIONES_SIN_CONTENIDO", "guion_sin_contenido",
                       "INICIO_UNA_A_UNA", "RESPUESTAS_UNA_A_UNA", "OBSERVACIONES_UNA_A_UNA",
                       "guion_una_a_una",
                       "INICIO_COPIA", "RESPUESTAS_COPIA", "OBSERVACIONES_COPIA", "guion_copia"}

#: api.py: talking to a real model over HTTP (its two modules, json and sys, aside).
CONTRATO_API = {"ErrorDelServidor", "RespuestaCortada", "enviar", "url_del_modelo", "servidor_propio"}


def test_cada_fichero_deja_solo_los_nombres_del_contrato():
    assert publicos(cargar("entorno")) == CONTRATO_ENTORNO
    assert publicos(cargar("guionizado")) == CONTRATO_GUIONIZADO
    antes = cargar("entorno", "guionizado")
    todo = cargar("escenarios", ns=dict(antes))
    assert publicos(todo) - publicos(antes) == CONTRATO_ESCENARIOS
    # escenarios.py defines no function of its own beyond the scripts (and the model of «Pedir
    # permiso», which picks its script by what it reads in M): what a harness does with a call
    # (the answer of the challenges) is the reader's to write, not the runtime's.
    propias = {n for n, v in todo.items() if inspect.isfunction(v)
               and v.__code__.co_filename == "runtime/escenarios.py"}
    assert propias == {"guion_bucle", "guion_errores", "guion_permiso", "observaciones_permiso",
                       "_permisos", "modelo_permiso", "guion_tortilla", "guion_tortilla_denegada",
                       "respuestas_terco", "observaciones_terco", "guion_terco", "guion_sin_contenido",
                       "guion_una_a_una", "guion_copia"}


def test_api_deja_solo_los_nombres_de_su_contrato_y_no_importa_la_red_al_cargarse():
    ns = cargar("api")
    modulos = {n for n, v in ns.items() if inspect.ismodule(v)}
    assert modulos == {"json", "sys"}
    assert publicos(ns) - modulos == CONTRATO_API
    # urllib.request is imported by enviar when it sends, not by every page that loads api.py
    assert "urllib" not in ns
    # and it shares no name with the other runtime files
    otros = cargar("entorno", "guionizado", "escenarios", "permisos")
    assert set(publicos(ns)) & set(otros) == set()


def test_los_guiones_de_las_lecciones_son_sus_datos():
    ns = cargar("entorno", "guionizado", "escenarios")
    for nombre in ("BUCLE", "ERRORES"):
        guion = ns[f"guion_{nombre.lower()}"]()
        respuestas, observaciones = ns[f"RESPUESTAS_{nombre}"], ns[f"OBSERVACIONES_{nombre}"]
        assert guion == ns["guion_de"](ns[f"INICIO_{nombre}"], respuestas, observaciones)
        assert [r for _, r in guion] == respuestas
    assert ns["OBSERVACIONES_BUCLE"] == observaciones_de_la_leccion(ns)


def test_los_nombres_internos_de_los_dos_ficheros_no_chocan():
    comunes = set(cargar("entorno")) & set(cargar("guionizado"))
    assert {n for n in comunes if not n.startswith("__")} == set()


def test_guionizado_funciona_solo():
    ns = cargar("guionizado")
    assert "muestra" not in ns
    inicio = [("usuario", "hola")]
    modelo = ns["ModeloGuionizado"](ns["guion_de"](inicio, [[{"type": "text", "text": "hola"}]], [[]]))
    with pytest.raises(ns["GuionRoto"]) as info:
        modelo([("usuario", "adiós")], [])
    lineas = str(info.value).split("\n")
    assert lineas[2] == "  esperado: ('usuario', 'hola')"
    assert lineas[3] == "  recibido: ('usuario', 'adiós')"
    assert modelo(inicio, []) == [{"type": "text", "text": "hola"}]


def test_guionizado_usa_muestra_si_entorno_se_carga_despues():
    ns = cargar("guionizado")
    modelo = ns["ModeloGuionizado"]([([("usuario", "hola")], [])])
    cargar("entorno", ns=ns)
    with pytest.raises(ns["GuionRoto"]) as info:
        modelo([("usuario", "adiós")], [])
    assert "  esperado: usuario: «hola»" in str(info.value).split("\n")


def test_guionizado_con_entorno_usa_muestra(rt):
    modelo = rt["ModeloGuionizado"]([([("usuario", "hola")], [])])
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([("usuario", "adiós")], [])
    assert str(info.value).split("\n")[2:4] == ["  esperado: usuario: «hola»",
                                               "  recibido: usuario: «adiós»"]


def test_cargar_dos_veces_no_rompe_nada(rt):
    cargar("entorno", "guionizado", ns=rt)
    test_guionizado.test_la_conversacion_de_la_leccion_con_un_bucle_correcto(rt, dict(rt["ENTORNO"]))


def test_las_denegaciones_de_los_escenarios_son_las_del_contrato_de_permisos():
    """The scripts write a denied call's observation as data; it is runtime/permisos.py's."""
    ns = cargar("entorno", "guionizado", "escenarios", "permisos")
    assert ns["_NO_PERMITIDO"] == ns["NO_PERMITIDO"]
    denegadas = [b for obs in ns["observaciones_permiso"](["no", "no"]) for b in obs if b["is_error"]]
    assert [b["tool_use_id"] for b in denegadas] == ["p3", "p4"]
    assert all(b == ns["denegado"]({"id": b["tool_use_id"]}) for b in denegadas)


def test_el_orden_se_escribe_una_vez_en_orden_txt():
    """runtime/orden.txt is the course's order: conf.py does not repeat it (the build's default,
    ajustes.runtime_modulos, and the grader's, disco.modulos_de, read it), nor does training."""
    from widgets.ajustes import ajustes_de_conf
    from widgets.calificador.disco import modulos_de
    from entrenamiento.datos import RUNTIME

    orden = modulos_de(RAIZ / "runtime")
    escritos = [linea.split("#")[0].strip() for linea in (RAIZ / "runtime" / "orden.txt").read_text().splitlines()]
    assert orden == tuple(e for e in escritos if e) and orden[:3] == ("entorno", "guionizado", "escenarios")
    assert sorted(orden) == sorted(p.stem for p in (RAIZ / "runtime").glob("[!_]*.py"))
    assert ajustes_de_conf(RAIZ / "conf.py")["bucle_runtime_modulos"] is None
    assert RUNTIME == orden[:orden.index("entrenamiento") + 1]


def test_orden_txt_de_otra_carpeta_manda_y_sin_el_el_orden_es_alfabetico(tmp_path):
    from widgets.calificador.disco import modulos_de

    for nombre in ("b", "a", "c", "_privado"):
        (tmp_path / f"{nombre}.py").write_text("")
    assert modulos_de(tmp_path) == ("a", "b", "c")
    (tmp_path / "orden.txt").write_text("# primero c\nc\n\nb.py  # con .py también\n")
    assert modulos_de(tmp_path) == ("c", "b")
    (tmp_path / "orden.txt").write_text("c\nd\n")
    with pytest.raises(ValueError, match=r"nombra «d», y no hay d\.py"):
        modulos_de(tmp_path)
