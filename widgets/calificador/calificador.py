"""The grader's one loader of challenges: :class:`Calificador` (see the package's docstring)."""

import copy
import sys
import time

from . import limites, resultado
from .envio import Envio, cargar
from .importador import Importador
from .limites import LIMITE
from .probar import probar
from .runtime import ejecutar_runtime
from .veredictos import de_sintaxis, termino_el_proceso

#: The runtime modules loaded by default, in this order.
RUNTIME = ("entorno", "guionizado", "escenarios")

#: The grader's package, what a challenge's tests import as ``calificador`` (``Fallo``,
#: ``opaca``, ``murada``, ``plano``): in the page it is ``calificador``, in CPython
#: ``widgets.calificador`` (being imported now, so already in ``sys.modules``).
_API = sys.modules[__name__.rpartition(".")[0]]


def _latido(al_empezar, nombre):
    """What a long test calls to say it is still going: ``al_empezar(nombre)`` again."""
    return lambda: al_empezar(nombre)


class Calificador:
    """The one loader of challenges: the command, the worker, the build and the tests call it.
    It keeps what it read and compiled, and the last namespace of each challenge's tests."""

    def __init__(self, leer, desafios="desafios/", runtime="runtime/", runtime_modulos=RUNTIME):
        self._leer = leer
        self.desafios = desafios
        self.runtime = runtime
        self.runtime_modulos = tuple(runtime_modulos)
        self._textos = {}    # URL → text, in the order first read
        self._codigos = {}   # URL → its compiled code
        self._pruebas = {}   # challenge → the last namespace of its tests
        self._modulos = {}   # challenge → the modules its last tests imported

    # ---------------------------------------------------------------- files

    def leidos(self):
        """The URLs this engine read, in the order it first read them."""
        return list(self._textos)

    def texto(self, url):
        """The text of the file at ``url``, read once."""
        if url not in self._textos:
            self._textos[url] = self._leer(url)
        return self._textos[url]

    def codigo(self, url, archivo):
        """The code of the file at ``url``, read and compiled once (as ``archivo``)."""
        if url not in self._codigos:
            self._codigos[url] = compile(self.texto(url), archivo, "exec")
        return self._codigos[url]

    def _del_desafio(self, ruta):
        return self.codigo(self.desafios + ruta, ruta)

    def runtime_en(self, ns):
        """Execute the runtime modules, in order, in namespace ``ns``."""
        ejecutar_runtime(ns, self.runtime_modulos,
                         lambda nombre: self.codigo(f"{self.runtime}{nombre}.py",
                                                    f"runtime/{nombre}.py"))

    def inicial_en(self, desafio, ns):
        """Fill ``ns`` as a submission's namespace starts: the runtime and the starter code,
        without the functions the reader writes."""
        self.runtime_en(ns)
        exec(self._del_desafio(f"{desafio}/inicial.py"), ns)
        for nombre in self.a_escribir(desafio):
            ns.pop(nombre, None)

    # ---------------------------------------------------------------- the tests

    def pruebas(self, desafio, nuevo=True):
        """The namespace of ``desafio``'s tests (``<id>/pruebas.py``), with their own modules
        (see :mod:`.importador`), made before any of the reader's code runs. ``nuevo=False``
        reuses the last one (only to read its constants)."""
        if nuevo or desafio not in self._pruebas:
            importador = Importador(self._del_desafio, self.runtime_en, _API)
            try:
                ns = importador.ejecutar(f"{desafio}/pruebas.py", {"__name__": "pruebas"})
                self._modulos[desafio] = dict(importador.modulos)
            finally:
                importador.cerrar()
            self._pruebas[desafio] = ns
        return self._pruebas[desafio]

    def modulo_nuevo(self, ruta):
        """The module of ``ruta`` (a file of the challenges folder, ``<id>/agente.py``), loaded
        anew, with its own importer and runtime: a test that runs the reader's code several
        times gives each run modules of its own."""
        importador = Importador(self._del_desafio, self.runtime_en, _API)
        try:
            return importador.modulo(ruta)
        finally:
            importador.cerrar()

    def modulos(self, desafio):
        """{"runtime" or a path of the challenges folder: module} that the last tests of
        ``desafio`` imported."""
        self.pruebas(desafio, nuevo=False)
        return dict(self._modulos[desafio])

    def a_escribir(self, desafio):
        """{name: parameters} of the functions the reader writes."""
        return self.pruebas(desafio, nuevo=False)["A_ESCRIBIR"]

    def nombres(self, desafio):
        """The names of the tests, in order."""
        return [nombre for nombre, _ in self.pruebas(desafio)["PRUEBAS"]]

    def datos(self, desafio):
        """What the page shows of a challenge: ``{"pruebas": names, "pista", "limite",
        "a_escribir": {name: parameters}, "mensajes"}``. ``mensajes`` are the texts the page
        needs to build a result itself when its watchdog stops the worker (``{prueba}``
        stands for a test's name): ``tiempo`` (the test running), ``tiempo_al_cargar`` (the
        code was loading), ``no_probada`` and ``no_probada_al_cargar`` (the tests after it);
        ``exit`` and ``exit_al_cargar`` (the code ended the process, ``{codigo}`` its exit
        status: in the page, Pyodide stops with it) and ``no_probada_tras_exit``."""
        ns = self.pruebas(desafio)
        a_escribir = {k: list(v) for k, v in ns["A_ESCRIBIR"].items()}
        quien = next(iter(a_escribir), "Tu código")
        return {
            "pruebas": [nombre for nombre, _ in ns["PRUEBAS"]],
            "pista": ns["PISTA"],
            "limite": LIMITE,
            "a_escribir": a_escribir,
            "mensajes": {
                "tiempo": limites.no_se_dejo_detener(quien, LIMITE),
                "tiempo_al_cargar": limites.no_se_dejo_detener("Tu código", LIMITE),
                "no_probada": resultado.texto_no_probada(resultado.no_termino("{prueba}")),
                "no_probada_al_cargar": resultado.texto_no_probada(resultado.sin_cargar()),
                "exit": termino_el_proceso("{codigo}", "{prueba}"),
                "exit_al_cargar": termino_el_proceso("{codigo}", None),
                "no_probada_tras_exit": resultado.texto_no_probada(resultado.se_corto("{prueba}")),
            },
        }

    def caso(self, desafio, nombre):
        """The data of test ``nombre``: a dict with guion, inicio, entorno and tope, and what is
        expected (llamadas, motivo, texto, M, entorno_final). JSON-able."""
        return copy.deepcopy(self.pruebas(desafio)["caso"](nombre))

    def argumentos(self, desafio, nombre):
        """The arguments, new, with which test ``nombre`` calls the reader's function: for
        «bucle-con-tope», (modelo, inicio, entorno, tope), with a model that follows its
        script."""
        return self.pruebas(desafio)["argumentos"](nombre)

    # ---------------------------------------------------------------- grading

    def envio(self, desafio, codigo, limite=None):
        """The reader's ``codigo``, compiled (a SyntaxError goes through), not yet checked."""
        return Envio(self, desafio, codigo, limite)

    def preparar(self, desafio, codigo, limite=None):
        """The reader's code, compiled and checked (raises Veredicto if it does not load or
        does not define what it must): ``preparar(id, codigo).funcion("bucle")`` is their
        function (see ``Envio.funcion``)."""
        try:
            envio = self.envio(desafio, codigo, limite)
        except SyntaxError as e:
            raise de_sintaxis(e, codigo) from None
        error = cargar(envio, self.a_escribir(desafio))
        if error is not None:
            raise error
        return envio

    def calificar(self, desafio, codigo, *, limite=None, al_empezar=None, al_acabar=None,
                  traza=None):
        """Run the tests of ``desafio`` against ``codigo`` (a text); return the result (see
        :mod:`.resultado`).

        If given, ``al_empezar(nombre)`` is called before each test and ``al_acabar(prueba)``
        after it, with that test's result; a test that runs the reader's code many times calls
        ``envio.latido()`` between runs, which calls ``al_empezar(nombre)`` again, so that the
        clocks that watch each test (the command's, the page's) start again. ``traza`` is the hook
        of «Ver tu traza»: for each test that fails by breaking the contract or by an error (not by running out of time)
        it is called as ``traza(funcion, *argumentos(desafio, nombre))``, with the reader's
        function (see ``Envio.funcion``) and that test's arguments, new; with ``trazar`` of
        :mod:`.trazas`, ``traza(bucle, modelo, inicio, entorno, tope)``. What it returns goes
        in the test's ``"traza"`` (None if it raises).
        """
        inicio = time.perf_counter()
        lista = list(self.pruebas(desafio)["PRUEBAS"])
        try:
            envio = self.envio(desafio, codigo, limite)
        except SyntaxError as e:
            error = de_sintaxis(e, codigo)
        else:
            error = cargar(envio, self.a_escribir(desafio))
        if error is not None:
            motivo = resultado.sin_cargar(error.datos["linea"])
            pruebas = [resultado.no_probada(nombre, motivo) for nombre, _ in lista]
        else:
            pruebas = []
            agotada = None
            for nombre, prueba in lista:
                if agotada is not None:
                    pruebas.append(resultado.no_probada(nombre, resultado.no_termino(agotada)))
                    continue
                if al_empezar is not None:
                    al_empezar(nombre)
                envio.latido = None if al_empezar is None else _latido(al_empezar, nombre)
                pruebas.append(probar(nombre, prueba, envio))
                if traza is not None and pruebas[-1]["tipo"] in ("fallo", "error"):
                    pruebas[-1]["traza"] = self._trazar(traza, desafio, nombre, envio)
                if al_acabar is not None:
                    al_acabar(pruebas[-1])
                if envio.agotado:
                    agotada = nombre
        return resultado.resultado(desafio, pruebas,
                                   error=None if error is None else error.datos,
                                   segundos=round(time.perf_counter() - inicio, 3))

    def _trazar(self, traza, desafio, nombre, envio):
        """What traza(the reader's function, the test's arguments) gives, without any of it
        changing the verdict."""
        agotado, salidas = envio.agotado, envio.salidas
        try:
            funcion = next(iter(self.a_escribir(desafio)))
            argumentos = self.pruebas(desafio, nuevo=False)["argumentos"](nombre)
            return traza(envio.funcion(funcion), *argumentos)
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - the recorder is an extra: if it fails, the result stays
            return None
        finally:
            envio.agotado, envio.salidas = agotado, salidas

    def cortado(self, desafio, hechas, actual, veredicto, motivo):
        """The result of a check cut short (by a clock that outlived the grader's, by the
        page): the tests in ``hechas`` (name → result) keep theirs; test ``actual`` gets
        ``veredicto`` (a Veredicto), or, if ``actual`` is None (the code was loading), it is the
        result's ``error``; the others are not tried, with ``motivo``. (It runs nothing: a
        clock's thread may call it while the reader's code holds the main one.)"""
        pruebas = []
        for nombre, _ in self.pruebas(desafio, nuevo=False)["PRUEBAS"]:
            if nombre in hechas:
                pruebas.append(hechas[nombre])
            elif nombre == actual:
                pruebas.append(veredicto.como_resultado(nombre))
            else:
                pruebas.append(resultado.no_probada(nombre, motivo))
        return resultado.resultado(desafio, pruebas,
                                   error=veredicto.datos if actual is None else None)
