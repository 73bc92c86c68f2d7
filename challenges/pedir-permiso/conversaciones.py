"""Las conversaciones de las pruebas de «pedir-permiso»: el `bucle` del código inicial (o el del
lector) con el ejecutar del lector, un modelo guionizado y un Usuario. La de la lección, con dos
respuestas distintas y sin usuario (denegar, por omisión), y otras generadas que la lección no
muestra (generada). Antes que el guion, se mira a quién se preguntó y en qué turno
(mal_preguntado); prueba_de(caso) es la prueba de una conversación.
"""

import copy as copia

from runtime import (FINALES_PERMISO, incumple, INICIO_PERMISO, llamada, necesita_permiso,
    RESPUESTAS_PERMISO, SISTEMA_BUCLE, texto)
from calificador import Fallo
from ..comun import (AlAzar, breve, Caso, ESCRITAS, FINALES, FRASES, lanzo, llamadas_de, PALABRAS,
                     PETICIONES, registro, termina_como)
from ..sueltas import del_lector
from .solucion import ejecutar as observa
from .usuarios import Guionizado, quien, Usuario


class Conversacion(Caso):
    """Una conversación, las respuestas del usuario (una por llamada que cambia el entorno y
    encaja, en orden) y lo que el bucle con un ejecutar correcto hace con ellas. Con `usuario`
    None, el bucle se llama sin preguntar: el de por omisión, denegar."""

    def __init__(self, nombre, inicio, respuestas, usuario, entorno=None):
        self.usuario = usuario
        guionizado = Guionizado(usuario or [])
        self.turnos_de = {}
        super().__init__(nombre, inicio, respuestas, len(respuestas) + 2, entorno,
                         observa=lambda ll, e: observa(ll, e, guionizado))
        #: las preguntas que hace un arnés correcto: (turno, id), en orden
        self.preguntas = []
        for turno, respuesta in enumerate(self.respuestas, 1):
            for ll in llamadas_de(respuesta):
                if incumple(ll) is None and necesita_permiso(ll):
                    self.preguntas.append((turno, ll["id"]))
        if len(self.preguntas) != len(usuario or self.preguntas):
            raise ValueError(f"«{nombre}»: {len(self.preguntas)} preguntas y "
                             f"{len(usuario)} respuestas")


def mal_preguntado(caso, usuario, muerta=False):
    """(mensaje, turno) de la primera pregunta que sobra o falta; o None. Si la
    conversación murió a medias (`muerta`), las que faltan al final no cuentan: lo que dice
    la prueba es que murió."""
    llamadas = {ll["id"]: ll for r in caso.respuestas for ll in llamadas_de(r)}
    hechas = []
    for recibida, _, turno in usuario.preguntas:
        ident = recibida.get("id") if isinstance(recibida, dict) else None
        if ident not in llamadas or recibida != llamadas[ident]:
            return (f"En el turno {turno}, ejecutar llamó a preguntar con {breve(recibida)}: "
                    f"pásale la llamada entera, preguntar(ll)."), turno
        hechas.append((turno, ident))
    for i, (turno, ident) in enumerate(hechas):
        if i < len(caso.preguntas) and caso.preguntas[i] == (turno, ident):
            continue
        ll = llamadas[ident]
        if (turno, ident) in hechas[:i]:
            return (f"En el turno {turno}, ejecutar preguntó otra vez por {quien(ll)}: una "
                    f"pregunta por llamada."), turno
        if not necesita_permiso(ll):
            return (f"En el turno {turno}, ejecutar preguntó por {quien(ll)}, que solo mira: "
                    f"pregunta solo si necesita_permiso(ll)."), turno
        if incumple(ll) is not None:
            return (f"En el turno {turno}, ejecutar preguntó por {quien(ll)}, que no encaja "
                    f"con su esquema: su motivo vuelve como error sin preguntar."), turno
        falta = caso.preguntas[i] if i < len(caso.preguntas) else None
        if falta is not None:
            return (f"En el turno {falta[0]}, ejecutar no preguntó por {quien(llamadas[falta[1]])} "
                    f"antes de seguir: por cada llamada que cambia el entorno se pregunta una vez, "
                    f"en el orden de las llamadas."), falta[0]
        return f"En el turno {turno}, ejecutar preguntó de más por {quien(ll)}.", turno
    if len(hechas) < len(caso.preguntas) and caso.usuario is not None and not muerta:
        turno, ident = caso.preguntas[len(hechas)]
        return (f"En el turno {turno}, ejecutar no preguntó por {quien(llamadas[ident])}, y "
                f"{llamadas[ident]['name']} cambia el entorno: pregunta con preguntar(ll) antes "
                f"de ejecutarla."), turno
    return None


def prueba_de(caso):
    def prueba(envio):
        bucle = envio.funcion("bucle")
        modelo, notas = registro(caso.guion)
        entorno = dict(caso.entorno)
        usuario = Usuario(caso.usuario or [], entorno, notas)
        argumentos = (modelo, copia.deepcopy(caso.inicio), entorno, caso.tope)
        escapado = None
        try:
            devuelto = bucle(*argumentos) if caso.usuario is None else bucle(*argumentos, usuario)
        except BaseException as error:
            if notas["fallo"] is None and not isinstance(error, Exception):
                raise
            escapado = error
        if escapado is not None and notas["fallo"] is None and not del_lector(envio, escapado):
            raise escapado
        mal = mal_preguntado(caso, usuario, muerta=escapado is not None and notas["fallo"] is None)
        if mal is not None:
            raise Fallo(*mal)
        if notas["fallo"] is not None:
            raise Fallo(notas["fallo"], notas["turno"])
        if escapado is not None:
            turno = notas["respuestas"]
            raise Fallo(f"En el turno {turno}, de ejecutar salió {lanzo(escapado)} y la "
                        f"conversación murió a medias. Una llamada denegada, o un error del "
                        f"modelo, vuelve a él como observación; las demás llamadas de la "
                        f"respuesta siguen.", turno) from None
        termina_como(caso, devuelto, entorno)
    return prueba


# ---------------------------------------------- conversaciones que la lección no muestra



def generada(semilla, turnos, raras=(), nombre=None):
    """Una conversación de `turnos` respuestas: las turnos - 1 primeras piden de 1 a 4 cosas,
    al menos una escritura cada una (a veces dos o tres); la última responde con texto. El
    usuario responde al azar, con algún sí y algún no. `raras`: llamadas de más (hechas con
    su id) repartidas al azar: una escritura que no encaja, una que falla."""
    al_azar = AlAzar(semilla, FRASES["pedir-permiso"], ESCRITAS["pedir-permiso"])
    rng = al_azar.rng
    inicio = [("sistema", SISTEMA_BUCLE), ("usuario", rng.choice(PETICIONES["pedir-permiso"]))]
    donde = [rng.randrange(turnos - 1) for _ in raras]

    def escribe(i):
        return llamada(i, "escribir", ruta=rng.choice(ESCRITAS["pedir-permiso"]),
                       contenido=", ".join(rng.sample(PALABRAS, 3)))
    respuestas = []
    for t in range(turnos - 1):
        pedidas = [escribe] * rng.randint(1, 3) + [None] * rng.randint(0, 2)
        pedidas += [rara for rara, d in zip(raras, donde, strict=True) if d == t]
        rng.shuffle(pedidas)
        bloques = []
        for pedida in pedidas:
            al_azar.n += 1
            ident = f"g{semilla}_{al_azar.n}"
            bloques.append(al_azar.posible(ident) if pedida is None else pedida(ident))
        if rng.random() < 0.5:
            bloques.insert(rng.randrange(len(bloques) + 1),
                           texto(rng.choice(FRASES["pedir-permiso"])))
        respuestas.append(bloques)
    respuestas.append([texto(rng.choice(FINALES))])
    n = sum(1 for r in respuestas for ll in llamadas_de(r)
            if incumple(ll) is None and necesita_permiso(ll))
    usuario = [rng.choice(["sí", "no"]) for _ in range(n)]
    usuario[rng.randrange(n)] = "sí"
    usuario[rng.randrange(n)] = "no"
    while usuario.count("sí") < 1 or usuario.count("no") < 1:
        usuario = [rng.choice(["sí", "no"]) for _ in range(n)]
    nombre = nombre or (f"otra conversación: {n} escrituras, {usuario.count('no')} denegadas, "
                        f"en {turnos} turnos")
    return Conversacion(nombre, inicio, respuestas, usuario)


RARAS = [
    lambda i: llamada(i, "escribir", ruta="compra/sabado.txt"),
    lambda i: llamada(i, "escribir", ruta="lista.txt/sabado.txt", contenido="ajo"),
]

CONVERSACIONES = [
    Conversacion("la conversación de la lección: sí a lista.txt, no a notas.txt",
                 INICIO_PERMISO, RESPUESTAS_PERMISO + [[texto(FINALES_PERMISO[True, False])]],
                 ["sí", "no"]),
    Conversacion("la conversación de la lección: no a lista.txt, sí a notas.txt",
                 INICIO_PERMISO, RESPUESTAS_PERMISO + [[texto(FINALES_PERMISO[False, True])]],
                 ["no", "sí"]),
    Conversacion("la conversación de la lección sin nadie a quien preguntar: denegar",
                 INICIO_PERMISO, RESPUESTAS_PERMISO + [[texto(FINALES_PERMISO[False, False])]],
                 None),
    generada(6, 4),
    generada(8, 5, RARAS, "otra conversación: escrituras denegadas, una que no encaja y otra "
                           "que falla, en 5 turnos"),
]
