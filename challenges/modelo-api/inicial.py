# Desafío: el adaptador de un modelo real.
#
# Ya está cargado todo lo que dejan entorno.py (HERRAMIENTAS, texto, llamada,
# resultado, muestra...), escenarios.py y api.py (enviar, ErrorDelServidor,
# RespuestaCortada, url_del_modelo).

ROLES = {"usuario": "user", "asistente": "assistant"}


class ModeloAPI:
    """Un modelo con la firma de siempre, modelo(M, herramientas) -> bloques, que
    pregunta a un servidor que implementa el protocolo de mensajes. Así debe ser:

    - peticion(M, herramientas) es el cuerpo JSON que se envía: "model" (nombre),
      "max_tokens", "system" (los contenidos de los mensajes de sistema, tal cual y
      en orden, unidos con "\n\n"; sin ninguno, no hay clave), "messages" (los demás
      mensajes, en orden, con role "user" o "assistant" y su contenido tal cual) y
      "tools" (herramientas, tal cual). M no se cambia.
    - Al llamarlo, envía la petición con self.enviar(url, cuerpo, cabeceras) y
      devuelve el "content" de la respuesta tal como llega. Con url=None, la
      dirección la da url_del_modelo(), en cada llamada. Las cabeceras que se le
      dan al crearlo (un dict, o None) van tal cual en cada petición: son las que
      pida el servidor, como una clave.
    - Si la respuesta se cortó (stop_reason "max_tokens"), lanza
      RespuestaCortada(content, usage). Un ErrorDelServidor de enviar sale tal cual.
    - No se acuerda de nada entre llamadas; en self.uso deja el "usage" de la última
      respuesta, también de una cortada (None antes de la primera).
    """

    def __init__(self, nombre="smollm2-135m", max_tokens=256, url=None, cabeceras=None,
                 enviar=enviar):
        self.nombre = nombre
        self.max_tokens = max_tokens
        self.url = url
        self.cabeceras = cabeceras
        self.enviar = enviar
        self.uso = None

    def peticion(self, M, herramientas):
        """El cuerpo JSON de la petición. Escribe aquí la traducción de M."""
        return {"model": self.nombre, "max_tokens": self.max_tokens, "messages": [],
                "tools": herramientas}

    def __call__(self, M, herramientas):
        respuesta = self.enviar(self.url, self.peticion(M, herramientas))
        return respuesta["content"]
