"""Pruebas de runtime/: el entorno de las lecciones y el modelo guionizado.

Los ficheros se cargan como los carga un lector: se ejecuta su texto con exec en
un espacio de nombres nuevo, el de una «página».
"""

import inspect
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent

LISTA_FINAL = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"

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
                       "RESPUESTAS_SIN_CONTENIDO", "OBSERVACIONES_SIN_CONTENIDO", "guion_sin_contenido"}

#: api.py: talking to a real model over HTTP (its two modules, json and sys, aside).
CONTRATO_API = {"ErrorDelServidor", "RespuestaCortada", "enviar", "url_del_modelo", "servidor_propio"}


def cargar(*nombres, ns=None):
    """Ejecuta runtime/<nombre>.py, en orden, en un mismo espacio de nombres."""
    ns = {} if ns is None else ns
    for nombre in nombres:
        fuente = (RAIZ / "runtime" / f"{nombre}.py").read_text(encoding="utf-8")
        exec(compile(fuente, f"runtime/{nombre}.py", "exec"), ns)
    return ns


def publicos(ns):
    return {n for n in ns if not n.startswith("_")}


@pytest.fixture
def rt():
    """El espacio de nombres de una página que cargó entorno.py y luego guionizado.py."""
    return cargar("entorno", "guionizado")


@pytest.fixture
def e(rt):
    return dict(rt["ENTORNO"])


# ------------------------------------------------------------------ la lección

INICIO = [
    ("sistema", "Eres un asistente que cuida la lista de la compra. Usa las herramientas."),
    ("usuario", "Añade a lista.txt lo que falta para las recetas."),
]


def respuestas_de_la_leccion(rt):
    texto, llamada = rt["texto"], rt["llamada"]
    return [
        [texto("Miro qué recetas hay."), llamada("t1", "listar", carpeta="recetas")],
        [llamada("t2", "leer", ruta="recetas/gazpacho.txt"),
         llamada("t3", "leer", ruta="recetas/tortilla.txt"),
         llamada("t4", "leer", ruta="lista.txt")],
        [llamada("t5", "escribir", ruta="lista.txt", contenido=LISTA_FINAL)],
        [texto("He añadido tomates, pepino, pimiento, ajo, huevos y cebolla.")],
    ]


def observaciones_de_la_leccion(rt):
    """Escritas a mano: así también comprueban lo que devuelven las herramientas."""
    r = rt["resultado"]
    return [
        [r("t1", "gazpacho.txt\ntortilla.txt")],
        [r("t2", "Gazpacho: tomates, pepino, pimiento, ajo."),
         r("t3", "Tortilla: huevos, patatas, cebolla."),
         r("t4", "pan, leche, patatas")],
        [r("t5", "escrito lista.txt (68 caracteres)")],
        [],
    ]


def guion_de_la_leccion(rt):
    return rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones_de_la_leccion(rt))


def bucle(rt, modelo, M, entorno, tope=10):
    """Un bucle correcto, como el que escribe el lector."""
    for _ in range(tope):
        respuesta = modelo(M, rt["HERRAMIENTAS"])
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return M
        M.append(("usuario", [
            rt["resultado"](b["id"], rt["FUNCIONES"][b["name"]](entorno, **b["input"]))
            for b in llamadas]))
    raise AssertionError("el bucle no paró")


def modelo_en_turno(rt, guion, n):
    """Un modelo al que ya se le pidieron bien sus n primeras respuestas."""
    modelo = rt["ModeloGuionizado"](guion)
    for k in range(n):
        modelo(guion[k][0], rt["HERRAMIENTAS"])
    return modelo


def rompe(rt, M, n=2):
    """Llama en el turno n+1 con M y devuelve el GuionRoto que lanza."""
    modelo = modelo_en_turno(rt, guion_de_la_leccion(rt), n)
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, rt["HERRAMIENTAS"])
    assert modelo.turno == n, "un fallo no debe hacer avanzar el turno"
    return info.value


def test_la_conversacion_de_la_leccion_con_un_bucle_correcto(rt, e):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    M = bucle(rt, modelo, list(INICIO), e)
    assert len(M) == 9
    assert modelo.turno == 4
    assert [m[0] for m in M] == ["sistema", "usuario", "asistente", "usuario", "asistente",
                                 "usuario", "asistente", "usuario", "asistente"]
    assert e["lista.txt"] == LISTA_FINAL
    assert rt["ENTORNO"]["lista.txt"] == "pan, leche, patatas", "ENTORNO no se toca"
    assert M[-1] == ("asistente", respuestas_de_la_leccion(rt)[-1])


def test_un_bucle_sin_observaciones_rompe_el_guion_en_el_turno_2(rt, e):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    M = list(INICIO)
    M.append(("asistente", modelo(M, rt["HERRAMIENTAS"])))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, rt["HERRAMIENTAS"])
    assert info.value.turno == 2 and info.value.indice == 3
    assert "falta la observación" in str(info.value)


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
    with pytest.raises(NotADirectoryError, match="'lista.txt' es un fichero.*leer"):
        rt["listar"](e, "lista.txt")


def test_listar_algo_que_no_es_texto(rt, e):
    with pytest.raises(TypeError, match="'carpeta' debe ser texto"):
        rt["listar"](e, None)


# ------------------------------------------------------------------- leer

def test_leer(rt, e):
    assert rt["leer"](e, "lista.txt") == "pan, leche, patatas"
    assert rt["leer"](e, "recetas/tortilla.txt") == "Tortilla: huevos, patatas, cebolla."


def test_leer_un_fichero_que_no_existe(rt, e):
    with pytest.raises(FileNotFoundError, match="no existe el fichero 'compra.txt'$"):
        rt["leer"](e, "compra.txt")


def test_leer_sugiere_el_fichero_de_otra_carpeta(rt, e):
    with pytest.raises(FileNotFoundError) as info:
        rt["leer"](e, "gazpacho.txt")
    assert str(info.value) == ("no existe el fichero 'gazpacho.txt' "
                               "(¿querías decir 'recetas/gazpacho.txt'?)")


def test_leer_una_carpeta(rt, e):
    for ruta in ("recetas", "recetas/"):
        with pytest.raises(IsADirectoryError, match="'recetas/?' es una carpeta.*listar"):
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
    with pytest.raises(NotADirectoryError, match="'lista.txt' es un fichero: no puede contener"):
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


# ------------------------------------------------ FUNCIONES y HERRAMIENTAS

def test_funciones(rt, e):
    F = rt["FUNCIONES"]
    assert list(F) == ["listar", "leer", "escribir", "buscar"]
    assert all(F[n] is rt[n] for n in F)
    assert F["leer"](e, **{"ruta": "lista.txt"}) == "pan, leche, patatas"


def test_herramientas_como_las_define_el_protocolo(rt):
    H = rt["HERRAMIENTAS"]
    assert [h["name"] for h in H] == ["listar", "leer", "escribir", "buscar"]
    for h in H:
        assert set(h) == {"name", "description", "input_schema"}
        assert isinstance(h["description"], str) and len(h["description"]) > 20
        esquema = h["input_schema"]
        assert esquema["type"] == "object"
        assert esquema["additionalProperties"] is False
        assert esquema["required"] == list(esquema["properties"])
        assert all(p["type"] == "string" and p["description"]
                   for p in esquema["properties"].values())
        # Los argumentos del esquema son los de la función, en el mismo orden.
        parametros = list(inspect.signature(rt["FUNCIONES"][h["name"]]).parameters)
        assert parametros == ["entorno"] + esquema["required"]


# --------------------------------------------------------------- incumple

def test_incumple_acepta_llamadas_correctas(rt):
    ll = rt["llamada"]
    for bloque in (ll("t1", "listar", carpeta=""), ll("t2", "leer", ruta="x"),
                   ll("t3", "escribir", ruta="x", contenido=""), ll("t4", "buscar", patron="a")):
        assert rt["incumple"](bloque) is None


@pytest.mark.parametrize("bloque, motivo", [
    ({"type": "tool_use", "id": "t1", "name": "borrar", "input": {"ruta": "x"}},
     "no existe la herramienta 'borrar'; las hay: listar, leer, escribir, buscar"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {}},
     "a leer le falta el argumento 'ruta'"),
    ({"type": "tool_use", "id": "t1", "name": "escribir", "input": {}},
     "a escribir le faltan los argumentos 'ruta' y 'contenido'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "x", "desde": 1}},
     "leer no tiene el argumento 'desde'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"rut": "x"}},
     "a leer le falta el argumento 'ruta'; leer no tiene el argumento 'rut'"),
    ({"type": "tool_use", "id": "t1", "name": "buscar", "input": {"patron": "a", "b": 1, "c": 2}},
     "buscar no tiene los argumentos 'b' y 'c'"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": 3}},
     "el argumento 'ruta' de leer debe ser texto y es 3 (int)"),
    ({"type": "tool_use", "id": "t1", "name": "escribir",
      "input": {"ruta": "x", "contenido": ["pan"]}},
     "el argumento 'contenido' de escribir debe ser texto y es ['pan'] (list)"),
    ({"type": "tool_use", "id": "t1", "name": "leer", "input": "lista.txt"},
     "la entrada (input) de leer debe ser un objeto (dict) y es str"),
    ({"type": "tool_use", "id": "t1", "name": "leer"},
     "la entrada (input) de leer debe ser un objeto (dict) y es NoneType"),
    ({"type": "text", "text": "hola"},
     "no es una llamada: es un bloque de tipo 'text', no 'tool_use'"),
    ("leer(ruta='x')",
     "no es una llamada: se esperaba un bloque tool_use (dict) y es str"),
])
def test_incumple_explica_por_que(rt, bloque, motivo):
    assert rt["incumple"](bloque) == motivo


def test_incumple_con_otras_herramientas(rt):
    sumar = {"name": "sumar", "description": "Suma.", "input_schema": {
        "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"], "additionalProperties": False}}
    ll = rt["llamada"]
    assert rt["incumple"](ll("t1", "sumar", a=1, b=2), [sumar]) is None
    assert rt["incumple"](ll("t1", "sumar", a=1, b="2"), [sumar]) == (
        "el argumento 'b' de sumar debe ser un número entero y es '2' (str)")
    assert rt["incumple"](ll("t1", "leer", ruta="x"), [sumar]).startswith(
        "no existe la herramienta 'leer'")


# -------------------------------------------------------- bloques y muestra

def test_constructores_de_bloques(rt):
    assert rt["texto"]("hola") == {"type": "text", "text": "hola"}
    assert rt["llamada"]("t1", "escribir", ruta="a", contenido="b") == {
        "type": "tool_use", "id": "t1", "name": "escribir",
        "input": {"ruta": "a", "contenido": "b"}}
    assert rt["resultado"]("t1", "ok") == {
        "type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": False}
    assert rt["resultado"]("t1", "mal", es_error=True)["is_error"] is True


@pytest.mark.parametrize("hacer, linea", [
    (lambda rt: rt["texto"]("hola"), "texto: «hola»"),
    (lambda rt: rt["llamada"]("t1", "leer", ruta="lista.txt"), "llamada t1 leer(ruta='lista.txt')"),
    (lambda rt: rt["llamada"]("t5", "escribir", ruta="a.txt", contenido="x"),
     "llamada t5 escribir(ruta='a.txt', contenido='x')"),
    (lambda rt: rt["resultado"]("t1", "pan, leche, patatas"), "resultado t1: «pan, leche, patatas»"),
    (lambda rt: rt["resultado"]("t1", "no existe", True), "resultado t1 (error): «no existe»"),
    (lambda rt: rt["resultado"]("t1", "a\nb"), "resultado t1: «a⏎b»"),
    (lambda rt: ("usuario", "Añade a lista.txt lo que falta para las recetas."),
     "usuario: «Añade a lista.txt lo que falta para las recetas.»"),
    (lambda rt: ["usuario", "hola"], "usuario: «hola»"),
    (lambda rt: ("asistente", [rt["texto"]("Miro."), rt["llamada"]("t1", "listar", carpeta="recetas")]),
     "asistente: [texto: «Miro.», llamada t1 listar(carpeta='recetas')]"),
    (lambda rt: ("usuario", [rt["resultado"]("t1", "x"), rt["resultado"]("t2", "y", True)]),
     "usuario: [resultado t1: «x», resultado t2 (error): «y»]"),
    (lambda rt: [("usuario", "a"), ("asistente", [])], "[usuario: «a», asistente: []]"),
    (lambda rt: {"type": "tool_use", "id": "t1", "name": "leer", "input": "x"},
     "llamada t1 leer('x')"),
    (lambda rt: {"type": "imagen"}, "{'type': 'imagen'}"),
    (lambda rt: 42, "42"),
])
def test_muestra(rt, hacer, linea):
    assert rt["muestra"](hacer(rt)) == linea


def test_muestra_acorta_lo_largo_en_una_linea(rt):
    largo = "\n".join(f"línea {i}" for i in range(100))
    linea = rt["muestra"](rt["resultado"]("t1", largo))
    assert "\n" not in linea
    assert linea.startswith("resultado t1: «línea 0⏎línea 1⏎")
    assert linea.endswith("…»")
    assert len(linea) < 80
    llamada = rt["muestra"](rt["llamada"]("t1", "escribir", ruta="a", contenido="x" * 500))
    assert len(llamada) < 90 and "…" in llamada


# ------------------------------------------------------- ModeloGuionizado

def test_el_detalle_señala_el_bloque_si_no_es_un_dict(rt):
    largo = "x" * 80
    modelo = rt["ModeloGuionizado"]([([("usuario", ["a", largo])], [])])
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([("usuario", ("a", largo + "y"))], [])
    assert str(info.value).split("\n")[4:7] == [
        "  La diferencia, en el bloque 1:", f"    esperado: '{largo}'", f"    recibido: '{largo}y'"]


def test_el_modelo_responde_en_orden_y_cuenta_los_turnos(rt):
    guion = guion_de_la_leccion(rt)
    modelo = rt["ModeloGuionizado"](guion)
    assert modelo.turno == 0
    for k, (esperados, respuesta) in enumerate(guion, start=1):
        assert modelo(esperados, rt["HERRAMIENTAS"]) == respuesta
        assert modelo.turno == k


def test_el_modelo_devuelve_una_copia(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    respuesta = [texto("hola")]
    # Guion hecho a mano: el turno 2 comparte el objeto `respuesta` con el turno 1.
    guion = [(inicio, respuesta), (inicio + [("asistente", respuesta)], [texto("adiós")])]
    modelo = rt["ModeloGuionizado"](guion)
    r = modelo(list(inicio), [])
    r[0]["text"] = "cambiado"
    r.append(texto("y más"))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(inicio + [("asistente", r)], [])
    assert info.value.turno == 2 and info.value.indice == 1
    assert info.value.esperado == ("asistente", [texto("hola")])


def test_el_guion_no_cambia_si_cambia_lo_que_se_le_dio(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    respuesta = [texto("hola")]
    guion = [(inicio, respuesta)]
    modelo = rt["ModeloGuionizado"](guion)
    inicio.append(("usuario", "otro"))
    respuesta[0]["text"] = "cambiado"
    guion.append(([], []))
    assert modelo([("usuario", "hola")], []) == [texto("hola")]
    with pytest.raises(RuntimeError):
        modelo([], [])


def test_el_error_guarda_una_copia_de_lo_recibido(rt):
    texto = rt["texto"]
    M = [("usuario", [texto("otra cosa")])]
    modelo = rt["ModeloGuionizado"]([([("usuario", "hola")], [texto("hola")])])
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo(M, [])
    M[0][1][0]["text"] = "cambiado"
    M[0][1].append(texto("más"))
    assert info.value.recibido == ("usuario", [texto("otra cosa")])


def test_listas_y_tuplas_valen_lo_mismo(rt):
    guion = guion_de_la_leccion(rt)
    modelo = rt["ModeloGuionizado"](guion)
    for esperados, respuesta in guion:
        como_listas = [list(m) for m in esperados]
        assert modelo(como_listas, rt["HERRAMIENTAS"]) == respuesta


def test_un_resultado_sin_is_error_vale_como_is_error_false(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 1)
    M = list(guion[1][0])
    M[3] = ("usuario", [{"type": "tool_result", "tool_use_id": "t1",
                         "content": "gazpacho.txt\ntortilla.txt"}])
    assert modelo(M, rt["HERRAMIENTAS"]) == guion[1][1]


def test_un_fallo_no_avanza_el_turno_y_se_puede_reintentar(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 1)
    with pytest.raises(rt["GuionRoto"]):
        modelo(guion[1][0][:3], rt["HERRAMIENTAS"])
    assert modelo.turno == 1
    assert modelo(guion[1][0], rt["HERRAMIENTAS"]) == guion[1][1]
    assert modelo.turno == 2


def test_guionroto_es_un_assertionerror_con_sus_datos(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0][:5])
    error = rompe(rt, M)
    assert isinstance(error, AssertionError)
    assert error.turno == 3
    assert error.indice == 5
    assert error.esperado == guion[2][0][5]
    assert error.recibido is None
    assert error.pista.startswith("falta la observación")


def test_el_mensaje_cuando_faltan_mensajes(rt):
    guion = guion_de_la_leccion(rt)
    lineas = str(rompe(rt, list(guion[2][0][:5]))).split("\n")
    assert lineas == [
        "En el turno 3 el modelo recibió 5 mensajes; esperaba 6.",
        "Primer mensaje distinto: M[5]",
        "  esperado: usuario: [resultado t2: «Gazpacho: tomates, pepino, pimiento, ajo.», "
        "resultado t3: «Tortilla: huevos, patatas, cebolla.», resultado t4: «pan, leche, patatas»]",
        "  recibido: nada (M acaba en M[4])",
        "Pista: falta la observación: tras una respuesta con llamadas, añade a M "
        "('usuario', [resultados]), un tool_result por llamada, antes de volver a llamar al modelo.",
    ]


def test_el_mensaje_cuando_hay_tantos_mensajes_pero_distintos(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[1][0])
    M[1] = ("usuario", "Otra petición")
    error = rompe(rt, M, n=1)
    lineas = str(error).split("\n")
    assert lineas[0] == ("En el turno 2 el modelo recibió 4 mensajes, tantos como esperaba, "
                         "pero no son los esperados.")
    assert lineas[1] == "Primer mensaje distinto: M[1]"
    assert lineas[2] == "  esperado: usuario: «Añade a lista.txt lo que falta para las recetas.»"
    assert lineas[3] == "  recibido: usuario: «Otra petición»"
    assert lineas[4] == "Pista: M debe empezar con los mensajes iniciales del ejercicio, sin cambios."
    assert error.indice == 1


def test_el_mensaje_con_un_solo_mensaje_recibido(rt):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([INICIO[1]], rt["HERRAMIENTAS"])
    assert str(info.value).startswith("En el turno 1 el modelo recibió 1 mensaje; esperaba 2.\n"
                                      "Primer mensaje distinto: M[0]\n")
    with pytest.raises(rt["GuionRoto"]) as info:
        modelo([], rt["HERRAMIENTAS"])
    assert "  recibido: nada (M está vacía)" in str(info.value).split("\n")


def observacion_2(rt):
    return guion_de_la_leccion(rt)[2][0][5][1]  # los resultados de t2, t3 y t4


def M_turno_3(rt, *despues):
    """Los cinco primeros mensajes del turno 3 y, tras ellos, `despues`."""
    return list(guion_de_la_leccion(rt)[2][0][:5]) + list(despues)


def test_pista_falta_la_observacion_y_llega_otra_respuesta(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[1][0][:3]) + [("asistente", guion[0][1])]
    error = rompe(rt, M, n=1)
    assert error.indice == 3
    assert error.pista.startswith("falta la observación")


def test_pista_falta_la_respuesta_del_asistente(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0])
    del M[4]
    error = rompe(rt, M)
    assert error.indice == 4
    assert error.pista == ("falta la respuesta del modelo: añade ('asistente', respuesta) "
                           "a M antes de sus observaciones.")


def test_pista_respuesta_cambiada(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0])
    M[4] = ("asistente", guion[1][1][:1])
    error = rompe(rt, M)
    assert error.pista == ("M[4] debe ser ('asistente', respuesta) con la respuesta que dio "
                           "el modelo en el turno 2, tal cual.")


def test_pista_mensaje_de_mas(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [("usuario", "¿y ahora?")]
    error = rompe(rt, M)
    assert str(error).split("\n")[:4] == [
        "En el turno 3 el modelo recibió 7 mensajes; esperaba 6.",
        "Primer mensaje distinto: M[6]",
        "  esperado: nada (M acaba en M[5])",
        "  recibido: usuario: «¿y ahora?»",
    ]
    assert error.esperado is None
    assert error.pista == "sobra M[6]: el modelo no debía recibirlo en este turno."


def test_pista_mensaje_repetido(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [guion[2][0][5]]
    assert rompe(rt, M).pista == "M[6] repite M[5]: ¿añades el mismo mensaje dos veces?"


def test_pista_observacion_vacia(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[2][0]) + [("usuario", [])]
    assert rompe(rt, M).pista.startswith("sobra un mensaje del usuario vacío")


def test_pista_rol_equivocado(rt):
    error = rompe(rt, M_turno_3(rt, ("asistente", observacion_2(rt))))
    assert error.pista == ("el contenido de M[5] es el esperado, pero el rol no: "
                           "debía ser 'usuario' y es 'asistente'.")


def test_pista_rol_en_ingles(rt):
    error = rompe(rt, M_turno_3(rt, ("user", observacion_2(rt))))
    assert "debía ser 'usuario' y es 'user'" in error.pista


def test_pista_resultados_en_otro_orden(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t3, t2, t4])))
    assert error.pista == ("los resultados van en otro orden: deben seguir el de las llamadas "
                           "(t2, t3, t4) y van t3, t2, t4.")


def test_pista_ids_equivocados(rt):
    r = rt["resultado"]
    obs = [r("t1", b["content"]) for b in observacion_2(rt)]
    error = rompe(rt, M_turno_3(rt, ("usuario", obs)))
    assert error.pista == ("los tool_use_id no corresponden a las llamadas: se esperaban "
                           "t2, t3, t4 y llegaron t1, t1, t1.")


def test_pista_falta_un_resultado(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t4])))
    assert error.pista == "falta el resultado de t3: cada llamada necesita su tool_result."


def test_pista_resultados_en_mensajes_separados(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2]), ("usuario", [t3]), ("usuario", [t4])))
    assert str(error).startswith("En el turno 3 el modelo recibió 8 mensajes; esperaba 6.")
    assert error.pista.startswith("los resultados van en mensajes separados")


def test_pista_resultados_de_mas(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t3, t4, t4])))
    assert error.pista == "sobran resultados: va uno por llamada, ni más ni menos."


def test_pista_observacion_que_no_es_lista_de_resultados(rt):
    for contenido in ("Gazpacho: tomates", rt["resultado"]("t2", "x"), [rt["texto"]("x")]):
        error = rompe(rt, M_turno_3(rt, ("usuario", contenido)))
        assert error.pista.startswith("la observación debe ser ('usuario', [resultados])")


def test_pista_contenido_de_un_resultado(rt):
    t2, t3, t4 = observacion_2(rt)
    otro = rt["resultado"]("t3", "Tortilla: huevos.")
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, otro, t4])))
    assert error.pista.startswith("el resultado de t3 no es el esperado")


def test_pista_is_error(rt):
    t2, t3, t4 = observacion_2(rt)
    error = rompe(rt, M_turno_3(rt, ("usuario", [t2, t3, dict(t4, is_error=True)])))
    assert error.pista == "el resultado de t4 debía llevar is_error=False."


def test_bloques_sueltos_en_vez_de_mensajes(rt):
    guion = guion_de_la_leccion(rt)
    respuesta_2 = guion[1][1]
    error = rompe(rt, M_turno_3(rt)[:4] + list(respuesta_2))
    assert error.indice == 4
    assert error.pista.startswith("M[4] es un bloque suelto, no un mensaje (rol, contenido)")
    error = rompe(rt, M_turno_3(rt)[:4] + [respuesta_2])
    assert error.pista.startswith("M[4] es una lista sin rol")
    error = rompe(rt, M_turno_3(rt)[:4] + ["hola"])
    assert error.pista == "M[4] no es un mensaje: cada mensaje es una tupla (rol, contenido)."


def test_cuando_las_lineas_resumidas_coinciden_se_da_el_detalle(rt):
    guion = guion_de_la_leccion(rt)
    M = list(guion[3][0])
    largo_mal = LISTA_FINAL.replace("cebolla", "cebollas")
    M[6] = ("asistente", [rt["llamada"]("t5", "escribir", ruta="lista.txt", contenido=largo_mal)])
    lineas = str(rompe(rt, M, n=3)).split("\n")
    assert lineas[2].removeprefix("  esperado: ") == lineas[3].removeprefix("  recibido: ")
    assert lineas[4:7] == [
        "  La diferencia, en el bloque 0, campo 'input':",
        f"    esperado: {{'ruta': 'lista.txt', 'contenido': '{LISTA_FINAL}'}}",
        f"    recibido: {{'ruta': 'lista.txt', 'contenido': '{largo_mal}'}}",
    ]


def test_cuando_acaba_el_guion(rt):
    guion = guion_de_la_leccion(rt)
    modelo = modelo_en_turno(rt, guion, 4)
    with pytest.raises(RuntimeError) as info:
        modelo(guion[3][0], rt["HERRAMIENTAS"])
    assert not isinstance(info.value, AssertionError)
    assert str(info.value) == (
        "El guion se acabó: el modelo ya dio sus 4 respuestas y lo llamaron una 5.ª vez "
        "(turno 5).\nPista: la última respuesta no tenía llamadas a herramientas; "
        "ahí el bucle debía parar.")
    assert modelo.turno == 4


def test_cuando_acaba_un_guion_que_termina_con_llamadas(rt):
    guion = guion_de_la_leccion(rt)[:1]
    modelo = modelo_en_turno(rt, guion, 1)
    with pytest.raises(RuntimeError) as info:
        modelo([], rt["HERRAMIENTAS"])
    assert str(info.value) == ("El guion se acabó: el modelo ya dio su única respuesta y lo "
                               "llamaron una 2.ª vez (turno 2).")


@pytest.mark.parametrize("guion", [[], "guion", [([], "hola")], [("a", [])], [([], [], [])],
                                   [(["hola"], [])], [([{"type": "text", "text": "hola"}], [])]])
def test_un_guion_mal_hecho(rt, guion):
    with pytest.raises(ValueError, match="guion"):
        rt["ModeloGuionizado"](guion)


def test_llamadas_mal_hechas_al_modelo(rt):
    modelo = rt["ModeloGuionizado"](guion_de_la_leccion(rt))
    with pytest.raises(TypeError, match=r"modelo\(M, HERRAMIENTAS\)"):
        modelo(list(INICIO))
    with pytest.raises(TypeError, match="las herramientas deben ser una lista"):
        modelo(list(INICIO), "listar")
    with pytest.raises(TypeError, match="M debe ser la lista de mensajes y es str"):
        modelo("hola", rt["HERRAMIENTAS"])
    assert modelo.turno == 0


# --------------------------------------------------------------- guion_de

def test_guion_de_construye_cada_turno(rt):
    respuestas = respuestas_de_la_leccion(rt)
    observaciones = observaciones_de_la_leccion(rt)
    guion = rt["guion_de"](INICIO, respuestas, observaciones)
    assert len(guion) == 4
    assert [len(esperados) for esperados, _ in guion] == [2, 4, 6, 8]
    assert guion[0] == (INICIO, respuestas[0])
    assert guion[1][0] == INICIO + [("asistente", respuestas[0]), ("usuario", observaciones[0])]
    for k in range(1, 4):
        anterior, _ = guion[k - 1]
        assert guion[k][0] == anterior + [("asistente", respuestas[k - 1]),
                                          ("usuario", observaciones[k - 1])]
        assert guion[k][1] == respuestas[k]


def test_guion_de_sin_observacion_no_añade_mensaje_del_usuario(rt):
    texto = rt["texto"]
    inicio = [("usuario", "hola")]
    guion = rt["guion_de"](inicio, [[texto("¿Qué tal?")], [texto("Adiós.")]], [None, []])
    assert guion[1][0] == [("usuario", "hola"), ("asistente", [texto("¿Qué tal?")])]


def test_guion_de_copia_lo_que_recibe(rt):
    respuestas = respuestas_de_la_leccion(rt)
    inicio = list(INICIO)
    guion = rt["guion_de"](inicio, respuestas, observaciones_de_la_leccion(rt))
    inicio.append(("usuario", "más"))
    respuestas[0].append(rt["texto"]("más"))
    assert len(guion[0][0]) == 2 and len(guion[0][1]) == 2
    assert guion[1][0][2] == ("asistente", respuestas_de_la_leccion(rt)[0])


def test_guion_de_exige_una_lista_de_observaciones_por_respuesta(rt):
    with pytest.raises(ValueError, match="hay 4 respuestas y 3 listas de observaciones"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones_de_la_leccion(rt)[:3])


def test_guion_de_exige_un_resultado_por_llamada(rt):
    observaciones = observaciones_de_la_leccion(rt)
    observaciones[1] = observaciones[1][:2]
    with pytest.raises(ValueError, match="la respuesta 2 llama a t2, t3, t4 y sus "
                                         "observaciones responden a t2, t3"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones)
    observaciones = observaciones_de_la_leccion(rt)
    observaciones[3] = [rt["resultado"]("t9", "x")]
    with pytest.raises(ValueError, match="la respuesta 4 llama a nada"):
        rt["guion_de"](INICIO, respuestas_de_la_leccion(rt), observaciones)


# ------------------------------------------------------------ cómo se cargan

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
                       "respuestas_terco", "observaciones_terco", "guion_terco", "guion_sin_contenido"}


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
    test_la_conversacion_de_la_leccion_con_un_bucle_correcto(rt, dict(rt["ENTORNO"]))


def test_las_denegaciones_de_los_escenarios_son_las_del_contrato_de_permisos():
    """The scripts write a denied call's observation as data; it is runtime/permisos.py's."""
    ns = cargar("entorno", "guionizado", "escenarios", "permisos")
    assert ns["_NO_PERMITIDO"] == ns["NO_PERMITIDO"]
    denegadas = [b for obs in ns["observaciones_permiso"](["no", "no"]) for b in obs if b["is_error"]]
    assert [b["tool_use_id"] for b in denegadas] == ["p3", "p4"]
    assert all(b == ns["denegado"]({"id": b["tool_use_id"]}) for b in denegadas)
