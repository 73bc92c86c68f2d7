# Error: usa un modelo hecho a mano que no mira M, y nunca comprueba el M que devuelve el agente.
# Cláusula: el-M
# Falla: Atrapa: no añade a M las observaciones de las llamadas
# Mensaje: Tus 4 pruebas pasan también con este agente, que está roto
import unittest


class EnOrden:
    """Un modelo que da sus respuestas en orden, sin mirar lo que recibe."""

    def __init__(self, respuestas):
        self.respuestas = respuestas
        self.turno = 0

    def __call__(self, M, herramientas):
        self.turno += 1
        return self.respuestas[self.turno - 1]


class PruebasDelAgente(unittest.TestCase):

    def test_tortilla_de_principio_a_fin(self):
        entorno = dict(ENTORNO)
        usuario = Respuestas(["sí"])
        como, final, M = agente(EnOrden(RESPUESTAS_TORTILLA), PEDIDO_TORTILLA, entorno,
                                preguntar=usuario)
        self.assertEqual((como, final),
                         ("fin", "He apuntado en lista.txt los huevos y la cebolla."))
        self.assertEqual(entorno["lista.txt"], LISTA_TORTILLA)
        self.assertEqual(len(usuario.preguntas), 1)

    def test_un_modelo_terco_se_para_en_el_tope(self):
        modelo = EnOrden(respuestas_terco(3))
        como, final, M = agente(modelo, PEDIDO_TERCO, dict(ENTORNO), tope=3)
        self.assertEqual((como, final, modelo.turno), ("tope", None, 3))

    def test_escribir_sin_contenido_vuelve_como_error(self):
        entorno = dict(ENTORNO)
        como, final, M = agente(EnOrden(RESPUESTAS_SIN_CONTENIDO), PEDIDO_SIN_CONTENIDO,
                                entorno, preguntar=permitir)
        self.assertEqual(como, "fin")
        self.assertEqual(entorno, ENTORNO)

    def test_una_escritura_denegada_no_cambia_nada(self):
        entorno = dict(ENTORNO)
        como, final, M = agente(EnOrden(RESPUESTAS_TORTILLA_DENEGADA), PEDIDO_TORTILLA, entorno)
        self.assertEqual(como, "fin")
        self.assertEqual(entorno, ENTORNO)
