"""El calificador de los desafíos: corre las pruebas de un desafío contra el código del lector.

Es Python sin dependencias que corre igual en CPython (``python -m challenges``, las pruebas,
la construcción del sitio) y en Pyodide, en el worker de la página. Se carga como el runtime,
ejecutando su texto en un espacio de nombres que ya tiene ``open_url``::

    ns = {"open_url": open_url}
    exec(open_url(DESAFIOS + "calificador.py").read(), ns)
    ns["fuentes"](desafios=DESAFIOS, runtime=RUNTIME)     # dónde leer lo demás
    ns["calificar"]("bucle-con-tope", codigo)              # → un dict que se puede pasar a JSON

``DESAFIOS`` es la URL de la carpeta con ``<id>/inicial.py`` y ``<id>/pruebas.py`` y
``RUNTIME`` la de ``entorno.py``, ``guionizado.py`` y ``escenarios.py``.

Cómo califica (ver ``calificar``):

- Las pruebas viven en su propio espacio de nombres, con su copia del runtime, hecho antes de
  que corra nada del lector: el lector no puede cambiar las clases ni los datos de las pruebas.
- Cada prueba corre el código del lector en un espacio de nombres NUEVO que ya tiene el runtime
  y las funciones auxiliares del código inicial (sin las que el lector debe escribir): un
  archivo con solo ``bucle`` se califica igual que el inicial completo, y ninguna prueba ve lo
  que dejó la anterior. Una prueba llama al lector con ``envio.llamar(nombre, *args)`` (un
  espacio por llamada; el error del lector es un veredicto) o con ``envio.funcion(nombre)``
  (un espacio para varias llamadas; la prueba atrapa lo que espera que lance, y lo que deja
  salir cuenta como error del lector, con su línea).
- Cada prueba tiene un límite de tiempo. Lo vigila ``sys.monitoring`` (Python 3.12+, y así
  Pyodide) o ``sys.settrace`` (3.11) solo sobre el código del lector: en cada salto hacia atrás
  y cada llamada mira el reloj y, pasado el límite, lanza una excepción. Tras una prueba que no
  termina, las demás no se prueban: el lector ve el bucle sin fin enseguida.
- La salida del lector se captura (y tiene un tope); sus errores se cuentan con la línea de SU
  código, nunca con el traceback del calificador.
"""

import builtins as _builtins
import copy as _copy_mod
import inspect as _inspect
import io as _io
import sys as _sys
import time as _time
import traceback as _traceback

#: Segundos que puede tardar cada prueba.
LIMITE = 2.0
#: Caracteres que el código del lector puede escribir en una prueba antes de que se le pare.
TOPE_SALIDA = 100_000
#: Caracteres de esa salida que se guardan en el resultado.
SALIDA_GUARDADA = 2_000
#: El nombre de archivo con el que se compila el código del lector (sus líneas son las suyas).
ARCHIVO = "<tu código>"
RUNTIME = ("entorno", "guionizado", "escenarios")

FUENTES = {"desafios": "desafios/", "runtime": "runtime/"}
_TEXTOS = {}  # URL → texto, y ("codigo", URL) → su código compilado
_PRUEBAS = {}  # desafío → el último espacio de las pruebas


def fuentes(desafios=None, runtime=None):
    """Las URL (terminadas en «/») de donde se leen los desafíos y el runtime."""
    if desafios is not None:
        FUENTES["desafios"] = desafios
    if runtime is not None:
        FUENTES["runtime"] = runtime
    _TEXTOS.clear()
    _PRUEBAS.clear()


def _texto(url):
    if url not in _TEXTOS:
        _TEXTOS[url] = open_url(url).read()  # noqa: F821 (open_url is in the namespace)
    return _TEXTOS[url]


def _codigo(url, archivo):
    clave = ("codigo", url)
    if clave not in _TEXTOS:
        _TEXTOS[clave] = compile(_texto(url), archivo, "exec")
    return _TEXTOS[clave]


# ------------------------------------------------------------------ resultados


class Fallo(Exception):
    """Una prueba no se cumple: `mensaje` explica qué pasó; `turno`, en qué llamada al modelo."""

    def __init__(self, mensaje, turno=None):
        super().__init__(mensaje)
        self.mensaje = mensaje
        self.turno = turno


class Veredicto(Exception):
    """El código del lector no llegó a dar un resultado: error, sin tiempo, salida, etc.

    `datos` es {"tipo", "mensaje", "linea"}; tipo es "sintaxis", "error", "tiempo", "salida",
    "exit", "recursion", "falta" o "firma".
    """

    def __init__(self, tipo, mensaje, linea=None):
        super().__init__(mensaje)
        self.datos = {"tipo": tipo, "mensaje": mensaje, "linea": linea}


class _SinTiempo(BaseException):
    """Lanzada en el código del lector al pasar el límite (BaseException: except Exception
    no la para)."""


class _Inundacion(BaseException):
    """Lanzada en el print del lector que pasa el tope de salida."""


# ------------------------------------------------------------------ la vigía


def _codigos(codigo):
    """El objeto de código y todos los anidados: funciones, lambdas, clases, generadores."""
    yield codigo
    for constante in codigo.co_consts:
        if hasattr(constante, "co_code"):
            yield from _codigos(constante)


class _Vigia:
    """Vigila el tiempo del código del lector; `agotado` dice si se pasó del límite.

    Con sys.monitoring (3.12+) solo se activan eventos en los objetos de código del lector, y
    el evento sigue activo aunque el lector atrape la excepción: un ``except BaseException``
    dentro de un bucle sin fin también se para. Con sys.settrace (3.11) la traza se pierde si
    el lector atrapa la excepción; para ese caso la línea de órdenes tiene su propio reloj.
    """

    def __init__(self, codigos):
        self.codigos = list(codigos)
        self.fin = float("inf")
        self.agotado = False
        self._herramienta = None
        self._traza_previa = None

    def _mira(self, *_):
        if _time.perf_counter() > self.fin:
            self.agotado = True
            raise _SinTiempo()

    def _local(self, frame, evento, arg):
        self._mira()
        return self._local

    def _global(self, frame, evento, arg):
        murado, _MURALLA[0] = _MURALLA[0], False  # f_code es un evento de auditoría
        try:
            archivo = frame.f_code.co_filename
        finally:
            _MURALLA[0] = murado
        if archivo == ARCHIVO:
            self._mira()
            return self._local
        return None

    def armar(self, segundos):
        self.fin = _time.perf_counter() + segundos
        self.agotado = False
        monitoring = getattr(_sys, "monitoring", None)
        if monitoring is not None:
            libres = [i for i in (3, 4, 1, 5) if monitoring.get_tool(i) is None]
            if libres:
                self._herramienta = h = libres[0]
                monitoring.use_tool_id(h, "calificador")
                eventos = monitoring.events.JUMP | monitoring.events.PY_START
                monitoring.register_callback(h, monitoring.events.JUMP, self._mira)
                monitoring.register_callback(h, monitoring.events.PY_START, self._mira)
                for codigo in self.codigos:
                    monitoring.set_local_events(h, codigo, eventos)
                return
        self._traza_previa = _sys.gettrace()
        _sys.settrace(self._global)

    def desarmar(self):
        self.fin = float("inf")
        h, self._herramienta = self._herramienta, None
        if h is not None:
            monitoring = _sys.monitoring
            for codigo in self.codigos:
                monitoring.set_local_events(h, codigo, 0)
            monitoring.register_callback(h, monitoring.events.JUMP, None)
            monitoring.register_callback(h, monitoring.events.PY_START, None)
            monitoring.free_tool_id(h)
        else:
            _sys.settrace(self._traza_previa)


# Lo que el código del lector toca mientras corre (su sys.stdout, los modelos y funciones que las
# pruebas le pasan) se define en un espacio de nombres que no tiene nada más: desde
# ``f.__globals__`` de esos objetos no se llega al calificador ni a las pruebas.
_LIMPIO = """
class Salida:
    \"\"\"Lo que escribe el lector: se guarda el principio; pasado el tope, el print lanza.\"\"\"

    def __init__(self):
        self.partes = []
        self.guardados = 0
        self.total = 0
        self.inundado = False

    def write(self, texto):
        texto = str(texto)
        self.total += len(texto)
        if self.guardados < GUARDADA:
            trozo = texto[: GUARDADA - self.guardados]
            self.partes.append(trozo)
            self.guardados += len(trozo)
        if self.total > TOPE:
            self.inundado = True
            raise Inundacion()
        return len(texto)

    def flush(self):
        pass

    def isatty(self):
        return False

    def texto(self):
        texto = "".join(self.partes)
        return texto + ("…" if self.total > self.guardados else "")


def opaca(enviar, nombre):
    \"\"\"Una función que pasa sus argumentos a `enviar` (el send de un generador) y devuelve
    o lanza lo que este diga.\"\"\"
    def funcion(*argumentos, **nombrados):
        ok, valor = enviar((argumentos, nombrados))
        if ok:
            return valor
        raise valor

    funcion.__name__ = funcion.__qualname__ = nombre
    return funcion
"""


def _espacio_limpio():
    ns = {"__builtins__": _builtins, "__name__": "calificador", "GUARDADA": SALIDA_GUARDADA,
          "TOPE": TOPE_SALIDA, "Inundacion": _Inundacion}
    exec(compile(_LIMPIO, "<calificador>", "exec"), ns)
    return ns


_LIMPIOS = _espacio_limpio()
_Salida = _LIMPIOS["Salida"]


class _Guardia:
    """Lo que el lector podría cambiar y las pruebas usan: se restaura al acabar cada prueba."""

    def __init__(self):
        self.modulos = [(m, dict(vars(m))) for m in (_builtins, _copy_mod)]
        self.flujos = (_sys.stdout, _sys.stderr, _sys.stdin)
        self.recursion = _sys.getrecursionlimit()

    def restaurar(self):
        _sys.stdout, _sys.stderr, _sys.stdin = self.flujos
        _sys.setrecursionlimit(self.recursion)
        for modulo, antes in self.modulos:
            ahora = vars(modulo)
            if ahora != antes:
                for nombre in [n for n in ahora if n not in antes]:
                    del ahora[nombre]
                ahora.update(antes)


# ------------------------------------------------------------------ la muralla
#
# El código del lector corre en el mismo Python que las pruebas. Mientras corre, no puede
# llegar a ellas: los objetos que recibe no llevan a su espacio (ver _LIMPIO y `_opaca`), un
# gancho de auditoría le niega los marcos de la pila, el recolector de basura y las trazas
# (sys._getframe, tb_frame, gi_frame, __code__, gc.get_objects, sys.settrace…), los módulos
# que guardan el calificador no están en sys.modules, y lo que devuelve se copia a tipos
# exactos (una lista que dice ser igual a todo no pasa por una M correcta). No es una caja
# fuerte (el lector es dueño de su navegador); es que el veredicto no se deje engañar.

#: Eventos de auditoría que el código del lector no puede provocar mientras se califica.
_PROHIBIDOS = frozenset({
    "object.__getattr__",  # __code__, tb_frame, gi_frame, cr_frame, ag_frame, gi_code…
    "sys._getframe", "sys._getframemodulename", "sys._current_frames",
    "sys._current_exceptions", "sys.settrace", "sys.setprofile",
    "sys.monitoring.register_callback", "gc.get_objects", "gc.get_referrers",
    "gc.get_referents", "ctypes.dlopen", "ctypes.dlsym", "ctypes.addressof",
})
if not hasattr(_sys, "monitoring"):  # Python 3.11: la vigía es sys.settrace, que CPython
    _PROHIBIDOS -= {"sys.settrace", "sys.setprofile"}  # vuelve a llamar por dentro
#: Módulos que llevan al calificador: fuera de sys.modules mientras corre el lector.
_OCULTOS = ("trabajador", "challenges")
_MURALLA = [False]


class _Prohibido(RuntimeError):
    """Lo que el gancho de auditoría lanza en el código del lector; `que`, lo que intentó."""

    def __init__(self, que):
        super().__init__(f"aquí no se puede usar {que}: mientras se califica, tu código solo "
                         f"trabaja con lo que recibe")
        self.que = que


def _auditar(evento, argumentos):
    if _MURALLA[0] and evento in _PROHIBIDOS:
        raise _Prohibido(argumentos[1] if evento == "object.__getattr__" else evento)


_sys.addaudithook(_auditar)


class _Murado:
    """Con ``with _Murado():`` corre el código del lector tras la muralla."""

    def __enter__(self):
        self.antes = _MURALLA[0]
        self.ocultos = {n: m for n, m in _sys.modules.items()
                        if n.split(".")[0] in _OCULTOS}
        for n in self.ocultos:
            del _sys.modules[n]
        _MURALLA[0] = True

    def __exit__(self, *_):
        _MURALLA[0] = self.antes
        _sys.modules.update(self.ocultos)


class _Abierto:
    """Con ``with _Abierto():`` el código de las pruebas que el lector llama (un modelo) corre
    sin muralla, y al volver se levanta otra vez."""

    def __enter__(self):
        self.antes = _MURALLA[0]
        _MURALLA[0] = False

    def __exit__(self, *_):
        _MURALLA[0] = self.antes


def _limpia(error):
    """Una copia de `error` que no lleva a las pruebas: sus argumentos (si son datos) o su
    mensaje, en una excepción de un tipo de Python (o de uno nuevo, sin métodos, con el mismo
    nombre)."""
    tipo = type(error)
    base = next(t for t in tipo.__mro__ if t.__module__ == "builtins")
    argumentos = error.args if type(error.args) is tuple else ()
    if not all(type(a) in _ATOMOS for a in argumentos):
        try:
            argumentos = (str(error),)
        except Exception:  # noqa: BLE001 - un __str__ roto: basta el nombre
            argumentos = ()
    if tipo is not base:
        base = type(tipo.__name__, (base,), {"__module__": "calificador"})
    try:
        return base(*argumentos)
    except TypeError:  # una excepción de Python con otros argumentos (UnicodeError…)
        return RuntimeError(*argumentos[:1])


def _opaca(funcion, nombre=None):
    """`funcion`, para dársela al lector: llama a `funcion` sin muralla y le devuelve una copia
    de lo que devuelva (o una copia limpia de lo que lance); desde la que recibe no llega a
    `funcion`, ni a sus variables, ni a su espacio."""
    def canal():
        pedido = yield
        while True:
            argumentos, nombrados = pedido
            try:
                with _Abierto():
                    respuesta = (True, _copy_mod.deepcopy(funcion(*argumentos, **nombrados)))
            except BaseException as e:  # noqa: BLE001 - se lanza, limpia, en el lector
                respuesta = (False, _limpia(e))
            pedido = yield respuesta

    generador = canal()
    next(generador)
    return _LIMPIOS["opaca"](generador.send, nombre or getattr(funcion, "__name__", "funcion"))


class _Ajeno:
    """Lo que queda, en lo que devolvió el lector, de un objeto que no es de un tipo exacto de
    Python (una subclase de list que dice ser igual a todo, por ejemplo): no es igual a nada."""

    def __init__(self, tipo):
        self.tipo = tipo

    def __eq__(self, otro):
        return otro is self

    def __ne__(self, otro):
        return otro is not self

    __hash__ = object.__hash__

    def __repr__(self):
        return f"<un objeto de tipo {self.tipo}>"


_ATOMOS = (str, int, float, bool, bytes, type(None))


def _plano(valor, _vistos=None):
    """`valor` copiado solo con tipos exactos (str, números, None, listas, tuplas, dicts);
    cualquier otra cosa queda como un _Ajeno."""
    tipo = type(valor)
    if tipo in _ATOMOS:
        return valor
    if tipo not in (list, tuple, dict):
        return _Ajeno(tipo.__name__)
    vistos = set() if _vistos is None else _vistos
    if id(valor) in vistos or len(vistos) > 100_000:
        return _Ajeno(f"{tipo.__name__} que se contiene a sí misma")
    vistos.add(id(valor))
    try:
        if tipo is dict:
            return {_clave(k): _plano(v, vistos) for k, v in valor.items()}
        copia = [_plano(v, vistos) for v in valor]
        return copia if tipo is list else tuple(copia)
    except RecursionError:
        return _Ajeno(f"{tipo.__name__} demasiado anidada")
    finally:
        vistos.discard(id(valor))


def _clave(k):
    plano = _plano(k)
    return plano if type(plano) in _ATOMOS or type(plano) is tuple else repr(plano)


def _aplanar_en_su_sitio(argumentos):
    """Las listas y dicts que el lector recibió (y pudo cambiar), a tipos exactos, en su sitio:
    la prueba los mira después."""
    for a in argumentos:
        if type(a) is list:
            a[:] = _plano(a)
        elif type(a) is dict:
            plano = _plano(a)
            a.clear()
            a.update(plano)


def _para_el_lector(argumentos):
    """Los argumentos de una prueba, con cada función hecha opaca (ver `_opaca`)."""
    return tuple(_opaca(a) if callable(a) and not isinstance(a, type) else a for a in argumentos)


# ------------------------------------------------------------ código del lector


def _lineas_del_lector(tb):
    """Las líneas del lector en un traceback, de fuera hacia dentro; y la función a la que
    llamó la más interna (si el error salió de otra parte, como ``ejecutar``)."""
    lineas, llamada = [], None
    for marco, linea in _traceback.walk_tb(tb):
        if marco.f_code.co_filename == ARCHIVO:
            lineas.append(linea)
            llamada = None
        elif lineas and llamada is None:
            llamada = marco.f_code.co_name
    return lineas, llamada


def _cita(fuente, linea):
    """La línea `linea` del lector, sangrada, en una línea aparte ("" si no hay)."""
    lineas = fuente.splitlines()
    texto = lineas[linea - 1].strip() if linea and linea <= len(lineas) else ""
    return f"\n    {texto}" if texto else ""


def _veredicto(error, fuente, quien, vigia, salida, limite):
    """El veredicto para una excepción que salió del código del lector."""
    lineas, llamada = _lineas_del_lector(error.__traceback__)
    linea = lineas[-1] if lineas else None
    if isinstance(error, RecursionError) and lineas:
        # La más repetida de las últimas: la llamada que se repite, no el «def» que desbordó.
        ultimas = lineas[-50:]
        linea = max(reversed(ultimas), key=ultimas.count)
    donde = f" en la línea {linea}" if linea else ""
    cita = _cita(fuente, linea)
    if vigia.agotado or isinstance(error, _SinTiempo):
        return _sin_tiempo(quien, limite, linea)
    if salida.inundado or isinstance(error, _Inundacion):
        return _inundacion(quien, donde, cita, linea)
    if isinstance(error, SystemExit):
        return Veredicto("exit", f"{quien} llamó a sys.exit() (o a exit o quit){donde}: aquí no "
                         f"se termina el programa; devuelve el resultado con return.{cita}", linea)
    if isinstance(error, RecursionError):
        return Veredicto("recursion", f"{quien} se llama a sí mismo sin fin (RecursionError)"
                         f"{donde}: ¿una función que se llama a sí misma?{cita}", linea)
    if isinstance(error, EOFError):  # input(): stdin está vacío mientras se califica
        return Veredicto("error", f"{quien} pidió una entrada con input(){donde}: aquí nadie "
                         f"puede escribir; lo que necesita le llega como argumentos.{cita}", linea)
    if isinstance(error, _Prohibido):
        return Veredicto("error", f"{quien} intentó usar {error.que}{donde}: mientras se "
                         f"califica, tu código solo trabaja con lo que recibe, sin mirar la "
                         f"pila, la memoria ni el interior de otras funciones.{cita}", linea)
    if llamada:
        donde += f" (dentro de {llamada})"
    texto = str(error)
    que = f": {texto}" if texto else "."
    return Veredicto("error", f"{quien} lanzó {type(error).__name__}{donde}{que}{cita}", linea)


def _sin_tiempo(quien, limite, linea=None):
    iba = f" (iba por la línea {linea})" if linea else ""
    if quien == "Tu código":
        return Veredicto("tiempo", f"Tu código no terminó de cargarse en {_segundos(limite)}: "
                         f"¿un bucle sin fin fuera de las funciones?{iba}", linea)
    return Veredicto("tiempo", f"{quien} no terminó en {_segundos(limite)}: ¿falta el tope?{iba}",
                     linea)


def _inundacion(quien, donde="", cita="", linea=None):
    miles = f"{TOPE_SALIDA:,}".replace(",", " ")
    return Veredicto("salida", f"{quien} escribió más de {miles} caracteres{donde}: "
                     f"¿un print dentro de un bucle sin fin?{cita}", linea)


def _segundos(s):
    return f"{s:g} s".replace(".", ",")


class _Hecho:
    """Lo que pasó al llamar a una función del lector: `valor` o `error` (un Veredicto)."""

    def __init__(self, valor, error, salida):
        self.valor, self.error, self.salida = valor, error, salida

    def resultado(self):
        """El valor devuelto; si el lector no llegó a devolver nada, lanza su Veredicto."""
        if self.error is not None:
            raise self.error
        return self.valor


class Envio:
    """El código del lector, compilado una vez, para correrlo en espacios de nombres nuevos.

    `agotado` dice si alguna llamada se pasó del límite; `salidas`, lo que escribió en cada una;
    `lanzada`, (excepción, su Veredicto) de lo último que lanzó el lector en una función de
    `funcion` (una prueba distingue así el error del lector de un veredicto como el tiempo).
    """

    def __init__(self, desafio, fuente, limite=None):
        self.desafio = desafio
        self.fuente = fuente
        self.limite = LIMITE if limite is None else limite
        self.codigo = compile(fuente, ARCHIVO, "exec")  # SyntaxError: lo atrapa quien llama
        self.vigia = _Vigia(_codigos(self.codigo))
        self.agotado = False
        self.salidas = []
        self.lanzada = None

    def espacio(self):
        """Un espacio nuevo: runtime, auxiliares del código inicial y el código del lector.
        (Sin límite de tiempo ni captura: para eso, `llamar`.)"""
        ns = {"__name__": "desafio", "__builtins__": _builtins}
        for nombre in RUNTIME:
            exec(_codigo(FUENTES["runtime"] + nombre + ".py", f"runtime/{nombre}.py"), ns)
        exec(_codigo(_url(self.desafio, "inicial.py"), f"{self.desafio}/inicial.py"), ns)
        for nombre in _a_escribir(self.desafio):
            ns.pop(nombre, None)
        exec(self.codigo, ns)
        return ns

    def llamar(self, funcion, *args):
        """Carga el código en un espacio nuevo y llama a `funcion(*args)` (funcion=None: solo
        lo carga y el valor es el espacio), con límite de tiempo y la salida capturada.
        Nunca lanza por culpa del lector: devuelve un _Hecho."""
        recibidos = _para_el_lector(args)

        def accion():
            ns = self.espacio()
            return ns if funcion is None else ns[funcion](*recibidos)
        valor, _, veredicto, salida = self._vigilado(accion, funcion or "Tu código")
        if funcion is not None:
            valor = _plano(valor)
            _aplanar_en_su_sitio(args)
        return _Hecho(valor, veredicto, salida)

    def funcion(self, nombre):
        """La función `nombre` del lector, cargada una vez en un espacio nuevo (lanza Veredicto
        si el código no carga), envuelta para correr con límite y salida capturada. Devuelve lo
        que devuelva; lanza la excepción del propio lector, o un Veredicto si se pasó de tiempo
        o de salida. `__wrapped__` es la función del lector (la grabadora de trazas la usa) y
        `espacio`, su espacio de nombres (una prueba puede cambiar ahí lo que la función usa,
        como FUNCIONES). Una excepción del lector que la prueba deja salir cuenta como su error,
        con su línea (ver `_probar`)."""
        ns = self.llamar(None).resultado()
        f = ns[nombre]

        def llamada(*args):
            recibidos = _para_el_lector(args)
            valor, error, veredicto, _ = self._vigilado(lambda: f(*recibidos), nombre)
            _aplanar_en_su_sitio(args)
            propio = veredicto is not None and veredicto.datos["tipo"] in ("tiempo", "salida")
            if propio or (veredicto is not None and error is None):
                raise veredicto.with_traceback(getattr(error, "__traceback__", None))
            if error is not None:
                self.lanzada = (error, veredicto)
                raise error
            return _plano(valor)

        llamada.__name__ = nombre
        llamada.__wrapped__ = f
        llamada.espacio = ns
        return llamada

    def _vigilado(self, accion, quien):
        """(valor, excepción del lector, su Veredicto, salida) de correr accion() con límite de
        tiempo, la salida capturada y lo que el lector pudiera cambiar, restaurado."""
        salida = _Salida()
        guardia = _Guardia()
        valor = error = veredicto = None
        _sys.stdout = _sys.stderr = salida
        _sys.stdin = _io.StringIO("")
        self.vigia.armar(self.limite)
        try:
            with _Murado():
                valor = accion()
        except KeyboardInterrupt:
            raise  # la página pidió parar: no es cosa del lector
        except BaseException as e:  # lo que haga el código del lector es una observación
            error = e
            veredicto = _veredicto(e, self.fuente, quien, self.vigia, salida, self.limite)
        finally:
            self.vigia.desarmar()
            guardia.restaurar()
        if veredicto is None and self.vigia.agotado:  # atrapó _SinTiempo y siguió
            veredicto = _sin_tiempo(quien, self.limite)
        if veredicto is None and salida.inundado:  # atrapó _Inundacion y siguió
            veredicto = _inundacion(quien)
        if veredicto is not None and veredicto.datos["tipo"] == "tiempo":
            self.agotado = True
        self.salidas.append(salida.texto())
        return valor, error, veredicto, salida.texto()


def _url(desafio, archivo):
    return f"{FUENTES['desafios']}{desafio}/{archivo}"


def _a_escribir(desafio):
    """{nombre: parámetros} de las funciones que escribe el lector."""
    return _espacio_de_pruebas(desafio, nuevo=False)["A_ESCRIBIR"]


def _espacio_de_pruebas(desafio, nuevo=True):
    """Las pruebas en su propio espacio, con su copia del runtime, hecho antes de que corra el
    lector. nuevo=False reutiliza el último (solo para leer sus constantes)."""
    if nuevo or desafio not in _PRUEBAS:
        ns = {"__name__": "pruebas", "Fallo": Fallo, "opaca": _opaca}
        # usar(ruta), como en widgets/calificador: mientras la página use este archivo.
        ns["usar"] = lambda ruta: exec(_codigo(FUENTES["desafios"] + ruta, ruta), ns)
        for nombre in RUNTIME:
            exec(_codigo(FUENTES["runtime"] + nombre + ".py", f"runtime/{nombre}.py"), ns)
        exec(_codigo(_url(desafio, "pruebas.py"), f"{desafio}/pruebas.py"), ns)
        _PRUEBAS[desafio] = ns
    return _PRUEBAS[desafio]


def _cargar(envio):
    """Comprueba que el código se carga y define lo que debe: None o el Veredicto."""
    hecho = envio.llamar(None)
    if hecho.error is not None:
        return hecho.error
    ns = hecho.valor
    for nombre, parametros in _a_escribir(envio.desafio).items():
        firma = f"{nombre}({', '.join(parametros)})"
        f = ns.get(nombre)
        if not callable(f):
            return Veredicto("falta", f"Tu código no define la función {nombre}: escribe "
                             f"def {firma}: …")
        codigo = getattr(f, "__code__", None)
        linea = codigo.co_firstlineno if codigo and codigo.co_filename == ARCHIVO else None
        try:
            _inspect.signature(f).bind(*parametros)
        except (TypeError, ValueError):
            en = f" (línea {linea})" if linea else ""
            return Veredicto("firma", f"{nombre} debe recibir {len(parametros)} argumentos, "
                             f"{firma}, y la tuya{en} es {nombre}{_firma(f)}.", linea)
    return None


def _firma(f):
    try:
        return str(_inspect.signature(f))
    except (TypeError, ValueError):
        return "(…)"


def _error_de_sintaxis(error, fuente):
    linea = error.lineno
    tipo = "de sangría" if isinstance(error, IndentationError) else "de sintaxis"
    donde = f" en la línea {linea}" if linea else ""
    return Veredicto("sintaxis", f"Tu código tiene un error {tipo}{donde}: {error.msg}."
                     f"{_cita(fuente, linea)}", linea)


# ------------------------------------------------------------------ calificar


def calificar(desafio, codigo, limite=None, al_empezar=None, al_acabar=None, traza=None):
    """Corre las pruebas de `desafio` contra `codigo` (un texto). Devuelve un dict JSON-able:

    {"desafio", "superadas", "total", "segundos",
     "error": None o {"tipo", "mensaje", "linea"}  (el código no se pudo cargar),
     "pruebas": [{"nombre", "ok", "tipo", "mensaje", "linea", "turno", "salida", "traza"}]}

    tipo de una prueba: "ok"; "fallo" (incumple el contrato; `turno` es la llamada al modelo
    en la que se vio, si se sabe); "error", "tiempo", "salida", "exit", "recursion" (el código
    del lector no acabó bien; `linea` es la suya); "no-probada"; "interno" (un fallo de la
    prueba misma, no del lector). Si se dan, `al_empezar(nombre)` se llama antes de cada prueba
    y `al_acabar(resultado)` después, con el dict de esa prueba.

    `traza`, si se da, es el gancho de «Ver tu traza»: para cada prueba que falla por incumplir
    el contrato o por un error (no si se pasó de tiempo) se llama
    ``traza(funcion, *argumentos(desafio, nombre))``, con la función del lector (ver
    `Envio.funcion`) y los argumentos de esa prueba, nuevos; con ``trazar`` de trazas.py,
    ``traza(bucle, modelo, inicio, entorno, tope)``. Lo que devuelva queda en "traza" (None
    si lanza).
    """
    inicio = _time.perf_counter()
    lista = list(_espacio_de_pruebas(desafio)["PRUEBAS"])
    resultados = []
    try:
        envio = Envio(desafio, codigo, limite)
    except SyntaxError as e:
        error = _error_de_sintaxis(e, codigo)
    else:
        error = _cargar(envio)
    if error is not None:
        motivo = "no se probó: tu código no se pudo cargar" + (
            f" (línea {error.datos['linea']})" if error.datos["linea"] else "")
        resultados = [_resultado(nombre, "no-probada", motivo) for nombre, _ in lista]
    else:
        agotada = None
        for nombre, prueba in lista:
            if agotada is not None:
                resultados.append(_resultado(nombre, "no-probada",
                                             f"no se probó: «{agotada}» no terminó"))
                continue
            if al_empezar is not None:
                al_empezar(nombre)
            resultados.append(_probar(nombre, prueba, envio))
            if traza is not None and resultados[-1]["tipo"] in ("fallo", "error"):
                resultados[-1]["traza"] = _trazar(traza, desafio, nombre, envio)
            if al_acabar is not None:
                al_acabar(resultados[-1])
            if envio.agotado:
                agotada = nombre
    return {
        "desafio": desafio,
        "superadas": sum(1 for r in resultados if r["ok"]),
        "total": len(resultados),
        "segundos": round(_time.perf_counter() - inicio, 3),
        "error": None if error is None else error.datos,
        "pruebas": resultados,
    }


def _probar(nombre, prueba, envio):
    envio.salidas = []
    envio.lanzada = None
    try:
        prueba(envio)
        r = _resultado(nombre, "ok", None)
    except Fallo as f:
        r = _resultado(nombre, "fallo", f.mensaje, turno=f.turno)
    except Veredicto as v:
        r = _resultado(nombre, v.datos["tipo"], v.datos["mensaje"], linea=v.datos["linea"])
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        lanzada, envio.lanzada = envio.lanzada, None
        if lanzada is not None and lanzada[0] is e:
            # La lanzó la función del lector (ver Envio.funcion) y la prueba no la esperaba.
            v = lanzada[1]
            r = _resultado(nombre, v.datos["tipo"], v.datos["mensaje"], linea=v.datos["linea"])
        elif isinstance(e, Exception):  # un fallo de la prueba: que se vea, sin culpar al lector
            r = _resultado(nombre, "interno", f"error interno de la prueba (no es culpa de tu "
                           f"código): {type(e).__name__}: {e}")
        else:
            raise
    r["salida"] = "".join(envio.salidas)
    return r


def _resultado(nombre, tipo, mensaje, linea=None, turno=None):
    return {"nombre": nombre, "ok": tipo == "ok", "tipo": tipo, "mensaje": mensaje,
            "linea": linea, "turno": turno, "salida": "", "traza": None}


def _trazar(traza, desafio, nombre, envio):
    """Lo que devuelve traza(caso, función del lector), sin que nada de ello cambie la nota."""
    agotado, salidas = envio.agotado, envio.salidas
    try:
        funcion = next(iter(_a_escribir(desafio)))
        argumentos = _espacio_de_pruebas(desafio, nuevo=False)["argumentos"](nombre)
        return traza(envio.funcion(funcion), *argumentos)
    except KeyboardInterrupt:
        raise
    except BaseException:  # la grabadora es un extra: si falla, el resultado queda igual
        return None
    finally:
        envio.agotado, envio.salidas = agotado, salidas


# ------------------------------------------------------- para «Ver tu traza»


def nombres(desafio):
    """Los nombres de las pruebas, en orden."""
    return [nombre for nombre, _ in _espacio_de_pruebas(desafio)["PRUEBAS"]]


def datos(desafio):
    """Lo que la página enseña de un desafío: {"pruebas": nombres, "pista", "limite",
    "a_escribir": {nombre: parámetros}}."""
    ns = _espacio_de_pruebas(desafio)
    return {"pruebas": [nombre for nombre, _ in ns["PRUEBAS"]], "pista": ns["PISTA"],
            "limite": LIMITE, "a_escribir": {k: list(v) for k, v in ns["A_ESCRIBIR"].items()}}


def caso(desafio, nombre):
    """Los datos de la prueba `nombre`: un dict con guion, inicio, entorno y tope, y lo
    esperado (llamadas, motivo, texto, M, entorno_final). JSON-able."""
    return _copy_mod.deepcopy(_espacio_de_pruebas(desafio)["caso"](nombre))


def argumentos(desafio, nombre):
    """Los argumentos, nuevos, con los que la prueba `nombre` llama a la función del lector:
    para «bucle-con-tope», (modelo, inicio, entorno, tope), con un modelo que sigue su guion."""
    return _espacio_de_pruebas(desafio)["argumentos"](nombre)


def preparar(desafio, codigo, limite=None):
    """El código del lector, compilado y comprobado (lanza Veredicto si no carga o no define
    lo que debe): ``preparar(id, codigo).funcion("bucle")`` es su función (ver
    `Envio.funcion`)."""
    try:
        envio = Envio(desafio, codigo, limite)
    except SyntaxError as e:
        raise _error_de_sintaxis(e, codigo) from None
    error = _cargar(envio)
    if error is not None:
        raise error
    return envio
