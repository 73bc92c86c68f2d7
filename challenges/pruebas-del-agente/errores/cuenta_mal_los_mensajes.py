# Error: una prueba de más cuenta mal los mensajes de M: falla con los agentes correctos.
# Cláusula: pasan-con-el-correcto
# Falla: tus pruebas pasan con cada agente correcto
# Mensaje: Una de tus pruebas falla con todos los agentes correctos, y una prueba que falla con un agente correcto está mal:
# Mensaje: «test_cuenta_los_mensajes» falla: 7 != 6
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

    def test_cuenta_los_mensajes(self):
        como, final, M = agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA,
                                dict(ENTORNO), preguntar=permitir)
        self.assertEqual(len(M), 6)  # sistema, pedido y dos mensajes por turno
