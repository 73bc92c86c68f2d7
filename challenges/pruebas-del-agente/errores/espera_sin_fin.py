# Error: una prueba espera en un bucle sin fin: se para en el límite de tiempo.
# Cláusula: pasan-con-el-correcto
# Falla: tus pruebas pasan con cada agente correcto
# Mensaje: La prueba test_espera no terminó en 2 s
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

    def test_espera(self):
        modelo = ModeloGuionizado(guion_terco(3))
        while modelo.turno < 3:
            pass
