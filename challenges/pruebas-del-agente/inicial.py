# Desafío: las pruebas del agente, las de las cinco promesas que la lección nombra y no prueba.
#
# Ya está cargado todo lo que dejan entorno.py, guionizado.py, escenarios.py y permisos.py.
# Lo que usan las pruebas de la lección, y puedes usar tú:
#
#   agente(modelo, pedido, entorno, preguntar=denegar, tope=10)   lo pone el calificador
#   ENTORNO                  los ficheros de ejemplo; trabaja sobre una copia, dict(ENTORNO)
#   ModeloGuionizado(guion)  el modelo fijo; .turno cuenta las respuestas que ha dado
#   guion_de(inicio, respuestas, observaciones)   un guion tuyo, como el de la paella
#   Un modelo es cualquier función modelo(M, herramientas) que devuelve una respuesta (una
#     lista de bloques), o que lanza una excepción, como sin_conexion en la lección
#   SISTEMA_AGENTE           el mensaje de sistema que pone el agente
#   El pedido de la tortilla: PEDIDO_TORTILLA, guion_tortilla() (el usuario la permite),
#     guion_tortilla_denegada() (no la permite), LISTA_TORTILLA (lista.txt tras escribirla)
#   Un modelo terco: PEDIDO_TERCO, guion_terco(n) (pide herramientas n turnos seguidos)
#   Una escritura sin contenido: PEDIDO_SIN_CONTENIDO, guion_sin_contenido()
#   Quien responde: Respuestas(["sí", "no", ...]) (anota en .preguntas lo que le preguntan, y
#     lanza RuntimeError si le preguntan más veces), permitir, denegar, o cualquier función
#     preguntar(ll) que devuelva True o False (o que lance una excepción)
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

    def test_un_modelo_terco_se_para_en_el_tope(self):
        como, final, M = agente(ModeloGuionizado(guion_terco(3)), PEDIDO_TERCO, dict(ENTORNO),
                                tope=3)
        # ¿Qué promete el agente aquí? Lo que devuelve, y que la última respuesta tiene sus
        # observaciones en M...

    # Añade las que faltan: sin tope, el tope es 10; una escritura sin contenido; una
    # escritura denegada (también con el preguntar por defecto); lo que lanza preguntar.
