"""Los puentes de «modelo-api»: el enviar y el url_del_modelo que recibe el código del lector.

Lanzan en el código del lector lo que diga el servidor falso de la prueba: la respuesta, o un
ErrorDelServidor del espacio del lector (el que su código ve y podría atrapar). Cada puente se
hace aquí, en un módulo que solo tiene estas dos funciones: desde sus __globals__ no se llega a
las pruebas, y lo que guarda su cierre es la función opaca del servidor falso y la clase
ErrorDelServidor del lector.
"""


def enviar_sobre(servidor, ErrorDelServidor):
    """El enviar que lanza en el código del lector lo que responde `servidor` (opaco):
    ("ok", respuesta), ("json", motivo) o ("servidor", estado, motivo)."""
    def enviar(url, cuerpo, cabeceras=None, espera=120):
        que, *datos = servidor(url, cuerpo, cabeceras, espera)
        if que == "ok":
            return datos[0]
        if que == "json":
            raise TypeError(datos[0])
        raise ErrorDelServidor(*datos)
    enviar.__qualname__ = "enviar"
    return enviar


def url_del_modelo_sobre(pagina, ErrorDelServidor):
    """El url_del_modelo que da la dirección que da `pagina` (opaca), ("ok", url), o lanza
    ErrorDelServidor con ("servidor", estado, motivo)."""
    def url_del_modelo():
        que, *datos = pagina()
        if que == "ok":
            return datos[0]
        raise ErrorDelServidor(*datos)
    url_del_modelo.__qualname__ = "url_del_modelo"
    return url_del_modelo
