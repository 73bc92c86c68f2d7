"""Las pruebas de «errores-como-observaciones» (la lección «Errores como observaciones»).

El calificador ejecuta este archivo en un espacio de nombres propio, con su propio runtime (que
importa). Lo esperado se calcula aquí, donde el código del lector no llega, con el ejecutar de
la solución de referencia (importado de solucion.py): es lo que un arnés correcto hace con cada
llamada. Lo que comparten con las pruebas de los otros desafíos (Caso, registro, AlAzar,
espiar, breve...) está en comun.py, y lo importan de ahí.

Deja A_ESCRIBIR, PISTA y PRUEBAS (como bucle-con-tope/pruebas.py). Hay dos clases de pruebas:

- Llamadas sueltas: la prueba carga el código del lector con envio.funcion("ejecutar") (un
  espacio nuevo) y llama a su ejecutar sobre un entorno propio. Para ver que una llamada que no
  encaja no ejecuta nada, cambia las herramientas de ese espacio por espías que solo anotan;
  para ver que un fallo del arnés se propaga, cambia una por una herramienta con un fallo de
  programación (y las restaura al acabar).
- Conversaciones: el `bucle` del código inicial (o el del lector, si lo reescribe) con el
  ejecutar del lector y un modelo guionizado, como en bucle-con-tope: la de la lección y otras
  generadas con errores que la lección no muestra.

Lo que la prueba espera que lance el lector lo atrapa; cualquier otra excepción sale tal cual y
el calificador la cuenta como un error del lector, con su línea.
"""

import copy as copia

from runtime import (FUNCIONES, GuionRoto, incumple, INICIO_ERRORES, llamada, muestra,
    RESPUESTAS_ERRORES, resultado, SISTEMA_BUCLE, texto)
from calificador import Fallo
from ..comun import (AlAzar, breve, Caso, CON_VACIOS, entorno_distinto, ESCRITAS, FINALES, FRASES,
                     lanzo, PETICIONES, registro, termina_como, VACIO)
from ..sueltas import (cambiar, cargar, del_lector, es_tool_result, escribir_con_fallo, espiado,
                       motivo_de, OTRO_ENTORNO, sale_bien, sin_nada_de_mas, una_sola_vez)

#: Lo que un arnés correcto hace con una llamada: el ejecutar de la solución de referencia (en
#: estas pruebas, ejecutar es siempre el del lector).
from .solucion import ejecutar as observa

A_ESCRIBIR = {"ejecutar": ("ll", "entorno")}

PISTA = (
    "Primero, motivo = incumple(ll): si no es None, return resultado(ll[\"id\"], motivo, "
    "es_error=True), sin ejecutar nada. Después, llama a la herramienta dentro de un try con "
    "except (OSError, ValueError) as error: return resultado(ll[\"id\"], str(error), "
    "es_error=True). Nada de except Exception: lo demás debe propagarse. Si no hubo error, "
    "return resultado(ll[\"id\"], salida)."
)

# ------------------------------------------------------------------ ayudas


def observado(ll, entorno):
    """(el tool_result que da un arnés correcto, la excepción de la herramienta o None);
    `entorno` cambia si la llamada escribe."""
    error = None
    if incumple(ll) is None:
        try:
            FUNCIONES[ll["name"]](dict(entorno), **ll["input"])
        except (OSError, ValueError) as e:
            error = e
    return observa(ll, entorno), error


def escapa(ll, error):
    """El mensaje cuando un error del modelo sale de ejecutar como excepción."""
    motivo = incumple(ll)
    if motivo is not None and str(error) == motivo:
        return (f"Con {muestra(ll)}, ejecutar lanzó {lanzo(error)}. Ese motivo es para el "
                f"modelo: devuelve resultado(ll[\"id\"], motivo, es_error=True), sin lanzar "
                f"nada y sin ejecutar la herramienta.")
    return (f"Con {muestra(ll)}, de ejecutar salió {lanzo(error)}. Es un error que el modelo "
            f"puede corregir, si se entera: devuelve resultado(ll[\"id\"], str(error), "
            f"es_error=True).")


def compara_observacion(ll, devuelto, esperado, error=None):
    """Fallo si `devuelto` no es `esperado`; `error`, la excepción de la herramienta si la hubo."""
    con = f"Con {muestra(ll)}, "
    contenido = esperado["content"]
    if not esperado["is_error"]:
        que = f"lo que devuelve {ll['name']}"
    elif error is None:
        que = "el motivo de incumple, tal cual"
    else:
        que = "el mensaje de la excepción, str(error)"

    def de_un_texto(devuelto):
        if esperado["is_error"] and devuelto == contenido:
            return (f"ejecutar devolvió el mensaje solo, {breve(devuelto)}: va dentro de un "
                    f"tool_result, resultado(ll[\"id\"], mensaje, es_error=True), para que el "
                    f"modelo sepa a qué llamada responde y que es un error.")
        return (f"ejecutar devolvió un texto, {breve(devuelto)}, y debe devolver un "
                f"tool_result, hecho con resultado(ll[\"id\"], …).")
    es_tool_result(ll, devuelto, "devuelve el tool_result con return.", de_un_texto,
                   "un tool_result, hecho con resultado(ll[\"id\"], …)")

    if bool(devuelto.get("is_error")) != esperado["is_error"]:
        if not esperado["is_error"]:
            raise Fallo(f"{con}el tool_result lleva is_error=True, pero la llamada salió bien: "
                        f"resultado(ll[\"id\"], salida), sin es_error.")
        porque = ("la llamada no encaja con su esquema" if error is None
                  else f"{ll['name']} lanzó {type(error).__name__}")
        raise Fallo(f"{con}el tool_result debía llevar is_error=True: {porque}. Sin esa marca, "
                    f"el modelo lo lee como si la llamada hubiera salido bien: usa "
                    f"resultado(ll[\"id\"], mensaje, es_error=True).")
    hay = devuelto.get("content")
    if hay != contenido:
        raise Fallo(f"{con}el contenido del tool_result debía ser {que}, {breve(contenido)}, y "
                    f"es {breve(hay)}." + pista_de_contenido(hay, error))
    sin_nada_de_mas(ll, devuelto, esperado, "resultado(ll[\"id\"], …)")


def pista_de_contenido(hay, error):
    if error is None:
        return ""
    if isinstance(hay, BaseException):
        return "\nPista: ese contenido es la excepción misma; el modelo lee texto: str(error)."
    if hay == repr(error):
        return ("\nPista: eso es repr(error), con la clase y las comillas; el mensaje es "
                "str(error).")
    if isinstance(hay, str) and hay.startswith(type(error).__name__):
        return "\nPista: sobra el nombre de la clase; el mensaje es str(error), tal cual."
    mensaje = str(error)
    if isinstance(hay, str) and mensaje and hay.endswith(mensaje) and hay != mensaje:
        return (f"\nPista: sobra «{hay[: len(hay) - len(mensaje)]}» delante: que es un error ya "
                f"lo dice is_error. El mensaje es str(error), tal cual.")
    return ""


# --------------------------------------------------------------- llamadas sueltas


def no_encaja_vuelve(ll):
    """Una llamada que no encaja: resultado de error con el motivo, sin ejecutar nada."""
    motivo = motivo_de(ll)

    def prueba(envio):
        ejecutar, anotadas, restaurar = espiado(envio)
        escapado = None
        try:
            devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO))
        except (OSError, ValueError) as error:
            escapado = error
        except KeyError as error:
            if ll["name"] in FUNCIONES or anotadas:
                raise
            raise Fallo(f"Con {muestra(ll)}, ejecutar lanzó {lanzo(error)}: "
                        f"FUNCIONES[ll[\"name\"]] falla si la herramienta no existe. Comprueba "
                        f"antes la llamada con incumple(ll) y devuelve su motivo como error: "
                        f"resultado(ll[\"id\"], motivo, es_error=True).") from None
        finally:
            restaurar()
        if anotadas:
            raise Fallo(f"Con {muestra(ll)}, ejecutar llamó a {anotadas[0]} y no debía: la "
                        f"llamada no encaja con su esquema ({motivo}). Si incumple(ll) da un "
                        f"motivo, devuelve el error enseguida, sin ejecutar nada.")
        if escapado is not None:
            raise Fallo(escapa(ll, escapado))
        compara_observacion(ll, devuelto, resultado(ll["id"], motivo, es_error=True))
    return prueba


def herramienta_falla(ll, clase):
    """Una llamada que encaja pero cuya herramienta lanza `clase`: resultado de error con
    str(error), y el entorno sin tocar."""
    esperado, error = observado(ll, dict(OTRO_ENTORNO))
    if not isinstance(error, clase):
        raise ValueError(f"la prueba espera que {muestra(ll)} lance {clase.__name__}")

    def prueba(envio):
        ejecutar = cargar(envio)
        entorno = dict(OTRO_ENTORNO)
        try:
            devuelto = ejecutar(copia.deepcopy(ll), entorno)
        except (OSError, ValueError) as escapado:
            raise Fallo(escapa(ll, escapado)) from None
        compara_observacion(ll, devuelto, esperado, error)
        if entorno != OTRO_ENTORNO:
            raise Fallo(f"Con {muestra(ll)}, el entorno cambió: "
                        f"{entorno_distinto(OTRO_ENTORNO, entorno)}.")
    return prueba


def la_de_siempre(ll, llamar, esperado_entorno):
    """Para sale_bien: ejecutar devuelve lo que un arnés correcto, aunque sea un texto vacío."""
    esperado, _ = observado(ll, esperado_entorno)
    compara_observacion(ll, llamar(), esperado)


def salen_bien(llamadas, entorno_inicial=OTRO_ENTORNO):
    """Llamadas que salen bien, una tras otra sobre el mismo entorno (una copia de
    `entorno_inicial`): su resultado de siempre, aunque sea un texto vacío; y ningún error sale
    de ejecutar."""
    return sale_bien(llamadas, la_de_siempre, entorno_inicial, escapan=(OSError, ValueError))


def buscar_con_fallo(entorno, patron):
    return entorno["lista"]  # el fallo de la lección: la clave es "lista.txt"


def listar_con_fallo(entorno, carpeta):
    por_letra = len(entorno) / len(carpeta)  # con carpeta "", ZeroDivisionError
    return f"{por_letra:.1f} ficheros por letra"


def leer_con_fallo(entorno, ruta):
    return entorno.get(ruta).strip()  # si la ruta no existe, get da None: AttributeError


def leer_sin_permiso(entorno, ruta):
    raise PermissionError(f"no tienes permiso para leer '{ruta}'")


def otro_oserror(rota, ll):
    """La herramienta de `ll` lanza un OSError que la lección no muestra (la cambia por `rota`):
    también es un error del modelo, que vuelve como observación."""
    try:
        rota(dict(OTRO_ENTORNO), **ll["input"])
    except OSError as e:
        error = e
    esperado = resultado(ll["id"], str(error), es_error=True)

    def prueba(envio):
        ejecutar = cargar(envio)
        restaurar = cambiar(ejecutar.espacio, {ll["name"]: rota})
        try:
            devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO))
        except (OSError, ValueError) as escapado:
            raise Fallo(escapa(ll, escapado) + f"\nPista: {type(error).__name__} también es un "
                        f"OSError, como FileNotFoundError: atrapa OSError entero, no sus "
                        f"clases una a una.") from None
        finally:
            restaurar()
        compara_observacion(ll, devuelto, esperado, error)
    return prueba


def arnes_roto(rota, ll, clase):
    """La herramienta de `ll` tiene un fallo de programación: su excepción debe salir de
    ejecutar tal cual. La herramienta buena vuelve a su sitio al acabar."""
    def prueba(envio):
        ejecutar = cargar(envio)
        lanzadas = []

        def registrada(*args, **kwargs):
            try:
                return rota(*args, **kwargs)
            except BaseException as e:
                lanzadas.append(e)
                raise
        restaurar = cambiar(ejecutar.espacio, {ll["name"]: registrada})
        try:
            devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO))
        except Exception as error:
            if not lanzadas or not del_lector(envio, error):
                raise  # no salió de la herramienta: un error del lector, o un veredicto
            original = lanzadas[-1]
            if error is original or (type(error) is clase and str(error) == str(original)):
                return
            raise Fallo(f"Con {muestra(ll)}, {ll['name']} tiene un fallo de programación y "
                        f"lanza {lanzo(lanzadas[-1])}, pero de ejecutar salió {lanzo(error)}: "
                        f"deja que ese error salga tal cual.") from None
        finally:
            restaurar()
        if not lanzadas:
            raise Fallo(f"Con {muestra(ll)}, ejecutar no llamó a {ll['name']}: usa la "
                        f"herramienta de FUNCIONES[ll[\"name\"]].")
        raise Fallo(f"Con {muestra(ll)}, {ll['name']} tiene un fallo de programación (lanza "
                    f"{lanzo(lanzadas[-1])}) y ejecutar devolvió {breve(devuelto)}: convirtió un "
                    f"fallo del arnés en una observación que el modelo no puede arreglar. "
                    f"Atrapa solo OSError y ValueError; lo demás debe salir de ejecutar, para "
                    f"que lo veas tú.")
    return prueba


# ------------------------------------------------------------------ conversaciones


class Conversacion(Caso):
    """Una conversación que acaba en «fin» y lo que el bucle con un ejecutar correcto hace."""

    def __init__(self, nombre, inicio, respuestas, entorno=None):
        super().__init__(nombre, inicio, respuestas, len(respuestas) + 2, entorno,
                         observa=observa)
        self.errores = sum(1 for obs in self.observaciones for b in obs if b["is_error"])


def con_pista(error):
    """El mensaje del modelo guionizado; si lo distinto es el contenido de un error, con una
    pista sobre errores en vez de la suya, que piensa en resultados que salieron bien."""
    mensaje = str(error)
    if not isinstance(error, GuionRoto):
        return mensaje
    e, r = error.esperado, error.recibido
    if not (isinstance(e, tuple) and isinstance(r, (tuple, list)) and len(r) == 2
            and isinstance(e[1], list) and isinstance(r[1], list) and len(e[1]) == len(r[1])):
        return mensaje
    for esperado, recibido in zip(e[1], r[1], strict=False):
        if not (esperado.get("is_error") and isinstance(recibido, dict)
                and recibido.get("is_error") and esperado != recibido):
            continue
        debe, hay = esperado["content"], recibido.get("content")
        pista = (f"el contenido del error de {esperado['tool_use_id']} es el mensaje tal cual: "
                 f"str(error), o el motivo de incumple.")
        if isinstance(hay, str) and hay.endswith(debe) and hay != debe:
            pista += f" Al tuyo le sobra {breve(hay[:len(hay) - len(debe)])} delante."
        if error.pista:
            return mensaje.replace(f"Pista: {error.pista}", f"Pista: {pista}")
        return mensaje + f"\nPista: {pista}"
    return mensaje


def prueba_de(caso):
    def prueba(envio):
        bucle = envio.funcion("bucle")
        modelo, notas = registro(caso.guion, explica=lambda error, turno: con_pista(error))
        entorno = dict(caso.entorno)
        try:
            devuelto = bucle(modelo, copia.deepcopy(caso.inicio), entorno, caso.tope)
        except BaseException as error:
            if notas["fallo"] is not None:
                raise Fallo(notas["fallo"], notas["turno"]) from None
            if isinstance(error, (OSError, ValueError)):
                raise Fallo(murio(caso, notas["respuestas"], error), notas["respuestas"]) from None
            raise
        if notas["fallo"] is not None:
            raise Fallo(notas["fallo"], notas["turno"])
        termina_como(caso, devuelto, entorno)
    return prueba


def murio(caso, turno, error):
    """El mensaje cuando un error del modelo sale de ejecutar en mitad de la conversación."""
    llamadas = [b for b in caso.respuestas[turno - 1] if b["type"] == "tool_use"] if turno else []
    obs = caso.observaciones[turno - 1] if turno else []
    cual = next((f" con {muestra(ll)}" for ll, r in zip(llamadas, obs, strict=False)
                 if r["is_error"] and r["content"] == str(error)), "")
    return (f"En el turno {turno}, de ejecutar salió {lanzo(error)}{cual}, y la conversación "
            f"murió a medias: el modelo nunca supo qué pasó con su llamada. Un error del "
            f"modelo vuelve a él como observación: resultado(ll[\"id\"], …, es_error=True).")


# ---------------------------------------------- conversaciones que la lección no muestra


#: Errores que la lección no muestra (los suyos: en la traza, leer una ruta que no existe y
#: escribir sin contenido; en sus celdas, pedir copiar y escribir una lista), cada uno como una
#: llamada con el id dado.
ERRORES_NUEVOS = {
    "herramienta inventada": lambda i: llamada(i, "borrar", ruta="lista.txt"),
    "argumento de más": lambda i: llamada(i, "leer", ruta="notas.txt", lineas=2),
    "tipo equivocado": lambda i: llamada(i, "buscar", patron=["ajo"]),
    "leer una carpeta": lambda i: llamada(i, "leer", ruta="recetas/"),
    "listar un fichero": lambda i: llamada(i, "listar", carpeta="notas.txt"),
    "escribir dentro de un fichero":
        lambda i: llamada(i, "escribir", ruta="lista.txt/sabado.txt", contenido="ajo"),
    "listar una carpeta que no existe": lambda i: llamada(i, "listar", carpeta="postres"),
    "una ruta vacía": lambda i: llamada(i, "leer", ruta=""),
    "una ruta absoluta": lambda i: llamada(i, "escribir", ruta="/lista.txt", contenido="pan"),
    "un patrón vacío": lambda i: llamada(i, "buscar", patron=""),
}


def generada(semilla, turnos, errores, entorno=None, nombre=None):
    """Una conversación de `turnos` respuestas: las turnos - 1 primeras piden de 1 a 3 cosas,
    entre ellas, repartidos al azar, los `errores` (nombres de ERRORES_NUEVOS); la última
    responde con texto. Con `entorno` (uno de comun.py al borde), empieza en él, y a veces
    escribe ficheros vacíos."""
    al_azar = AlAzar(semilla, FRASES["errores-como-observaciones"],
                     ESCRITAS["errores-como-observaciones"], entorno, vacios=entorno is not None)
    rng = al_azar.rng
    inicio = [("sistema", SISTEMA_BUCLE),
              ("usuario", rng.choice(PETICIONES["errores-como-observaciones"]))]
    donde = {nombre: rng.randrange(turnos - 1) for nombre in errores}
    respuestas = []
    for t in range(turnos - 1):
        aqui = [ERRORES_NUEVOS[nombre] for nombre in errores if donde[nombre] == t]
        pedidas = aqui + [None] * rng.randint(0 if aqui else 1, 2)
        rng.shuffle(pedidas)
        respuestas.append(al_azar.respuesta(pedidas))
    respuestas.append([texto(rng.choice(FINALES))])
    nombre = nombre or (f"otra conversación: {len(errores)} errores que la lección no "
                        f"muestra, en {turnos} turnos")
    return Conversacion(nombre, inicio, respuestas, entorno)


#: Una semilla con la que la conversación sobre CON_VACIOS lee o lista algo vacío.
SEMILLA_VACIOS = 3

CONVERSACIONES = [
    Conversacion("la conversación de la lección", INICIO_ERRORES, RESPUESTAS_ERRORES),
    generada(8, 4, ["herramienta inventada", "leer una carpeta", "un patrón vacío",
                    "argumento de más", "listar un fichero"]),
    generada(13, 6, ["tipo equivocado", "escribir dentro de un fichero", "una ruta vacía",
                     "listar una carpeta que no existe", "una ruta absoluta"]),
    generada(SEMILLA_VACIOS, 5, ["herramienta inventada", "leer una carpeta", "un patrón vacío",
                                 "listar una carpeta que no existe", "una ruta vacía"],
             CON_VACIOS, "otra conversación: ficheros vacíos y 5 errores, en 5 turnos"),
]


PRUEBAS = [
    ("una herramienta que no existe: error con el motivo, sin ejecutar nada",
     no_encaja_vuelve(llamada("x1", "mover", ruta="lista.txt", destino="compra/lista.txt"))),
    ("falta un argumento: error con el motivo, sin ejecutar nada",
     no_encaja_vuelve(llamada("x2", "buscar"))),
    ("sobra un argumento: error con el motivo, sin ejecutar nada",
     no_encaja_vuelve(llamada("x3", "listar", carpeta="recetas", ocultos=True))),
    ("un argumento del tipo equivocado: error con el motivo, sin ejecutar nada",
     no_encaja_vuelve(llamada("x4", "escribir", ruta="lista.txt", contenido=["pan", "sal"]))),
    ("leer un fichero que no existe: FileNotFoundError como observación",
     herramienta_falla(llamada("y1", "leer", ruta="postres/flan.txt"), FileNotFoundError)),
    ("leer una carpeta: IsADirectoryError como observación",
     herramienta_falla(llamada("y2", "leer", ruta="recetas"), IsADirectoryError)),
    ("escribir dentro de un fichero: NotADirectoryError como observación",
     herramienta_falla(llamada("y3", "escribir", ruta="lista.txt/extra.txt", contenido="sal"),
                       NotADirectoryError)),
    ("una ruta vacía: ValueError como observación",
     herramienta_falla(llamada("y4", "leer", ruta=""), ValueError)),
    ("un patrón vacío: ValueError como observación",
     herramienta_falla(llamada("y5", "buscar", patron=""), ValueError)),
    ("si todo va bien, el resultado de siempre", salen_bien([
        llamada("ok-1", "listar", carpeta="recetas"),
        llamada("ok-2", "escribir", ruta="compra/viernes.txt", contenido="leche, pan"),
        llamada("ok-3", "leer", ruta="compra/viernes.txt"),
        llamada("ok-4", "buscar", patron="cebolla"),
    ])),
    ("un fallo del arnés se propaga: KeyError",
     arnes_roto(buscar_con_fallo, llamada("h1", "buscar", patron="ajo"), KeyError)),
    ("un fallo del arnés se propaga: ZeroDivisionError",
     arnes_roto(listar_con_fallo, llamada("h2", "listar", carpeta=""), ZeroDivisionError)),
    ("un fallo del arnés se propaga: TypeError",
     arnes_roto(escribir_con_fallo, llamada("h3", "escribir", ruta="compra/lunes.txt",
                                            contenido="pan"), TypeError)),
    ("un fallo del arnés se propaga: AttributeError",
     arnes_roto(leer_con_fallo, llamada("h4", "leer", ruta="postres/flan.txt"), AttributeError)),
    ("un OSError que la lección no muestra: PermissionError como observación",
     otro_oserror(leer_sin_permiso, llamada("y6", "leer", ruta="cuentas.txt"))),
    ("cada llamada corre su herramienta una sola vez", una_sola_vez([
        llamada("u1", "escribir", ruta="compra/lunes.txt", contenido="pan, sal"),
        llamada("u2", "leer", ruta="postres/flan.txt"),
        llamada("u3", "buscar", patron=""),
        llamada("u4", "leer", ruta="compra/lunes.txt"),
    ], OTRO_ENTORNO, deja=(OSError, ValueError))),  # si se escapan: otras pruebas lo dicen
    ("un entorno vacío y ficheros vacíos: el resultado de siempre", salen_bien([
        llamada("v1", "listar", carpeta=""),
        llamada("v2", "escribir", ruta="lista.txt", contenido=""),
        llamada("v3", "leer", ruta="lista.txt"),
    ], VACIO)),
] + [(c.nombre, prueba_de(c)) for c in CONVERSACIONES]
