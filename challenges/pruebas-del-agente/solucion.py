# La solución de referencia de «pruebas-del-agente»: las promesas que la lección nombra y no
# prueba (el tope, el tope por defecto, una llamada que no encaja, una escritura denegada y lo
# que lanza preguntar).
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
        # El guion comprueba en su segundo turno que el error de la escritura está en M.
        agente(ModeloGuionizado(guion_sin_contenido()), PEDIDO_SIN_CONTENIDO, dict(ENTORNO))

    def test_sin_preguntar_no_se_escribe_nada(self):
        entorno = dict(ENTORNO)
        # El guion comprueba que la denegación está en M; la prueba, que no se escribió nada.
        agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, entorno)
        self.assertEqual(entorno, ENTORNO)

    def test_lo_que_lanza_preguntar_sale_del_agente(self):
        def se_cierra_la_pagina(ll):
            raise RuntimeError("se ha cerrado la página")

        with self.assertRaises(RuntimeError):
            agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA, dict(ENTORNO),
                   preguntar=se_cierra_la_pagina)
