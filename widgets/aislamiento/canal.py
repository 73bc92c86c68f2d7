"""A child Python watched by its parent, whose steps come through a channel it cannot forge.

:func:`empezar` starts ``python -I -c …`` (the child side: :func:`.hijo.hijo`) and hands it, on
its stdin, the request (a grading or a challenge's checks: :mod:`.aislado`, :mod:`.comprobacion`),
the limits and a random key. The child keeps that key only in a closure made before any of the
reader's code runs, and sends each step (``listo``; for a check, each file's ``archivo``; each
test's ``empieza`` and result; the final ``resultado`` or ``comprobado``) as one JSON line
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
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from widgets.calificador import Veredicto
from widgets.calificador.veredictos import termino_el_proceso

from .textos import (texto_canal, texto_cpu, texto_interrumpido, texto_memoria, texto_roto,
                     texto_senal)

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

#: The folder holding the ``widgets`` package (the child imports it from there).
RAIZ = Path(__file__).resolve().parents[2]

# The child: isolated mode (no PYTHON* variables, no user site, no cwd on sys.path).
_HIJO = ("import sys; sys.path.insert(0, sys.argv[1]); "
         "from widgets.aislamiento.hijo import hijo; hijo(int(sys.argv[2]))")

class NoArranco(RuntimeError):
    """The child did not get to start grading: the command could not run (not the reader's
    doing: no code of theirs runs before the child says it is ready)."""


class Canal:
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

class Vigilado:
    """One child, watched: its one stream read (steps and output), its clock."""

    def __init__(self, proceso, lectura, canal):
        self.proceso, self.lectura, self.canal = proceso, lectura, canal
        self.selector = selectors.DefaultSelector()
        self.selector.register(lectura, selectors.EVENT_READ)
        self.errores = b""   # what the child wrote before it was ready (no reader code yet)
        self.estado = None   # its exit status, as Popen.returncode
        self.cpu_usada = 0.0
        self.hechas: dict[str, dict] = {}
        self.archivo = None  # the file a check is grading
        self.actual = None   # the test running (None: the code was loading)
        self.final = None    # the signed result (a grading's or a check's)
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

    def seguir(self, plazo: float, arranque: float) -> Vigilado:
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
        if tipo == "archivo":  # a check begins grading another file: nothing of it ran yet
            self.archivo, self.actual, self.hechas = m["archivo"], None, {}
            return "cargando"
        if tipo == "prueba":
            self.hechas[m["prueba"]["nombre"]] = m["prueba"]
        elif tipo in ("resultado", "comprobado"):
            self.final = m[tipo]
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


def empezar(pedido: dict, salida: int | None = None) -> Vigilado:
    """Start a child for ``pedido`` (JSON: what :func:`.hijo.hijo` reads, but the key) and
    hand it the request with a new key; the child, watched (:meth:`Vigilado.seguir`). Raises
    :class:`NoArranco` if it could not start. ``salida``: the bytes of its own output allowed."""
    clave = secrets.token_bytes(32)
    lectura, escritura = os.pipe()
    datos = json.dumps({"clave": clave.hex(), **pedido}).encode()
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
    vigilado = Vigilado(proceso, lectura, Canal(clave, SALIDA if salida is None else salida))
    vigilado.enviar(datos)
    return vigilado
