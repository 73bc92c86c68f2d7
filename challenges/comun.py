"""Lo que comparten las pruebas de los desafíos.

Cada pruebas.py importa de aquí lo que usa (from ..comun import Caso, breve); este módulo, a su
vez, importa del runtime de esas pruebas y del calificador (Fallo). Lo que solo comparten las
pruebas de una llamada suelta (OTRO_ENTORNO, cargar, espiar, sale_bien...) está en sueltas.py.
Deja:

- salida_de(ll, entorno), ejecuta(ll, entorno), llamadas_de(respuesta),
  observaciones_de(respuestas, entorno, observa).
- lanzo(error): una excepción en pocas palabras, «FileNotFoundError («…»)».
- breve(x), entorno_distinto(esperado, hay): piezas de los mensajes.
- Caso: una conversación con su tope y lo que un bucle correcto hace con ella; ModeloLigero,
  el modelo de las conversaciones muy largas (caso.guionizado() da el que toca).
- Detenido y registro(guion, antes, explica): el modelo guionizado de una prueba, que anota el
  primer fallo que ve.
- AlAzar, FINALES, PALABRAS, y PETICIONES, FRASES y ESCRITAS de cada desafío: conversaciones
  generadas, siempre las mismas para una semilla;
  VACIO y CON_VACIOS, entornos al borde (ninguno lo enseña la lección) donde pueden empezar.
"""

import copy as copia
import json
import random as azar

from runtime import (_fin_del_guion, _normaliza, ENTORNO, FUNCIONES, guion_de, GuionRoto,
    llamada, ModeloGuionizado, muestra, resultado, texto)
from calificador import Fallo


# ------------------------------------------------------------ llamadas y observaciones


def salida_de(ll, entorno):
    """Lo que devuelve la herramienta de `ll` sobre `entorno` (que cambia, si escribe)."""
    return FUNCIONES[ll["name"]](entorno, **ll["input"])


def ejecuta(ll, entorno):
    """El tool_result de una llamada que sale bien: lo que hace el ejecutar que da el código
    inicial de «bucle-con-tope»."""
    return resultado(ll["id"], salida_de(ll, entorno))


def llamadas_de(respuesta):
    return [b for b in respuesta if isinstance(b, dict) and b.get("type") == "tool_use"]


def observaciones_de(respuestas, entorno, observa):
    """Para cada respuesta, lo que un arnés correcto añade tras ella: observa(ll, entorno) de
    cada llamada, en orden, sobre `entorno` (que cambia como en la conversación)."""
    return [[observa(ll, entorno) for ll in llamadas_de(r)] for r in respuestas]


# ------------------------------------------------------------------ los mensajes


def lanzo(error):
    texto = str(error)
    return f"{type(error).__name__} («{texto}»)" if texto else type(error).__name__


def breve(x):
    """x en una línea corta: un texto entre «», un bloque con muestra, lo demás con repr."""
    if isinstance(x, dict) and x.get("type") in ("text", "tool_use", "tool_result"):
        return muestra(x)
    linea = (f"«{x}»" if isinstance(x, str) else repr(x)).replace("\n", "⏎")
    return linea if len(linea) <= 80 else linea[:79] + "…"


def entorno_distinto(esperado, hay, enseña=breve):
    """La primera diferencia entre dos entornos, en una frase (los textos, con `enseña`)."""
    for ruta in sorted(set(esperado) | set(hay)):
        if esperado.get(ruta) == hay.get(ruta):
            continue
        if ruta not in hay:
            return f"falta el fichero {ruta}"
        if ruta not in esperado:
            return f"sobra el fichero {ruta}"
        return f"{ruta} debía contener {enseña(esperado[ruta])} y contiene {enseña(hay[ruta])}"
    return "no es el esperado"


# ------------------------------------------------------------------ las conversaciones


class Caso:
    """Una conversación con su tope y lo que un bucle correcto hace con ella.

    observa(ll, entorno) da la observación de cada llamada (por omisión, `ejecuta`: llamadas
    que salen bien). `largos[k]`: cuántos mensajes recibe el modelo en el turno k + 1 (M[:largo]).
    El guion se hace la primera vez que se pide; con `ligero` (conversaciones muy largas), el
    modelo de la prueba es un ModeloLigero, que no lo necesita.
    """

    def __init__(self, nombre, inicio, respuestas, tope, entorno=None, observa=ejecuta,
                 ligero=False):
        self.nombre, self.tope, self.ligero = nombre, tope, ligero
        self.inicio = copia.deepcopy(inicio)
        self.entorno = dict(ENTORNO if entorno is None else entorno)
        # Las respuestas que el modelo llega a dar: hasta la primera sin llamadas o el tope.
        usadas = []
        for respuesta in respuestas:
            usadas.append(respuesta)
            if len(usadas) == tope or not llamadas_de(respuesta):
                break
        if len(usadas) < tope and llamadas_de(usadas[-1]):
            raise ValueError(f"el caso «{nombre}» se queda sin respuestas antes del tope")
        self.respuestas = copia.deepcopy(usadas)
        self.entorno_final = dict(self.entorno)
        self.observaciones = observaciones_de(usadas, self.entorno_final, observa)
        self._guion = None
        self.llamadas = len(usadas)
        self.M, self.largos = copia.deepcopy(self.inicio), []
        for respuesta, obs in zip(self.respuestas, copia.deepcopy(self.observaciones), strict=True):
            self.largos.append(len(self.M))
            self.M.append(("asistente", copia.deepcopy(respuesta)))
            if obs:
                self.M.append(("usuario", obs))
        if llamadas_de(usadas[-1]):
            self.motivo, self.texto = "tope", None
        else:
            self.motivo = "fin"
            self.texto = " ".join(b["text"] for b in usadas[-1] if b["type"] == "text")

    @property
    def guion(self):
        if self._guion is None:
            self._guion = guion_de(self.inicio, self.respuestas, self.observaciones)
        return self._guion

    def guionizado(self):
        """Un modelo nuevo que sigue la conversación: el guionizado, o uno ligero."""
        return ModeloLigero(self) if self.ligero else ModeloGuionizado(self.guion)

    def datos(self):
        return {"nombre": self.nombre, "guion": self.guion, "inicio": self.inicio,
                "entorno": self.entorno, "tope": self.tope, "llamadas": self.llamadas,
                "motivo": self.motivo, "texto": self.texto, "M": self.M,
                "entorno_final": self.entorno_final}


class ModeloLigero:
    """Como ModeloGuionizado(caso.guion), para una conversación muy larga: en cada turno mira
    cuántos mensajes llegan, los del inicio y los dos últimos, y no M entero (que costaría el
    cuadrado del largo: al final, la prueba compara M entero una vez)."""

    def __init__(self, caso):
        self.caso, self.turno = caso, 0

    def __call__(self, M, herramientas=None):
        caso = self.caso
        if not isinstance(M, (list, tuple)):
            raise TypeError(f"M debe ser la lista de mensajes y es {type(M).__name__}")
        if self.turno == caso.llamadas:
            raise RuntimeError(_fin_del_guion([(None, r) for r in caso.respuestas]))
        esperados, n = caso.M[:caso.largos[self.turno]], len(caso.inicio)
        if (len(M) != len(esperados) or _normaliza(list(M[:n]) + list(M[-2:]))
                != _normaliza(esperados[:n] + esperados[-2:])):
            raise GuionRoto(self.turno + 1, esperados, list(M))
        self.turno += 1
        return copia.deepcopy(caso.respuestas[self.turno - 1])


class Detenido(BaseException):
    """Lanzada en el bucle del lector cuando el modelo ya vio un fallo (BaseException: un
    except Exception del lector no la oculta; y el registro lo recuerda de todos modos)."""


def termina_como(caso, devuelto, entorno):
    """Fallo si lo que devolvió el bucle del lector, `devuelto`, no es el final de la conversación
    `caso` (("fin", caso.texto, caso.M)) o si `entorno` no quedó como caso.entorno_final."""
    if not (isinstance(devuelto, tuple) and len(devuelto) == 3):
        raise Fallo(f"bucle debe devolver una tupla de tres, (motivo, texto, M), y devolvió "
                    f"{breve(devuelto)}.")
    motivo, dicho, M = devuelto
    if (motivo, dicho) != ("fin", caso.texto):
        raise Fallo(f"bucle debía acabar con (\"fin\", «{caso.texto}», M) y acabó con "
                    f"({breve(motivo)}, {breve(dicho)}, M).")
    if not isinstance(M, list) or _normaliza(M) != _normaliza(caso.M):
        n = len(M) if isinstance(M, list) else None
        raise Fallo(f"Al acabar, M debía tener los {len(caso.M)} mensajes de la conversación "
                    f"y tiene {n if n is not None else breve(M)}.")
    if entorno != caso.entorno_final:
        raise Fallo(f"Después de la conversación, el entorno no es el esperado: "
                    f"{entorno_distinto(caso.entorno_final, entorno)}.")


def registro(guion, antes=None, explica=None):
    """(modelo, notas): un modelo que sigue `guion` y anota el primer fallo que ve.

    notas["respuestas"]: cuántas respuestas dio; notas["fallo"], notas["turno"]: el primer
    problema visto y en qué turno. antes(turno, M, herramientas), si se da, mira la llamada
    antes que el modelo guionizado y devuelve el mensaje de un fallo, o None; explica(error,
    turno) da el mensaje de lo que lance el modelo guionizado (por omisión, str(error)).
    `guion` puede ser también un modelo ya hecho (por ejemplo, caso.guionizado()).
    """
    guionizado = guion if callable(guion) else ModeloGuionizado(guion)
    notas = {"respuestas": 0, "fallo": None, "turno": None}

    def modelo(M, herramientas=None):
        if notas["fallo"] is not None:
            raise Detenido(notas["fallo"])
        turno = notas["respuestas"] + 1
        fallo = antes(turno, M, herramientas) if antes is not None else None
        if fallo is None:
            try:
                respuesta = guionizado(M, herramientas)
            except Exception as e:  # noqa: BLE001 - GuionRoto, el guion acabado, M que no es una lista...
                fallo = explica(e, turno) if explica is not None else str(e)
        if fallo is not None:
            notas["fallo"], notas["turno"] = fallo, turno
            raise Detenido(fallo)
        notas["respuestas"] = turno
        return de_json(respuesta)
    return modelo, notas


def de_json(respuesta):
    """La respuesta como la da un modelo de verdad, leída de JSON: los mismos valores, con
    textos nuevos. Un arnés que compara textos con `is` en vez de `==` falla aquí como fallaría
    con el modelo de la lección «El bucle con un modelo real»."""
    try:
        leida = json.loads(json.dumps(respuesta, ensure_ascii=False))
    except (TypeError, ValueError):
        return respuesta
    # Lo que JSON no dice igual (una tupla, bloques raros de alguna prueba) va tal cual.
    return leida if leida == respuesta else respuesta


# ---------------------------------------------- conversaciones que la lección no muestra

#: Entornos al borde: ninguno sale en la lección. Uno vacío, y otro con ficheros vacíos.
VACIO = {}
CON_VACIOS = {
    "lista.txt": "",
    "notas.txt": "Nada por ahora.",
    "recetas/pendiente.txt": "",
}

FINALES = ["Hecho.", "Ya está todo apuntado.", "Te lo he dejado en tus ficheros.",
           "Avísame si falta algo."]
PALABRAS = ["patatas", "huevos", "sábado", "ajo", "leche", "menta"]

#: Lo que piden, lo que dicen entre llamadas y lo que escriben las conversaciones generadas de
#: cada desafío, {desafío: lista}: cada uno tiene las suyas (cambiarlas cambia sus casos).
PETICIONES = {
    "bucle-con-tope": ["¿Qué falta para el gazpacho?", "Apunta lo que hay que comprar el sábado.",
                       "Busca dónde salen las patatas.", "Ordena mis notas de la compra."],
    "errores-como-observaciones": [
        "¿Qué falta para las lentejas?", "Apunta lo que hay que comprar el sábado.",
        "Busca dónde salen las patatas.", "Ordena mis notas de la compra."],
    "pedir-permiso": ["Prepara la compra del sábado.", "Apunta lo que falta para las lentejas.",
                      "Ordena mis listas de la compra."],
}
FRASES = {
    "bucle-con-tope": ["Voy a mirar.", "Un momento.", "Compruebo otra cosa.", "Sigo."],
    "errores-como-observaciones": ["Voy a mirar.", "Pruebo de otra forma.", "Compruebo otra cosa.",
                                   "Sigo."],
    "pedir-permiso": ["Voy a mirar.", "Lo apunto.", "Dejo una copia.", "Sigo."],
}
ESCRITAS = {
    "bucle-con-tope": ["lista.txt", "compra/sabado.txt", "notas.txt", "compra/martes.txt"],
    "errores-como-observaciones": ["lista.txt", "compra/sabado.txt"],
    "pedir-permiso": ["lista.txt", "compra/sabado.txt", "notas.txt"],
}


class AlAzar:
    """Las respuestas de una conversación generada con la semilla `semilla`: sus llamadas
    salen bien sobre un mundo que empieza como `entorno` (por omisión, ENTORNO) y cambia como
    en la conversación. `frases`: los textos que a veces acompañan a las llamadas; `escritas`:
    las rutas que puede escribir. Con `vacios`, a veces escribe un fichero vacío."""

    def __init__(self, semilla, frases, escritas, entorno=None, vacios=False):
        self.rng = azar.Random(semilla)
        self.semilla, self.frases, self.escritas = semilla, frases, escritas
        self.mundo = dict(ENTORNO if entorno is None else entorno)
        self.vacios = vacios
        self.n = 0

    def respuesta(self, pedidas):
        """Una llamada por pedida: None es una que sale bien; si no, pedida(id) la hace. A
        veces, un texto en cualquier sitio."""
        bloques = []
        for pedida in pedidas:
            self.n += 1
            ident = f"g{self.semilla}_{self.n}"
            bloques.append(self.posible(ident) if pedida is None else pedida(ident))
        if self.rng.random() < 0.5:
            bloques.insert(self.rng.randrange(len(bloques) + 1), texto(self.rng.choice(self.frases)))
        return bloques

    def posible(self, ident):
        """Una llamada que sale bien sobre el mundo (que se actualiza)."""
        rng, mundo = self.rng, self.mundo
        carpetas = sorted({r.rsplit("/", 1)[0] for r in mundo if "/" in r})

        def contenido():
            if self.vacios and rng.random() < 0.4:
                return ""
            return ", ".join(rng.sample(PALABRAS, 3))
        opciones = [
            lambda: llamada(ident, "listar", carpeta=rng.choice([""] + carpetas)),
            lambda: llamada(ident, "leer", ruta=rng.choice(sorted(mundo))),
            lambda: llamada(ident, "buscar", patron=rng.choice(PALABRAS)),
            lambda: llamada(ident, "escribir", ruta=rng.choice(self.escritas),
                            contenido=contenido()),
        ]
        if not mundo:  # nada que leer todavía
            del opciones[1]
        ll = rng.choice(opciones)()
        salida_de(ll, mundo)
        return ll
