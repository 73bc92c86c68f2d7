"""The result of a check: its one shape, and the only functions that build it.

Everything that makes a result calls these (the grader, ``python -m challenges``'s own clock, the
worker when the page stops it); the page renders it (``widgets/front/lib/veredicto.js``). It is
plain JSON::

    {"desafio": "bucle-con-tope",   # the challenge's id
     "superadas": 11, "total": 12,  # tests passed, tests in all
     "segundos": 0.412,             # how long the check took (null when it was cut short)
     "error": null,                 # or {"tipo", "mensaje", "linea"}: the code did not load
                                    #   (tipo: "sintaxis", "error", "tiempo", "salida", "exit",
                                    #   "recursion", "falta", "firma"); then every test is
                                    #   "no-probada"
     "pruebas": [test, …]}          # in the challenge's order

and each test::

    {"nombre": "se detiene en el tope",  # the test's name, as the page lists it
     "ok": false,                         # tipo == "ok"
     "tipo": "fallo",                     # see TIPOS
     "mensaje": "El tope era 3 y …",      # Spanish, for the reader (null when ok)
     "linea": null,                       # the line of the reader's code it points at
     "turno": 4,                          # the model call where it was seen (a "fallo")
     "salida": "",                        # what the reader's code printed (cut at 2 000 chars)
     "traza": null}                       # «Ver tu traza»: what the grader's `traza` hook gave

Status (``tipo``) of a test: ``ok``; ``fallo`` (the code broke the contract; ``turno`` says
where, if known); ``error``, ``tiempo``, ``salida``, ``exit``, ``recursion`` (the reader's code
did not end well; ``linea`` is theirs); ``no-probada`` (not tried: the code did not load, or an
earlier test never ended); ``interno`` (a bug of the test itself, not the reader's);
``detenida`` (the page stopped the worker, which went silent).
"""

#: Every status a test can have.
TIPOS = ("ok", "fallo", "error", "tiempo", "salida", "exit", "recursion", "no-probada",
         "interno", "detenida")


def de_la_prueba(nombre, tipo, mensaje=None, *, linea=None, turno=None, salida="", traza=None):
    """One test's result."""
    return {"nombre": nombre, "ok": tipo == "ok", "tipo": tipo, "mensaje": mensaje,
            "linea": linea, "turno": turno, "salida": salida, "traza": traza}


def no_probada(nombre, motivo):
    """A test that was not tried; ``motivo`` completes «no se probó: …»."""
    return de_la_prueba(nombre, "no-probada", texto_no_probada(motivo))


def texto_no_probada(motivo):
    """«no se probó: ``motivo``», the message of a test not tried."""
    return f"no se probó: {motivo}"


def error(tipo, mensaje, linea=None):
    """Why the reader's code did not load (the result's ``"error"``)."""
    return {"tipo": tipo, "mensaje": mensaje, "linea": linea}


def resultado(desafio, pruebas, *, error=None, segundos=None):
    """The result of a check: ``pruebas`` (test results, in order) counted."""
    pruebas = list(pruebas)
    return {"desafio": desafio, "superadas": sum(1 for p in pruebas if p["ok"]),
            "total": len(pruebas), "segundos": segundos, "error": error, "pruebas": pruebas}


def sin_cargar(linea=None):
    """The ``motivo`` of the tests of code that did not load."""
    return "tu código no se pudo cargar" + (f" (línea {linea})" if linea else "")


def se_corto(nombre):
    """The ``motivo`` of the tests after one during which the process ended."""
    return f"el proceso se cortó en «{nombre}»"


def no_termino(nombre):
    """The ``motivo`` of the tests after one that never ended."""
    return f"«{nombre}» no terminó"
