"""Grading one submission in a child Python, whose result comes through a channel it cannot forge.

:func:`calificar` (the parent side) starts ``python -I -c …`` (the child side: :func:`.hijo.hijo`)
and hands it, on its stdin, the challenge, the code, the limits and a random key. The child
keeps that key only in a closure made before any of the reader's code runs, and sends each
step (``listo``, each test's ``empieza`` and result, the final ``resultado``) as one JSON line
signed with HMAC-SHA256 on an inherited pipe (``pass_fds``), with a sequence number. The parent
accepts only lines with the right signature and number: a submission that finds that pipe (or
writes to every fd it has) can add lines, never a signed one; it can only lose its own result.
The child's stdout and stderr are that same pipe: one stream holds, in the order the child
wrote them, its steps and everything else it wrote, which the parent counts and throws away
(that is the output limit). So a flood is told of the test that wrote it, however the parent's
reads fall. The child's exit status is only used to word a verdict, never to pass.

Whatever ends the child before its final line becomes a verdict in Spanish for the test that
was running (the parent knows it from the signed ``empieza``), and the tests after it are «no
se probó»: ``os._exit`` (at import or in a test), a signal (SIGSEGV, SIGKILL…), a closed or
replaced channel, ``KeyboardInterrupt``, and each limit, named:

- wall time per test: the engine's limit (:data:`widgets.calificador.LIMITE`), and the
  parent's watchdog, which kills the child ``MARGEN`` seconds after it (the engine's clock is
  ``sys.settrace`` in 3.11, which code that catches everything can outlive);
- CPU time of the whole submission (``RLIMIT_CPU``, :data:`CPU`);
- memory (``RLIMIT_AS``, :data:`MEMORIA`): a ``MemoryError`` is told as that limit;
- output: bytes the child writes to its own stdout/stderr or to the channel, other than the
  signed lines (:data:`SALIDA`; what ``print`` writes while a test runs is the engine's,
  capped as in the page).

While the reader's code runs, the child also refuses (as the engine's wall does, with its
``Prohibido``): ``os.fork`` (a copy of the grader, key included), starting processes, signals
to any process but itself (the parent), files under ``/proc`` and ``/dev/fd`` (its memory, its
descriptors), and changing its limits. It is not a safe (the wall's limits are the engine's):
it is that no submission can pass by ending, breaking or lying to its process. An ordinary
submission gets exactly the verdicts of ``Calificador.calificar`` in one process.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from widgets.calificador import LIMITE, Veredicto, limites, resultado as resultados
from widgets.calificador.veredictos import durante, termino_el_proceso

from . import CARPETA, calificador

#: Seconds past the engine's limit before the parent kills a child stuck in one test.
MARGEN = 3.0
#: Seconds of CPU a submission may use in all (RLIMIT_CPU).
CPU = 60
#: Bytes of memory the child may map (RLIMIT_AS).
MEMORIA = 1 << 30
#: Bytes the child may write to its own stdout and stderr (and the channel, unsigned).
SALIDA = 1 << 20
#: Seconds the child may take to start (import the engine) before it is given up on.
ARRANQUE = 60.0
#: The exit status of a child whose channel was closed or replaced (only words a verdict).
CANAL_ROTO = 113
#: Longest line accepted on the channel (bytes); a longer one is dropped.
LINEA_MAXIMA = 8 << 20

RAIZ = Path(__file__).resolve().parent.parent

# The child: isolated mode (no PYTHON* variables, no user site, no cwd on sys.path).
_HIJO = ("import sys; sys.path.insert(0, sys.argv[1]); "
         "from challenges.hijo import hijo; hijo(int(sys.argv[2]))")


class NoArranco(RuntimeError):
    """The child did not get to start grading: the command could not run (not the reader's
    doing: no code of theirs runs before the child says it is ready)."""


# ---------------------------------------------------------------- the verdicts




def _bytes(n):
    """1 << 30 → «1 GB», 512 << 20 → «512 MB»."""
    if n >= 2**30 and n % 2**30 == 0:
        return f"{n // 2**30} GB"
    if n >= 2**20 and n % 2**20 == 0:
        return f"{n // 2**20:,} MB".replace(",", " ")
    return f"{n:,} bytes".replace(",", " ")




def texto_senal(numero, actual):
    try:
        nombre = signal.Signals(numero).name
    except ValueError:
        nombre = f"número {numero}"
    return (f"el proceso murió por la señal {nombre} {durante(actual)}: tu código lo mató o "
            f"lo rompió (¿os.kill, ctypes, faulthandler?).")


def texto_cpu(cpu, actual):
    return (f"tu código gastó más de {limites.segundos(cpu)} de CPU (el límite de tiempo de CPU "
            f"de cada envío) {durante(actual)}: ¿un bucle que trabaja sin fin?")


def texto_memoria(memoria, actual=None, quien=None, donde=""):
    """The memory limit: said of the process (``actual``: the test running) or, when the
    engine caught the MemoryError, of ``quien`` (the reader's function) ``donde``."""
    cuando = f" {durante(actual)}" if quien is None else ""
    return (f"{quien or 'tu código'} se quedó sin memoria{donde}{cuando}: pasó del límite de "
            f"memoria de cada envío ({_bytes(memoria)}). ¿Una lista que crece sin fin?")


def texto_salida(salida, actual):
    return (f"tu código escribió más de {_bytes(salida)} en la salida del proceso (el límite de "
            f"salida de cada envío) {durante(actual)}: ¿un bucle sin fin que escribe?")


def texto_canal(actual):
    return (f"tu código cerró o cambió el canal por el que el calificador da su resultado "
            f"{durante(actual)}: no toques los descriptores de archivo del proceso.")


def texto_interrumpido(actual):
    return (f"tu código lanzó KeyboardInterrupt {durante(actual)}: aquí nadie lo interrumpe; "
            f"devuelve el resultado con return.")


def texto_roto(excepcion, actual):
    return (f"el calificador falló {durante(actual)} ({excepcion}): no es culpa de tu código, "
            f"o tu código lo rompió.")


_MEMORY_ERROR = re.compile(r"(.*?) lanzó MemoryError( en la línea \d+)?(?: \(dentro de \w+\))?"
                           r"[.:][^\n]*(\n    .*)?", re.S)


def _con_memoria(mensaje, memoria):
    """An engine message «X lanzó MemoryError…» told as the memory limit (None if it is not)."""
    m = _MEMORY_ERROR.fullmatch(mensaje or "")
    if m is None:
        return None
    return texto_memoria(memoria, quien=m.group(1), donde=m.group(2) or "") + (m.group(3) or "")


def nombrar_memoria(r, memoria):
    """``r`` (a result) with each MemoryError of the reader's code told as the memory limit."""
    for p in r["pruebas"]:
        if p["tipo"] == "error" and (texto := _con_memoria(p["mensaje"], memoria)):
            p["mensaje"] = texto
    if r["error"] and r["error"]["tipo"] == "error":
        if texto := _con_memoria(r["error"]["mensaje"], memoria):
            r["error"]["mensaje"] = texto
    return r


# ---------------------------------------------------------------- the parent


_CALIFICADORES: dict[str, object] = {}
_CERROJO = threading.Lock()


def _del_padre(desafio: str, carpeta: Path):
    """The parent's own Calificador of ``carpeta`` (one per process), with ``desafio``'s
    tests loaded: it only gives their names and builds the results of a cut check (it never
    sees the reader's code)."""
    with _CERROJO:
        if str(carpeta) not in _CALIFICADORES:
            _CALIFICADORES[str(carpeta)] = calificador(carpeta)
        c = _CALIFICADORES[str(carpeta)]
        c.pruebas(desafio, nuevo=False)
        return c


def nombres(desafio: str, carpeta: Path = CARPETA) -> list[str]:
    """The names of ``desafio``'s tests, in order."""
    c = _del_padre(desafio, carpeta)
    with _CERROJO:
        return [n for n, _ in c.pruebas(desafio, nuevo=False)["PRUEBAS"]]


class _Canal:
    """The parent's end of the channel, the child's one stream: lines in; only those signed with
    the key and with the next sequence number come out, in order. Every other byte is what the
    child wrote itself (``ajenos``: its output); past ``tope`` of them the channel is
    ``excedido`` and gives nothing more, so a message the child sent after a flood never counts."""

    def __init__(self, clave: bytes, tope: int):
        self.clave, self.tope = clave, tope
        self.resto = bytearray()  # a line not ended yet
        self.n = 0
        self.ajenos = 0
        self.excedido = False
        self._vacia = False  # the last line was empty: the newline a signed line starts with

    def leer(self, datos: bytes) -> list[dict]:
        if self.excedido:
            return []
        self.resto += datos
        *lineas, resto = self.resto.split(b"\n")
        self.resto = resto
        mensajes = []
        for linea in lineas:
            mensaje = self._firmado(linea)
            if mensaje is None:
                self.ajenos += len(linea) + 1
                self._vacia = not linea
            else:
                self.ajenos -= self._vacia
                self._vacia = False
                mensajes.append(mensaje)
            if self.ajenos > self.tope:
                self.excedido = True
                return mensajes
        if len(self.resto) > LINEA_MAXIMA:
            self.ajenos += len(self.resto)
            self.resto.clear()
        # A line not ended yet counts as written (a flood need not end its lines).
        self.excedido = self.ajenos + len(self.resto) > self.tope
        return mensajes

    def _firmado(self, linea: bytes):
        firma, espacio, cuerpo = linea.partition(b" ")
        if not espacio or len(firma) != 64:
            return None
        if not hmac.compare_digest(firma, hmac.new(self.clave, cuerpo, "sha256").hexdigest()
                                   .encode()):
            return None
        mensaje = json.loads(cuerpo)
        if mensaje["n"] != self.n:
            return None
        self.n += 1
        return mensaje["m"]


def calificar(desafio: str, codigo: str, *, carpeta: Path = CARPETA, limite: float = LIMITE,
              margen: float = MARGEN, cpu: int = CPU, memoria: int = MEMORIA,
              salida: int = SALIDA, arranque: float = ARRANQUE) -> dict:
    """Grade ``codigo`` against ``desafio`` (of folder ``carpeta``) in a child process: the
    result, in the engine's shape (see :mod:`widgets.calificador.resultado`). Raises
    :class:`NoArranco` if the child could not start grading."""
    padre = _del_padre(desafio, carpeta)
    clave = secrets.token_bytes(32)
    lectura, escritura = os.pipe()
    pedido = json.dumps({"clave": clave.hex(), "desafio": desafio, "codigo": codigo,
                         "carpeta": str(carpeta), "limite": limite, "cpu": cpu,
                         "memoria": memoria}).encode()
    try:
        proceso = subprocess.Popen(
            [sys.executable, "-I", "-c", _HIJO, str(RAIZ), str(escritura)],
            stdin=subprocess.PIPE, stdout=escritura, stderr=escritura,
            pass_fds=(escritura,), start_new_session=True)
    except OSError as e:
        os.close(lectura)
        raise NoArranco(f"no se pudo empezar el proceso del calificador: {e}") from None
    finally:
        os.close(escritura)
    hijo = _Hijo(proceso, lectura, _Canal(clave, salida))
    try:
        hijo.enviar(pedido)
        fin = hijo.seguir(limite + margen, arranque)
    finally:
        hijo.cerrar()
    if fin.final is not None:
        return nombrar_memoria(fin.final, memoria)
    actual = fin.actual
    quien = next(iter(padre.a_escribir(desafio)), "Tu código") if actual else "Tu código"
    motivo = resultados.se_corto(actual) if actual else resultados.sin_cargar()
    if fin.muerte == "tiempo":
        veredicto = Veredicto("tiempo", limites.no_se_dejo_detener(quien, limite))
        motivo = resultados.no_termino(actual) if actual else motivo
    elif fin.muerte == "salida":
        veredicto = Veredicto("salida", texto_salida(salida, actual))
    else:
        veredicto = fin.veredicto(actual, cpu, memoria)
    with _CERROJO:
        return padre.cortado(desafio, fin.hechas, actual, veredicto, motivo)


class _Hijo:
    """One child, watched: its one stream read (steps and output), its clock."""

    def __init__(self, proceso, lectura, canal):
        self.proceso, self.lectura, self.canal = proceso, lectura, canal
        self.selector = selectors.DefaultSelector()
        self.selector.register(lectura, selectors.EVENT_READ)
        self.errores = b""   # what the child wrote before it was ready (no reader code yet)
        self.estado = None   # its exit status, as Popen.returncode
        self.cpu_usada = 0.0
        self.hechas: dict[str, dict] = {}
        self.actual = None   # the test running (None: the code was loading)
        self.final = None    # the signed result
        self.roto = None     # the name of what broke the child's grader, if it said so
        self.muerte = None   # why the parent killed it: "tiempo", "salida", "canal"

    def enviar(self, pedido: bytes) -> None:
        def escribir():
            try:
                self.proceso.stdin.write(pedido)
            except OSError:  # the child died before reading it: told by its end
                pass
            finally:
                try:
                    self.proceso.stdin.close()
                except OSError:
                    pass
        # A thread: a big submission must not block the parent while the child starts.
        threading.Thread(target=escribir, daemon=True).start()

    def seguir(self, plazo: float, arranque: float) -> "_Hijo":
        """Read the child until it gives its result, dies or is killed (by its clock, or
        past the output limit)."""
        fase = "arranque"  # → cargando → prueba → fin
        hasta = time.monotonic() + arranque
        abierto = True  # until every end the child had of the stream is closed: it ended
        while self.final is None and self.muerte is None:
            espera = hasta - time.monotonic()
            if espera <= 0:
                if fase == "arranque":
                    self.matar()
                    self._reaped()
                    raise NoArranco("el proceso del calificador no arrancó a tiempo")
                self.muerte = "tiempo" if abierto else "canal"
                break
            if not abierto:
                time.sleep(min(espera, 0.02))
            elif self.selector.select(espera):
                datos = os.read(self.lectura, 65536)
                abierto = bool(datos)
                if fase == "arranque":
                    self.errores = (self.errores + datos)[-2000:]
                for m in self.canal.leer(datos):
                    fase = self._mensaje(m) or fase
                    hasta = time.monotonic() + (arranque if fase == "fin" else plazo)
                if self.canal.excedido and self.final is None:
                    self.muerte = "salida"
            if not abierto and self.final is None and self.muerte is None and self._reaped(False):
                break
        self.matar()
        self._reaped()
        if fase == "arranque":
            errores = self.errores.decode("utf-8", "replace").strip().splitlines()
            raise NoArranco(f"el proceso del calificador terminó al arrancar (estado "
                            f"{self.estado})" + (f": {errores[-1]}" if errores else ""))
        return self

    def _mensaje(self, m: dict):
        tipo = m["tipo"]
        if tipo == "listo":
            return "cargando"
        if tipo == "empieza":
            self.actual = m["nombre"]
            return "prueba"
        if tipo == "prueba":
            self.hechas[m["prueba"]["nombre"]] = m["prueba"]
        elif tipo == "resultado":
            self.final = m["resultado"]
            return "fin"
        elif tipo == "roto":
            self.roto = m["excepcion"]
            return "fin"
        return None

    def veredicto(self, actual, cpu, memoria) -> Veredicto:
        """Why the child died without its result, as the verdict of test ``actual``."""
        if self.roto == "MemoryError":
            return Veredicto("error", texto_memoria(memoria, actual))
        if self.roto == "KeyboardInterrupt":
            return Veredicto("error", texto_interrumpido(actual))
        if self.roto is not None:
            return Veredicto("interno", texto_roto(self.roto, actual))
        if self.muerte == "canal" or self.estado == CANAL_ROTO:
            return Veredicto("error", texto_canal(actual))
        if self.estado < 0:
            senal = -self.estado
            if senal == signal.SIGXCPU or (senal == signal.SIGKILL and self.cpu_usada >= cpu):
                return Veredicto("tiempo", texto_cpu(cpu, actual))
            return Veredicto("error", texto_senal(senal, actual))
        return Veredicto("exit", termino_el_proceso(self.estado, actual))

    def matar(self) -> None:
        """Kill the child and all it started (its session); before it is reaped, its pid
        cannot name another group."""
        try:
            os.killpg(self.proceso.pid, signal.SIGKILL)
        except OSError:
            pass

    def _reaped(self, bloquear: bool = True) -> bool:
        """Reap the child, with its CPU time; whether it was (without blocking, if told)."""
        if self.estado is not None:
            return True
        pid, estado, uso = os.wait4(self.proceso.pid, 0 if bloquear else os.WNOHANG)
        if pid == 0:
            return False
        self.estado = self.proceso.returncode = os.waitstatus_to_exitcode(estado)
        self.cpu_usada = uso.ru_utime + uso.ru_stime
        return True

    def cerrar(self) -> None:
        self.matar()  # what it left running in its session
        self._reaped()
        self.selector.close()
        os.close(self.lectura)
