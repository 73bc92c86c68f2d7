"""runtime/ficheros.py and runtime/pruebas_de_carpeta.py: the environment as a real folder and a
coding agent's tools, clause by clause; the paths confined to the folder, with a canary file
beside it that nothing reads or writes; the folder's tests run in-process; the permission
layer of runtime/permisos.py on the tools that change the folder."""

import os
import re
import sys

import pytest

from tests.runtime.comun import cargar

CALCULO = "def suma(a, b):\n    return a - b\n\n\ndef doble(x):\n    return suma(x, x)\n"
PRUEBAS = ("import unittest\n\nfrom calculo import doble, suma\n\n\n"
           "class PruebaCalculo(unittest.TestCase):\n"
           "    def test_suma(self):\n        self.assertEqual(suma(2, 3), 5)\n\n"
           "    def test_doble_de_cero(self):\n        self.assertEqual(doble(0), 0)\n")


#: The runtime files of a folder and its tools, in their order (runtime/orden.txt).
DE_LA_CARPETA = ("pruebas_de_carpeta", "ficheros", "herramientas_de_ficheros")


@pytest.fixture(scope="module")
def ns():
    return cargar("entorno", "permisos", *DE_LA_CARPETA)


@pytest.fixture
def canario(tmp_path):
    """A file beside the folder: (its path, its content, its mtime), checked after the test."""
    ruta = tmp_path / "canario.txt"
    ruta.write_text("secreto del canario\n", encoding="utf-8")
    os.utime(ruta, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    yield ruta
    assert ruta.read_text(encoding="utf-8") == "secreto del canario\n"
    assert ruta.stat().st_mtime_ns == 1_000_000_000_000_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canario.txt", "carpeta"]


@pytest.fixture
def c(ns, tmp_path, canario):
    raiz = tmp_path / "carpeta"
    (raiz / "src").mkdir(parents=True)
    (raiz / "calculo.py").write_text(CALCULO, encoding="utf-8")
    (raiz / "test_calculo.py").write_text(PRUEBAS, encoding="utf-8")
    (raiz / "src" / "notas.txt").write_text("uno\ndos\ntres\n", encoding="utf-8")
    return ns["Carpeta"](str(raiz))


def fichero(c, ruta):
    with open(os.path.join(c.raiz, ruta), encoding="utf-8", newline="") as f:
        return f.read()


def no_texto(c, en_pycache, binario):
    """What the folder's files leave out: __pycache__/calculo.txt holding `en_pycache`, and
    dato.bin, `binario` (not UTF-8)."""
    os.mkdir(os.path.join(c.raiz, "__pycache__"))
    with open(os.path.join(c.raiz, "__pycache__", "calculo.txt"), "w") as f:
        f.write(en_pycache)
    with open(os.path.join(c.raiz, "dato.bin"), "wb") as f:
        f.write(binario)


# ------------------------------------------------------------------ la carpeta

def test_carpeta_de_hace_una_carpeta_temporal_con_los_ficheros(ns):
    import shutil

    c = ns["carpeta_de"]({"a.txt": "hola", "sub/b.txt": "adiós\n"})
    try:
        assert isinstance(c, ns["Carpeta"]) and c.raiz == os.path.realpath(c.raiz)
        assert fichero(c, "a.txt") == "hola" and fichero(c, "sub/b.txt") == "adiós\n"
        assert ns["listar_carpeta"](c) == "a.txt\nsub/"
        assert c.leidos == {} and c.segundos == 10
    finally:
        shutil.rmtree(c.raiz)
    with pytest.raises(NotADirectoryError, match="no es una carpeta que exista"):
        ns["Carpeta"]("/no/existe/esta/carpeta")


def test_ficheros_son_los_textos_de_la_carpeta_y_una_copia_profunda_es_otra_carpeta(ns, c):
    import copy
    import shutil

    no_texto(c, "no se ve", b"\xff\xfe")
    assert c.ficheros() == {"calculo.py": CALCULO, "src/notas.txt": "uno\ndos\ntres\n",
                            "test_calculo.py": PRUEBAS}
    ns["leer_lineas"](c, "calculo.py")
    copia = copy.deepcopy(c)
    try:
        assert copia.raiz != c.raiz and copia.ficheros() == c.ficheros()
        assert copia.leidos == c.leidos and copia.leidos is not c.leidos
        assert copia.segundos == c.segundos
        # what the copy does stays in the copy: an edit (it was read there too), a new file
        ns["editar"](copia, "calculo.py", "a - b", "a + b")
        ns["crear_fichero"](copia, "nuevo.txt", "x")
        assert fichero(c, "calculo.py") == CALCULO and not os.path.exists(os.path.join(c.raiz, "nuevo.txt"))
        assert set(copia.ficheros()) == {"calculo.py", "nuevo.txt", "src/notas.txt", "test_calculo.py"}
    finally:
        shutil.rmtree(copia.raiz)


def test_el_entorno_tiene_que_ser_una_carpeta(ns):
    entradas = {"leer_lineas": {"ruta": "a.txt"}, "listar_carpeta": {}, "buscar_en": {"patron": "x"},
                "editar": {"ruta": "a.txt", "viejo": "x", "nuevo": "y"},
                "crear_fichero": {"ruta": "b.txt", "contenido": ""}, "ejecutar_pruebas": {}}
    for nombre, f in ns["FUNCIONES_DE_FICHEROS"].items():
        with pytest.raises(TypeError, match="el entorno debe ser una Carpeta y es dict"):
            f({"a.txt": "x"}, **entradas[nombre])


# ------------------------------------------------------------------ leer_lineas

def test_leer_lineas_numera_y_sin_rango_da_el_fichero_entero(ns, c):
    assert ns["leer_lineas"](c, "src/notas.txt") == "     1\tuno\n     2\tdos\n     3\ttres"


def test_leer_lineas_con_un_rango_lo_dice(ns, c):
    assert ns["leer_lineas"](c, "src/notas.txt", desde=2, hasta=2) == "     2\tdos\n[líneas 2–2 de 3]"
    assert ns["leer_lineas"](c, "src/notas.txt", desde=2, hasta=99) == (
        "     2\tdos\n     3\ttres\n[líneas 2–3 de 3]")


def test_leer_lineas_corta_un_fichero_largo_y_dice_como_seguir(ns, c):
    ns["crear_fichero"](c, "largo.txt", "".join(f"línea {n}\n" for n in range(1, 251)))
    tope = ns["LINEAS_POR_LECTURA"]
    primera = ns["leer_lineas"](c, "largo.txt").split("\n")
    assert len(primera) == tope + 1 and primera[-2] == f"{tope:>6}\tlínea {tope}"
    assert primera[-1] == (f"[cortado en {tope} líneas: se ven las 1–{tope} de 250; "
                           f"para seguir, pide desde={tope + 1}]")
    siguiente = ns["leer_lineas"](c, "largo.txt", desde=tope + 1).split("\n")
    assert siguiente[0] == f"{tope + 1:>6}\tlínea {tope + 1}"
    ultima = ns["leer_lineas"](c, "largo.txt", desde=241)
    assert ultima.endswith("   250\tlínea 250\n[líneas 241–250 de 250]")


def test_leer_lineas_corta_una_linea_muy_larga(ns, c):
    ancho = ns["ANCHO_DE_LINEA"]
    ns["crear_fichero"](c, "ancho.txt", "x" * (ancho + 7))
    assert ns["leer_lineas"](c, "ancho.txt") == f"     1\t{'x' * ancho}… (7 caracteres más)"


@pytest.mark.parametrize("entrada, error, mensaje", [
    ({"desde": 4}, ValueError, r"src/notas.txt tiene 3 líneas: desde=4 queda fuera \(empieza entre 1 y 3\)"),
    ({"desde": 3, "hasta": 2}, ValueError, "hasta=2 es menor que desde=3"),
    ({"desde": 0}, ValueError, "'desde' es 0: las líneas se cuentan desde 1"),
    ({"desde": True}, TypeError, "'desde' debe ser un número entero y es True"),
    ({"hasta": "2"}, TypeError, "'hasta' debe ser un número entero y es '2'"),
])
def test_leer_lineas_un_rango_imposible_es_un_error_claro(ns, c, entrada, error, mensaje):
    with pytest.raises(error, match=mensaje):
        ns["leer_lineas"](c, "src/notas.txt", **entrada)


def test_leer_lineas_vacio_carpeta_inexistente_y_binario(ns, c):
    ns["crear_fichero"](c, "vacio.txt", "")
    assert ns["leer_lineas"](c, "vacio.txt") == "vacio.txt está vacío (0 líneas)"
    with pytest.raises(IsADirectoryError, match="'src' es una carpeta, no un fichero"):
        ns["leer_lineas"](c, "src")
    with pytest.raises(FileNotFoundError, match=re.escape("no existe el fichero 'nada.py'")):
        ns["leer_lineas"](c, "./nada.py")
    with open(os.path.join(c.raiz, "imagen.bin"), "wb") as f:
        f.write(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match=re.escape("'imagen.bin' no es un fichero de texto")):
        ns["leer_lineas"](c, "imagen.bin")


# ------------------------------------------------------------- listar_carpeta

def test_listar_carpeta(ns, c):
    os.mkdir(os.path.join(c.raiz, "__pycache__"))
    assert ns["listar_carpeta"](c) == "calculo.py\nsrc/\ntest_calculo.py"
    assert ns["listar_carpeta"](c, ".") == ns["listar_carpeta"](c, "")
    assert ns["listar_carpeta"](c, "src/") == "notas.txt"
    os.mkdir(os.path.join(c.raiz, "vacia"))
    assert ns["listar_carpeta"](c, "vacia") == "la carpeta 'vacia' está vacía"
    with pytest.raises(NotADirectoryError, match=re.escape("'calculo.py' es un fichero, no una carpeta")):
        ns["listar_carpeta"](c, "calculo.py")
    with pytest.raises(FileNotFoundError, match="no existe la carpeta 'otra'"):
        ns["listar_carpeta"](c, "otra")


def test_listar_carpeta_corta_con_una_nota(ns, c):
    tope = ns["ENTRADAS_POR_LISTA"]
    for n in range(tope + 3):
        ns["crear_fichero"](c, f"muchos/f{n:03}.txt", "")
    lineas = ns["listar_carpeta"](c, "muchos").split("\n")
    assert len(lineas) == tope + 1 and lineas[0] == "f000.txt"
    assert lineas[-1] == "[… y 3 entradas más]"


# ------------------------------------------------------------------ buscar_en

def test_buscar_en_da_ruta_linea_y_texto_en_orden(ns, c):
    assert ns["buscar_en"](c, r"suma\(") == (
        "calculo.py:1: def suma(a, b):\ncalculo.py:6:     return suma(x, x)\n"
        "test_calculo.py:7:     def test_suma(self):\n"
        "test_calculo.py:8:         self.assertEqual(suma(2, 3), 5)")
    assert ns["buscar_en"](c, "^d", carpeta="src") == "src/notas.txt:2: dos"
    assert ns["buscar_en"](c, "def", carpeta="calculo.py") == (
        "calculo.py:1: def suma(a, b):\ncalculo.py:5: def doble(x):")
    assert ns["buscar_en"](c, "resta") == "ninguna línea coincide con 'resta'"
    assert ns["buscar_en"](c, "x", carpeta="src") == "ninguna línea en 'src' coincide con 'x'"


def test_buscar_en_salta_lo_que_no_es_texto_y_pycache(ns, c):
    no_texto(c, "def suma\n", b"def suma \xff\n")
    assert ns["buscar_en"](c, "def suma") == "calculo.py:1: def suma(a, b):"


def test_buscar_en_corta_con_una_nota(ns, c):
    tope = ns["COINCIDENCIAS_POR_BUSQUEDA"]
    ns["crear_fichero"](c, "muchas.txt", "aguja\n" * (tope + 4))
    lineas = ns["buscar_en"](c, "aguja").split("\n")
    assert len(lineas) == tope + 1 and lineas[0] == "muchas.txt:1: aguja"
    assert lineas[-1] == (f"[… y 4 más: se ven las {tope} primeras; afina el patrón o busca en "
                          f"una carpeta o un fichero con carpeta=…]")


def test_buscar_en_un_patron_malo_es_un_error_claro(ns, c):
    with pytest.raises(ValueError) as info:
        ns["buscar_en"](c, "suma(")
    assert str(info.value).startswith("el patrón 'suma(' no es una expresión regular válida (")
    assert "escápalo con \\" in str(info.value)
    with pytest.raises(ValueError, match="el patrón está vacío"):
        ns["buscar_en"](c, "")
    with pytest.raises(FileNotFoundError, match="no existe 'otra'"):
        ns["buscar_en"](c, "a", carpeta="otra")


# --------------------------------------------------------------------- editar

def test_editar_devuelve_el_diff_y_cambia_solo_eso(ns, c):
    ns["leer_lineas"](c, "calculo.py", desde=1, hasta=2)
    diff = ns["editar"](c, "calculo.py", "return a - b", "return a + b")
    assert diff == ("--- a/calculo.py\n+++ b/calculo.py\n@@ -1,5 +1,5 @@\n def suma(a, b):\n"
                    "-    return a - b\n+    return a + b\n \n \n def doble(x):")
    assert fichero(c, "calculo.py") == CALCULO.replace("a - b", "a + b")
    # lo que escribe editar cuenta como leído: otra edición seguida vale
    ns["editar"](c, "calculo.py", "def doble(x):", "def doble(x):  # x + x")
    assert "# x + x" in fichero(c, "calculo.py")


def test_editar_sin_leer_se_niega_y_dice_por_que(ns, c):
    with pytest.raises(PermissionError, match=re.escape("no has leído calculo.py: léelo con leer_lineas")):
        ns["editar"](c, "calculo.py", "a - b", "a + b")
    assert fichero(c, "calculo.py") == CALCULO


def test_editar_tras_un_cambio_de_fuera_se_niega_hasta_que_se_vuelve_a_leer(ns, c):
    ns["leer_lineas"](c, "calculo.py")
    with open(os.path.join(c.raiz, "calculo.py"), "w", encoding="utf-8") as f:
        f.write(CALCULO.replace("a - b", "b - a"))  # del mismo tamaño, en el mismo instante
    with pytest.raises(PermissionError, match=re.escape("calculo.py ha cambiado desde que lo leíste: vuelve a leerlo")):
        ns["editar"](c, "calculo.py", "b - a", "a + b")
    assert fichero(c, "calculo.py") == CALCULO.replace("a - b", "b - a")
    ns["leer_lineas"](c, "calculo.py")
    ns["editar"](c, "calculo.py", "b - a", "a + b")
    assert fichero(c, "calculo.py") == CALCULO.replace("a - b", "a + b")


def test_editar_con_viejo_vacio_se_niega(ns, c):
    ns["leer_lineas"](c, "calculo.py")
    with pytest.raises(ValueError, match="'viejo' está vacío: di el texto exacto"):
        ns["editar"](c, "calculo.py", "", "x")
    assert fichero(c, "calculo.py") == CALCULO


def test_editar_si_viejo_no_aparece_muestra_las_lineas_mas_parecidas(ns, c):
    ns["leer_lineas"](c, "calculo.py")
    with pytest.raises(ValueError) as info:
        ns["editar"](c, "calculo.py", "  return a-b", "  return a + b")
    assert str(info.value) == (
        "'viejo' no aparece en calculo.py. Lo más parecido es la línea 2 (cópialo tal cual, con "
        "sus espacios, sin el número):\n     2\t    return a - b")
    with pytest.raises(ValueError) as info:
        ns["editar"](c, "calculo.py", "def dobles(x):\n    return suma(x,x)", "")
    assert str(info.value).endswith("las líneas 5–6 (cópialo tal cual, con sus espacios, sin el "
                                    "número):\n     5\tdef doble(x):\n     6\t    return suma(x, x)")
    assert fichero(c, "calculo.py") == CALCULO


def test_editar_si_viejo_aparece_varias_veces_dice_donde(ns, c):
    ns["leer_lineas"](c, "calculo.py")
    with pytest.raises(ValueError) as info:
        ns["editar"](c, "calculo.py", "suma(", "resta(")
    assert str(info.value) == ("'viejo' aparece 2 veces en calculo.py (en las líneas 1 y 6): "
                               "añade líneas de alrededor para que aparezca una sola vez")
    ns["crear_fichero"](c, "aes.txt", "aaa\n")
    with pytest.raises(ValueError, match=r"'viejo' aparece 2 veces en aes.txt \(en las líneas 1 y 1\)"):
        ns["editar"](c, "aes.txt", "aa", "b")  # también si se solapan
    assert fichero(c, "calculo.py") == CALCULO and fichero(c, "aes.txt") == "aaa\n"


def test_editar_lo_mismo_por_lo_mismo_se_niega(ns, c):
    ns["leer_lineas"](c, "calculo.py")
    with pytest.raises(ValueError, match="'viejo' y 'nuevo' son iguales"):
        ns["editar"](c, "calculo.py", "a - b", "a - b")


# -------------------------------------------------------------- crear_fichero

def test_crear_fichero_crea_con_sus_carpetas_y_nunca_sobrescribe(ns, c):
    assert ns["crear_fichero"](c, "nuevo/sub/a.txt", "uno\ndos\n") == "creado nuevo/sub/a.txt (2 líneas)"
    assert fichero(c, "nuevo/sub/a.txt") == "uno\ndos\n"
    for ruta in ("calculo.py", "src", "nuevo/sub/a.txt"):
        antes = sorted(os.listdir(c.raiz))
        with pytest.raises(FileExistsError, match=f"'{ruta}' ya existe: crear_fichero nunca sobrescribe"):
            ns["crear_fichero"](c, ruta, "otro")
        assert sorted(os.listdir(c.raiz)) == antes
    assert fichero(c, "calculo.py") == CALCULO and fichero(c, "nuevo/sub/a.txt") == "uno\ndos\n"
    with pytest.raises(NotADirectoryError, match=re.escape(
            "'calculo.py' es un fichero: no puede contener 'calculo.py/a/b.txt'")):
        ns["crear_fichero"](c, "calculo.py/a/b.txt", "x")
    # lo creado cuenta como leído
    ns["editar"](c, "nuevo/sub/a.txt", "dos", "tres")
    assert fichero(c, "nuevo/sub/a.txt") == "uno\ntres\n"


# ---------------------------------------------------------- rutas confinadas

MALAS = [
    ("/etc/passwd", ValueError, "es absoluta: las rutas son relativas a la carpeta"),
    ("{canario}", ValueError, "es absoluta"),
    ("../canario.txt", ValueError, "tiene '..', que sale de la carpeta"),
    ("src/../../canario.txt", ValueError, "tiene '..'"),
    ("enlace.txt", PermissionError, "'enlace.txt' pasa por un enlace simbólico que lleva fuera"),
    ("fuera/canario.txt", PermissionError, "'fuera/canario.txt' pasa por un enlace simbólico"),
    ("canario.txt\0", ValueError, r"tiene el carácter nulo \(\\0\)"),
]


def _llamadas(ruta):
    return [("leer_lineas", {"ruta": ruta}), ("editar", {"ruta": ruta, "viejo": "secreto", "nuevo": "x"}),
            ("crear_fichero", {"ruta": ruta, "contenido": "x"}), ("listar_carpeta", {"carpeta": ruta}),
            ("buscar_en", {"patron": "secreto", "carpeta": ruta})]


@pytest.mark.parametrize("ruta, error, mensaje", MALAS)
def test_ninguna_herramienta_sale_de_la_carpeta(ns, c, canario, ruta, error, mensaje):
    os.symlink(canario, os.path.join(c.raiz, "enlace.txt"))
    os.symlink(canario.parent, os.path.join(c.raiz, "fuera"))
    ruta = ruta.format(canario=canario)
    for nombre, entrada in _llamadas(ruta):
        c.leidos[ruta] = "secreto del canario\n"  # ni así
        with pytest.raises(error, match=mensaje.replace("'enlace.txt'", "'enlace.txt'")):
            ns["FUNCIONES_DE_FICHEROS"][nombre](c, **entrada)
    # the canary fixture checks its content, its mtime and that nothing new appeared beside it


def test_un_enlace_que_sale_se_ve_al_listar_y_no_se_sigue_al_buscar(ns, c, canario):
    os.symlink(canario, os.path.join(c.raiz, "enlace.txt"))
    os.symlink(canario.parent, os.path.join(c.raiz, "fuera"))
    os.symlink(os.path.join(c.raiz, "src"), os.path.join(c.raiz, "atajo"))  # dentro: vale
    assert ns["listar_carpeta"](c) == (
        "atajo/\ncalculo.py\nenlace.txt (enlace que lleva fuera de la carpeta: no se sigue)\n"
        "fuera (enlace que lleva fuera de la carpeta: no se sigue)\nsrc/\ntest_calculo.py")
    assert ns["buscar_en"](c, "secreto") == "ninguna línea coincide con 'secreto'"
    assert ns["leer_lineas"](c, "atajo/notas.txt").startswith("     1\tuno")


# ----------------------------------------------------------- ejecutar_pruebas

def test_ejecutar_pruebas_da_el_fallo_y_ve_el_modulo_editado(ns, c, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # que un .pyc pudiera engañar
    antes = list(sys.path)
    primera = ns["ejecutar_pruebas"](c)
    assert primera.startswith("2 pruebas: 1 falla, 1 pasa\n\nFALLA: test_calculo.PruebaCalculo.test_suma\n"
                              "Traceback (most recent call last):\n  File \"test_calculo.py\", line 8")
    assert primera.endswith("AssertionError: -1 != 5")
    assert c.raiz not in primera
    ns["leer_lineas"](c, "calculo.py")
    ns["editar"](c, "calculo.py", "a - b", "a + b")  # el mismo tamaño, en el mismo segundo
    assert ns["ejecutar_pruebas"](c) == "2 pruebas: todas pasan"
    assert sys.path == antes
    assert not [m for m in sys.modules.values()
                if (getattr(m, "__file__", None) or "").startswith(c.raiz)]
    assert not os.path.exists(os.path.join(c.raiz, "__pycache__"))
    assert sys.dont_write_bytecode is False


def test_ejecutar_pruebas_no_usa_un_modulo_de_la_carpeta_ya_importado(ns, c):
    import types

    viejo = types.ModuleType("calculo")
    viejo.__file__ = os.path.join(c.raiz, "calculo.py")
    viejo.suma, viejo.doble = (lambda a, b: 5), (lambda x: 0)
    sys.modules["calculo"] = viejo
    try:
        assert ns["ejecutar_pruebas"](c).startswith("2 pruebas: 1 falla, 1 pasa")
        assert "calculo" not in sys.modules
    finally:
        sys.modules.pop("calculo", None)


def test_ejecutar_pruebas_sin_pruebas_con_un_error_de_importacion_y_lo_que_imprimen(ns, c, capsys):
    os.remove(os.path.join(c.raiz, "test_calculo.py"))
    assert ns["ejecutar_pruebas"](c).startswith("no hay pruebas: unittest busca ficheros test*.py")
    ns["crear_fichero"](c, "test_roto.py", "print('hola desde la prueba')\nimport no_existe\n")
    informe = ns["ejecutar_pruebas"](c)
    assert informe.startswith("1 prueba: 1 falla, 0 pasan\n\nERROR: unittest.loader._FailedTest.test_roto")
    assert "ModuleNotFoundError: No module named 'no_existe'" in informe
    assert capsys.readouterr() == ("", "")


def test_ejecutar_pruebas_tiene_un_limite_de_tiempo(ns, c):
    ns["crear_fichero"](c, "test_eterna.py", "import unittest\n\n\nclass P(unittest.TestCase):\n"
                        "    def test_eterna(self):\n        while True:\n            pass\n")
    c.segundos = 0.5
    traza = sys.gettrace()
    informe = ns["ejecutar_pruebas"](c)
    assert informe.startswith("se acabó el tiempo (0.5 s) y se cortó la ejecución después de ")
    assert "¿hay un bucle que no acaba?" in informe
    assert sys.gettrace() is traza


def test_ejecutar_pruebas_corta_el_informe_con_una_nota(ns, c):
    cuerpo = "".join(f"    def test_{n}(self):\n        self.fail('x' * 200)\n" for n in range(40))
    ns["crear_fichero"](c, "test_muchas.py", f"import unittest\n\n\nclass P(unittest.TestCase):\n{cuerpo}")
    informe = ns["ejecutar_pruebas"](c)
    tope = ns["CARACTERES_DE_PRUEBAS"]
    cuerpo, nota = informe.rsplit("\n", 1)
    assert len(cuerpo) == tope and cuerpo.startswith("42 pruebas: 41 fallan, 1 pasa")
    assert nota.startswith("[… cortado: ") and nota.endswith(
        " caracteres más; arregla el primer fallo y vuelve a ejecutar las pruebas]")


# ------------------------------------------------------------------- en la página

EN_PYODIDE = '''
import json, os
from runtime import carpeta_de, FUNCIONES_DE_FICHEROS as F
c = carpeta_de({"calculo.py": "def suma(a, b):\\n    return a - b\\n",
                "test_calculo.py": "import unittest\\nfrom calculo import suma\\n\\n\\n"
                                   "class P(unittest.TestCase):\\n    def test_suma(self):\\n"
                                   "        self.assertEqual(suma(2, 3), 5)\\n"})
canario = os.path.join(os.path.dirname(c.raiz), "canario-" + os.path.basename(c.raiz))
with open(canario, "w") as f:
    f.write("secreto")
os.symlink(canario, os.path.join(c.raiz, "enlace.txt"))
salidas = {}
for ruta in ("/" + canario.lstrip("/"), "../" + os.path.basename(canario), "enlace.txt", "a\\0b"):
    for nombre, entrada in (("leer_lineas", {"ruta": ruta}), ("crear_fichero", {"ruta": ruta, "contenido": "x"}),
                            ("buscar_en", {"patron": "secreto", "carpeta": ruta})):
        try:
            F[nombre](c, **entrada)
            salidas[f"{nombre} {ruta!r}"] = "sin error"
        except Exception as e:
            salidas[f"{nombre} {ruta!r}"] = type(e).__name__
primera = F["ejecutar_pruebas"](c)
F["leer_lineas"](c, "calculo.py")
F["editar"](c, "calculo.py", "a - b", "a + b")
json.dumps({"salidas": salidas, "primera": primera.split("\\n")[0], "segunda": F["ejecutar_pruebas"](c),
            "canario": open(canario).read(), "buscar": F["buscar_en"](c, "secreto"),
            "raiz": c.raiz.startswith("/tmp/")})
'''


def test_en_pyodide_la_carpeta_vive_en_su_sistema_de_ficheros_y_el_canario_se_salva(tmp_path):
    from tests.runtime.comun import en_pyodide

    # (the reference agent that en_pyodide loads too needs guionizado and escenarios)
    r = en_pyodide(tmp_path, ("entorno", "guionizado", "escenarios", "permisos", *DE_LA_CARPETA), EN_PYODIDE)
    assert r["raiz"] and r["canario"] == "secreto"
    assert set(r["salidas"].values()) <= {"ValueError", "PermissionError"}, r["salidas"]
    assert len(r["salidas"]) == 12
    assert r["primera"] == "1 prueba: 1 falla, 0 pasan"
    assert r["segunda"] == "1 prueba: todas pasan"
    assert r["buscar"] == "ninguna línea coincide con 'secreto'"
