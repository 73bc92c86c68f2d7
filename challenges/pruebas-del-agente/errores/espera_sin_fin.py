# Error: una prueba espera en un bucle sin fin: se para en el límite de tiempo.
# Cláusula: pasan-con-el-correcto
# Falla: tus pruebas pasan con cada agente correcto
# Mensaje: La prueba test_espera no terminó en 2 s
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_un_modelo_terco_se_para_en_el_tope(self):
        como, final, M = agente(ModeloGuionizado(guion_terco(3)), PEDIDO_TERCO, dict(ENTORNO),
                                tope=3)
        self.assertEqual((como, final), ("tope", None))
        self.assertEqual(len(M), 8, "la última respuesta también tiene sus observaciones")

    def test_espera(self):
        modelo = ModeloGuionizado(guion_terco(3))
        while modelo.turno < 3:
            pass
