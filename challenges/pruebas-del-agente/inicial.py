# Desafío: las pruebas del agente.
#
# Ya está cargado todo lo que dejan entorno.py, guionizado.py, escenarios.py y permisos.py
# (ENTORNO, ModeloGuionizado, guion_tortilla, guion_terco, guion_sin_contenido,
# guion_tortilla_denegada, Respuestas, permitir, NO_PERMITIDO...). El nombre agente lo pone
# el calificador, y tus pruebas corren varias veces, una por agente, en un orden al azar:
# con varios agentes correctos, escritos de maneras distintas (con un for, con un while, que se
# llama a sí mismo...), y con agentes rotos, con un fallo cada uno, que no ves. Tus pruebas
# deben pasar todas con cada uno de los correctos, y alguna debe fallar con cada uno de los
# rotos. Cada vez empiezan de cero: lo que guardes en una vez no está en la siguiente.
import unittest


class PruebasDelAgente(unittest.TestCase):

    def test_tortilla_de_principio_a_fin(self):
        entorno = dict(ENTORNO)
        usuario = Respuestas(["sí"])
        como, final, M = agente(ModeloGuionizado(guion_tortilla()), PEDIDO_TORTILLA, entorno,
                                preguntar=usuario)
        self.assertEqual(como, "fin")
        # ¿Qué más promete el agente aquí? El texto final, len(M), el entorno, la pregunta...

    # Añade las pruebas que faltan: un modelo terco y el tope, una escritura sin contenido,
    # una escritura denegada.
