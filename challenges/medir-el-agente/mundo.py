"""El mundo de las pruebas de «medir-el-agente»: las tareas, el hacer_modelo y el agente que
recibe el medir del lector, que anotan todo lo que les hace.

Un Mundo(tareas, veces) da al lector, a través de la muralla:

- vistas: las tareas como las ve él, una por tarea: un SimpleNamespace con sus datos (tipo,
  pedido, entorno, respuestas) y dos funciones opacas, comprobar(entorno_final, texto_final) y
  modelo_ideal(), como una Tarea del runtime.
- hacer_modelo(tarea, semilla): anota la llamada y da un modelo nuevo (opaco) para esa tarea y
  esa semilla.
- agente(modelo, pedido, entorno, preguntar=denegar, tope=10): antes de nada mira con qué lo
  llamaron: el modelo (¿lo hizo hacer_modelo?, ¿para esta tarea?, ¿ya se había usado?), el
  pedido (¿el de la tarea?), el tope (¿el suyo?), el entorno (¿nuevo y como el de la tarea?) y,
  al preguntar, el usuario (¿contesta lo que dice la tarea?). Después juega la ejecución.

Lo que ve mal lo anota como una anomalía de una clase (CLASES); cierra() añade las que solo se
ven al final (cuántas veces se ejecutó cada tarea, con qué semillas, modelos sin usar, tareas
cambiadas). Cada prueba mira las clases que le tocan; las que miran todo el contrato, todas.

Las tareas son de dos clases (tareas_de_prueba.py): de mentira (Mentira), cuyas ejecuciones
acaban según sus destinos, por orden o por la semilla de su modelo (por orden, lo que acaba cada
ejecución no depende de modelos, semillas, entornos ni usuarios: una prueba de los motivos no
falla por otra cosa), y de verdad (Real), una Tarea del runtime con un agente de agentes.py.

Nada de lo que el lector pasa se mira fuera de la muralla sin copiarlo antes con tipos exactos
(plano), ni se llama sin ella (murada): su código no corre aquí sin querer.
"""

from types import SimpleNamespace

from runtime import pregunta
from calificador import murada, opaca, plano
from ..comun import breve, entorno_distinto, lanzo
from .tareas_de_prueba import ModeloDeMentira, nuevo

#: El tope de los agentes de las pruebas, el de la lección «El agente y sus pruebas».
TOPE = 10
#: Cómo se llama al agente en cada ejecución.
LLAMADA = "agente(modelo, tarea.pedido, entorno, preguntar)"

#: Las clases de anomalías, en el orden en que se dicen al final.
CLASES = ("veces", "semillas", "modelo", "entorno", "usuario", "llamada")

_FALTA = object()
#: Los parámetros del agente, agente(modelo, pedido, entorno, preguntar=denegar, tope=10).
PARAMETROS = ("modelo", "pedido", "entorno", "preguntar", "tope")


def enlaza(argumentos, nombrados):
    """{parámetro: valor} de una llamada al agente (como inspect.Signature.bind, más deprisa);
    TypeError si no encaja."""
    if len(argumentos) > len(PARAMETROS):
        raise TypeError("sobran argumentos")
    dados = dict(zip(PARAMETROS, argumentos, strict=False))
    for nombre, valor in nombrados.items():
        if nombre not in PARAMETROS or nombre in dados:
            raise TypeError(f"argumento {nombre!r} de más")
        dados[nombre] = valor
    if any(p not in dados for p in PARAMETROS[:3]):
        raise TypeError("faltan argumentos")
    return dados


def veces_texto(n):
    return "1 vez" if n == 1 else f"{n} veces"


class Ejecucion:
    """Una llamada al agente: de qué tarea (su índice, o None), la k-ésima de esa tarea, con qué
    modelo (el registro de hacer_modelo, o None) y qué entorno (el dict del lector)."""

    def __init__(self, mundo, n, tarea, k, modelo, entorno):
        self.mundo, self.n, self.tarea, self.k = mundo, n, tarea, k
        self.modelo, self.entorno = modelo, entorno

    def __str__(self):
        if self.tarea is None:
            return f"la llamada {self.n + 1} a agente (que no es de ninguna tarea de la medida)"
        pedido = self.mundo.tareas[self.tarea].pedido
        semilla = "" if self.modelo is None else f", semilla {breve(self.modelo.semilla)}"
        return f"la ejecución {self.k} de «{pedido}» (tareas[{self.tarea}]{semilla})"


class Lanzada:
    """Una excepción que lanzó una ejecución: su clase, su mensaje, quién y en qué ejecución."""

    def __init__(self, error, quien, ejecucion):
        self.clase, self.mensaje = type(error).__name__, str(error)
        self.quien, self.ejecucion = quien, ejecucion


class Mundo:
    """Las tareas (Mentira o Real) de una medida con `veces` ejecuciones por tarea. Con
    `por_semilla`, el destino de una tarea de mentira lo da la semilla de su modelo; con
    `pregunta`, su agente pregunta al usuario antes de cada escritura (y con `respeta`, que
    pregunta, solo escribe lo que el usuario permite)."""

    def __init__(self, tareas, veces, por_semilla=False, respeta=False, pregunta=None):
        self.tareas, self.veces = list(tareas), veces
        self.por_semilla, self.respeta = por_semilla, respeta
        self.pregunta = respeta if pregunta is None else pregunta
        self.iniciales = [dict(t.entorno) for t in self.tareas]
        self.vistas = [self._vista(i) for i in range(len(self.tareas))]
        self.modelos = {}      # id(modelo opaco) → su registro
        self.ideales = {}      # id(modelo opaco) → índice de la tarea (de modelo_ideal)
        self._vivos = []       # los modelos dados: sus id no se reusan
        self.hechos = []       # los registros de hacer_modelo, en orden
        self.ejecuciones = []  # las llamadas al agente, en orden
        self.anomalias = []    # (clase, mensaje), en orden
        self.lanzadas = []     # Lanzada de cada excepción de una ejecución

        def hacer_modelo(tarea, semilla):
            return self._hacer_modelo(tarea, semilla)

        def agente(*argumentos, **nombrados):
            return self._agente(argumentos, nombrados)
        # Se pasan tal cual: el calificador las hace opacas al dárselas al lector.
        self.hacer_modelo, self.agente = hacer_modelo, agente

    # ------------------------------------------------------------------ lo que ve el lector

    def _vista(self, i):
        t = self.tareas[i]

        def comprobar(entorno_final, texto_final):
            return self._comprobar(i, entorno_final, texto_final)

        def modelo_ideal():
            modelo = opaca(t.ideal(), "modelo")
            self.ideales[id(modelo)] = i
            self._vivos.append(modelo)
            return modelo
        return SimpleNamespace(tipo=t.tipo, pedido=t.pedido, entorno=dict(t.entorno),
                               respuestas=list(t.respuestas),
                               comprobar=opaca(comprobar, "comprobar"),
                               modelo_ideal=opaca(modelo_ideal, "modelo_ideal"))

    def indice(self, tarea):
        return next((i for i, v in enumerate(self.vistas) if v is tarea), None)

    def _hacer_modelo(self, tarea, semilla):
        i = self.indice(tarea)
        semilla = plano(semilla)
        if i is None:
            self.anota("semillas", f"hacer_modelo recibió {breve(plano(tarea))}, que no es ninguna "
                                   f"de las tareas que se miden: la ejecución i de cada tarea usa "
                                   f"hacer_modelo(tarea, i), con la tarea misma.")
            real = ModeloDeMentira("?", semilla)
        else:
            real = self.tareas[i].modelo(semilla if type(semilla) is int else 0)
        opaco = opaca(real, "modelo")
        registro = SimpleNamespace(tarea=i, semilla=semilla, real=real, opaco=opaco, usado=None,
                                   n=len(self.hechos))
        self.hechos.append(registro)
        self.modelos[id(opaco)] = registro
        self._vivos.append(opaco)
        return opaco

    def _comprobar(self, i, entorno, final):
        ejecucion = next((e for e in reversed(self.ejecuciones) if e.entorno is entorno), None)
        try:
            return self.tareas[i].comprueba(plano(entorno), plano(final))
        except Exception as error:
            donde = ejecucion or f"una ejecución de «{self.tareas[i].pedido}» (tareas[{i}])"
            self.lanzadas.append(Lanzada(error, "tarea.comprobar", donde))
            raise

    # ------------------------------------------------------------------ el agente

    def _agente(self, argumentos, nombrados):
        try:
            dados = enlaza(argumentos, nombrados)
        except TypeError:
            recibidos = [breve(plano(a)) for a in argumentos] + [
                f"{k}={breve(plano(v))}" for k, v in nombrados.items()]
            self.anota("llamada", f"agente se llamó con ({', '.join(recibidos)}), que no encaja "
                                  f"con agente(modelo, pedido, entorno, preguntar=denegar, "
                                  f"tope=10): cada ejecución es {LLAMADA}.")
            error = TypeError("agente se llama así: agente(modelo, pedido, entorno, "
                              "preguntar=denegar, tope=10), y estos argumentos no encajan")
            self.lanzadas.append(Lanzada(error, "agente", "una llamada a agente"))
            raise error from None
        modelo, pedido, entorno = dados["modelo"], dados["pedido"], dados["entorno"]
        preguntar, tope = dados.get("preguntar", _FALTA), dados.get("tope", _FALTA)
        registro = self.modelos.get(id(modelo))
        if registro is not None and registro.opaco is not modelo:
            registro = None
        # La tarea: la del pedido (o la de la vista que se pasó como pedido), si no la del modelo.
        por_pedido = self.indice(pedido)
        if por_pedido is None and type(pedido) is str:
            por_pedido = next((i for i, t in enumerate(self.tareas) if t.pedido == pedido), None)
        i = por_pedido if por_pedido is not None else (registro.tarea if registro else None)
        k = sum(1 for e in self.ejecuciones if e.tarea == i and i is not None)
        ejecucion = Ejecucion(self, len(self.ejecuciones), i, k, registro, entorno)
        self.ejecuciones.append(ejecucion)
        mira_el_modelo(self, ejecucion, modelo, registro)
        mira_la_llamada(self, ejecucion, pedido, tope)
        mira_el_entorno(self, ejecucion, entorno)
        if preguntar is _FALTA:
            self.anota("usuario", f"En {ejecucion}, agente se llamó sin preguntar, y pregunta con "
                                  f"denegar, que dice que no a todo: pásale el usuario de la "
                                  f"tarea, {LLAMADA} con preguntar = usuario(tarea).")
        propio = plano(entorno) if type(entorno) is dict else {}
        if not self.tareas:
            raise RuntimeError("agente se llamó en una medida sin tareas")
        tarea = self.tareas[i if i is not None else 0]
        try:
            como, final, M = tarea.jugar(self, ejecucion, plano(pedido), propio, preguntar)
            # Textos nuevos, como los de un modelo de verdad (leídos de JSON): un medir que
            # compara con `is` en vez de `==` falla aquí como fallaría con él.
            return (nuevo(como), nuevo(final), M)
        except BaseException as error:
            self.lanzadas.append(Lanzada(error, "agente", ejecucion))
            raise
        finally:
            if type(entorno) is dict:  # lo que hizo el agente, en el entorno del lector
                entorno.clear()
                entorno.update(propio)

    def preguntar(self, ejecucion, preguntar, ll, n):
        """Lo que contesta el preguntar del lector a `ll`, la pregunta `n` de `ejecucion`; anota
        si no es lo que contesta el usuario de la tarea, o si lanza (y entonces es un no)."""
        if preguntar is _FALTA or ejecucion.tarea is None:
            return False
        tarea = self.tareas[ejecucion.tarea]
        try:
            dijo = bool(murada(preguntar, "preguntar")(ll))
        except Exception as error:  # noqa: BLE001 - lo que lance el preguntar del lector
            self.anota("usuario", f"En {ejecucion}, preguntar lanzó {lanzo(error)} la {n}.ª vez "
                                  f"que se le preguntó («{pregunta(ll)}»): el usuario de la tarea, "
                                  f"usuario(tarea), contesta siempre lo que dice la tarea, tantas "
                                  f"veces como le pregunten.")
            return False
        if dijo != tarea.permite:
            self.anota("usuario", f"En {ejecucion}, a «{pregunta(ll)}» preguntar dijo que "
                                  f"{'sí' if dijo else 'no'}, y el usuario de esa tarea "
                                  f"(respuestas {tarea.respuestas!r}) dice que "
                                  f"{'sí' if tarea.permite else 'no'}: cada ejecución pregunta al "
                                  f"de su tarea, usuario(tarea).")
        return dijo

    # ------------------------------------------------------------------ al final

    def anota(self, clase, mensaje):
        self.anomalias.append((clase, mensaje))

    def cierra(self):
        """Anota lo que solo se ve al acabar la medida."""
        for i, t in enumerate(self.tareas):
            hechas = sum(1 for e in self.ejecuciones if e.tarea == i)
            if hechas != self.veces:
                self.anota("veces", f"«{t.pedido}» (tareas[{i}]) se ejecutó {veces_texto(hechas)} "
                                    f"y debían ser {self.veces} (veces = {self.veces}): cada tarea "
                                    f"se ejecuta veces veces.")
        for i, t in enumerate(self.tareas):
            semillas = [m.semilla for m in self.hechos if m.tarea == i]
            rara = next((s for s in semillas if type(s) is not int), None)
            if rara is not None:
                self.anota("semillas", f"hacer_modelo(tareas[{i}], {breve(rara)}) para "
                                       f"«{t.pedido}»: la semilla es el número de la ejecución, "
                                       f"i, de 0 a veces - 1.")
            elif sorted(semillas) != list(range(self.veces)):
                self.anota("semillas", f"Para «{t.pedido}» (tareas[{i}]), hacer_modelo se llamó "
                                       f"con las semillas {semillas}, y con veces = {self.veces} "
                                       f"debían ser {list(range(self.veces))}: la ejecución i (de "
                                       f"0 a veces - 1) usa hacer_modelo(tarea, i).")
        sobra = next((m for m in self.hechos if m.usado is None), None)
        if sobra is not None:
            para = ("" if sobra.tarea is None
                    else f" para «{self.tareas[sobra.tarea].pedido}» (tareas[{sobra.tarea}])")
            self.anota("modelo", f"hacer_modelo se llamó {veces_texto(len(self.hechos))} y agente "
                                 f"{veces_texto(len(self.ejecuciones))}: el modelo de la llamada "
                                 f"{sobra.n + 1} a hacer_modelo{para}, con la semilla "
                                 f"{breve(sobra.semilla)}, no lo usó ninguna ejecución. Cada "
                                 f"ejecución usa el suyo, hacer_modelo(tarea, i), uno por "
                                 f"ejecución.")
        for i, vista in enumerate(self.vistas):
            ahora = plano(vista.entorno)
            if ahora != self.iniciales[i]:
                cambio = (entorno_distinto(self.iniciales[i], ahora) if type(ahora) is dict
                          else f"es {breve(ahora)}")
                self.anota("entorno", f"Después de medir, tareas[{i}].entorno («"
                                      f"{self.tareas[i].pedido}») ya no es el que era: {cambio}. "
                                      f"Cada ejecución trabaja en una copia, dict(tarea.entorno), "
                                      f"y la tarea no cambia.")

    def primera(self, clases=CLASES):
        """La primera anomalía de una de estas clases, o None."""
        return next((m for c, m in self.anomalias if c in clases), None)

    def lanzada(self, error):
        """La Lanzada de una ejecución que es `error` (la copia que salió de medir), o None."""
        return next((otra for otra in self.lanzadas
                     if otra.clase == type(error).__name__ and otra.mensaje == str(error)), None)


# ------------------------------------------------------------------ lo que mira el agente



def mira_el_modelo(mundo, ejecucion, modelo, registro):
    """¿Lo hizo hacer_modelo (`registro`), para esta tarea, y no lo usó otra ejecución?"""
    if registro is None:
        if id(modelo) in mundo.ideales:
            mundo.anota("modelo", f"En {ejecucion}, agente recibió un modelo de "
                                  f"tarea.modelo_ideal(), y cada ejecución usa el que hace "
                                  f"hacer_modelo(tarea, i): uno nuevo para ella.")
        else:
            mundo.anota("modelo", f"En {ejecucion}, agente recibió como modelo "
                                  f"{breve(plano(modelo))}, que no lo hizo hacer_modelo: cada "
                                  f"ejecución usa uno nuevo, hacer_modelo(tarea, i).")
        return
    if registro.usado is not None:
        mundo.anota("modelo", f"En {ejecucion}, agente recibió el mismo modelo que en "
                              f"{registro.usado}: un modelo guarda lo que pasó (su turno, su "
                              f"azar) y una ejecución llegaría a la siguiente. Cada ejecución "
                              f"usa un modelo nuevo, hacer_modelo(tarea, i).")
    elif ejecucion.tarea is not None and registro.tarea != ejecucion.tarea:
        otra = ("otra cosa" if registro.tarea is None
                else f"«{mundo.tareas[registro.tarea].pedido}»")
        mundo.anota("modelo", f"En {ejecucion}, agente recibió el modelo que hizo "
                              f"hacer_modelo para {otra}: cada ejecución usa "
                              f"hacer_modelo(tarea, i) con su propia tarea.")
    registro.usado = registro.usado or ejecucion


def mira_la_llamada(mundo, ejecucion, pedido, tope):
    """¿El pedido es el de la tarea, y el tope, el del agente?"""
    if ejecucion.tarea is not None:
        bueno = mundo.tareas[ejecucion.tarea].pedido
        if mundo.indice(pedido) is not None:
            mundo.anota("llamada", f"En {ejecucion}, agente recibió como pedido la tarea "
                                   f"entera; el pedido es tarea.pedido, el texto de lo que "
                                   f"pide el usuario: {LLAMADA}.")
        elif not (type(pedido) is str and pedido == bueno):
            mundo.anota("llamada", f"En {ejecucion}, agente recibió como pedido "
                                   f"{breve(plano(pedido))}, y el de la tarea es «{bueno}»: "
                                   f"{LLAMADA}.")
    if tope is not _FALTA and not (type(tope) is int and tope == TOPE):
        mundo.anota("llamada", f"En {ejecucion}, agente se llamó con tope={breve(plano(tope))}: "
                               f"se mide el agente tal como es, con su tope; llámalo así, "
                               f"{LLAMADA}.")


def mira_el_entorno(mundo, ejecucion, entorno):
    """¿Es un dict nuevo, ni tarea.entorno ni el de otra ejecución, como el de la tarea?"""
    if ejecucion.tarea is None:
        return
    inicial = mundo.iniciales[ejecucion.tarea]
    if type(entorno) is not dict:
        mundo.anota("entorno", f"En {ejecucion}, agente recibió como entorno "
                               f"{breve(plano(entorno))}: cada ejecución empieza con un "
                               f"entorno nuevo, un dict, dict(tarea.entorno).")
        return
    if entorno is mundo.vistas[ejecucion.tarea].entorno:
        mundo.anota("entorno", f"En {ejecucion}, el entorno es tarea.entorno mismo, no una "
                               f"copia: lo que cambia la ejecución se queda en la tarea y "
                               f"llega a las siguientes. Cada ejecución empieza con un entorno "
                               f"nuevo, dict(tarea.entorno).")
        return
    previa = next((e for e in mundo.ejecuciones[:-1] if e.entorno is entorno), None)
    if previa is not None:
        mundo.anota("entorno", f"En {ejecucion}, el entorno es el mismo dict que en {previa}: "
                               f"lo que dejó aquella llega a esta. Cada ejecución empieza con "
                               f"un entorno nuevo, dict(tarea.entorno).")
        return
    if plano(entorno) != inicial:
        mundo.anota("entorno", f"En {ejecucion}, el entorno no empieza como tarea.entorno: "
                               f"{entorno_distinto(inicial, plano(entorno))}. Cada ejecución "
                               f"empieza de cero, con dict(tarea.entorno).")
