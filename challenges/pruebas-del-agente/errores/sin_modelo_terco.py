# Error: no prueba un modelo terco: nada comprueba que el agente se pare en el tope.
# Cláusula: el-tope
# Falla: Atrapa: no respeta el tope: sigue llamando al modelo mientras este pida herramientas
# Mensaje: Tus 3 pruebas pasan también con este agente, que está roto: escribe una prueba que falle con él.
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_escribir_sin_contenido_vuelve_como_error(self):
        agente(ModeloGuionizado(guion_sin_contenido()), PEDIDO_SIN_CONTENIDO, dict(ENTORNO))

    def test_sin_preguntar_no_se_escribe_nada(self):
        entorno = dict(ENTORNO)
        agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, entorno)
        self.assertEqual(entorno, ENTORNO)

    def test_lo_que_lanza_preguntar_sale_del_agente(self):
        def se_cierra_la_pagina(ll):
            raise RuntimeError("se ha cerrado la página")

        with self.assertRaises(RuntimeError):
            agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, dict(ENTORNO),
                   preguntar=se_cierra_la_pagina)
