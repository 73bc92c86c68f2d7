"""runtime/entorno.py: the lesson's files (ENTORNO) and its four tools on them: listar, leer,
escribir, buscar."""

import pytest

from tests.runtime.comun import LISTA_FINAL


# ------------------------------------------------------------------- ENTORNO

def test_entorno_tiene_los_ficheros_de_la_leccion(rt):
    E = rt["ENTORNO"]
    assert E["lista.txt"] == "pan, leche, patatas"
    assert E["recetas/gazpacho.txt"] == "Gazpacho: tomates, pepino, pimiento, ajo."
    assert E["recetas/tortilla.txt"] == "Tortilla: huevos, patatas, cebolla."
    assert E["notas.txt"].strip()
    assert set(E) == {"lista.txt", "notas.txt", "recetas/gazpacho.txt", "recetas/tortilla.txt"}


def test_la_lista_completa_es_la_lista_mas_lo_que_falta_de_las_recetas(rt):
    E = rt["ENTORNO"]
    lista = E["lista.txt"].split(", ")
    for receta in ("recetas/gazpacho.txt", "recetas/tortilla.txt"):
        ingredientes = E[receta].split(": ", 1)[1].rstrip(".").split(", ")
        lista += [i for i in ingredientes if i not in lista]
    assert ", ".join(lista) == LISTA_FINAL


# ----------------------------------------------------------------- listar

def test_listar_la_raiz(rt, e):
    assert rt["listar"](e, "") == "lista.txt\nnotas.txt\nrecetas/"
    assert rt["listar"](e, ".") == "lista.txt\nnotas.txt\nrecetas/"


def test_listar_una_carpeta_da_los_nombres_dentro_de_ella(rt, e):
    assert rt["listar"](e, "recetas") == "gazpacho.txt\ntortilla.txt"
    assert rt["listar"](e, "recetas/") == "gazpacho.txt\ntortilla.txt"


def test_listar_ve_lo_escrito_y_enseña_subcarpetas(rt, e):
    rt["escribir"](e, "recetas/postres/flan.txt", "Flan: huevos, leche, azúcar.")
    rt["escribir"](e, "recetas/arroz.txt", "Arroz: arroz.")
    assert rt["listar"](e, "recetas") == "arroz.txt\ngazpacho.txt\npostres/\ntortilla.txt"
    assert rt["listar"](e, "recetas/postres") == "flan.txt"


def test_listar_una_carpeta_que_no_existe(rt, e):
    with pytest.raises(FileNotFoundError, match="no existe la carpeta 'postres'"):
        rt["listar"](e, "postres")
    with pytest.raises(FileNotFoundError):
        rt["listar"](e, "recetas/gazpacho")  # un prefijo de fichero no es carpeta


def test_listar_un_fichero(rt, e):
    with pytest.raises(NotADirectoryError, match=r"'lista\.txt' es un fichero.*leer"):
        rt["listar"](e, "lista.txt")


def test_listar_algo_que_no_es_texto(rt, e):
    with pytest.raises(TypeError, match="'carpeta' debe ser texto"):
        rt["listar"](e, None)


# ------------------------------------------------------------------- leer

def test_leer(rt, e):
    assert rt["leer"](e, "lista.txt") == "pan, leche, patatas"
    assert rt["leer"](e, "recetas/tortilla.txt") == "Tortilla: huevos, patatas, cebolla."


def test_leer_un_fichero_que_no_existe(rt, e):
    with pytest.raises(FileNotFoundError, match=r"no existe el fichero 'compra\.txt'$"):
        rt["leer"](e, "compra.txt")


def test_leer_sugiere_el_fichero_de_otra_carpeta(rt, e):
    with pytest.raises(FileNotFoundError) as info:
        rt["leer"](e, "gazpacho.txt")
    assert str(info.value) == ("no existe el fichero 'gazpacho.txt' "
                               "(¿querías decir 'recetas/gazpacho.txt'?)")


def test_leer_una_carpeta(rt, e):
    for ruta in ("recetas", "recetas/"):
        with pytest.raises(IsADirectoryError, match=r"'recetas/?' es una carpeta.*listar"):
            rt["leer"](e, ruta)


@pytest.mark.parametrize("ruta, mensaje", [
    ("", "la ruta está vacía"),
    ("   ", "la ruta está vacía"),
    ("/lista.txt", "empieza por '/'"),
])
def test_leer_una_ruta_mal_formada(rt, e, ruta, mensaje):
    with pytest.raises(ValueError, match=mensaje):
        rt["leer"](e, ruta)


def test_leer_algo_que_no_es_texto(rt, e):
    with pytest.raises(TypeError, match=r"'ruta' debe ser texto \(str\) y es int: 3"):
        rt["leer"](e, 3)


# --------------------------------------------------------------- escribir

def test_escribir_reemplaza_y_confirma(rt, e):
    assert rt["escribir"](e, "lista.txt", LISTA_FINAL) == "escrito lista.txt (68 caracteres)"
    assert e["lista.txt"] == LISTA_FINAL
    assert rt["ENTORNO"]["lista.txt"] == "pan, leche, patatas"


def test_escribir_un_fichero_nuevo(rt, e):
    assert rt["escribir"](e, "a.txt", "x") == "escrito a.txt (1 carácter)"
    assert rt["escribir"](e, "b.txt", "") == "escrito b.txt (0 caracteres)"
    assert rt["leer"](e, "a.txt") == "x"
    assert rt["listar"](e, "") == "a.txt\nb.txt\nlista.txt\nnotas.txt\nrecetas/"


def test_escribir_en_una_carpeta(rt, e):
    for ruta in ("recetas", "recetas/", "recetas/nueva/"):
        with pytest.raises(IsADirectoryError, match="es una carpeta"):
            rt["escribir"](e, ruta, "x")
    assert set(e) == set(rt["ENTORNO"])


def test_escribir_dentro_de_un_fichero(rt, e):
    with pytest.raises(NotADirectoryError, match=r"'lista\.txt' es un fichero: no puede contener"):
        rt["escribir"](e, "lista.txt/otra.txt", "x")


def test_escribir_con_argumentos_malos(rt, e):
    with pytest.raises(ValueError, match="la ruta está vacía"):
        rt["escribir"](e, "", "x")
    with pytest.raises(TypeError, match="'contenido' debe ser texto"):
        rt["escribir"](e, "lista.txt", ["pan"])
    assert e == rt["ENTORNO"]


# ----------------------------------------------------------------- buscar

def test_buscar_da_ruta_y_linea_en_orden_de_ruta(rt, e):
    assert rt["buscar"](e, "patatas") == (
        "lista.txt: pan, leche, patatas\n"
        "recetas/tortilla.txt: Tortilla: huevos, patatas, cebolla.")


def test_buscar_ordena_por_ruta_aunque_se_escriba_en_otro_orden(rt, e):
    rt["escribir"](e, "a.txt", "sin patatas no hay tortilla")
    assert rt["buscar"](e, "patatas").split("\n") == [
        "a.txt: sin patatas no hay tortilla",
        "lista.txt: pan, leche, patatas",
        "recetas/tortilla.txt: Tortilla: huevos, patatas, cebolla."]


def test_buscar_da_solo_la_linea_que_coincide(rt, e):
    assert rt["buscar"](e, "Menú") == "notas.txt: Menú: gazpacho y tortilla."


def test_buscar_distingue_mayusculas(rt, e):
    assert rt["buscar"](e, "Gazpacho") == "recetas/gazpacho.txt: Gazpacho: tomates, pepino, pimiento, ajo."
    assert rt["buscar"](e, "gazpacho") == "notas.txt: Menú: gazpacho y tortilla."


def test_buscar_es_literal(rt, e):
    assert rt["buscar"](e, "pa.") == "ninguna línea contiene 'pa.'"


def test_buscar_sin_resultados(rt, e):
    assert rt["buscar"](e, "chorizo") == "ninguna línea contiene 'chorizo'"


def test_buscar_un_patron_vacio(rt, e):
    with pytest.raises(ValueError, match="el patrón está vacío"):
        rt["buscar"](e, "")
    with pytest.raises(TypeError, match="'patron' debe ser texto"):
        rt["buscar"](e, 1)
