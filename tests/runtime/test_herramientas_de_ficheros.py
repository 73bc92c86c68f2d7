"""runtime/herramientas_de_ficheros.py: the six tools of a folder as the harness and the model see
them, and the permission layer of runtime/permisos.py on those that change the folder (the
question shows what would change)."""

import inspect
import os

from tests.runtime import test_ficheros as de_ficheros

# the fixtures of test_ficheros.py: the runtime loaded, a folder and the canary beside it
ns, canario, c = de_ficheros.ns, de_ficheros.canario, de_ficheros.c
fichero, CALCULO = de_ficheros.fichero, de_ficheros.CALCULO


def test_funciones_y_herramientas_de_ficheros(ns):
    F, H = ns["FUNCIONES_DE_FICHEROS"], ns["HERRAMIENTAS_DE_FICHEROS"]
    nombres = ["leer_lineas", "listar_carpeta", "buscar_en", "editar", "crear_fichero", "ejecutar_pruebas"]
    assert list(F) == [h["name"] for h in H] == nombres
    assert all(F[n] is ns[n] for n in F)
    assert not set(F) & set(ns["FUNCIONES"])
    for h in H:
        esquema = h["input_schema"]
        assert esquema["additionalProperties"] is False and len(h["description"]) > 20
        parametros = inspect.signature(F[h["name"]]).parameters
        assert list(parametros) == ["entorno"] + list(esquema["properties"])
        obligatorios = [p for p, v in parametros.items() if v.default is inspect.Parameter.empty]
        assert obligatorios == ["entorno"] + esquema["required"]


def test_incumple_con_las_herramientas_de_ficheros(ns):
    ll, H, incumple = ns["llamada"], ns["HERRAMIENTAS_DE_FICHEROS"], ns["incumple"]
    assert incumple(ll("t1", "leer_lineas", ruta="a.py", desde=3), H) is None
    assert incumple(ll("t2", "ejecutar_pruebas"), H) is None
    assert incumple(ll("t3", "editar", ruta="a.py", viejo="x"), H) == "a editar le falta el argumento 'nuevo'"
    assert incumple(ll("t4", "leer_lineas", ruta="a.py", desde="3"), H) == (
        "el argumento 'desde' de leer_lineas debe ser un número entero y es '3' (str)")
    assert incumple(ll("t5", "leer", ruta="a.py"), H).startswith("no existe la herramienta 'leer'")


def test_editar_crear_y_ejecutar_piden_permiso_y_la_pregunta_muestra_lo_que_cambia(ns, c):
    ll = ns["llamada"]
    assert ns["CAMBIAN"] == frozenset({"escribir"})  # la lección 4 no cambia
    assert [n for n in ns["FUNCIONES_DE_FICHEROS"] if ns["necesita_permiso"](ll("x", n))] == [
        "editar", "crear_fichero", "ejecutar_pruebas"]
    # the tests are code the agent may have written: the question says which files will run
    assert ns["que_cambia"](ll("t1", "ejecutar_pruebas"), c) == [{
        "titulo": "Se ejecutarán las pruebas de la carpeta: son código, y corren aquí sin el "
                  "límite de rutas de las herramientas (1 fichero):",
        "lineas": [["", "test_calculo.py"]]}]
    otra = ns["carpeta_de"]({"test_a.py": "", "b/test_b.py": "", "b/__pycache__/test_c.py": ""})
    assert ns["ficheros_de_pruebas"](otra.raiz) == ["test_a.py", "b/test_b.py"]  # not in __pycache__
    edicion = ll("e1", "editar", ruta="calculo.py", viejo="a - b", nuevo="a + b")
    assert ns["que_cambia"](edicion, c) == [{
        "titulo": "Esta llamada no cambiará nada: no has leído calculo.py: léelo con leer_lineas "
                  "antes de editarlo, para cambiar lo que de verdad tiene", "lineas": []}]
    ns["leer_lineas"](c, "calculo.py")
    assert ns["que_cambia"](edicion, c) == [{
        "titulo": "Lo que cambia en calculo.py (- se quita, + se añade):",
        "lineas": [[" ", "def suma(a, b):"], ["-", "    return a - b"], ["+", "    return a + b"],
                   [" ", ""], [" ", ""], [" ", "def doble(x):"]]}]
    assert fichero(c, "calculo.py") == CALCULO  # preguntar no toca el disco
    creacion = ll("c1", "crear_fichero", ruta="nuevo.txt", contenido="uno\ndos")
    assert ns["que_cambia"](creacion, c) == [{"titulo": "nuevo.txt no existe: se creará con esto (2 líneas):",
                                             "lineas": [["", "uno"], ["", "dos"]]}]
    assert not os.path.exists(os.path.join(c.raiz, "nuevo.txt"))
    assert ns["que_cambia"](ll("l1", "leer_lineas", ruta="calculo.py"), c) == []
    assert ns["que_cambia"](ll("c2", "crear_fichero", ruta="../x", contenido=""), c)[0]["titulo"].startswith(
        "Esta llamada no cambiará nada: la ruta '../x' tiene '..'")
