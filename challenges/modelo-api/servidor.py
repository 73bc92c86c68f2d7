"""El servidor falso de las pruebas de «modelo-api» y el código del lector cargado para una
prueba (Prueba): cada llamada a su ModeloAPI, tras la muralla y con el límite de tiempo."""

import copy as copia
import json

from calificador import Fallo, opaca, plano
from ..comun import breve
from .datos import URL
from .puentes import enviar_sobre, url_del_modelo_sobre

FIRMA = ("ModeloAPI(nombre=\"smollm2-135m\", max_tokens=256, url=None, cabeceras=None, "
         "enviar=enviar)")
FALTA = ("Tu código no define la clase ModeloAPI: escribe class ModeloAPI: … con "
         "__init__(self, nombre=\"smollm2-135m\", max_tokens=256, url=None, cabeceras=None, "
         "enviar=enviar), peticion(self, M, herramientas) y __call__(self, M, herramientas).")


# ------------------------------------------------------------------ el servidor falso


class Servidor:
    """El servidor de una prueba: responde `respuestas` en orden (un dict, la respuesta; una
    tupla (estado, motivo), un error del servidor) y anota cada petición: {url, cuerpo,
    cabeceras}, el cuerpo como lo leería un servidor (JSON)."""

    def __init__(self, *respuestas):
        self.respuestas = list(respuestas)
        self.peticiones = []

    def __call__(self, url, cuerpo, cabeceras=None, espera=120):
        try:
            leido = json.loads(json.dumps(plano(cuerpo), ensure_ascii=False))
        except (TypeError, ValueError) as error:
            return ("json", f"el cuerpo de la petición no se puede enviar como JSON: {error}")
        self.peticiones.append({"url": plano(url), "cuerpo": leido,
                                "cabeceras": plano(cabeceras)})
        n = len(self.peticiones)
        if n > len(self.respuestas):
            return ("servidor", None, "el servidor de la prueba no esperaba otra petición")
        dada = self.respuestas[n - 1]
        if isinstance(dada, tuple):
            return ("servidor",) + dada
        # Leída de JSON, como llega la de un servidor real: los mismos valores, textos nuevos.
        return ("ok", json.loads(json.dumps(dada, ensure_ascii=False)))


class Pagina:
    """url_del_modelo() de una prueba: da `urls` en orden; sin ellas (o acabadas), lanza
    ErrorDelServidor como fuera de la página. Anota cuántas veces se la llamó."""

    def __init__(self, *urls):
        self.urls = list(urls)
        self.veces = 0

    def __call__(self):
        self.veces += 1
        if self.veces > len(self.urls):
            return ("servidor", None, "fuera de la página no hay modelo del curso: pasa url=…")
        return ("ok", self.urls[self.veces - 1])


def puente(nombre, falso, ns):
    """La función `nombre` (enviar o url_del_modelo) que el lector recibe, sobre `falso` (opaco)
    y la clase ErrorDelServidor del espacio del lector, `ns` (véase puentes.py)."""
    hacer = enviar_sobre if nombre == "enviar" else url_del_modelo_sobre
    return hacer(opaca(falso, nombre), ns["ErrorDelServidor"])


class Prueba:
    """El código del lector cargado para una prueba: su espacio (ns), su clase, y lo que
    anotan el enviar y el url_del_modelo del runtime (self.red, self.pagina), por si los usa
    en vez de lo que recibe."""

    def __init__(self, envio, pagina=None):
        self.envio = envio
        hecho = envio.vigilar(lambda: envio.espacio({"ModeloAPI": None}), "Tu código")
        if hecho.error is not None:
            raise hecho.error
        self.ns = ns = hecho.valor
        self.clase = ns.get("ModeloAPI")
        if not isinstance(self.clase, type):
            raise Fallo(FALTA)
        self.Error = ns.get("ErrorDelServidor")
        self.Cortada = ns.get("RespuestaCortada")
        self.red = Servidor()
        self.pagina = pagina or Pagina()
        ns["enviar"] = puente("enviar", self.red, ns)
        ns["url_del_modelo"] = puente("url_del_modelo", self.pagina, ns)

    def vigila(self, accion, quien="ModeloAPI"):
        hecho = self.envio.vigilar(accion, quien)
        if hecho.error is not None:
            raise hecho.error
        return hecho.valor

    def modelo(self, servidor, **argumentos):
        """ModeloAPI(**argumentos, enviar=<servidor>), con url=URL salvo que se diga otra."""
        argumentos.setdefault("url", URL)
        enviar = puente("enviar", servidor, self.ns)
        clase = self.clase

        def crea():
            try:
                return ("hecho", clase(**argumentos, enviar=enviar))
            except TypeError as error:
                return ("firma", str(error))
            except self.Error as error:
                return ("error", str(error))
        que, valor = self.vigila(crea)
        dados = ", ".join(f"{k}={v!r}" for k, v in argumentos.items())
        if que == "firma":
            raise Fallo(f"ModeloAPI({dados}, enviar=…) lanzó TypeError («{valor}»): la clase "
                        f"se crea así: {FIRMA}.")
        if que == "error":
            raise Fallo(f"ModeloAPI({dados}, enviar=…) lanzó ErrorDelServidor al crearse "
                        f"(«{valor}»): crear el modelo no pregunta nada a nadie; la dirección "
                        f"se busca al llamarlo.")
        return valor

    def llama(self, modelo, M, herramientas, atrapa=()):
        """("devolvió", lo devuelto) o ("lanzó", datos de la excepción) de modelo(M,
        herramientas) (M y herramientas, copias). Solo se atrapan las de `atrapa`."""
        M, herramientas = nuevo(M), copia.deepcopy(herramientas)
        Error, Cortada = self.Error, self.Cortada

        def una():
            try:
                return ("devolvió", plano(modelo(M, herramientas)))
            except atrapa as e:
                return ("lanzó", {"clase": type(e).__name__, "texto": str(e),
                                  "servidor": isinstance(e, Error),
                                  "cortada": isinstance(e, Cortada),
                                  "estado": plano(getattr(e, "estado", None)),
                                  "motivo": plano(getattr(e, "motivo", None)),
                                  "contenido": plano(getattr(e, "contenido", None)),
                                  "uso": plano(getattr(e, "uso", None))})
        hecho = self.envio.vigilar(una, "ModeloAPI")
        if self.red.peticiones:
            raise Fallo("ModeloAPI usó el enviar del runtime, y no el que recibe: guarda el "
                        "enviar que le dan al crearlo (self.enviar = enviar) y envía con él.")
        if hecho.error is not None:
            raise hecho.error
        return hecho.valor

    def devuelve(self, modelo, M, herramientas):
        """Lo que devuelve modelo(M, herramientas); si lanza, el error del lector."""
        return self.llama(modelo, M, herramientas)[1]

    def uso(self, modelo):
        """("hay", modelo.uso) o ("falta", None)."""
        def mira():
            if not hasattr(modelo, "uso"):
                return ("falta", None)
            return ("hay", plano(modelo.uso))
        return self.vigila(mira)

    def peticion(self, modelo, M, herramientas):
        def pide():
            return plano(modelo.peticion(copia.deepcopy(M), copia.deepcopy(herramientas)))
        return self.vigila(pide, "peticion")


def nuevo(M):
    """Una copia de M con sus mismos valores y textos nuevos, como la de una conversación
    guardada en JSON y leída otra vez: un adaptador que compara roles con `is` en vez de `==`
    falla con ella. (Lo que JSON no dice igual va en una copia, tal cual.)"""
    try:
        leido = [tuple(m) if isinstance(m, list) else m for m in json.loads(json.dumps(M))]
    except (TypeError, ValueError):
        return copia.deepcopy(M)
    return leido if leido == M and type(M) is list else copia.deepcopy(M)


def una_peticion(servidor, llamada_n=None):
    """El cuerpo de la única petición que debía hacer una llamada (la `llamada_n`-ésima)."""
    cual = "" if llamada_n is None else f"En la {llamada_n}.ª llamada, "
    esperadas = llamada_n or 1
    if len(servidor.peticiones) < esperadas:
        raise Fallo(f"{cual}ModeloAPI no envió ninguna petición: llama a self.enviar(url, "
                    f"self.peticion(M, herramientas)).")
    if len(servidor.peticiones) > esperadas:
        raise Fallo(f"{cual}ModeloAPI envió {len(servidor.peticiones) - esperadas + 1} "
                    f"peticiones; cada llamada al modelo es una petición.")
    cuerpo = servidor.peticiones[-1]["cuerpo"]
    if not isinstance(cuerpo, dict):
        quien = f"{cual}el cuerpo" if cual else "El cuerpo"
        raise Fallo(f"{quien} de la petición es {breve(cuerpo)}: debe ser un dict, "
                    f"{{\"model\": …, \"max_tokens\": …, \"messages\": […], \"tools\": […]}}.")
    return cuerpo


def exige(cuerpo, clave):
    """Fallo si la petición no tiene `clave`."""
    if not isinstance(cuerpo, dict) or clave not in cuerpo:
        raise Fallo(f"La petición no tiene la clave \"{clave}\": lleva model, max_tokens, "
                    f"system (si hay mensajes de sistema), messages y tools.")
