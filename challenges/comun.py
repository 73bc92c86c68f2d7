"""Lo que comparten las pruebas de los desafíos.

Cada pruebas.py importa de aquí lo que usa (from ..comun import Caso, breve); este módulo, a su
vez, importa del runtime de esas pruebas y del calificador (Fallo, y opaca, que envuelve lo que
se le da al lector). Deja:

- OTRO_ENTORNO: un entorno como ENTORNO, pero con otros ficheros.
- cargar(envio), del_lector(envio, error): la función ejecutar del lector, y si una excepción
  la lanzó su código.
- cambiar(espacio, cambios), espiar(espacio), espiado(envio), contadas(espacio): herramientas
  cambiadas en el espacio del lector; una_sola_vez(llamadas, entorno, deja): la prueba de que
  cada llamada corre su herramienta una vez; sale_bien(llamadas, comprueba, ...): la de que
  llamadas que salen bien dan lo esperado; escribir_con_fallo: una herramienta con un fallo de
  programación.
- motivo_de(ll), salida_de(ll, entorno), ejecuta(ll, entorno), llamadas_de(respuesta),
  observaciones_de(respuestas, entorno, observa).
- lanzo(error): una excepción en pocas palabras, «FileNotFoundError («…»)».
- breve(x), entorno_distinto(esperado, hay), es_tool_result(...), sin_nada_de_mas(...): piezas
  de los mensajes y de las comprobaciones.
- Caso: una conversación con su tope y lo que un bucle correcto hace con ella; ModeloLigero,
  el modelo de las conversaciones muy largas (caso.guionizado() da el que toca).
- Detenido y registro(guion, antes, explica): el modelo guionizado de una prueba, que anota el
  primer fallo que ve.
- AlAzar, FINALES, PALABRAS, y PETICIONES, FRASES y ESCRITAS de cada desafío: conversaciones
  generadas, siempre las mismas para una semilla;
  VACIO y CON_VACIOS, entornos al borde (ninguno lo enseña la lección) donde pueden empezar.
"""

import copy as copia
import random as azar

from runtime import (_fin_del_guion, _normaliza, ENTORNO, FUNCIONES, guion_de, GuionRoto,
    incumple, llamada, ModeloGuionizado, muestra, resultado, texto)
from calificador import Fallo, opaca

#: El entorno de las pruebas de llamadas sueltas: como ENTORNO, pero con otros ficheros.
OTRO_ENTORNO = {
    "lista.txt": "arroz, aceite, sal",
    "notas.txt": "El martes viene la abuela.\nMenú: lentejas y ensalada.",
    "recetas/lentejas.txt": "Lentejas: lentejas, chorizo, patatas, cebolla.",
    "recetas/ensalada.txt": "Ensalada: lechuga, tomate, cebolla.",
    "compra/martes.txt": "lentejas, chorizo",
}


# ------------------------------------------------------------ el código del lector


def cargar(envio):
    """La función ejecutar del lector, en un espacio nuevo (su espacio: ejecutar.espacio)."""
    return envio.funcion("ejecutar")


def del_lector(envio, error):
    """¿Lanzó `error` el código del lector? (Si no, es un veredicto del calificador, como el
    límite de tiempo, y la prueba lo deja pasar.)"""
    return envio.lanzada is not None and envio.lanzada[0] is error


def cambiar(espacio, cambios):
    """Cambia herramientas del espacio del lector, {nombre: nueva}, en FUNCIONES y en los
    nombres sueltos que apuntan a la misma función. Devuelve la función que lo restaura.
    (Las nuevas van opacas: desde ellas, el lector no llega a las pruebas.)"""
    cambios = {nombre: opaca(nueva, nombre) for nombre, nueva in cambios.items()}
    hechos = []
    funciones = espacio.get("FUNCIONES")
    originales = dict(funciones) if isinstance(funciones, dict) else {}
    for nombre, nueva in cambios.items():
        if nombre in originales:
            hechos.append((funciones, nombre, originales[nombre]))
            funciones[nombre] = nueva
            for global_, valor in list(espacio.items()):
                if valor is originales[nombre]:
                    hechos.append((espacio, global_, valor))
                    espacio[global_] = nueva

    def restaurar():
        for dicc, clave, valor in reversed(hechos):
            dicc[clave] = valor
    return restaurar


def espiar(espacio):
    """Cambia todas las herramientas por espías que anotan su nombre y no hacen nada.
    Devuelve (anotadas, restaurar)."""
    anotadas = []

    def espia(nombre):
        def herramienta(*args, **kwargs):
            anotadas.append(nombre)
            return ""
        return herramienta
    return anotadas, cambiar(espacio, {n: espia(n) for n in FUNCIONES})


def espiado(envio):
    """(ejecutar, anotadas, restaurar): la función ejecutar del lector en un espacio nuevo
    cuyas herramientas son espías (véase espiar)."""
    ejecutar = cargar(envio)
    anotadas, restaurar = espiar(ejecutar.espacio)
    return ejecutar, anotadas, restaurar


def contadas(espacio):
    """Cambia todas las herramientas por unas que anotan su nombre cada vez que corren y hacen
    lo de siempre (con la herramienta de las pruebas). Devuelve (corridas, restaurar)."""
    corridas = []

    def contada(nombre):
        herramienta = FUNCIONES[nombre]

        def corre(*args, **kwargs):
            corridas.append(nombre)
            return herramienta(*args, **kwargs)
        return corre
    return corridas, cambiar(espacio, {n: contada(n) for n in FUNCIONES})


def una_sola_vez(llamadas, entorno_inicial, deja=()):
    """La prueba de que ejecutar corre la herramienta de cada llamada una sola vez: ni antes
    para probarla, ni otra vez para reintentar o para enseñar lo que devuelve. Las llamadas
    van en orden sobre el mismo entorno; lo que lance ejecutar de las clases `deja` no cuenta
    (en «Llamar herramientas», los errores de la herramienta salen tal cual)."""
    def prueba(envio):
        ejecutar = cargar(envio)
        corridas, restaurar = contadas(ejecutar.espacio)
        entorno = dict(entorno_inicial)
        try:
            for ll in llamadas:
                del corridas[:]
                try:
                    ejecutar(copia.deepcopy(ll), entorno)
                except deja:
                    pass
                if corridas != [ll["name"]]:
                    raise Fallo(corrio_mal(ll, list(corridas)))
        finally:
            restaurar()
    return prueba


def sale_bien(llamadas, comprueba, entorno_inicial=OTRO_ENTORNO, *, escapan=(),
              ENTORNO_intacto=False, pista=""):
    """La prueba de llamadas que salen bien, una tras otra sobre el mismo entorno (una copia de
    `entorno_inicial`), con el ejecutar del lector: comprueba(ll, llamar, esperado) calcula lo
    esperado sobre `esperado` (el entorno de un arnés correcto, que cambia como en la
    conversación), llama a ejecutar con llamar() y lanza Fallo si no da lo esperado. Al acabar,
    el entorno que recibió ejecutar debe ser ese.

    Lo que cambia de un desafío a otro: `escapan`, las excepciones que no debían salir de
    ejecutar («Errores como observaciones»: OSError y ValueError); ENTORNO_intacto, si se mira
    que ejecutar no cambió ENTORNO («Llamar herramientas»); `pista`, lo que sigue al mensaje de
    un entorno final que no es el esperado."""
    def prueba(envio):
        ejecutar = cargar(envio)
        ejemplo = copia.deepcopy(ejecutar.espacio.get("ENTORNO")) if ENTORNO_intacto else None
        entorno = dict(entorno_inicial)
        esperado = dict(entorno_inicial)
        for k, ll in enumerate(llamadas, start=1):
            try:
                comprueba(ll, lambda: ejecutar(copia.deepcopy(ll), entorno), esperado)  # noqa: B023
            except escapan as escapado:
                raise Fallo(f"En la llamada {k} de {len(llamadas)}, que debía salir bien: "
                            f"de ejecutar salió {lanzo(escapado)}.") from None
            except Fallo as f:
                if len(llamadas) > 1:
                    raise Fallo(f"En la llamada {k} de {len(llamadas)}: {f.mensaje}") from None
                raise
        if ENTORNO_intacto and ejecutar.espacio.get("ENTORNO") != ejemplo:
            raise Fallo("ejecutar cambió ENTORNO, los ficheros de ejemplo. Trabaja sobre "
                        "`entorno`, el diccionario que recibe: es el de esta conversación.")
        if entorno != esperado:
            despues = "la llamada" if len(llamadas) == 1 else f"las {len(llamadas)} llamadas"
            raise Fallo(f"Después de {despues}, el entorno que recibió ejecutar no es el "
                        f"esperado: {entorno_distinto(esperado, entorno)}.{pista}")
    return prueba


def corrio_mal(ll, corridas):
    con = f"Con {muestra(ll)}, "
    if not corridas:
        return (f"{con}ejecutar no corrió {ll['name']}: usa la herramienta de "
                f"FUNCIONES[ll[\"name\"]].")
    otras = sorted(set(corridas) - {ll["name"]})
    if otras:
        return (f"{con}ejecutar corrió también {', '.join(otras)}: solo se ejecuta la "
                f"herramienta que pide la llamada.")
    return (f"{con}ejecutar corrió {ll['name']} {len(corridas)} veces para una sola llamada. "
            f"Cada llamada del modelo se ejecuta una vez: probarla antes en una copia, "
            f"reintentarla o volver a llamarla para enseñar lo que devuelve hace dos veces lo "
            f"que el modelo pidió una (y escribir, dos veces, no es lo mismo que una).")


def escribir_con_fallo(entorno, ruta, contenido):
    """escribir con un fallo de programación: suma un texto y un número (TypeError)."""
    entorno[ruta] = contenido
    return "escrito " + ruta + " (" + len(contenido) + " caracteres)"


# ------------------------------------------------------------ llamadas y observaciones


def motivo_de(ll):
    """Por qué `ll` no encaja con su esquema: la prueba que la usa necesita que no encaje."""
    motivo = incumple(ll)
    if motivo is None:
        raise ValueError(f"la prueba necesita una llamada que no encaje: {muestra(ll)}")
    return motivo



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


def es_tool_result(ll, devuelto, nada, texto, debe):
    """Fallo si `devuelto` no es un bloque tool_result que responde a la llamada `ll`. Lo que
    cambia de un desafío a otro: nada, qué hacer si devolvió None; texto(devuelto), el mensaje
    si devolvió un texto; debe, lo que ejecutar debe devolver."""
    con = f"Con {muestra(ll)}, "
    if devuelto is None:
        raise Fallo(f"{con}ejecutar no devolvió nada (None): {nada}")
    if isinstance(devuelto, str):
        raise Fallo(con + texto(devuelto))
    if not isinstance(devuelto, dict) or devuelto.get("type") != "tool_result":
        raise Fallo(f"{con}ejecutar devolvió {breve(devuelto)} y debe devolver {debe}.")
    if devuelto.get("tool_use_id") != ll["id"]:
        raise Fallo(f"{con}el tool_result lleva tool_use_id {devuelto.get('tool_use_id')!r} y "
                    f"debía llevar {ll['id']!r}, el id de la llamada: usa ll[\"id\"].")


def sin_nada_de_mas(ll, devuelto, esperado, hazlo):
    """Fallo si el tool_result `devuelto` trae claves o valores que `esperado` no tiene."""
    if {**esperado, **devuelto} != esperado:
        raise Fallo(f"Con {muestra(ll)}, el tool_result debía ser {breve(esperado)} y es "
                    f"{breve(devuelto)}: hazlo con {hazlo}.")


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
        for respuesta, obs in zip(self.respuestas, copia.deepcopy(self.observaciones)):
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
            except Exception as e:  # GuionRoto, el guion acabado, M que no es una lista...
                fallo = explica(e, turno) if explica is not None else str(e)
        if fallo is not None:
            notas["fallo"], notas["turno"] = fallo, turno
            raise Detenido(fallo)
        notas["respuestas"] = turno
        return respuesta
    return modelo, notas


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
