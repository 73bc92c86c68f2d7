"""El TestResult de las pruebas del lector de «pruebas-del-agente», en un módulo aparte.

El lector lo alcanza (self._outcome.result), así que sus métodos viven en un módulo que solo
tiene unittest y CITA: desde sus __globals__ no se llega a las pruebas, ni a los agentes. (Lo
importa pruebas.py; el importador del calificador, cerrado tras cargar las pruebas, no lleva a
ningún sitio.)
"""

import unittest

#: Caracteres de cada mensaje de una prueba del lector que se citan.
CITA = 300


class Anotador(unittest.TestResult):
    """Un TestResult que solo anota, sin formatear trazas: [(tipo, mensaje)] de lo que falló."""

    def __init__(self):
        super().__init__()
        self.fallos = []

    def _anota(self, tipo, error):
        try:
            texto = str(error)
        except BaseException:  # noqa: BLE001 - un __str__ roto: basta la clase
            texto = ""
        texto = texto if type(texto) is str else ""
        if tipo == "error":
            clase = type(error).__name__
            texto = f"{clase}: {texto}" if texto else clase
        if len(texto) > CITA:
            texto = texto[:CITA] + "…"
        self.fallos.append((tipo, texto))

    def addFailure(self, test, err):
        self._anota("falla", err[1])

    def addError(self, test, err):
        self._anota("error", err[1])

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._anota("falla" if issubclass(err[0], test.failureException) else "error", err[1])

    def addUnexpectedSuccess(self, test):
        self.fallos.append(("falla", "estaba marcada con expectedFailure y pasó"))
