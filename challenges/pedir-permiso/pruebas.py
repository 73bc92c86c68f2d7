"""Las pruebas de «pedir-permiso» (la lección «Pedir permiso»).

El calificador ejecuta este archivo en un espacio de nombres propio, con su propio runtime (que
importa). Lo esperado se calcula aquí, con el ejecutar de la solución de referencia (importado de
solucion.py) y un usuario guionizado que responde lo mismo que el de la prueba. Lo que comparten
con las pruebas de los otros desafíos está en comun.py, y lo importan de ahí.

Deja A_ESCRIBIR, PISTA y PRUEBAS. Hay dos clases de pruebas:

- Llamadas sueltas: el ejecutar del lector (un espacio nuevo) con una llamada y un Usuario de
  la prueba, que responde lo que le toca, anota cada pregunta (la llamada que recibió y cómo
  estaba el entorno en ese momento) y nunca lanza nada: lo que hizo mal el lector se mira
  después, con un mensaje para cada cosa. Contesta es otro usuario de la prueba: responde algo
  que no es True ni False (el texto «no», None, 0, 1), lo que un arnés no debe tomar por un sí
  ni por un no.
- Conversaciones (conversaciones.py): el `bucle` del código inicial (o el del lector) con el
  ejecutar del lector, un modelo guionizado y un Usuario: la de la lección, con dos respuestas
  distintas y sin usuario (denegar, por omisión), y otras generadas que la lección no muestra.
  Antes que el guion, se mira a quién se preguntó y en qué turno.

Los usuarios de las pruebas están en usuarios.py.
"""

import copy as copia

from runtime import (denegado, FUNCIONES, llamada, muestra, resultado)
from calificador import Fallo
from ..comun import breve, entorno_distinto, lanzo
from ..sueltas import (cambiar, cargar, contadas, del_lector, es_tool_result, escribir_con_fallo,
                       espiado, motivo_de, OTRO_ENTORNO, sin_nada_de_mas)

#: Lo que un arnés correcto hace con una llamada: el ejecutar de la solución de referencia (en
#: estas pruebas, ejecutar es siempre el del lector).
from .solucion import ejecutar as observa
from .conversaciones import CONVERSACIONES, prueba_de
from .usuarios import Guionizado, Usuario

A_ESCRIBIR = {"ejecutar": ("ll", "entorno", "preguntar")}

PISTA = (
    "Primero lo que no se pregunta: si incumple(ll) da un motivo o la llamada solo mira (no "
    "necesita_permiso(ll)), devuelve ejecutar_sin_permiso(ll, entorno). Si no, guarda la "
    "respuesta de preguntar(ll), una sola vez, y compárala con is: si es False, return "
    "denegado(ll); si no es True, raise TypeError(...); si es True, ejecutar_sin_permiso(ll, "
    "entorno)."
)

# ------------------------------------------------------------------ ayudas


def compara_tool_result(ll, devuelto, esperado, que):
    """Fallo si el tool_result `devuelto` no es `esperado`; `que`: lo que debía contener."""
    con = f"Con {muestra(ll)}, "
    es_tool_result(ll, devuelto, "devuelve el tool_result con return.",
                   lambda t: (f"ejecutar devolvió un texto, {breve(t)}, y debe devolver un "
                              f"tool_result, hecho con resultado(ll[\"id\"], …)."),
                   "un tool_result")
    if bool(devuelto.get("is_error")) != esperado["is_error"]:
        if esperado["is_error"]:
            raise Fallo(f"{con}el tool_result debía llevar is_error=True ({que}): sin esa marca, "
                        f"el modelo lo lee como si la llamada hubiera salido bien.")
        raise Fallo(f"{con}el tool_result lleva is_error=True, pero la llamada salió bien: "
                    f"resultado(ll[\"id\"], salida).")
    if devuelto.get("content") != esperado["content"]:
        raise Fallo(f"{con}el contenido del tool_result debía ser {que}, "
                    f"{breve(esperado['content'])}, y es {breve(devuelto.get('content'))}.")
    sin_nada_de_mas(ll, devuelto, esperado, "resultado(ll[\"id\"], …)")


def preguntas_bien(ll, usuario, entorno_antes):
    """Fallo si ejecutar no preguntó por `ll` una vez, con la llamada, antes de ejecutarla."""
    con = f"Con {muestra(ll)}, "
    if not usuario.preguntas:
        raise Fallo(f"{con}ejecutar no preguntó al usuario, y {ll['name']} cambia el entorno "
                    f"(necesita_permiso(ll) es True): pregunta antes, con preguntar(ll), y "
                    f"ejecuta solo si dice que sí.")
    if len(usuario.preguntas) > 1:
        raise Fallo(f"{con}ejecutar preguntó {len(usuario.preguntas)} veces por una sola "
                    f"llamada: pregunta una vez y usa esa respuesta.")
    recibida, foto, _ = usuario.preguntas[0]
    if recibida != ll:
        raise Fallo(f"{con}ejecutar llamó a preguntar con {breve(recibida)}: pásale la llamada "
                    f"entera, preguntar(ll), para que el usuario vea qué se va a hacer.")
    if foto != entorno_antes:
        raise Fallo(f"{con}cuando ejecutar preguntó, {ll['name']} ya había cambiado el "
                    f"entorno ({entorno_distinto(entorno_antes, foto)}): se pregunta antes de "
                    f"ejecutar, no después.")


# --------------------------------------------------------------- llamadas sueltas


def solo_miran(llamadas):
    """Las llamadas que solo miran no preguntan, y dan el resultado de siempre."""
    def prueba(envio):
        ejecutar = cargar(envio)
        for ll in llamadas:
            entorno = dict(OTRO_ENTORNO)
            usuario = Usuario(["no"], entorno)
            esperado = observa(copia.deepcopy(ll), dict(OTRO_ENTORNO), Guionizado([]))
            devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
            if usuario.preguntas:
                raise Fallo(f"Con {muestra(ll)}, ejecutar preguntó al usuario, y {ll['name']} "
                            f"solo mira: pregunta solo si necesita_permiso(ll), es decir, si "
                            f"su herramienta está en CAMBIAN.")
            compara_tool_result(ll, devuelto, esperado, f"lo que devuelve {ll['name']}")
    return prueba


def permitida(ll):
    """El usuario dice que sí: pregunta una vez y la llamada se ejecuta sobre el entorno."""
    def prueba(envio):
        ejecutar = cargar(envio)
        entorno = dict(OTRO_ENTORNO)
        usuario = Usuario(["sí"], entorno)
        esperado_entorno = dict(OTRO_ENTORNO)
        esperado = observa(copia.deepcopy(ll), esperado_entorno, Guionizado(["sí"]))
        devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
        preguntas_bien(ll, usuario, dict(OTRO_ENTORNO))
        if entorno != esperado_entorno:
            raise Fallo(f"Con {muestra(ll)}, el usuario dijo que sí, pero el entorno no quedó "
                        f"como debía: {entorno_distinto(esperado_entorno, entorno)}. Con permiso, "
                        f"ejecuta la herramienta sobre entorno, el que recibe ejecutar.")
        compara_tool_result(ll, devuelto, esperado, f"lo que devuelve {ll['name']}")
    return prueba


def denegada(ll):
    """El usuario dice que no: la herramienta no corre y vuelve denegado(ll)."""
    def prueba(envio):
        ejecutar = cargar(envio)
        corridas, restaurar = contadas(ejecutar.espacio)
        entorno = dict(OTRO_ENTORNO)
        usuario = Usuario(["no"], entorno)
        try:
            devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
        except Exception as error:
            if not del_lector(envio, error):
                raise
            raise Fallo(f"Con {muestra(ll)}, el usuario dijo que no y de ejecutar salió "
                        f"{lanzo(error)}. Una llamada denegada no es un fallo del arnés: vuelve "
                        f"al modelo como observación, return denegado(ll), y las demás llamadas "
                        f"de la respuesta siguen.") from None
        finally:
            restaurar()
        preguntas_bien(ll, usuario, dict(OTRO_ENTORNO))
        if corridas or entorno != OTRO_ENTORNO:
            raise Fallo(f"Con {muestra(ll)}, el usuario dijo que no y ejecutar corrió "
                        f"{ll['name']} igual: si preguntar(ll) dice que no, devuelve "
                        f"denegado(ll) sin ejecutar nada.")
        compara_tool_result(ll, devuelto, denegado(ll), "NO_PERMITIDO, el de denegado(ll)")
    return prueba


def no_encaja_no_pregunta(ll):
    """Una llamada que no encaja: el motivo como error, sin preguntar ni ejecutar."""
    motivo = motivo_de(ll)

    def prueba(envio):
        ejecutar, anotadas, restaurar = espiado(envio)
        usuario = Usuario(["sí"])
        try:
            devuelto = ejecutar(copia.deepcopy(ll), dict(OTRO_ENTORNO), usuario)
        finally:
            restaurar()
        if usuario.preguntas:
            raise Fallo(f"Con {muestra(ll)}, ejecutar preguntó al usuario por una llamada que "
                        f"no encaja con su esquema ({motivo}): comprueba antes incumple(ll) y "
                        f"devuelve el error sin molestar a nadie; no hay nada que permitir.")
        if anotadas:
            raise Fallo(f"Con {muestra(ll)}, ejecutar llamó a {anotadas[0]} y no debía: la "
                        f"llamada no encaja con su esquema ({motivo}).")
        compara_tool_result(ll, devuelto, resultado(ll["id"], motivo, es_error=True),
                "el motivo de incumple, tal cual")
    return prueba


def permitida_y_falla(ll, clase):
    """Con permiso, la herramienta lanza `clase`: el error vuelve como observación."""
    entorno = dict(OTRO_ENTORNO)
    try:
        FUNCIONES[ll["name"]](dict(entorno), **ll["input"])
    except clase as e:
        error = e

    def prueba(envio):
        ejecutar = cargar(envio)
        entorno = dict(OTRO_ENTORNO)
        usuario = Usuario(["sí"], entorno)
        try:
            devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
        except (OSError, ValueError) as escapado:
            raise Fallo(f"Con {muestra(ll)}, el usuario dijo que sí, {ll['name']} lanzó "
                        f"{lanzo(escapado)} y el error salió de ejecutar. Sigue valiendo lo de "
                        f"«Errores como observaciones»: resultado(ll[\"id\"], str(error), "
                        f"es_error=True).") from None
        preguntas_bien(ll, usuario, dict(OTRO_ENTORNO))
        compara_tool_result(ll, devuelto, resultado(ll["id"], str(error), es_error=True),
                "el mensaje de la excepción, str(error)")
    return prueba


def permitida_y_fallo_del_arnes(ll, rota, clase):
    """Con permiso, la herramienta tiene un fallo de programación: su excepción se propaga."""
    def prueba(envio):
        ejecutar = cargar(envio)
        restaurar = cambiar(ejecutar.espacio, {ll["name"]: rota})
        entorno = dict(OTRO_ENTORNO)
        usuario = Usuario(["sí"], entorno)
        try:
            devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
        except clase as error:
            if not del_lector(envio, error):
                raise
            devuelto = None
        finally:
            restaurar()
        preguntas_bien(ll, usuario, dict(OTRO_ENTORNO))
        if devuelto is not None:
            raise Fallo(f"Con {muestra(ll)}, {ll['name']} tiene un fallo de programación (lanza "
                        f"{clase.__name__}) y ejecutar devolvió {breve(devuelto)}: convirtió un "
                        f"fallo del arnés en una observación. Atrapa solo OSError y ValueError.")
    return prueba


class SinRespuesta(RuntimeError):
    """Lo que lanza el preguntar de una prueba: la persona no contestó (cerró la página, se
    acabó la entrada). No es un no."""


def preguntar_que_lanza(ll):
    """Si preguntar(ll) lanza, nadie dijo que no: la excepción se propaga y no se ejecuta nada."""
    def lanza(*args, **kwargs):
        raise SinRespuesta("nadie ha contestado")

    def prueba(envio):
        ejecutar = cargar(envio)
        corridas, restaurar = contadas(ejecutar.espacio)
        entorno = dict(OTRO_ENTORNO)
        try:
            devuelto = ejecutar(copia.deepcopy(ll), entorno, lanza)
        except RuntimeError as error:
            # Lo que cruza la muralla es una copia limpia, con el mismo nombre.
            if not del_lector(envio, error) or type(error).__name__ != "SinRespuesta":
                raise
            devuelto = None
        finally:
            restaurar()
        if corridas or entorno != OTRO_ENTORNO:
            raise Fallo(f"Con {muestra(ll)}, preguntar lanzó SinRespuesta y ejecutar corrió "
                        f"{ll['name']} igual: sin una respuesta, no se ejecuta nada.")
        if devuelto is not None:
            raise Fallo(f"Con {muestra(ll)}, preguntar lanzó SinRespuesta («nadie ha "
                        f"contestado») y ejecutar devolvió {breve(devuelto)}: tomó el error por "
                        f"un no. Si preguntar lanza, nadie ha dicho que no: la excepción se "
                        f"propaga, como cualquier otra que no sea OSError o ValueError.")
    return prueba


class Contesta(Usuario):
    """Un preguntar que responde `valor`, tal cual, a cada pregunta, y las anota como Usuario."""

    def __init__(self, valor, entorno):
        super().__init__([], entorno)
        self.valor = valor

    def __call__(self, *args, **kwargs):
        super().__call__(*args, **kwargs)
        return self.valor


def ni_si_ni_no(ll, valores, parece):
    """preguntar(ll) responde algo que no es True ni False (`valores`, que en un if `parece` un sí
    o un no): ejecutar lanza TypeError, sin ejecutar nada y sin devolverle nada al modelo."""
    def prueba(envio):
        ejecutar = cargar(envio)
        for valor in valores:
            con = f"Con {muestra(ll)}, preguntar respondió {valor!r}, que en un if parece {parece}, "
            corridas, restaurar = contadas(ejecutar.espacio)
            entorno = dict(OTRO_ENTORNO)
            usuario = Contesta(valor, entorno)
            devuelto = None
            try:
                devuelto = ejecutar(copia.deepcopy(ll), entorno, usuario)
            except TypeError as error:
                if not del_lector(envio, error):
                    raise
            except Exception as error:
                if not del_lector(envio, error):
                    raise
                raise Fallo(f"{con}y de ejecutar salió {lanzo(error)}: una respuesta que no es "
                            f"True ni False es un fallo del arnés, y se dice con TypeError.") from None
            finally:
                restaurar()
            preguntas_bien(ll, usuario, dict(OTRO_ENTORNO))
            if corridas or entorno != OTRO_ENTORNO:
                raise Fallo(f"{con}y ejecutar corrió {ll['name']}: solo True es un sí. Cualquier "
                            f"otra respuesta no es ni un sí ni un no: lanza TypeError sin "
                            f"ejecutar nada.")
            if devuelto == denegado(ll):
                raise Fallo(f"{con}y ejecutar devolvió denegado(ll): le dice al modelo que el "
                            f"usuario no lo ha permitido, y nadie ha dicho que no. Solo False es "
                            f"un no; cualquier otra respuesta es un fallo del arnés: lanza "
                            f"TypeError.")
            if devuelto is not None:
                raise Fallo(f"{con}y ejecutar devolvió {breve(devuelto)}: una respuesta que no "
                            f"es True ni False no es ni un sí ni un no. Lanza TypeError sin "
                            f"ejecutar nada.")
    return prueba


PRUEBAS = [
    ("las llamadas que solo miran no preguntan", solo_miran([
        llamada("m1", "listar", carpeta="recetas"),
        llamada("m2", "leer", ruta="compra/martes.txt"),
        llamada("m3", "buscar", patron="cebolla"),
    ])),
    ("escribir con permiso: pregunta una vez y se ejecuta",
     permitida(llamada("s1", "escribir", ruta="compra/jueves.txt", contenido="pan, sal"))),
    ("escribir denegado: no se ejecuta y vuelve denegado(ll)",
     denegada(llamada("n1", "escribir", ruta="lista.txt", contenido="chocolate"))),
    ("una escritura que no encaja no pregunta ni se ejecuta",
     no_encaja_no_pregunta(llamada("x1", "escribir", ruta="lista.txt"))),
    ("con permiso, un error de la herramienta vuelve como observación",
     permitida_y_falla(llamada("f1", "escribir", ruta="lista.txt/extra.txt", contenido="sal"),
                       NotADirectoryError)),
    ("con permiso, un fallo del arnés se propaga",
     permitida_y_fallo_del_arnes(llamada("h1", "escribir", ruta="compra/lunes.txt",
                                         contenido="pan"), escribir_con_fallo, TypeError)),
    ('una respuesta verdadera que no es True ("no", 1): TypeError sin ejecutar nada',
     ni_si_ni_no(llamada("r1", "escribir", ruta="notas.txt", contenido="chocolate"),
                 ["no", 1], "un sí")),
    ("una respuesta falsa que no es False (None, 0): TypeError, no una denegación",
     ni_si_ni_no(llamada("r2", "escribir", ruta="lista.txt", contenido="chocolate"),
                 [None, 0], "un no")),
    ("si preguntar lanza, la excepción se propaga",
     preguntar_que_lanza(llamada("q1", "escribir", ruta="lista.txt", contenido="pan, sal"))),
] + [(c.nombre, prueba_de(c)) for c in CONVERSACIONES]
