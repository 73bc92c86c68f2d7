# Error: una prueba de más cuenta mal los mensajes de M: falla con los agentes correctos.
# Cláusula: pasan-con-el-correcto
# Falla: tus pruebas pasan con cada agente correcto
# Mensaje: Una de tus pruebas falla con todos los agentes correctos, y una prueba que falla con un agente correcto está mal:
# Mensaje: «test_cuenta_los_mensajes» falla: 7 != 6
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_tortilla_de_principio_a_fin(self):
        entorno = dict(ENTORNO)
        usuario = Respuestas(["sí"])
        como, final, M = agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA, entorno,
                                preguntar=usuario)
        self.assertEqual(como, "fin")
        self.assertEqual(final, "He apuntado en lista.txt los huevos y la cebolla.")
        self.assertEqual(len(M), 7)
        self.assertEqual(M[-1], ("asistente", RESPUESTAS_TORTILLA[-1]))
        self.assertEqual(entorno["lista.txt"], LISTA_TORTILLA)
        self.assertEqual(len(usuario.preguntas), 1)

    def test_un_modelo_terco_se_para_en_el_tope(self):
        modelo = ModeloGuionizado(guion_terco(3))
        como, final, M = agente(modelo, PEDIDO_TERCO, dict(ENTORNO), tope=3)
        self.assertEqual((como, final), ("tope", None))
        self.assertEqual(modelo.turno, 3)
        self.assertEqual(len(M), 8)

    def test_escribir_sin_contenido_vuelve_como_error(self):
        entorno = dict(ENTORNO)
        como, final, M = agente(ModeloGuionizado(guion_sin_contenido()), PEDIDO_SIN_CONTENIDO,
                                entorno, preguntar=permitir)
        self.assertEqual(como, "fin")
        self.assertTrue(M[3][1][0]["is_error"])
        self.assertEqual(entorno, ENTORNO)

    def test_una_escritura_denegada_no_cambia_nada(self):
        entorno = dict(ENTORNO)
        como, final, M = agente(ModeloGuionizado(guion_tortilla_denegada()), PEDIDO_TORTILLA,
                                entorno)
        self.assertEqual(como, "fin")
        self.assertEqual(M[5][1][0]["content"], NO_PERMITIDO)
        self.assertEqual(entorno, ENTORNO)

    def test_cuenta_los_mensajes(self):
        como, final, M = agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA,
                                dict(ENTORNO), preguntar=permitir)
        self.assertEqual(len(M), 6)  # sistema, pedido y dos mensajes por turno
