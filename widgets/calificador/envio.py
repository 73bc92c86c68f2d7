"""A submission: the reader's code compiled once, run in fresh namespaces under the limits.

Each call gets a NEW namespace that already holds the runtime and the starter code's helpers
(without the functions the reader must write): a file with only ``bucle`` is graded like the
full starter, and no test sees what the previous one left. A test calls the reader with
``envio.llamar(nombre, *args)`` (a namespace per call; the reader's error is a verdict) or with
``envio.funcion(nombre)`` (one namespace for several calls; the test catches what it expects
the reader to raise, and what it lets out counts as the reader's error, with their line). A test
whose own code drives the reader's (a ``unittest`` run over the reader's test classes, as in
«pruebas-del-agente») runs it with ``envio.vigilar(accion, quien)``: the same limits and wall.
"""

import builtins
import inspect
import io
import sys

from . import limites, veredictos
from .limpio import Salida
from .muralla import Guardia, Murado, aplanar_en_su_sitio, para_el_lector, plano
from .probar import Veredicto
from .veredictos import ARCHIVO


class Hecho:
    """What happened when calling a reader's function: ``valor`` or ``error`` (a Veredicto)."""

    def __init__(self, valor, error, salida):
        self.valor, self.error, self.salida = valor, error, salida

    def resultado(self):
        """The value returned; if the reader did not get to return one, raises its Veredicto."""
        if self.error is not None:
            raise self.error
        return self.valor


class Envio:
    """The reader's ``fuente`` for ``desafio``, compiled once (a SyntaxError is the caller's
    to catch), to run in fresh namespaces that ``calificador`` (a :class:`Calificador`) fills.

    ``agotado`` says whether some call went past the limit; ``salidas``, what it wrote in each;
    ``lanzada``, (exception, its Veredicto) of the last thing the reader raised in a function of
    :meth:`funcion` (a test tells so the reader's error from a verdict such as the time limit).
    """

    def __init__(self, calificador, desafio, fuente, limite=None):
        self.calificador = calificador
        self.desafio = desafio
        self.fuente = fuente
        self.limite = limites.LIMITE if limite is None else limite
        self.codigo = compile(fuente, ARCHIVO, "exec")
        self.vigia = limites.Vigia(limites.codigos(self.codigo), ARCHIVO)
        self.agotado = False
        self.salidas = []
        self.lanzada = None
        self.latido = None  # set by Calificador.calificar: «still going» (see there)

    def espacio(self, antes=None):
        """A new namespace: runtime, the starter's helpers, ``antes`` (names the test puts there
        before the reader's code runs) and the reader's code. (Without time limit or capture:
        for that, :meth:`llamar` or :meth:`vigilar`.)"""
        ns = {"__name__": "desafio", "__builtins__": builtins}
        self.calificador.inicial_en(self.desafio, ns)
        ns.update(antes or {})
        exec(self.codigo, ns)
        return ns

    def vigilar(self, accion, quien):
        """Run ``accion()``, the test's own code that calls the reader's (their methods, a
        namespace made with :meth:`espacio`), as the reader's code runs here: behind the wall,
        with the time limit (``quien`` names it in the verdict: «{quien} no terminó en 2 s…»)
        and the output captured. Never raises because of the reader: returns a :class:`Hecho`
        whose ``valor`` is what ``accion`` returned, as it is (the test reads it)."""
        valor, _, veredicto, salida = self._vigilado(accion, quien)
        return Hecho(valor, veredicto, salida)

    def llamar(self, funcion, *args):
        """Load the code in a new namespace and call ``funcion(*args)`` (funcion=None: only
        load it, and the value is the namespace), with time limit and output captured.
        Never raises because of the reader: returns a :class:`Hecho`."""
        recibidos = para_el_lector(args)

        def accion():
            ns = self.espacio()
            return ns if funcion is None else ns[funcion](*recibidos)
        valor, _, veredicto, salida = self._vigilado(accion, funcion or "Tu código")
        if funcion is not None:
            valor = plano(valor)
            aplanar_en_su_sitio(args)
        return Hecho(valor, veredicto, salida)

    def funcion(self, nombre):
        """The reader's function ``nombre``, loaded once in a new namespace (raises Veredicto if
        the code does not load), wrapped to run with limit and output captured. It returns what
        theirs returns; raises the reader's own exception, or a Veredicto if it ran out of time
        or output. ``__wrapped__`` is the reader's function (the trace recorder uses it) and
        ``espacio`` its namespace (a test may change there what the function uses, such as
        FUNCIONES). A reader's exception the test lets out counts as their error, with their
        line (see :func:`.probar.probar`)."""
        ns = self.llamar(None).resultado()
        f = ns[nombre]

        def llamada(*args):
            recibidos = para_el_lector(args)
            valor, error, veredicto, _ = self._vigilado(lambda: f(*recibidos), nombre)
            aplanar_en_su_sitio(args)
            propio = veredicto is not None and veredicto.datos["tipo"] in ("tiempo", "salida")
            if propio or (veredicto is not None and error is None):
                raise veredicto.with_traceback(getattr(error, "__traceback__", None))
            if error is not None:
                self.lanzada = (error, veredicto)
                raise error
            return plano(valor)

        llamada.__name__ = nombre
        llamada.__wrapped__ = f
        llamada.espacio = ns
        return llamada

    def _vigilado(self, accion, quien):
        """(value, the reader's exception, its Veredicto, output) of running accion() with
        time limit, output captured, and what the reader could change put back."""
        salida = Salida(limites.SALIDA_GUARDADA, limites.TOPE_SALIDA, limites.Inundacion)
        guardia = Guardia()
        valor = error = veredicto = None
        sys.stdout = sys.stderr = salida
        sys.stdin = io.StringIO("")
        self.vigia.armar(self.limite)
        try:
            with Murado():
                valor = accion()
        except KeyboardInterrupt:
            raise  # the page asked to stop: not the reader's doing
        except BaseException as e:  # noqa: BLE001 - whatever the reader's code does is an observation
            error = e
            veredicto = veredictos.veredicto(e, self.fuente, quien, self.vigia.agotado,
                                             salida.inundado, self.limite)
        finally:
            self.vigia.desarmar()
            guardia.restaurar()
        if veredicto is None and self.vigia.agotado:  # it caught SinTiempo and went on
            veredicto = veredictos.sin_tiempo(quien, self.limite)
        if veredicto is None and salida.inundado:  # it caught Inundacion and went on
            veredicto = veredictos.inundacion(quien)
        if veredicto is not None and veredicto.datos["tipo"] == "tiempo":
            self.agotado = True
        self.salidas.append(salida.texto())
        return valor, error, veredicto, salida.texto()


def cargar(envio, a_escribir):
    """Check that the code loads and defines the functions ``a_escribir`` ({name: parameters})
    names: None, or the Veredicto."""
    hecho = envio.llamar(None)
    if hecho.error is not None:
        return hecho.error
    ns = hecho.valor
    for nombre, parametros in a_escribir.items():
        firma = f"{nombre}({', '.join(parametros)})"
        f = ns.get(nombre)
        if not callable(f):
            return Veredicto("falta", f"Tu código no define la función {nombre}: escribe "
                             f"def {firma}: …")
        codigo = getattr(f, "__code__", None)
        linea = codigo.co_firstlineno if codigo and codigo.co_filename == ARCHIVO else None
        try:
            inspect.signature(f).bind(*parametros)
        except (TypeError, ValueError):
            en = f" (línea {linea})" if linea else ""
            return Veredicto("firma", f"{nombre} debe recibir {len(parametros)} argumentos, "
                             f"{firma}, y la tuya{en} es {nombre}{_firma(f)}.", linea)
    return None


def _firma(f):
    try:
        return str(inspect.signature(f))
    except (TypeError, ValueError):
        return "(…)"
