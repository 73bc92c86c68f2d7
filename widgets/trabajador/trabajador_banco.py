"""The bench half of the page's worker (lesson «Medir el agente»): what «Medir» runs, and the
record of each run.

Plain Python, unchanged in CPython and in Pyodide. Two parts:

- The runner: ``medir(...)`` runs a task set N times with one or two agents («variantes») of the
  page's namespace against a model maker (``hacer_modelo(tarea, semilla) -> modelo``), one run at
  a time, and tells the page each finished run at once (``_avisar``), so that a stop that has to
  restart the worker loses none of them. One run is :func:`ejecutar_una`.

  First it tells the measurement's header, the recording's keys but its runs: ``modelo``
  (``{"nombre", "sha256"}``: the maker's own ``nombre`` and ``sha256`` attributes, else its name
  in the page and None), ``temperatura`` (the maker's, or None), ``semillas``, ``tope``,
  ``variantes``, ``tareas`` (``{"tipo", "pedido"}`` each). A run's record::

    {"variante", "tarea" (index), "tipo", "pedido", "semilla", "motivo" (one of MOTIVOS),
     "turnos" (assistant messages in M), "tokens" (the model's ``.tokens`` after the run, or
     None), "segundos", "final" (str or None), "error" (Spanish, or None), "M" ([rol, contenido]
     pairs as JSON; for a run that raised, the last M the model saw, with its answer if it gave one)}

- The summary: ``trabajador_banco_resumen.py`` (:func:`wilson`, :func:`resumir`, :func:`pareo`,
  :func:`vista`, :func:`svg`), pure functions of the records that the build shares, imported
  here: the worker writes both files side by side, the build imports them from this package.

The texts here are the reader's (Spanish); they live beside the code that writes them because
the worker carries only the worker's files.
"""

import functools
import json
import math
import re
import time

try:  # the build: widgets.trabajador
    from .trabajador import avisar
    from .trabajador_banco_resumen import MOTIVOS, pareo, resumir, svg, vista, wilson
except ImportError:  # the worker: the files side by side, top-level modules
    from trabajador import avisar
    from trabajador_banco_resumen import MOTIVOS, pareo, resumir, svg, vista, wilson

__all__ = ["MOTIVOS", "ejecutar_una", "lineas_de", "medir", "pareo", "resumir", "svg", "vista",
           "wilson"]

#: The runs per task a reader may ask for (the page's lib/banco-medida.js says the same:
#: tests/test_trabajador_banco.py).
VECES_MAXIMAS = 1000
#: Seconds a run of the reader's agent may take by default (the model's calls do not count).
LIMITE = 10.0
#: How often (s) a run's message also carries the summary so far.
CADA = 0.25

ESPACIO = {}  # the cells' namespace (trabajador.py's ESPACIO), set by preparar
_CELDA = re.compile(r"^<celda \d+>$")


def preparar(espacio):
    """The worker hands the cells' namespace (the same dict for the worker's life)."""
    global ESPACIO
    ESPACIO = espacio


#: Post ``{"id", "type": "banco", **datos}`` to the page now: the cells half's ``avisar``.
_avisar = functools.partial(avisar, "banco")


class Falta(Exception):
    """A name the bench needs is not in the namespace yet (a cell has not run)."""

    def __init__(self, nombre):
        super().__init__(nombre)
        self.nombre = nombre


class NoVale(Exception):
    """What the reader must fix before the bench can run, said in Spanish."""


# ---------------------------------------------------------------------------------- the runner

def medir_mensaje(texto):
    """The worker's entry point: the page's request as JSON; the answer as JSON text."""
    m = json.loads(texto)
    return json.dumps(medir(m["id"], ESPACIO, m["tareas"], m["variantes"], m["modelo"],
                            m["veces"], m.get("tope"), m.get("limite", LIMITE)),
                      ensure_ascii=False)


def medir(id, espacio, tareas, variantes, modelo, veces, tope=None, limite=LIMITE):
    """Run the bench; tell the page ``{"evento": "empieza", …}`` and then each run; return
    ``{"estado": "ok" | "detenido", "resumen", "vista", "segundos"}``, or ``{"estado": "falta",
    "nombre"}`` / ``{"estado": "no-vale", "mensaje"}`` when nothing could run. A stop (the page's
    interrupt) ends it as "detenido" with the runs finished so far."""
    try:
        plan = _preparar_medida(espacio, tareas, variantes, modelo, veces)
    except Falta as falta:
        return {"estado": "falta", "nombre": falta.nombre}
    except NoVale as error:
        return {"estado": "no-vale", "mensaje": str(error)}
    lista, agentes, hacer, usuario = plan
    muestra = espacio.get("muestra")
    vigia = _vigia(espacio, agentes.values()) if limite else None
    # The model as the recording names it: what its maker says of it (the page's model can say
    # its file and SHA-256), else its name in the page.
    cabecera = {"modelo": {"nombre": _texto(getattr(hacer, "nombre", modelo)),
                           "sha256": getattr(hacer, "sha256", None)},
                "temperatura": getattr(hacer, "temperatura", None),
                "semillas": list(range(veces)), "tope": tope, "variantes": list(variantes),
                "tareas": [{"tipo": _texto(getattr(t, "tipo", None)), "pedido": _texto(t.pedido)}
                           for t in lista]}
    total = len(lista) * veces * len(variantes)
    hechas, inicio, ultimo = [], time.perf_counter(), time.perf_counter()
    estado = "ok"
    try:
        _avisar(id, evento="empieza", total=total, **cabecera)
        # Task by task and seed by seed, both variants in turn: a stop leaves them comparable.
        for t, tarea in enumerate(lista):
            for semilla in range(veces):
                for nombre in variantes:
                    r = ejecutar_una(agentes[nombre], nombre, hacer, modelo, tarea, t, semilla,
                                     usuario, tope, vigia, limite)
                    hechas.append({k: v for k, v in r.items() if k != "M"})
                    extra = {}
                    if time.perf_counter() - ultimo >= CADA:
                        ultimo = time.perf_counter()
                        extra["vista"] = vista(resumir(hechas, variantes))
                    _avisar(id, evento="ejecucion", ejecucion=r, lineas=lineas_de(r["M"], muestra),
                            **extra)
    except KeyboardInterrupt:
        estado = "detenido"
    resumen = resumir(hechas, variantes)
    return {"estado": estado, "resumen": resumen, "vista": vista(resumen),
            "segundos": round(time.perf_counter() - inicio, 3)}


def _preparar_medida(espacio, tareas, variantes, modelo, veces):
    if isinstance(veces, bool) or not isinstance(veces, int) or not 1 <= veces <= VECES_MAXIMAS:
        raise NoVale(f"Las ejecuciones por tarea deben ser un número entero de 1 a "
                     f"{VECES_MAXIMAS}, y son {veces!r}.")
    agentes = {n: _funcion(espacio, n, "una variante (un agente)") for n in variantes}
    hacer = _funcion(espacio, modelo, "un hacer_modelo(tarea, semilla)")
    usuario = _funcion(espacio, "usuario", "usuario(tarea), de runtime/banco.py")
    try:
        lista = eval(compile(tareas, "<tareas del banco>", "eval"), espacio)
    except NameError as error:
        raise Falta(getattr(error, "name", None) or str(error)) from None
    except SyntaxError as error:
        raise NoVale(f"«{tareas}» no es una expresión de Python: {error.msg}.") from None
    except Exception as error:  # noqa: BLE001 - the reader's expression, told in Spanish
        raise NoVale(f"Al calcular las tareas, «{tareas}» lanzó {_error(error)}.") from None
    try:
        lista = list(lista)
    except TypeError:
        raise NoVale(f"«{tareas}» debe dar una lista de tareas, y da {_corto(lista)}.") from None
    if not lista:
        raise NoVale(f"«{tareas}» no da ninguna tarea.")
    for i, tarea in enumerate(lista):
        falta = [a for a in ("pedido", "entorno", "comprobar") if not hasattr(tarea, a)]
        if falta:
            raise NoVale(f"La tarea {i} ({_corto(tarea)}) no es una tarea del banco: le falta "
                         + ", ".join(f".{a}" for a in falta) + ".")
    return lista, agentes, hacer, usuario


def _funcion(espacio, nombre, que):
    if nombre not in espacio:
        raise Falta(nombre)
    valor = espacio[nombre]
    if not callable(valor):
        raise NoVale(f"{nombre} debería ser {que}, y es {type(valor).__name__}: {_corto(valor)}.")
    return valor


class _Modelo:
    """The run's model, as the agent gets it: it notes the last M it received and its answer
    (what a run that raised keeps as its M), whether an error came out of it, and pauses the
    agent's time limit while it thinks. Any other attribute is the model's own (``.tokens``…)."""

    def __init__(self, modelo, vigia):
        self._modelo, self._vigia = modelo, vigia
        self._M, self._respuesta, self._error = None, None, None

    def __call__(self, *args, **kwargs):
        self._M, self._respuesta = (args[0] if args else kwargs.get("M")), None
        fin = self._vigia.fin if self._vigia else None
        if fin is not None:
            self._vigia.fin = math.inf
        antes = time.perf_counter()
        try:
            self._respuesta = self._modelo(*args, **kwargs)
        except Exception as error:
            self._error = error
            raise
        finally:
            if fin is not None:
                self._vigia.fin = fin + (time.perf_counter() - antes)
        return self._respuesta

    def __getattr__(self, nombre):
        return getattr(self._modelo, nombre)


def ejecutar_una(agente, variante, hacer, nombre_modelo, tarea, t, semilla, usuario, tope=None,
                 vigia=None, limite=LIMITE):
    """One run of ``agente`` on task ``t`` with ``hacer(tarea, semilla)``: its record (above).
    Whatever the agent, the model or the check raise (an exception, the time limit, a
    sys.exit()) makes the run's motivo "error", with a Spanish message; a KeyboardInterrupt goes
    up (a stop)."""
    registro = {"variante": variante, "tarea": t, "tipo": _texto(getattr(tarea, "tipo", None)),
                "pedido": _texto(tarea.pedido), "semilla": semilla, "motivo": "error",
                "turnos": 0, "tokens": None, "segundos": 0.0, "final": None, "error": None,
                "M": []}
    entorno = dict(tarea.entorno)
    try:
        modelo = hacer(tarea, semilla)
    except Exception as error:  # noqa: BLE001
        registro["error"] = f"{nombre_modelo}(tarea, semilla) lanzó {_error(error)}"
        return registro
    envuelto = _Modelo(modelo, vigia)
    argumentos = {"tope": tope} if tope is not None and _acepta_tope(agente) else {}
    inicio = time.perf_counter()
    devuelto = None
    try:
        try:
            if vigia:
                vigia.armar(limite)
            devuelto = agente(envuelto, tarea.pedido, entorno, usuario(tarea), **argumentos)
        finally:
            if vigia:
                vigia.desarmar()
    except KeyboardInterrupt:  # the page's stop (or the reader's own: it stops the bench too)
        raise
    except BaseException as error:  # noqa: BLE001 - the reader's agent, the model, a sys.exit()
        if type(error).__name__ == "SinTiempo":  # the time limit (limites.SinTiempo)
            registro["error"] = _sin_tiempo(variante, limite)
        else:
            quien = "el modelo" if error is envuelto._error else variante
            registro["error"] = f"{quien} lanzó {_error(error)}"
    registro["segundos"] = round(time.perf_counter() - inicio, 6)
    registro["tokens"] = _tokens(modelo)
    if registro["error"] is None:
        _terminar(registro, devuelto, variante, tarea, entorno)
    if registro["error"] is not None:
        M = list(envuelto._M) if isinstance(envuelto._M, (list, tuple)) else []
        if envuelto._respuesta is not None:
            M.append(("asistente", envuelto._respuesta))
        registro["M"] = _a_json(M)
        registro["motivo"] = "error"
    registro["turnos"] = sum(1 for m in registro["M"]
                             if isinstance(m, list) and len(m) == 2 and m[0] == "asistente")
    return registro


def _terminar(registro, devuelto, variante, tarea, entorno):
    """The motivo of a run whose agent returned ``devuelto``."""
    if not (isinstance(devuelto, (tuple, list)) and len(devuelto) == 3):
        registro["error"] = f"{variante} devolvió {_corto(devuelto)}, no (como, final, M)"
        return
    como, final, M = devuelto
    if como not in ("fin", "tope"):
        registro["error"] = f"{variante} devolvió como={_corto(como)}; se esperaba \"fin\" o \"tope\""
        return
    registro["M"] = _a_json(list(M) if isinstance(M, (list, tuple)) else [])
    registro["final"] = None if final is None else _texto(final)
    if como == "tope":
        registro["motivo"] = "tope"
        return
    try:
        hecha = tarea.comprobar(entorno, final)
    except Exception as error:  # noqa: BLE001 - the task's check, told apart
        registro["error"] = f"la comprobación de la tarea lanzó {_error(error)}"
        return
    registro["motivo"] = "resuelta" if hecha else "equivocada"


def _acepta_tope(agente):
    import inspect

    try:
        parametros = inspect.signature(agente).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "tope" or p.kind is p.VAR_KEYWORD for p in parametros)


def _tokens(modelo):
    valor = getattr(modelo, "tokens", None)
    return valor if isinstance(valor, int) and not isinstance(valor, bool) else None


def _limites():
    """The grader's limits module (its watchdog and its texts), or None without it."""
    import importlib

    for paquete in ("calificador", "widgets.calificador"):
        try:
            return importlib.import_module(f"{paquete}.limites")
        except ImportError:
            continue
    return None


def _sin_tiempo(variante, limite):
    limites = _limites()
    if limites is not None:
        return limites.sin_tiempo(variante, limite)
    return f"{variante} no terminó en {limite:g} s: ¿falta el tope?"


def _vigia(espacio, agentes):
    """The grader's watchdog (limites.Vigia) over the reader's code: every function and method
    the cells defined, and the agents; None without the grader."""
    limites = _limites()
    if limites is None:
        return None
    codigos, archivos = {}, []

    def anadir(f, siempre=False):
        for _ in range(10):  # a wrapper names what it wraps (functools.wraps)
            if not callable(getattr(f, "__wrapped__", None)):
                break
            f = f.__wrapped__
        codigo = getattr(getattr(f, "__func__", f), "__code__", None)
        if codigo is None or not (siempre or _CELDA.match(codigo.co_filename)):
            return
        archivos.append(codigo.co_filename)
        for c in limites.codigos(codigo):
            codigos[id(c)] = c

    for valor in list(espacio.values()):
        if isinstance(valor, type):
            for miembro in list(vars(valor).values()):
                anadir(miembro)
        elif callable(valor):
            anadir(valor)
    for agente in agentes:
        anadir(agente, siempre=True)
    return limites.Vigia(codigos.values(), archivos[-1] if archivos else "<celda>")


# -------------------------------------------------------------------------------- JSON and lines

def _a_json(x, profundidad=0, camino=()):
    """A JSON-able copy: tuples become lists, other objects their short repr."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else repr(x)
    if profundidad > 30 or id(x) in camino:
        return "…"
    if isinstance(x, dict):
        return {str(k): _a_json(v, profundidad + 1, camino + (id(x),)) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_a_json(v, profundidad + 1, camino + (id(x),)) for v in x]
    return _corto(x, 200)


def lineas_de(M, muestra=None):
    """One readable line per block of each message of ``M`` (or one for a text), with
    ``muestra`` (runtime/entorno.py's) when there is one: what the trace view shows."""
    def linea(x):
        if callable(muestra):
            try:
                return str(muestra(x))
            except Exception:  # noqa: BLE001 - a line is for reading
                pass
        return _corto(x, 80).replace("\n", "⏎")

    lineas = []
    for mensaje in M:
        contenido = mensaje[1] if isinstance(mensaje, list) and len(mensaje) == 2 else mensaje
        if isinstance(contenido, list) and contenido:
            lineas.append([linea(b) for b in contenido])
        else:
            lineas.append([linea(contenido)])
    return lineas


def _texto(x):
    return x if isinstance(x, str) or x is None else _corto(x, 200)


def _corto(x, ancho=60):
    try:
        texto = repr(x)
    except Exception:  # noqa: BLE001
        texto = f"<{type(x).__name__}>"
    return texto if len(texto) <= ancho else texto[:ancho - 1] + "…"


def _error(error):
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def resumir_mensaje(texto):
    """The worker's other entry: ``{"ejecuciones", "variantes"}`` (runs without M, after a
    restart lost the bench's own summary) → ``{"resumen", "vista"}`` as JSON text."""
    m = json.loads(texto)
    resumen = resumir(m["ejecuciones"], m["variantes"])
    return json.dumps({"resumen": resumen, "vista": vista(resumen)}, ensure_ascii=False)
