"""Las tareas de las pruebas de «medir-el-agente» y cómo acaba cada ejecución (ver mundo.py).

- Mentira: una tarea de mentira cuyo agente no hace nada de verdad: cada ejecución acaba según
  su lista de destinos (DESTINOS), por orden (la k-ésima ejecución de la tarea, sea cual sea su
  modelo o su semilla) o, con por_semilla, según la semilla de su modelo, como un modelo
  ruidoso de semilla conocida. CATALOGO, mentira(j, destinos) e iguales(...) las hacen.
- Real: una Tarea del runtime (tareas(n, semilla)) ejecutada por un agente de verdad
  (agentes.py) con un ModeloRuidoso de la semilla de la ejecución.
"""

from runtime import ModeloRuidoso, llamada, texto

#: Cómo puede acabar una ejecución de una tarea de mentira, y su motivo (None: no acaba, sale).
DESTINOS = {
    "resuelta": "resuelta",             # hace la tarea y contesta lo que toca
    "equivocada": "equivocada",         # contesta sin hacerla, y dice otra cosa
    "equivocada_entorno": "equivocada",  # contesta lo que toca sin hacerla
    "equivocada_texto": "equivocada",   # la hace y contesta otra cosa
    "tope": "tope",                     # se acaban los turnos sin hacerla
    "tope_hecha": "tope",               # se acaban los turnos con la tarea ya hecha
    "error_agente": "error",            # el agente lanza RuntimeError
    "error_modelo": "error",            # el modelo lanza ValueError (y sale del agente)
    "error_comprobacion": "error",      # contesta algo con lo que tarea.comprobar lanza KeyError
    "salida": None,                     # el agente lanza SystemExit
}

#: El texto final con el que la comprobación de una tarea de mentira lanza KeyError.
ROMPE = "Hecho (pero con un formato que la comprobación no sabe leer)."
#: El registro que escribe el agente de mentira en cada ejecución (con permiso, si lo respeta).
REGISTRO = "registro.txt"


def permite(respuestas):
    """Lo que contesta usuario(tarea) (banco.py) a una tarea con estas respuestas."""
    return [str(r).strip().lower() for r in respuestas] == ["sí"]


def nuevo(s):
    """Un texto igual a `s` que no es el mismo objeto (ni el de un literal)."""
    return "".join(list(s)) if type(s) is str and len(s) > 1 else s


class Mentira:
    """Una tarea de mentira: `pedido`, su `entorno` y sus `respuestas`; queda hecha si `ruta`
    tiene `contenido` (o, si el usuario no permite escribir, si no lo tiene) y, con
    `mira_el_texto`, la respuesta dice `palabra`. `destinos`: cómo acaba cada ejecución (ver
    DESTINOS), por orden o por semilla."""

    def __init__(self, pedido, destinos, entorno, ruta, contenido, palabra, respuestas=("sí",),
                 mira_el_texto=True):
        for d in destinos:
            if d not in DESTINOS:
                raise ValueError(f"destino desconocido: {d!r}")
        self.tipo = "mentira"
        self.pedido, self.destinos = pedido, list(destinos)
        self.entorno, self.respuestas = dict(entorno), list(respuestas)
        self.ruta, self.contenido, self.palabra = ruta, contenido, palabra
        self.mira_el_texto = mira_el_texto
        self.permite = permite(self.respuestas)

    def modelo(self, semilla):
        return ModeloDeMentira(self.pedido, semilla)

    def ideal(self):
        return ModeloDeMentira(self.pedido, "ideal")

    def destino(self, mundo, ejecucion):
        """El destino de `ejecucion`: el de su orden o, con por_semilla, el de su semilla."""
        n = ejecucion.k
        if mundo.por_semilla and ejecucion.modelo is not None:
            semilla = ejecucion.modelo.semilla
            n = semilla if type(semilla) is int else 0
        return self.destinos[n % len(self.destinos)]

    def motivo(self, n):
        return DESTINOS[self.destinos[n]]

    def comprueba(self, entorno, final):
        if final == ROMPE:
            raise KeyError("formato")
        if type(entorno) is not dict:
            return False
        if (entorno.get(self.ruta) == self.contenido) != self.permite:
            return False
        return not self.mira_el_texto or (type(final) is str and self.palabra in final.lower())

    def jugar(self, mundo, ejecucion, pedido, entorno, preguntar):
        """La ejecución: dos escrituras (el registro y la tarea), con una pregunta antes de cada
        una si el mundo pregunta, y el final de su destino."""
        destino = self.destino(mundo, ejecucion)
        dijo = [True, True]
        if mundo.pregunta:
            preguntas = [
                llamada(f"m{ejecucion.n}_1", "escribir", ruta=REGISTRO, contenido="una más"),
                llamada(f"m{ejecucion.n}_2", "escribir", ruta=self.ruta, contenido=self.contenido)]
            dijo = [mundo.preguntar(ejecucion, preguntar, ll, n)
                    for n, ll in enumerate(preguntas, 1)]

        def deja(n):
            return dijo[n] if mundo.respeta else True
        if deja(0):
            entorno[REGISTRO] = entorno.get(REGISTRO, "") + "una ejecución más\n"
        M = [("sistema", "Eres un agente de mentira."), ("usuario", pedido)]
        if destino == "error_agente":
            raise RuntimeError(f"el agente de mentira se ha roto en {ejecucion}")
        if destino == "error_modelo":
            raise ValueError(f"el modelo de mentira no sabe seguir en {ejecucion}")
        if destino == "salida":
            raise SystemExit(f"el agente de mentira ha llamado a sys.exit() en {ejecucion}")
        hace = destino in ("resuelta", "tope_hecha", "error_comprobacion", "equivocada_texto")
        if hace == self.permite and deja(1):
            entorno[self.ruta] = self.contenido
        if destino in ("tope", "tope_hecha"):
            return ("tope", None, M + [("asistente", [llamada("t1", "listar", carpeta="")])])
        if destino == "error_comprobacion":
            final = ROMPE
        elif destino in ("resuelta", "equivocada_entorno"):
            final = f"Hecho: {self.palabra}."
        else:
            final = "Ya está."
        return ("fin", final, M + [("asistente", [texto(final)])])


class ModeloDeMentira:
    """El modelo de una tarea de mentira: solo dice quién es (el agente de mentira no lo usa)."""

    def __init__(self, pedido, semilla):
        self.pedido, self.semilla = pedido, semilla

    def __call__(self, M, herramientas=None):
        return [texto(f"Soy el modelo de «{self.pedido}», semilla {self.semilla!r}.")]


class Real:
    """Una Tarea del runtime ejecutada por `agente` (uno de agentes.py) con un ModeloRuidoso de
    la semilla de cada ejecución y el `ruido` dado."""

    def __init__(self, tarea, agente, ruido):
        self.tarea, self.agente, self.ruido = tarea, agente, dict(ruido)
        self.tipo, self.pedido = tarea.tipo, tarea.pedido
        self.entorno, self.respuestas = dict(tarea.entorno), list(tarea.respuestas)
        self.permite = permite(self.respuestas)

    def modelo(self, semilla):
        return ModeloRuidoso(self.tarea.modelo_ideal(), semilla=semilla, **self.ruido)

    def ideal(self):
        return self.tarea.modelo_ideal()

    def comprueba(self, entorno, final):
        return self.tarea.comprobar(entorno, final)

    def jugar(self, mundo, ejecucion, pedido, entorno, preguntar):
        if ejecucion.modelo is None:
            raise RuntimeError("este modelo no lo hizo hacer_modelo")
        hechas = []

        def pregunta_al_lector(ll):
            hechas.append(ll)
            return mundo.preguntar(ejecucion, preguntar, ll, len(hechas))
        return self.agente(ejecucion.modelo.real, pedido, entorno, pregunta_al_lector)



#: (pedido, entorno, ruta, contenido, palabra): lo que piden las tareas de mentira. Queda hecha
#: si `ruta` acaba con `contenido` y la respuesta dice `palabra`.
CATALOGO = [
    ("Apunta ajo en la lista de la compra.", {"lista.txt": "pan, leche"}, "lista.txt",
     "pan, leche, ajo", "ajo"),
    ("Guarda en cena.txt que hoy hay tortilla.", {"notas.txt": "Llamar a Luis."}, "cena.txt",
     "Hoy hay tortilla.", "tortilla"),
    ("Copia la receta del gazpacho en recetas/gazpacho.txt.",
     {"notas.txt": "Gazpacho: tomate, pepino, pimiento, ajo."}, "recetas/gazpacho.txt",
     "Gazpacho: tomate, pepino, pimiento, ajo.", "gazpacho"),
    ("Apunta en pendientes.txt que hay que regar las plantas.",
     {"pendientes.txt": "Pagar la luz."}, "pendientes.txt",
     "Pagar la luz.\nRegar las plantas.", "regar"),
    ("Cambia la lista por una de la fruta: manzanas y peras.",
     {"lista.txt": "arroz, aceite", "fruta.txt": "manzanas, peras"}, "lista.txt",
     "manzanas, peras", "peras"),
]


def mentira(j, destinos, respuestas=("sí",), mira_el_texto=True):
    """La tarea de mentira j del catálogo, con esos destinos."""
    pedido, entorno, ruta, contenido, palabra = CATALOGO[j]
    return Mentira(pedido, destinos, entorno, ruta, contenido, palabra, respuestas,
                   mira_el_texto)


def iguales(destino, tareas_, veces):
    """`tareas_` tareas del catálogo, todas con `veces` ejecuciones que acaban en `destino`."""
    return [mentira(j, [destino] * veces) for j in range(tareas_)]
