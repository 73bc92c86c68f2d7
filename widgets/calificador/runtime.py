"""The one way to run the runtime into a namespace: the build, the grader and the tests call it.

A page's cell runs ``exec(open_url("runtime/entorno.py").read())``, one file after another, in
its namespace. :func:`ejecutar_runtime` does the same with whatever reads a file: the build reads
the author's runtime folder (noting each file as a dependency of the page), the grader reads the
site's URLs (and keeps what it compiled), the course's tests read ``runtime/`` with an
``open_url``. Each file is compiled as ``runtime/<name>.py``, so tracebacks and line numbers are
the page's.
"""


def ejecutar_runtime(ns, modulos, leer):
    """Execute ``runtime/<nombre>.py`` for each name of ``modulos``, in order, in namespace
    ``ns``; return ``ns``. ``leer(nombre)`` gives that file's text, or its code already compiled
    (as ``runtime/<nombre>.py``)."""
    for nombre in modulos:
        codigo = leer(nombre)
        if isinstance(codigo, str):
            codigo = compile(codigo, f"runtime/{nombre}.py", "exec")
        exec(codigo, ns)
    return ns
