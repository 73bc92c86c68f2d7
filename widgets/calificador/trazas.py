"""Traces of an agent loop: what the model received, what it answered, what ran, how it ended.

A module of the grading engine (plain Python, stdlib only, unchanged in CPython and in Pyodide);
the ``traza`` directive records the reference loop with it at build time, the worker records the
reader's loop for «Ver tu traza». One call records one run::

    traza = trazar(bucle, modelo, inicio, entorno, tope,
                   funciones=FUNCIONES, muestra=muestra)

runs ``bucle(modelo, inicio, entorno, tope)`` with the model and the tool functions wrapped, and
returns a JSON-able dict. It works on any loop, a reader's buggy one included: the model wrapper
snapshots the M it receives (a deep, JSON-able copy) and its response; the tool wrappers record
each executed call, its result and its effect on ``entorno`` (a per-file diff); an exception
raised by the loop becomes the last event (any BaseException, a grader's time limit included,
except KeyboardInterrupt, which propagates); a run longer than ``max_eventos`` is stopped.
``funciones`` (default: the loop's global ``FUNCIONES``) is patched in place for the run, and
so are the loop's global names bound to the same functions; both are restored afterwards.
``muestra`` (default: the loop's global ``muestra``) makes one readable line per block. When
``bucle`` wraps the reader's function (a time limit), give the wrapper ``__wrapped__`` (as
``functools.wraps`` does): the defaults and the line of an exception come from that function.
With ``preguntar`` (the user of «Pedir permiso», ``preguntar(ll) -> bool``), the loop is called
as ``bucle(modelo, inicio, entorno, tope, preguntar)`` with it wrapped: each question is an event.
``pregunta`` (default: the loop's global ``pregunta``, from runtime/permisos.py) gives the text
of each question.

The trace JSON format (version ``FORMATO_TRAZA``; this docstring is its one description; the
front end, ``widgets/front/lib/traza-pasos.js``, turns it into steps)::

    {
      "formato": 1,
      "tope": 3,                            # the cap the loop was given
      "entorno": {"lista.txt": "pan, …"},   # the environment before the run (path → text;
                                            # a folder environment: its text files, ficheros())
      "mensajes": [                         # each distinct message seen, once
        {"rol": "sistema",                  # null when the item is not a (rol, contenido) pair
         "contenido": "Eres un …",          # a string or a list of blocks, as JSON
         "lineas": ["«Eres un …»"]},        # one `muestra` line per block (or for the text)
        …
      ],
      "inicio": [0, 1],                     # the start messages given to the loop
      "eventos": [ …, final event ],        # in the order they happened (see below)
      "entorno_final": {…}                  # the environment after the run
    }

A list of messages (an M) is a list of indices into ``mensajes``: two positions holding equal
messages hold the same index. Where a list is cut at 300 items, ``n`` says how many there were.

Events (``turno`` is the number of model calls made so far; calls of turn k follow its model
event)::

    {"tipo": "modelo", "turno": 2, "M": [0, 1, 2, 3], "n": 4,
     "herramientas": ["listar", …],       # names of the tool definitions passed (or null)
     "respuesta": 4}                      # the index of ("asistente", response) in mensajes,
                                          # whether or not the loop then puts it in M;
                                          # or "error": {"clase", "mensaje"} if the model raised
    {"tipo": "llamada", "turno": 2, "id": "t2",   # the tool_use id of the last response with
                                                  # this name and input (null if none matches)
     "nombre": "leer", "entrada": {"ruta": "recetas/gazpacho.txt"},
     "linea": "llamada t2 leer(ruta='recetas/gazpacho.txt')",
     "resultado": "Gazpacho: …", "linea_resultado": "«Gazpacho: …»",
                                          # or "error": {"clase", "mensaje"} if the tool raised
     "cambios": [{"ruta": "lista.txt", "antes": "…", "despues": "…"}]}
                                          # antes null: created; despues null: deleted;
                                          # "posicionales": [...] if called with more than
                                          # the environment as positional arguments
    {"tipo": "permiso", "turno": 2, "id": "p3",   # the harness asked the user (only with
     "nombre": "escribir", "entrada": {…},       # ``preguntar``); id, nombre, entrada and
     "linea": "llamada p3 escribir(…)",          # linea of the call it was asked about
     "pregunta": "¿Permites escribir lista.txt?",  # null without ``pregunta``
     "permitido": true}                    # what the user answered (bool of the answer),
                                          # or "error": {"clase", "mensaje"} if preguntar raised

and exactly one final event, the last one::

    {"tipo": "devuelve", "motivo": "fin", "texto": "He añadido …", "M": [...], "n": 9}
        # the loop returned (motivo, texto, M) (M null if not a list); for any other
        # value: motivo, texto and M are null and "valor" holds a short repr
    {"tipo": "excepcion", "clase": "GuionRoto", "mensaje": "En el turno 2 …", "linea": 14}
        # the loop raised; linea: the last line of the loop's own file in the traceback
    {"tipo": "cortada", "eventos": 300}
        # the run reached max_eventos and was stopped

Each final event also has ``cambios``: changes to ``entorno`` made outside any recorded call.
"""

import json

FORMATO_TRAZA = 1


class TrazaLlena(BaseException):
    """Stops a run whose trace is full. A BaseException, so that a loop's ``except Exception``
    cannot swallow it and keep going."""


def trazar(bucle, modelo, inicio, entorno, tope, funciones=None, muestra=None, max_eventos=300,
           preguntar=None, pregunta=None):
    """Run ``bucle(modelo, inicio, entorno, tope)`` (with ``preguntar`` after them, if given)
    and return its trace (format above)."""
    trazador = _Trazador(bucle, entorno, funciones, muestra, max_eventos, pregunta)
    return trazador.correr(modelo, inicio, tope, preguntar)


class _Valores:
    """How a trace keeps the values it sees: JSON-able copies, cut to size, and errors."""

    MAX_LISTA = 300      # items kept of a list (an M, a response)
    MAX_TEXTO = 20000    # characters kept of a string
    MAX_PROFUNDIDAD = 30
    MAX_NODOS = 20000    # lists and dicts visited in one value

    def _json(self, x):
        """A JSON-able deep copy of x: tuples become lists, other objects their repr. Cycles,
        depth and sheer size are cut with "…" (a reader's M may hold anything)."""
        self.presupuesto = self.MAX_NODOS
        return self._json_de(x, set())

    def _json_de(self, x, camino):
        if x is None or isinstance(x, (bool, int)):
            return x
        if isinstance(x, float):
            return x if x == x and x not in (float("inf"), float("-inf")) else repr(x)
        if isinstance(x, str):
            return x if len(x) <= self.MAX_TEXTO else x[:self.MAX_TEXTO] + "…"
        self.presupuesto -= 1
        if id(x) in camino or len(camino) >= self.MAX_PROFUNDIDAD or self.presupuesto < 0:
            return "…"
        if isinstance(x, (list, tuple, dict)):
            camino = camino | {id(x)}
            if isinstance(x, dict):
                return {str(k): self._json_de(v, camino) for k, v in list(x.items())[:self.MAX_LISTA]}
            return [self._json_de(e, camino) for e in list(x)[:self.MAX_LISTA]]
        return self._repr(x, 200)

    def _error(self, error):
        try:
            mensaje = str(error)
        except Exception:  # noqa: BLE001
            mensaje = ""
        return {"clase": type(error).__name__, "mensaje": self._json(mensaje)}

    @staticmethod
    def _nombres(herramientas):
        if not isinstance(herramientas, (list, tuple)):
            return None
        return [h.get("name") if isinstance(h, dict) else None for h in herramientas]

    @classmethod
    def _repr(cls, x, ancho):
        try:
            return cls._corta(repr(x), ancho)
        except Exception:  # noqa: BLE001 - a broken __repr__ is still recorded
            return f"<{type(x).__name__}>"

    @staticmethod
    def _corta(s, ancho):
        return s if len(s) <= ancho else s[:ancho - 1] + "…"


class _Trazador(_Valores):
    """Records one run."""

    def __init__(self, bucle, entorno, funciones, muestra, max_eventos, pregunta=None):
        self.bucle = bucle
        # A wrapper (a grader's time limit) names the loop it wraps in __wrapped__, as
        # functools.wraps does: the loop's own namespace and file are that function's.
        self.interior = bucle
        for _ in range(10):
            if not callable(getattr(self.interior, "__wrapped__", None)):
                break
            self.interior = self.interior.__wrapped__
        globales = getattr(self.interior, "__globals__", {})
        self.entorno = entorno
        self.funciones = funciones if funciones is not None else globales.get("FUNCIONES")
        self.muestra = muestra if muestra is not None else globales.get("muestra")
        self.pregunta = pregunta if pregunta is not None else globales.get("pregunta")
        self.max_eventos = max_eventos
        self.mensajes = []
        self.claves = {}
        self.eventos = []
        self.turno = 0
        self.pendientes = []      # tool_use blocks of the last response not yet matched
        self.estado = self._foto()

    # ---------------------------------------------------------------- the run

    def correr(self, modelo, inicio, tope, preguntar=None):
        traza = {
            "formato": FORMATO_TRAZA,
            "tope": self._json(tope),
            "entorno": dict(self.estado),
            "mensajes": self.mensajes,
            "inicio": self._lista_de_mensajes(inicio)[0],
            "eventos": self.eventos,
        }
        parches = self._parchear()
        try:
            argumentos = (self._modelo(modelo), inicio, self.entorno, tope)
            if preguntar is not None:
                argumentos += (self._preguntar(preguntar),)
            valor = self.bucle(*argumentos)
        except TrazaLlena:
            final = {"tipo": "cortada", "eventos": self.max_eventos}
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: BLE001 - a grader's time limit too: keep the trace
            final = {"tipo": "excepcion", **self._error(error), "linea": self._linea_en_bucle(error)}
        else:
            final = self._devuelve(valor)
        finally:
            for dicc, clave, original in reversed(parches):
                dicc[clave] = original
        final["cambios"] = self._cambios()
        self.eventos.append(final)
        traza["entorno_final"] = dict(self.estado)
        return traza

    def _cuenta(self):
        if len(self.eventos) >= self.max_eventos:
            raise TrazaLlena(f"la traza pasó de {self.max_eventos} eventos")

    def _modelo(self, modelo):
        def modelo_trazado(*args, **kwargs):
            self._cuenta()
            self.turno += 1
            M = args[0] if args else kwargs.get("M")
            herramientas = args[1] if len(args) > 1 else kwargs.get("herramientas")
            indices, n = self._lista_de_mensajes(M)
            evento = {"tipo": "modelo", "turno": self.turno, "M": indices, "n": n,
                      "herramientas": self._nombres(herramientas)}
            self.eventos.append(evento)
            self.pendientes = []
            try:
                respuesta = modelo(*args, **kwargs)
            except Exception as error:
                evento["error"] = self._error(error)
                raise
            evento["respuesta"] = self._mensaje(("asistente", respuesta))
            if isinstance(respuesta, (list, tuple)):
                self.pendientes = [b for b in respuesta
                                   if isinstance(b, dict) and b.get("type") == "tool_use"]
            return respuesta

        return modelo_trazado

    def _herramienta(self, nombre, funcion):
        def herramienta_trazada(*args, **kwargs):
            self._cuenta()
            bloque = self._empareja(nombre, kwargs)
            ident = bloque.get("id") if bloque else None
            evento = {"tipo": "llamada", "turno": self.turno, "id": self._json(ident),
                      "nombre": nombre, "entrada": self._json(kwargs),
                      "linea": self._linea(bloque or {"type": "tool_use", "id": None,
                                                      "name": nombre, "input": kwargs})}
            if len(args) > 1:
                evento["posicionales"] = self._json(list(args[1:]))
            self.eventos.append(evento)
            try:
                valor = funcion(*args, **kwargs)
            except Exception as error:
                evento["error"] = self._error(error)
                raise
            finally:
                evento["cambios"] = self._cambios()
            evento["resultado"] = self._json(valor)
            evento["linea_resultado"] = self._linea(valor)
            return valor

        herramienta_trazada.__name__ = getattr(funcion, "__name__", str(nombre))
        herramienta_trazada.__wrapped__ = funcion
        return herramienta_trazada

    def _preguntar(self, preguntar):
        def preguntar_trazado(ll, *args, **kwargs):
            self._cuenta()
            bloque = ll if isinstance(ll, dict) else {}
            evento = {"tipo": "permiso", "turno": self.turno, "id": self._json(bloque.get("id")),
                      "nombre": self._json(bloque.get("name")),
                      "entrada": self._json(bloque.get("input")), "linea": self._linea(ll),
                      "pregunta": None}
            if callable(self.pregunta):
                try:
                    evento["pregunta"] = str(self.pregunta(ll))
                except Exception:  # noqa: BLE001 - the text is for reading; never fail the trace
                    pass
            self.eventos.append(evento)
            try:
                valor = preguntar(ll, *args, **kwargs)
            except Exception as error:
                evento["error"] = self._error(error)
                raise
            evento["permitido"] = bool(valor)
            return valor

        preguntar_trazado.__name__ = getattr(preguntar, "__name__", "preguntar")
        preguntar_trazado.__wrapped__ = preguntar
        return preguntar_trazado

    def _empareja(self, nombre, entrada):
        """The first unmatched tool_use of the last response with this name and input."""
        for i, bloque in enumerate(self.pendientes):
            if bloque.get("name") == nombre and bloque.get("input") == entrada:
                return self.pendientes.pop(i)
        return None

    def _parchear(self):
        """Wrap the tool functions where the loop can reach them; return what to restore."""
        envolturas = {}   # id(original) → (original, wrapper)
        parches = []
        if isinstance(self.funciones, dict):
            for nombre, funcion in list(self.funciones.items()):
                if callable(funcion):
                    envolturas.setdefault(id(funcion), (funcion, self._herramienta(nombre, funcion)))
                    parches.append((self.funciones, nombre, funcion))
                    self.funciones[nombre] = envolturas[id(funcion)][1]
        globales = getattr(self.interior, "__globals__", None)
        if isinstance(globales, dict) and globales is not self.funciones:
            for clave, valor in list(globales.items()):
                par = envolturas.get(id(valor))
                if par is not None and par[0] is valor:
                    parches.append((globales, clave, valor))
                    globales[clave] = par[1]
        return parches

    def _devuelve(self, valor):
        if isinstance(valor, (tuple, list)) and len(valor) == 3 and isinstance(valor[0], str):
            motivo, texto, M = valor
            indices, n = self._lista_de_mensajes(M) if isinstance(M, (list, tuple)) else (None, None)
            return {"tipo": "devuelve", "motivo": motivo, "texto": self._json(texto),
                    "M": indices, "n": n}
        return {"tipo": "devuelve", "motivo": None, "texto": None, "M": None, "n": None,
                "valor": self._repr(valor, 200)}

    # ------------------------------------------------------------- snapshots

    def _lista_de_mensajes(self, M):
        """(indices into the message table, length) for a list of messages."""
        if not isinstance(M, (list, tuple)):
            return [self._mensaje(M)], 1
        return [self._mensaje(m) for m in list(M)[:self.MAX_LISTA]], len(M)

    def _mensaje(self, m):
        if isinstance(m, (tuple, list)) and len(m) == 2 and isinstance(m[0], str):
            rol, contenido = m
        else:
            rol, contenido = None, m
        entrada = {"rol": rol, "contenido": self._json(contenido)}
        clave = json.dumps([rol, entrada["contenido"]], sort_keys=True, ensure_ascii=False)
        if clave not in self.claves:
            if rol is None:
                entrada["lineas"] = [self._linea(m)]
            else:
                entrada["lineas"] = self._lineas(contenido)
            self.claves[clave] = len(self.mensajes)
            self.mensajes.append(entrada)
        return self.claves[clave]

    def _lineas(self, contenido):
        if isinstance(contenido, (list, tuple)) and contenido:
            return [self._linea(b) for b in list(contenido)[:self.MAX_LISTA]]
        return [self._linea(contenido)]

    def _linea(self, x):
        if callable(self.muestra):
            try:
                return str(self.muestra(x))
            except Exception:  # noqa: BLE001 - a line is for reading; never fail the trace
                pass
        return self._repr(x, 80).replace("\n", "⏎")

    def _foto(self):
        """The environment as {path: text}: a dict's items, or what an environment that is a
        folder (runtime/ficheros.py's Carpeta) gives from its ``ficheros()``; else nothing."""
        entorno = self.entorno
        if not isinstance(entorno, dict) and callable(getattr(entorno, "ficheros", None)):
            try:
                entorno = entorno.ficheros()
            except Exception:  # noqa: BLE001 - a folder the loop broke: the trace goes on
                return {}
        if not isinstance(entorno, dict):
            return {}
        return {str(r): t if isinstance(t, str) else repr(t) for r, t in entorno.items()}

    def _cambios(self):
        """What changed in ``entorno`` since the last recorded state, file by file."""
        ahora = self._foto()
        cambios = [{"ruta": r, "antes": self.estado.get(r), "despues": ahora.get(r)}
                   for r in sorted(set(self.estado) | set(ahora))
                   if self.estado.get(r) != ahora.get(r)]
        self.estado = ahora
        return cambios

    def _linea_en_bucle(self, error):
        """The last line of the loop's file in the traceback of ``error`` or, when a wrapper
        re-raised it as another error, of the errors it came from."""
        archivo = getattr(getattr(self.interior, "__code__", None), "co_filename", None)
        vistos = set()
        while error is not None and id(error) not in vistos:
            vistos.add(id(error))
            linea, tb = None, error.__traceback__
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == archivo:
                    linea = tb.tb_lineno
                tb = tb.tb_next
            if linea is not None:
                return linea
            error = error.__cause__ or error.__context__
        return None
