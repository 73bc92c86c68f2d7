"""Ejecutar las pruebas de una carpeta: la herramienta ejecutar_pruebas del agente que programa.

Se carga antes de ficheros.py y de herramientas_de_ficheros.py, que la pone en sus
FUNCIONES_DE_FICHEROS y HERRAMIENTAS_DE_FICHEROS, y deja en tu espacio de nombres:

- ejecutar_pruebas(entorno): las pruebas unittest de la carpeta del entorno (una Carpeta de
  ficheros.py, o cualquier objeto con .raiz), ejecutadas aquí mismo, sin otro proceso (en la
  página no lo hay), con un límite de tiempo; devuelve un resumen y los fallos.
- CARACTERES_DE_PRUEBAS: lo más largo que devuelve.
- ficheros_de_pruebas(raiz): los ficheros test*.py que ejecutaría (lo que muestra la pregunta de
  permiso antes de ejecutarlos).
"""

# Usa, de los ficheros que se cargan antes: nada (lo comprueba tests/test_disposicion.py).

import os
import sys

#: Lo más largo que devuelve ejecutar_pruebas: lo que pasa de ahí se corta con una nota.
CARACTERES_DE_PRUEBAS = 3000


class _SinTiempo(KeyboardInterrupt):
    """Se acabó el tiempo: hereda de KeyboardInterrupt porque unittest la deja pasar (así no la
    cuenta como un error de una prueba y sigue con la siguiente)."""


def ejecutar_pruebas(entorno):
    """Descubre y ejecuta las pruebas unittest de la carpeta (los ficheros test*.py, como
    `python -m unittest` desde la raíz) y devuelve «N pruebas: todas pasan» o el resumen y, por
    cada prueba que falla o da error, su nombre y su traceback, con las rutas relativas a la
    carpeta. Un fichero de pruebas que no se puede importar cuenta como un error.

    Cada ejecución empieza de cero: antes y después quita de sys.modules los módulos de la
    carpeta (ve siempre el código de ahora, no uno ya importado), no escribe .pyc, y deja
    sys.path como estaba. Lo que imprimen las pruebas no sale: va con su fallo. Tiene un límite
    de entorno.segundos segundos (sys.settrace: corta el código Python, no una llamada de C que
    no vuelve, como time.sleep). Devuelve como mucho CARACTERES_DE_PRUEBAS caracteres, con una
    nota si corta.

    Ojo: las pruebas son código que corre en este mismo Python, no una herramienta con rutas:
    lo que hagan no está confinado a la carpeta. Por eso pide permiso, como editar
    (CAMBIAN_LA_CARPETA de permisos.py). Un módulo de la carpeta con el nombre de uno
    que ya está importado de fuera (json.py, por ejemplo) no lo sustituye.
    """
    raiz = getattr(entorno, "raiz", None)
    if not isinstance(raiz, str):
        raise TypeError(f"el entorno debe ser una Carpeta y es {type(entorno).__name__}")
    segundos = getattr(entorno, "segundos", 10)
    resultado, agotado = _ejecuta(raiz, segundos)
    return _recorta_informe(_informe(resultado, agotado, raiz, segundos))


def ficheros_de_pruebas(raiz):
    """Las rutas (relativas a `raiz`, con "/", en orden) de los ficheros test*.py de la carpeta
    y sus subcarpetas, sin entrar en las que son enlaces ni en __pycache__."""
    rutas = []
    for carpeta, subcarpetas, ficheros in os.walk(raiz):
        subcarpetas[:] = sorted(d for d in subcarpetas if d != "__pycache__")
        rutas += [os.path.relpath(os.path.join(carpeta, f), raiz).replace(os.sep, "/")
                  for f in sorted(ficheros) if f.startswith("test") and f.endswith(".py")]
    return rutas


def _ejecuta(raiz, segundos):
    """(el unittest.TestResult, si se acabó el tiempo) de las pruebas de `raiz`."""
    import contextlib
    import io
    import time
    import unittest

    resultado = unittest.TestResult()
    resultado.buffer = True
    ruta, escribe, traza = list(sys.path), sys.dont_write_bytecode, sys.gettrace()
    limite = time.monotonic() + segundos

    def vigila(marco, evento, arg):
        if time.monotonic() > limite:
            raise _SinTiempo
        return vigila

    _olvida_modulos(raiz)
    agotado = False
    salida = io.StringIO()
    try:
        sys.dont_write_bytecode = True
        with contextlib.redirect_stdout(salida), contextlib.redirect_stderr(salida):
            sys.settrace(vigila)
            try:
                unittest.TestLoader().discover(raiz, top_level_dir=raiz).run(resultado)
            finally:
                sys.settrace(traza)
    except _SinTiempo:
        agotado = True
    finally:
        sys.path[:] = ruta
        sys.dont_write_bytecode = escribe
        _olvida_modulos(raiz)
    return resultado, agotado


def _olvida_modulos(raiz):
    """Quita de sys.modules los módulos cargados desde `raiz`."""
    import importlib

    dentro = raiz.rstrip(os.sep) + os.sep
    for nombre, modulo in list(sys.modules.items()):
        origenes = [getattr(modulo, "__file__", None) or ""]
        origenes += list(getattr(modulo, "__path__", None) or [])
        if any(isinstance(o, str) and os.path.realpath(o).startswith(dentro) for o in origenes):
            del sys.modules[nombre]
    importlib.invalidate_caches()


def _informe(resultado, agotado, raiz, segundos):
    """El resumen en castellano y los fallos, con las rutas relativas a `raiz`."""
    fallos = [("FALLA", p, t) for p, t in resultado.failures]
    fallos += [("ERROR", p, t) for p, t in resultado.errors]
    fallos += [("PASA Y NO DEBÍA", p, "(marcada con expectedFailure)\n")
               for p in resultado.unexpectedSuccesses]
    n = resultado.testsRun
    resumen = "1 prueba" if n == 1 else f"{n} pruebas"
    if agotado:
        resumen = (f"se acabó el tiempo ({segundos} s) y se cortó la ejecución "
                   f"después de {resumen}: ¿hay un bucle que no acaba?")
    elif n == 0 and not fallos:
        return "no hay pruebas: unittest busca ficheros test*.py con clases unittest.TestCase"
    elif not fallos:
        return f"{resumen}: todas pasan"
    else:
        malas = len(fallos)
        pasan = n - malas
        resumen += (f": {malas} {'falla' if malas == 1 else 'fallan'}, "
                    f"{pasan} {'pasa' if pasan == 1 else 'pasan'}")
    partes = [resumen]
    for tipo, prueba, traza in fallos:
        partes.append(f"{tipo}: {prueba.id()}\n{traza.rstrip()}")
    informe = "\n\n".join(partes)
    return informe.replace(raiz.rstrip(os.sep) + os.sep, "")


def _recorta_informe(informe):
    if len(informe) <= CARACTERES_DE_PRUEBAS:
        return informe
    resto = len(informe) - CARACTERES_DE_PRUEBAS
    return (informe[:CARACTERES_DE_PRUEBAS]
            + f"\n[… cortado: {resto} caracteres más; arregla el primer fallo y vuelve a "
              f"ejecutar las pruebas]")
