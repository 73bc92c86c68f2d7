"""The child side of :mod:`.canal`: grade one submission, or check one challenge, and send each
step signed.

:func:`hijo` runs in the child Python that :func:`.canal.empezar` starts: it reads the request
on stdin, sets its limits, signs each step with a key it keeps only in a closure made before any
of the reader's code runs (:func:`_emisor`), and adds an audit hook of its own (:func:`_vigilar`).
The request's ``tarea`` is ``calificar`` (one submission: :mod:`.aislado`) or ``comprobar`` (a
challenge's build-time checks: :mod:`.comprobacion`). See :mod:`.canal` for the protocol.
"""

from __future__ import annotations

import json
import os
import re
import sys

from . import Curso
from .canal import CANAL_ROTO


def hijo(fd: int) -> None:
    """The child: read the request on stdin, grade, send each step signed on ``fd``; then
    end at once (no atexit hook of the reader's runs)."""
    from widgets.calificador import disco, muralla

    pedido = _pedido()
    enviar = _emisor(fd, bytes.fromhex(pedido.pop("clave")))
    _limitar(pedido["memoria"], pedido["cpu"])
    curso = Curso.del_pedido(pedido["curso"])
    c = disco.calificador(curso.desafios, curso.runtime, curso.modulos)
    desafio = pedido["desafio"]
    try:  # the tests (and the modules they import) load before the audit hook is up
        c.pruebas(desafio)
    except Exception:  # a check says why they do not load; a grading cannot begin without them
        if pedido["tarea"] == "calificar":
            raise
    _vigilar(muralla)
    enviar({"tipo": "listo"})
    salir = os._exit
    al_empezar = lambda nombre: enviar({"tipo": "empieza", "nombre": nombre})  # noqa: E731
    try:
        if pedido["tarea"] == "comprobar":
            problemas = disco.comprobar(
                c, desafio, curso.desafios, al_empezar=al_empezar,
                al_calificar=lambda archivo: enviar({"tipo": "archivo", "archivo": str(archivo)}))
            datos = None if problemas else c.datos(desafio)
            final = {"problemas": [[str(a), p] for a, p in problemas], "datos": datos,
                     "leidos": c.leidos()}
        else:
            final = c.calificar(
                desafio, pedido["codigo"], limite=pedido["limite"], al_empezar=al_empezar,
                al_acabar=lambda prueba: enviar({"tipo": "prueba", "prueba": prueba}))
    except BaseException as e:  # noqa: BLE001 - told to the parent, signed
        nombre = type(e).__name__
        enviar({"tipo": "roto", "excepcion": nombre if type(nombre) is str else "?"})
        salir(1)
    tipo = "comprobado" if pedido["tarea"] == "comprobar" else "resultado"
    enviar({"tipo": tipo, tipo: final})
    salir(0)


def _pedido() -> dict:
    """The request, read whole from stdin, which is then the null device."""
    partes = []
    while (trozo := os.read(0, 1 << 16)):
        partes.append(trozo)
    nulo = os.open(os.devnull, os.O_RDWR)
    os.dup2(nulo, 0)
    os.close(nulo)
    return json.loads(b"".join(partes))


def _limitar(memoria: int, cpu: int) -> None:
    """The child's limits of memory and CPU time (never above the ones it was given)."""
    import resource

    for limite, blando, duro in ((resource.RLIMIT_AS, memoria, memoria),
                                 (resource.RLIMIT_CPU, cpu, cpu + 1)):
        _, tope = resource.getrlimit(limite)
        if tope != resource.RLIM_INFINITY:
            blando, duro = min(blando, tope), min(duro, tope)
        resource.setrlimit(limite, (blando, duro))


def _emisor(fd: int, clave: bytes):
    """``enviar(mensaje)``: write ``mensaje`` on ``fd`` as one signed line. Everything it
    uses is C code bound here, before any of the reader's code runs: patching ``json``,
    ``hmac`` or ``os`` later does not change what it signs (nor hands the key to the reader)."""
    import _hashlib
    from _json import encode_basestring_ascii, make_encoder

    def no_es_json(o):
        raise TypeError(type(o).__name__)

    codificar = make_encoder(None, no_es_json, encode_basestring_ascii, None, ":", ",", True,
                             False, True)
    base = _hashlib.hmac_new(clave, b"", "sha256")
    fstat, write, salir, unir = os.fstat, os.write, os._exit, "".join
    antes = fstat(fd)
    identidad = (antes.st_dev, antes.st_ino)
    cuenta = [0]

    def enviar(mensaje):
        cuerpo = unir(codificar({"m": mensaje, "n": cuenta[0]}, 0)).encode()
        cuenta[0] += 1
        h = base.copy()
        h.update(cuerpo)
        linea = b"\n" + h.hexdigest().encode() + b" " + cuerpo + b"\n"
        try:
            ahora = fstat(fd)
            if (ahora.st_dev, ahora.st_ino) != identidad:
                salir(CANAL_ROTO)
            while linea:
                linea = linea[write(fd, linea):]
        except OSError:
            salir(CANAL_ROTO)

    return enviar


#: What the child refuses while the reader's code runs (the engine's wall is up): a copy of the
#: grader with its key (fork), other processes (that could outlive it), new limits.
_PROHIBIDOS_AQUI = frozenset({
    "os.fork", "os.forkpty", "subprocess.Popen", "os.posix_spawn", "os.spawn", "os.exec",
    "os.system", "os.startfile", "pty.spawn", "resource.setrlimit", "resource.prlimit",
})
#: What nobody uses in the child once it is ready, wall up or down: the reader's code may run
#: when the wall is down too (a ``__del__``, a thread), and from the heap or the stack it would
#: reach the signer.
_NUNCA = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents",
                    "sys._getframe", "sys._getframemodulename", "sys._current_frames",
                    "sys._current_exceptions"})
#: Paths it may not open or link to then: its own memory and descriptors (/proc/self/…,
#: /dev/fd/…, /dev/stdout…); nor enter (chdir) any of /proc or /dev.
_RUTAS_PROHIBIDAS = re.compile(r"proc|^/+dev/.*(fd|std)")
_CARPETAS_PROHIBIDAS = re.compile(r"proc|^/+dev")


def _vigilar(muralla) -> None:
    """One more audit hook, the child's: never the heap or the stack (:data:`_NUNCA`); while
    the wall is up, no fork (a copy of the grader with its key) nor other processes, no signal
    to another process (the parent), no /proc (its memory), no new limits."""
    arriba, prohibido = muralla._MURALLA, muralla.Prohibido
    ruta_prohibida, carpeta_prohibida = _RUTAS_PROHIBIDAS.search, _CARPETAS_PROHIBIDAS.search

    propio = os.getpid()

    def auditar(evento, argumentos):
        if evento in _NUNCA:
            raise prohibido(evento)
        if not arriba[0]:
            return
        if evento in _PROHIBIDOS_AQUI:
            raise prohibido(evento)
        if evento in ("os.kill", "os.killpg"):  # itself, yes (a verdict); the grader, no
            destino = argumentos[0]
            if type(destino) is not int or destino not in (0, propio, -propio):
                raise prohibido(f"{evento} sobre otro proceso")
        if evento in ("open", "os.chdir", "os.symlink", "os.link") and argumentos:
            ruta = argumentos[0]
            if type(ruta) is bytes:
                ruta = ruta.decode("utf-8", "surrogateescape")
            if type(ruta) is int and evento != "os.chdir":  # a descriptor it has (not fchdir)
                return
            if type(ruta) is not str:  # a path-like could answer one thing here, another later
                raise prohibido(f"{evento} con una ruta de tipo {type(ruta).__name__}")
            if (carpeta_prohibida if evento == "os.chdir" else ruta_prohibida)(ruta):
                raise prohibido(ruta)

    sys.addaudithook(auditar)
