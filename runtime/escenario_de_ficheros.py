"""«Herramientas de ficheros» (lección 8): un proyecto pequeño con una prueba que falla, y la
conversación en la que un agente lo arregla con las herramientas de ficheros.

Se carga después de herramientas_de_ficheros.py y deja en tu espacio de nombres:

- PROYECTO_TIENDA: los ficheros del proyecto, {ruta: texto}: un módulo, descuentos.py, y sus
  pruebas, test_descuentos.py. Una de las cuatro falla, y el motivo se ve leyendo el código.
- INICIO_FICHEROS: los mensajes con los que empieza M (el sistema y el pedido del usuario).
- RESPUESTAS_FICHEROS: lo que responde el modelo en cada turno: ejecuta las pruebas, busca la
  función, lee sus líneas, la edita, vuelve a ejecutar las pruebas y contesta.
- guion_ficheros(): el guion de esa conversación para ModeloGuionizado, cuando el usuario dice
  que sí a cada pregunta de permiso. Las observaciones no están escritas a mano: salen de
  ejecutar cada llamada sobre una copia nueva del proyecto, carpeta_de(PROYECTO_TIENDA).
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: llamada, resultado, texto
#   guionizado.py: guion_de
#   ficheros.py: carpeta_de
#   herramientas_de_ficheros.py: FUNCIONES_DE_FICHEROS

PROYECTO_TIENDA = {
    "descuentos.py": '''\
"""Precios de la tienda: lo que cuesta cada línea de un pedido, con su descuento."""

DESCUENTO_POR_VOLUMEN = 0.10  # un 10 % menos...
UNIDADES_PARA_DESCUENTO = 10  # ...a partir de 10 unidades


def total_de_linea(precio, unidades):
    """Lo que se paga por `unidades` de un artículo de `precio` euros.

    A partir de UNIDADES_PARA_DESCUENTO unidades se aplica el descuento por volumen.
    """
    total = precio * unidades
    if unidades > UNIDADES_PARA_DESCUENTO:
        total = total * (1 - DESCUENTO_POR_VOLUMEN)
    return round(total, 2)


def total_del_pedido(lineas):
    """La suma de total_de_linea de cada (precio, unidades) del pedido."""
    return round(sum(total_de_linea(precio, unidades) for precio, unidades in lineas), 2)
''',
    "test_descuentos.py": '''\
import unittest

from descuentos import total_de_linea, total_del_pedido


class PruebasDeDescuentos(unittest.TestCase):
    def test_sin_descuento_por_debajo_del_minimo(self):
        self.assertEqual(total_de_linea(2.5, 4), 10.0)

    def test_descuento_justo_en_el_minimo(self):
        self.assertEqual(total_de_linea(2.0, 10), 18.0)

    def test_descuento_por_encima_del_minimo(self):
        self.assertEqual(total_de_linea(1.0, 20), 18.0)

    def test_el_pedido_suma_sus_lineas(self):
        self.assertEqual(total_del_pedido([(2.5, 4), (1.0, 20)]), 28.0)
''',
}

SISTEMA_FICHEROS = (
    "Eres un asistente que programa en la carpeta de un proyecto de Python. Tienes herramientas "
    "para leer, listar, buscar, editar y crear ficheros y para ejecutar las pruebas. Lee antes "
    "de editar, cambia solo lo necesario y comprueba con las pruebas lo que has cambiado."
)

INICIO_FICHEROS = [
    ("sistema", SISTEMA_FICHEROS),
    ("usuario", "Una de las pruebas de descuentos falla. ¿Puedes arreglarlo?"),
]

RESPUESTAS_FICHEROS = [
    [texto("Primero ejecuto las pruebas, para ver cuál falla y cómo."),
     llamada("f1", "ejecutar_pruebas")],
    [texto("Con 10 unidades no se aplica el descuento. Busco dónde se decide."),
     llamada("f2", "buscar_en", patron="UNIDADES_PARA_DESCUENTO")],
    [llamada("f3", "leer_lineas", ruta="descuentos.py", desde=7, hasta=16)],
    [texto("La documentación dice «a partir de 10 unidades», que incluye el 10, pero el código "
           "pide más de 10. Cambio > por >=."),
     llamada("f4", "editar", ruta="descuentos.py",
             viejo="if unidades > UNIDADES_PARA_DESCUENTO:",
             nuevo="if unidades >= UNIDADES_PARA_DESCUENTO:")],
    [llamada("f5", "ejecutar_pruebas")],
    [texto("Arreglado. En descuentos.py, total_de_linea aplicaba el descuento solo con más de "
           "10 unidades, y según su documentación (y la prueba que fallaba) empieza en 10: la "
           "condición era > y ahora es >=. Las cuatro pruebas pasan.")],
]


def guion_ficheros():
    """El guion de la conversación de la lección, con el usuario diciendo que sí a todo: cada
    observación es lo que devuelve la herramienta sobre una copia nueva del proyecto."""
    import shutil

    carpeta = carpeta_de(PROYECTO_TIENDA)
    try:
        observaciones = [
            [resultado(b["id"], FUNCIONES_DE_FICHEROS[b["name"]](carpeta, **b["input"]))
             for b in respuesta if b["type"] == "tool_use"]
            for respuesta in RESPUESTAS_FICHEROS
        ]
    finally:
        shutil.rmtree(carpeta.raiz)
    return guion_de(INICIO_FICHEROS, RESPUESTAS_FICHEROS, observaciones)
