"""Las pruebas de «ejecutar-llamada» (la lección «Llamar a herramientas»).

El calificador ejecuta este archivo en un espacio de nombres propio; las pruebas calculan lo
esperado con sus propias herramientas (las de su runtime, que importan), que el código del
lector no puede cambiar. Lo que comparten con las pruebas de los otros desafíos (OTRO_ENTORNO,
cargar, espiar, breve...) está en comun.py, y lo importan de ahí.

Deja A_ESCRIBIR, PISTA y PRUEBAS (como bucle-con-tope/pruebas.py). Cada prueba carga el código
del lector una vez, con envio.funcion("ejecutar") (un espacio nuevo), y llama a su ejecutar
sobre un entorno propio, distinto de ENTORNO: quien lee o escribe ENTORNO no acierta por
casualidad. Para ver que una llamada que no encaja no ejecuta nada, la prueba cambia las
herramientas de ese espacio por espías que solo anotan. Lo que la prueba espera que lance
ejecutar lo atrapa; cualquier otra excepción sale tal cual y el calificador la cuenta como un
error del lector, con su línea.
"""

import copy as copia

from runtime import ENTORNO, FUNCIONES, llamada, muestra, resultado
from calificador import Fallo
from ..comun import breve, salida_de, VACIO
from ..sueltas import (cambiar, cargar, del_lector, es_tool_result, escribir_con_fallo, espiado,
                       motivo_de, OTRO_ENTORNO, sale_bien, sin_nada_de_mas, una_sola_vez)


A_ESCRIBIR = {"ejecutar": ("ll", "entorno")}

PISTA = (
    "Primero, motivo = incumple(ll): si no es None, raise ValueError(motivo) antes de tocar "
    "nada. Si la llamada encaja, toma la función de FUNCIONES[ll[\"name\"]], llámala con el "
    "entorno y los argumentos por nombre, funcion(entorno, **ll[\"input\"]), y devuelve "
    "resultado(ll[\"id\"], lo que devolvió). No atrapes los errores de la herramienta."
)

# ------------------------------------------------------------------ ayudas


def compara_salida(ll, devuelto, salida, entorno_inicial):
    """Fallo si `devuelto` no es resultado(ll["id"], salida)."""
    def de_un_texto(devuelto):
        que = "lo que devolvió la herramienta" if devuelto == salida else "un texto"
        return (f"ejecutar devolvió {que}, {breve(devuelto)}, y debe devolver un bloque "
                f"tool_result: return resultado(ll[\"id\"], salida).")
    es_tool_result(ll, devuelto, "termina con return resultado(ll[\"id\"], salida).",
                   de_un_texto, "un bloque tool_result, hecho con resultado(ll[\"id\"], salida)")

    con = f"Con {muestra(ll)}, "
    contenido = devuelto.get("content")
    if contenido != salida:
        mensaje = (f"{con}el contenido del tool_result debía ser lo que devuelve "
                   f"{ll['name']}, {breve(salida)}, y es {breve(contenido)}.")
        raise Fallo(mensaje + pista_de_contenido(ll, contenido, entorno_inicial))
    if devuelto.get("is_error"):
        raise Fallo(f"{con}el tool_result lleva is_error={devuelto.get('is_error')!r}: la "
                    f"llamada salió bien, así que es False (como lo deja resultado).")
    sin_nada_de_mas(ll, devuelto, resultado(ll["id"], salida), "resultado(ll[\"id\"], salida)")


def pista_de_contenido(ll, contenido, entorno_inicial):
    """Una pista si el contenido es el de un error conocido: ENTORNO, o argumentos por
    posición."""
    def intenta(entorno, posicional):
        try:
            f = FUNCIONES[ll["name"]]
            return f(entorno, *ll["input"].values()) if posicional else f(entorno, **ll["input"])
        except Exception:  # noqa: BLE001 - solo es una pista
            return None
    if contenido == intenta(dict(ENTORNO), False):
        return ("\nPista: ese es el resultado sobre ENTORNO. ejecutar trabaja sobre `entorno`, "
                "el que recibe.")
    if contenido == intenta(dict(entorno_inicial), True):
        return ("\nPista: pasaste los argumentos por posición, en el orden en que los dio el "
                "modelo. Pásalos por nombre: funcion(entorno, **ll[\"input\"]).")
    return ""


def cambios_en(antes, despues):
    """Qué cambió de una llamada, en una frase."""
    if not isinstance(despues, dict):
        return f"ahora es {breve(despues)}"
    for clave in antes:
        if clave not in despues:
            return f"le falta la clave {clave!r}"
    for clave in despues:
        if clave not in antes:
            return f"tiene una clave nueva, {clave!r}"
    for clave in antes:
        if antes[clave] != despues[clave]:
            return f"su {clave!r} era {breve(antes[clave])} y es {breve(despues[clave])}"
    return "no es la misma"


# ------------------------------------------------------------------ las pruebas


def su_resultado(ll, llamar, esperado):
    """Para sale_bien: ejecutar devuelve resultado(ll["id"], salida), con la salida de la
    herramienta sobre el entorno de la conversación (`esperado`, que cambia si escribe)."""
    antes = dict(esperado)
    salida = salida_de(ll, esperado)
    compara_salida(ll, llamar(), salida, antes)


def salen_bien(llamadas, entorno_inicial=OTRO_ENTORNO):
    """Las llamadas, una tras otra sobre el mismo entorno (una copia de `entorno_inicial`),
    dan su resultado y cambian el entorno que recibe ejecutar (y no ENTORNO)."""
    return sale_bien(llamadas, su_resultado, entorno_inicial, ENTORNO_intacto=True,
                     pista=" La herramienta trabaja sobre ese entorno, el que recibe ejecutar.")


def no_encaja_lanza(ll):
    """Una llamada que no encaja: ValueError con el motivo de incumple, sin ejecutar nada."""
    motivo = motivo_de(ll)

    def prueba(envio):
        ejecutar, anotadas, restaurar = espiado(envio)
        con = f"Con {muestra(ll)}, "
        try:
            try:
                devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO))
            except ValueError as error:
                lanzado, devuelto = error, None
            except Exception as error:
                if not del_lector(envio, error):
                    raise
                lanzado, devuelto = error, None
                if not anotadas:
                    # Otra excepción con el motivo, o FUNCIONES[...] sin comprobar: se explica.
                    # Cualquier otra es un error del lector: su veredicto, con su línea.
                    sin_comprobar = isinstance(error, KeyError) and ll["name"] not in FUNCIONES
                    if motivo not in str(error) and not sin_comprobar:
                        raise
                    raise Fallo(otra_excepcion(ll, motivo, error)) from None
            else:
                lanzado = None
        finally:
            restaurar()
        if anotadas:
            raise Fallo(f"{con}ejecutar llamó a {anotadas[0]} y no debía: la llamada no encaja "
                        f"con su esquema ({motivo}). Comprueba con incumple(ll) antes de "
                        f"ejecutar nada.")
        if lanzado is None:
            raise Fallo(f"{con}ejecutar devolvió {breve(devuelto)} y debía lanzar ValueError: "
                        f"la llamada no encaja con su esquema ({motivo}).")
        if str(lanzado) != motivo:
            raise Fallo(f"{con}el ValueError debía llevar el motivo de incumple tal cual, "
                        f"«{motivo}», y lleva «{lanzado}». Lánzalo así: "
                        f"raise ValueError(motivo).")
    return prueba


def otra_excepcion(ll, motivo, error):
    texto = str(error)
    if texto == motivo:
        return (f"Con {muestra(ll)}, ejecutar lanzó {type(error).__name__} con el motivo de "
                f"incumple; debía ser ValueError: raise ValueError(motivo).")
    mensaje = (f"Con {muestra(ll)}, ejecutar lanzó {type(error).__name__}"
               f"{f' («{texto}»)' if texto else ''} y debía lanzar ValueError con el motivo de "
               f"incumple, «{motivo}»: raise ValueError(motivo).")
    if isinstance(error, KeyError) and ll["name"] not in FUNCIONES:
        mensaje += ("\nPista: FUNCIONES[ll[\"name\"]] falla si la herramienta no existe; "
                    "comprueba antes la llamada con incumple(ll).")
    return mensaje


def no_cambia_la_llamada(envio):
    ejecutar = cargar(envio)
    ll = llamada("m-1", "escribir", ruta="compra/lunes.txt", contenido="huevos, harina")
    recibida = copia.deepcopy(ll)
    ejecutar(recibida, dict(OTRO_ENTORNO))
    if recibida != ll:
        raise Fallo(f"ejecutar cambió la llamada que recibió: {cambios_en(ll, recibida)}. La "
                    f"llamada es parte de la respuesta del modelo, que sigue en M: léela sin "
                    f"tocarla (ll[\"name\"], no ll.pop(\"name\")).")


def propaga(ll, rota=None):
    """La herramienta de `ll` lanza un error (con `rota`, la herramienta cambiada por esa, que
    tiene un fallo de programación): debe salir de ejecutar tal cual."""
    def prueba(envio):
        ejecutar = cargar(envio)
        herramienta = FUNCIONES[ll["name"]] if rota is None else rota
        try:
            herramienta(dict(OTRO_ENTORNO), **ll["input"])
        except Exception as e:  # noqa: BLE001 - lo que lanza la herramienta, sea lo que sea
            esperado = e
        else:
            raise ValueError(f"la prueba espera que {muestra(ll)} lance un error")
        restaurar = cambiar(ejecutar.espacio, {} if rota is None else {ll["name"]: rota})
        lanza = f"{ll['name']} lanza {type(esperado).__name__} («{esperado}»)"
        if rota is not None:
            lanza = f"{ll['name']} tiene un fallo de programación y lanza " + lanza.split(
                " lanza ", 1)[1]
        try:
            devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO))
        except Exception as error:
            if not del_lector(envio, error):
                raise
            if type(error) is type(esperado) and str(error) == str(esperado):
                return
            if (not isinstance(error, (OSError, ValueError, type(esperado)))
                    and str(esperado) not in str(error)):
                raise  # no viene de la herramienta: un error del lector, con su línea
            raise Fallo(f"Con {muestra(ll)}, {lanza} y de ejecutar salió "
                        f"{type(error).__name__} («{error}»). Deja que el error de la "
                        f"herramienta salga tal cual, sin atraparlo ni cambiarlo.") from None
        finally:
            restaurar()
        raise Fallo(f"Con {muestra(ll)}, {lanza} y ejecutar devolvió {breve(devuelto)}. En "
                    f"esta lección los errores de las herramientas no se atrapan, ninguno: "
                    f"deja que salgan de ejecutar tal cual (en «Errores como observaciones» "
                    f"convertirás algunos en observaciones).")
    return prueba


VARIAS = [
    llamada("s-1", "escribir", ruta="compra/viernes.txt", contenido="leche, pan"),
    llamada("s-2", "leer", ruta="compra/viernes.txt"),
    llamada("s-3", "listar", carpeta="compra"),
    llamada("s-4", "buscar", patron="pan"),
    llamada("s-5", "escribir", ruta="lista.txt", contenido="arroz, aceite, sal, leche"),
    llamada("s-6", "leer", ruta="lista.txt"),
]

PRUEBAS = [
    ("listar: su resultado, con el id de la llamada",
     salen_bien([llamada("toolu_01", "listar", carpeta="recetas")])),
    ("leer: lee del entorno que recibe",
     salen_bien([llamada("call-7", "leer", ruta="lista.txt")])),
    ("buscar: su resultado, con el id de la llamada",
     salen_bien([llamada("q", "buscar", patron="cebolla")])),
    ("escribir: cambia el entorno que recibe, no ENTORNO",
     salen_bien([llamada("w_2", "escribir", ruta="compra/jueves.txt", contenido="pan, ajo")])),
    ("los argumentos van por nombre, en cualquier orden",
     salen_bien([llamada("w_3", "escribir", contenido="ajo, menta", ruta="compra/sabado.txt")])),
    ("una herramienta que no existe: ValueError sin ejecutar nada",
     no_encaja_lanza(llamada("z1", "borrar", ruta="lista.txt"))),
    ("falta un argumento: ValueError sin ejecutar nada",
     no_encaja_lanza(llamada("z2", "escribir", ruta="lista.txt"))),
    ("sobra un argumento: ValueError sin ejecutar nada",
     no_encaja_lanza(llamada("z3", "leer", ruta="lista.txt", lineas=2))),
    ("un argumento del tipo equivocado: ValueError sin ejecutar nada",
     no_encaja_lanza(llamada("z4", "buscar", patron=3))),
    ("la llamada no cambia", no_cambia_la_llamada),
    ("varias llamadas seguidas sobre el mismo entorno", salen_bien(VARIAS)),
    ("un error de la herramienta sale tal cual",
     propaga(llamada("f-1", "leer", ruta="postres/flan.txt"))),
    ("un ValueError de la herramienta también sale tal cual",
     propaga(llamada("f-2", "leer", ruta=""))),
    ("un fallo de programación de la herramienta sale tal cual",
     propaga(llamada("f-3", "escribir", ruta="compra/lunes.txt", contenido="pan"),
             escribir_con_fallo)),
    ("cada llamada corre su herramienta una sola vez", una_sola_vez([
        llamada("u-1", "escribir", ruta="compra/lunes.txt", contenido="pan, sal"),
        llamada("u-2", "buscar", patron="sal"),
        llamada("u-3", "leer", ruta="postres/flan.txt"),
    ], OTRO_ENTORNO, deja=(OSError,))),
    ("un entorno vacío y ficheros vacíos", salen_bien([
        llamada("e-1", "listar", carpeta=""),
        llamada("e-2", "escribir", ruta="lista.txt", contenido=""),
        llamada("e-3", "leer", ruta="lista.txt"),
        llamada("e-4", "buscar", patron="pan"),
    ], VACIO)),
]
