# Desafío: las pruebas del agente.
#
# Ya está cargado todo lo que dejan entorno.py, guionizado.py, escenarios.py y permisos.py.
# Lo que usan las pruebas de la lección, y puedes usar tú:
#
#   agente(modelo, pedido, entorno, preguntar=denegar, tope=10)   lo pone el calificador
#   ENTORNO                  los ficheros de ejemplo; trabaja sobre una copia, dict(ENTORNO)
#   ModeloGuionizado(guion)  el modelo fijo; .turno cuenta las respuestas que ha dado
#   SISTEMA_AGENTE           el mensaje de sistema que pone el agente
#   El pedido de la tortilla: PEDIDO_TORTILLA, guion_tortilla() (el usuario la permite),
#     guion_tortilla_denegada() (no la permite), LISTA_TORTILLA (lista.txt tras escribirla),
#     RESPUESTAS_TORTILLA (las respuestas del modelo, la última es la final)
#   Un modelo terco: PEDIDO_TERCO, guion_terco(n) (pide herramientas n turnos seguidos)
#   Una escritura sin contenido: PEDIDO_SIN_CONTENIDO, guion_sin_contenido()
#   Quien responde: Respuestas(["sí", "no", ...]) (anota en .preguntas lo que le preguntan),
#     permitir, denegar; y NO_PERMITIDO, lo que vuelve al modelo de una escritura denegada
#   llamada, resultado, texto, muestra, como en las lecciones
#
# Tus pruebas corren varias veces, una por agente, en un orden al azar: con varios agentes
# correctos, escritos de maneras distintas (con un for, con un while, que se llama a sí
# mismo...), y con agentes rotos, con un fallo cada uno, que no ves. Tus pruebas deben pasar
# todas con cada uno de los correctos, y alguna debe fallar con cada uno de los rotos. Cada vez
# empiezan de cero: lo que guardes en una vez no está en la siguiente. Cada prueba tiene 2 s
# para terminar. Los valores por defecto del agente también son promesas.
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
