"""Las pruebas de «pruebas-del-agente» (la lección «El agente y sus pruebas»): aquí el lector
escribe las pruebas, y lo que se califica es si distinguen un agente correcto de uno roto.

El calificador ejecuta este archivo en un espacio de nombres propio; del calificador importa
Fallo, opaca, murada y plano. El agente de referencia (agente.py) y los rotos (rotos.py, cada
uno con un solo fallo) se importan aquí: el código del lector no llega a ellos.

Cada prueba carga el código del lector en un espacio nuevo, sin la clase del código inicial y
con `agente` ya puesto (antes y después de su código: una definición suya no lo tapa): una
función opaca que llama al agente de turno. Lo que el lector le pasa se copia con tipos
exactos; su modelo y su preguntar corren tras la muralla (murada), aunque los llame código de
aquí. Después se corren, una a una y cada una con el límite de tiempo, las pruebas de las clases
unittest.TestCase del lector (sus métodos test…, como los encuentra unittest), con un TestResult
que solo anota.

- «tus pruebas pasan con el agente correcto»: todas pasan con el de referencia; si no, el
  mensaje nombra cada una con su mensaje. Sin pruebas, falla.
- «Atrapa: <lo que hace mal>», una por agente roto: alguna de las pruebas que pasan con el
  agente correcto falla con el roto. Una prueba que no afirma nada no atrapa nada; una que
  falla siempre no cuenta (ya la señala la primera).

Deja A_ESCRIBIR (vacío: el lector escribe clases, que se buscan aquí), PISTA y PRUEBAS.
"""

import inspect
import unittest

from calificador import Fallo, murada, opaca, plano

# En estas pruebas, agente es siempre el de turno, opaco: el de referencia se llama correcto.
from .agente import agente as correcto
from .anotador import Anotador
from .rotos import ROTOS


A_ESCRIBIR = {}

PISTA = (
    "Escribe una clase que herede de unittest.TestCase con un método test_… por cada cosa que "
    "el agente promete: el pedido de la tortilla de principio a fin (ModeloGuionizado("
    "guion_tortilla()) y Respuestas([\"sí\"])), un modelo terco que se para en el tope "
    "(guion_terco(3), tope=3), una escritura sin contenido que vuelve como error "
    "(guion_sin_contenido()) y una escritura denegada (el preguntar por defecto) que deja el "
    "entorno como estaba. Afirma el como, el texto final, len(M), el entorno y lo que se le "
    "preguntó al usuario."
)

FIRMA = inspect.signature(correcto)
LLAMADA = "agente(modelo, pedido, entorno, preguntar=denegar, tope=10)"

#: Las clases de pruebas del código inicial (inicial.py): el calificador lo ejecuta en el espacio
#: del lector antes que su código, y aquí se quitan, para que solo cuenten las clases del lector.
DEL_INICIAL = ("PruebasDelAgente",)

def para_el_lector(elegido):
    """`elegido` (un agente de aquí) como lo recibe el lector: opaco, con sus argumentos
    copiados; su modelo y su preguntar, tras la muralla; su entorno, un dict, cambiado en su
    sitio como lo cambiaría el agente."""
    def agente(*argumentos, **nombrados):
        try:
            dados = FIRMA.bind(*argumentos, **nombrados).arguments
        except TypeError:
            raise TypeError(f"agente se llama así: {LLAMADA}, y estos argumentos no encajan "
                            f"con esa firma") from None
        pasados = {}
        for nombre, valor in dados.items():
            if nombre in ("modelo", "preguntar") and callable(valor):
                pasados[nombre] = murada(valor, nombre)
            else:
                pasados[nombre] = plano(valor)
        entorno = dados.get("entorno")
        try:
            return elegido(**pasados)
        finally:
            if type(entorno) is dict:
                entorno.clear()
                entorno.update(pasados["entorno"])
    return opaca(agente, "agente")




def encontradas(ns):
    """[(nombre, clase, método)] de las pruebas del lector, en el orden de unittest."""
    clases = [v for v in list(ns.values()) if isinstance(v, type)
              and issubclass(v, unittest.TestCase) and v.__module__ == "desafio"]
    cargador = unittest.TestLoader()
    pruebas = [(clase, metodo) for clase in clases
               for metodo in cargador.getTestCaseNames(clase)]
    solo_una = len(clases) == 1
    return [(str(metodo) if solo_una else f"{clase.__name__}.{metodo}", clase, str(metodo))
            for clase, metodo in pruebas]


def correr(envio, elegido):
    """{nombre: None si pasó, o (tipo, mensaje)} de las pruebas del lector con `elegido`."""
    opaco = para_el_lector(elegido)

    def cargar():
        ns = envio.espacio({"agente": opaco, **{nombre: None for nombre in DEL_INICIAL}})
        ns["agente"] = opaco
        return encontradas(ns)

    hecho = envio.vigilar(cargar, "Tu código")
    if hecho.error is not None:
        raise hecho.error
    vistos = {}
    for nombre, clase, metodo in hecho.valor:
        def una(clase=clase, metodo=metodo):
            anotador = Anotador()
            clase(metodo).run(anotador)
            return list(anotador.fallos)
        hecho = envio.vigilar(una, f"La prueba {nombre}")
        if hecho.error is not None:
            raise hecho.error
        fallos = hecho.valor
        vistos[nombre] = fallos[0] if fallos else None
    return vistos


_REFERENCIA = {}


def con_el_correcto(envio):
    """Lo que dan las pruebas del lector con el agente correcto (una vez por envío)."""
    if _REFERENCIA.get("envio") is not envio:
        _REFERENCIA.clear()
        _REFERENCIA["vistos"] = correr(envio, correcto)
        _REFERENCIA["envio"] = envio
    return _REFERENCIA["vistos"]


SIN_PRUEBAS = ("No hay ninguna prueba: escribe una clase que herede de unittest.TestCase con "
               "métodos cuyo nombre empiece por test.")


def dicho(nombre, fallo):
    tipo, mensaje = fallo
    que = "falla" if tipo == "falla" else "da un error"
    return f"«{nombre}» {que}: {mensaje}" if mensaje else f"«{nombre}» {que}."


def pasan_con_el_correcto(envio):
    vistos = con_el_correcto(envio)
    if not vistos:
        raise Fallo(SIN_PRUEBAS)
    malas = [dicho(n, f) for n, f in vistos.items() if f is not None]
    if malas:
        cuantas = ("Una de tus pruebas falla" if len(malas) == 1
                   else f"{len(malas)} de tus pruebas fallan")
        raise Fallo(f"{cuantas} con el agente correcto, y una prueba que falla con un agente "
                    f"correcto está mal:\n" + "\n".join(malas))


def atrapa(roto):
    def prueba(envio):
        vistos = con_el_correcto(envio)
        buenas = [n for n, f in vistos.items() if f is None]
        if not vistos:
            raise Fallo("Sin pruebas, nada atrapa a este agente.")
        if not buenas:
            raise Fallo("Ninguna de tus pruebas pasa con el agente correcto, así que ninguna "
                        "cuenta para atrapar a este.")
        con_el_roto = correr(envio, roto)
        if any(con_el_roto.get(n, ("falla", "")) is not None for n in buenas):
            return
        if len(buenas) == 1:
            cuales = f"Tu prueba «{buenas[0]}» pasa también con este agente, que está roto"
        else:
            cuales = f"Tus {len(buenas)} pruebas pasan también con este agente, que está roto"
        fuera = [f"«{n}»" for n in vistos if n not in buenas]
        nota = ""
        if len(fuera) == 1:
            nota = f" ({fuera[0]} no cuenta: falla con el agente correcto)"
        elif fuera:
            nota = f" ({', '.join(fuera)} no cuentan: fallan con el agente correcto)"
        raise Fallo(f"{cuales}{nota}: escribe una prueba que falle con él.")
    return prueba


PRUEBAS = [("tus pruebas pasan con el agente correcto", pasan_con_el_correcto)] + [
    (f"Atrapa: {que}", atrapa(roto)) for que, roto in ROTOS]
