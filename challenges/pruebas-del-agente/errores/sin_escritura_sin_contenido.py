# Error: no prueba una llamada que no encaja: un agente que la deja salir como excepción pasa.
# Cláusula: los-errores
# Falla: Atrapa: una llamada que no encaja (escribir sin contenido) sale como excepción, no como error para el modelo
# Mensaje: Tus 4 pruebas pasan también con este agente, que está roto
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_un_modelo_terco_se_para_en_el_tope(self):
        como, final, M = agente(ModeloGuionizado(guion_terco(3)), PEDIDO_TERCO, dict(ENTORNO),
                                tope=3)
        self.assertEqual((como, final), ("tope", None))
        self.assertEqual(len(M), 8, "la última respuesta también tiene sus observaciones")

    def test_sin_tope_llama_diez_veces_al_modelo(self):
        vistas = []

        def terco(M, herramientas):
            vistas.append(len(M))
            return [llamada(f"b{len(vistas)}", "buscar", patron="huevos")]

        agente(terco, PEDIDO_TERCO, dict(ENTORNO))
        self.assertEqual(len(vistas), 10)

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
