"""Las pruebas de «pruebas-del-agente» (la lección «El agente y sus pruebas»): aquí el lector
escribe las pruebas, y lo que se califica es si distinguen los agentes correctos de los rotos.

El calificador ejecuta este archivo en un espacio de nombres propio; del calificador importa
Fallo, Aparte, opaca, murada y plano. Los agentes (agentes.py: CORRECTOS, el mismo contrato
escrito de tres maneras, y ROTOS, de rotos.py, cada uno con un solo fallo) se importan aquí: el
código del lector no llega a ellos.

Las pruebas del lector corren una vez por agente (una «pasada»), en un orden al azar que cambia
en cada comprobación, con los correctos entre los rotos. Cada pasada empieza de cero: el módulo
de los agentes cargado de nuevo (Calificador.modulo_nuevo), el código del lector cargado en un
espacio nuevo, sin la clase del código inicial y con `agente` ya puesto (antes y después de su
código: una definición suya no lo tapa), y, al acabar, el mundo puesto como estaba (Aparte:
sys.modules, los módulos, builtins, os.environ, la carpeta de trabajo, los archivos). `agente` es
una función opaca que llama al agente de turno; lo que el lector le pasa se copia con tipos
exactos; su modelo y su preguntar corren tras la muralla (murada), aunque los llame código de
aquí. Se corren, una a una y cada una con el límite de tiempo, las pruebas de las clases
unittest.TestCase del lector (sus métodos test…, como los encuentra unittest), con un TestResult
que solo anota.

- «tus pruebas pasan con cada agente correcto»: todas pasan con todos los correctos; si no, el
  mensaje nombra cada una con su mensaje y, si no falla con todos, el agente correcto con el que
  falla por lo que lo distingue. Sin pruebas, falla.
- «Atrapa: <lo que hace mal>», una por agente roto: alguna de las pruebas falla con el roto, y
  todas pasan con cada agente correcto; mientras alguna falle con un correcto, ningún roto cuenta
  (se dice si las demás lo atraparían). Una prueba que no afirma nada no atrapa nada.

Deja A_ESCRIBIR (vacío: el lector escribe clases, que se buscan aquí), PISTA y PRUEBAS.
"""

import inspect
import random
import unittest

from calificador import Aparte, Fallo, Veredicto, murada, opaca, plano

# En estas pruebas, agente es siempre el de turno, opaco: los de aquí se eligen por su índice.
from .agentes import CORRECTOS, ROTOS
from .anotador import Anotador


A_ESCRIBIR = {}

PISTA = (
    "Escribe una clase que herede de unittest.TestCase con un método test_… por cada promesa que "
    "la lección nombra y no prueba: un modelo terco que se para en el tope (guion_terco(3), "
    "tope=3), con las observaciones de su última respuesta en M; un modelo que nunca deja de "
    "pedir herramientas (una función modelo(M, herramientas) tuya) y que, sin tope, recibe 10 "
    "llamadas; una escritura sin contenido que vuelve como error (guion_sin_contenido()); una "
    "escritura denegada con el preguntar por defecto (guion_tortilla_denegada()), que deja el "
    "entorno como estaba; y un preguntar que lanza una excepción, que sale del agente "
    "(assertRaises)."
)

FIRMA = inspect.signature(CORRECTOS[0][1])
LLAMADA = "agente(modelo, pedido, entorno, preguntar=denegar, tope=10)"

#: El módulo de los agentes, que cada pasada carga de nuevo (ruta en la carpeta de los desafíos).
AGENTES = __file__.rpartition("/")[0] + "/agentes.py"

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


def correr(envio, clave):
    """{nombre: None si pasó, o (tipo, mensaje)} de las pruebas del lector con el agente `clave`
    (("correcto", i) o ("roto", i)), recién cargado, en un mundo que después queda como estaba."""
    if envio.latido is not None:  # otra pasada: los relojes que vigilan cada prueba, de nuevo
        envio.latido()
    tipo, indice = clave
    agentes = vars(envio.calificador.modulo_nuevo(AGENTES))
    elegido = agentes["CORRECTOS" if tipo == "correcto" else "ROTOS"][indice][1]
    opaco = para_el_lector(elegido)

    def cargar():
        ns = envio.espacio({"agente": opaco, **{nombre: None for nombre in DEL_INICIAL}})
        ns["agente"] = opaco
        return encontradas(ns)

    with Aparte():
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


#: Las pasadas del último envío: {"envio", "orden" (al azar), "hechas": {clave: vistos o el
#: Veredicto que la cortó}, "parada" (una pasada de un roto se quedó sin tiempo)}.
_PASADAS = {}


def pasadas(envio):
    if _PASADAS.get("envio") is not envio:
        orden = ([("correcto", i) for i in range(len(CORRECTOS))]
                 + [("roto", i) for i in range(len(ROTOS))])
        random.Random().shuffle(orden)  # sembrado de os.urandom: otro orden en cada comprobación
        _PASADAS.clear()
        _PASADAS.update(envio=envio, orden=orden, hechas={}, parada=False)
    return _PASADAS


def pasada(envio, clave):
    """Lo que dieron las pruebas del lector con el agente `clave` (una vez por envío)."""
    hechas = pasadas(envio)["hechas"]
    if clave not in hechas:
        try:
            hechas[clave] = correr(envio, clave)
        except Veredicto as veredicto:
            hechas[clave] = veredicto
    return hechas[clave]


def con_los_correctos(envio):
    """[vistos] de las pruebas del lector con cada agente correcto, en el orden de CORRECTOS.
    Las pasadas siguen el orden al azar, con los rotos que caen antes del último correcto; la de
    un roto que se queda sin tiempo se cuenta en su prueba, y los rotos que quedan esperan a la
    suya."""
    estado = pasadas(envio)
    correctos = [("correcto", i) for i in range(len(CORRECTOS))]
    for clave in estado["orden"]:
        if all(c in estado["hechas"] for c in correctos):
            break
        if clave in estado["hechas"] or (clave[0] == "roto" and estado["parada"]):
            continue
        agotado = envio.agotado
        hecho = pasada(envio, clave)
        if isinstance(hecho, Veredicto) and clave[0] == "correcto":
            raise hecho
        if isinstance(hecho, Veredicto) and envio.agotado and not agotado:
            envio.agotado = False
            estado["parada"] = True
    vistos = []
    for clave in correctos:
        hecho = estado["hechas"][clave]
        if isinstance(hecho, Veredicto):
            raise hecho
        vistos.append(hecho)
    return vistos


SIN_PRUEBAS = ("No hay ninguna prueba: escribe una clase que herede de unittest.TestCase con "
               "métodos cuyo nombre empiece por test.")

#: Una prueba que no aparece en una pasada (el lector la define según lo que ve).
NO_APARECE = ("falla", "con este agente no aparece")


def nombres_de(vistos):
    """Los nombres de las pruebas del lector, en el orden en que aparecen."""
    return list(dict.fromkeys(n for v in vistos for n in v))


def buenas_de(vistos):
    """Las pruebas que pasan con todos los agentes correctos."""
    return [n for n in nombres_de(vistos) if all(v.get(n, NO_APARECE) is None for v in vistos)]


def dicho(nombre, fallo, con=""):
    tipo, mensaje = fallo
    que = "falla" if tipo == "falla" else "da un error"
    return f"«{nombre}» {que}{con}: {mensaje}" if mensaje else f"«{nombre}» {que}{con}."


def _con_cuales(indices):
    """«con el agente correcto que …» (y «con el que …») por lo que distingue a cada uno."""
    partes = [f"el agente correcto {CORRECTOS[indices[0]][0]}"]
    partes += [f"el {CORRECTOS[i][0]}" for i in indices[1:]]
    return " con " + " y con ".join(partes)


def pasan_con_cada_correcto(envio):
    vistos = con_los_correctos(envio)
    nombres = nombres_de(vistos)
    if not nombres:
        raise Fallo(SIN_PRUEBAS)
    malas = []
    for nombre in nombres:
        fallan = [(i, v.get(nombre, NO_APARECE)) for i, v in enumerate(vistos)
                  if v.get(nombre, NO_APARECE) is not None]
        if fallan:
            malas.append((nombre, fallan))
    if not malas:
        return
    todas = all(len(fallan) == len(vistos) for _, fallan in malas)
    alguna = all(len(fallan) < len(vistos) for _, fallan in malas)
    lineas = []
    for nombre, fallan in malas:
        if len(fallan) == len(vistos):
            lineas.append(dicho(nombre, fallan[0][1], "" if todas else " con todos"))
        else:
            lineas.append(dicho(nombre, fallan[0][1], _con_cuales([i for i, _ in fallan])))
    cuantas = ("Una de tus pruebas falla" if len(malas) == 1
               else f"{len(malas)} de tus pruebas fallan")
    con = ("con todos los agentes correctos" if todas
           else "con alguno de los agentes correctos" if alguna
           else "con los agentes correctos")
    raise Fallo(f"{cuantas} {con}, y una prueba que falla con un agente correcto está mal:\n"
                + "\n".join(lineas))


#: Why no broken agent counts while a test fails a correct one (Examplar's rule: a suite that
#: rejects a correct agent proves nothing about the broken ones).
RETENIDO = ("No cuenta todavía: alguna de tus pruebas falla con un agente correcto (lo dice «tus "
            "pruebas pasan con cada agente correcto»), y un agente roto solo cuenta como atrapado "
            "cuando todas tus pruebas pasan con cada agente correcto.")


def atrapa(indice):
    def prueba(envio):
        vistos = con_los_correctos(envio)
        nombres = nombres_de(vistos)
        buenas = buenas_de(vistos)
        if not nombres:
            raise Fallo("Sin pruebas, nada atrapa a este agente.")
        if not buenas:
            raise Fallo(f"{RETENIDO} Ninguna de tus pruebas pasa con todos ellos.")
        con_el_roto = pasada(envio, ("roto", indice))
        if isinstance(con_el_roto, Veredicto):
            if con_el_roto.datos["tipo"] == "tiempo":
                envio.agotado = True
            raise con_el_roto
        atrapado = any(con_el_roto.get(n, ("falla", "")) is not None for n in buenas)
        if len(buenas) < len(nombres):
            raise Fallo(f"{RETENIDO} " + ("Las que pasan con todos sí lo atrapan." if atrapado
                                          else "Y las que pasan con todos tampoco lo atrapan."))
        if atrapado:
            return
        if len(buenas) == 1:
            raise Fallo(f"Tu prueba «{buenas[0]}» pasa también con este agente, que está roto: "
                        "escribe una prueba que falle con él.")
        raise Fallo(f"Tus {len(buenas)} pruebas pasan también con este agente, que está roto: "
                    "escribe una prueba que falle con él.")
    return prueba


PRUEBAS = [("tus pruebas pasan con cada agente correcto", pasan_con_cada_correcto)] + [
    (f"Atrapa: {que}", atrapa(i)) for i, (que, _) in enumerate(ROTOS)]
