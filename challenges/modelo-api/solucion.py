# La solución de referencia de «modelo-api»: el adaptador entre el bucle y un servidor que
# implementa el protocolo de mensajes.

ROLES = {"usuario": "user", "asistente": "assistant"}


class ModeloAPI:
    """Un modelo con la firma de siempre, modelo(M, herramientas) -> bloques, que pregunta a
    un servidor real: traduce M a una petición, la envía (a url, con sus cabeceras) y
    devuelve el content de la respuesta tal como llega."""

    def __init__(self, nombre="smollm2-135m", max_tokens=256, url=None, cabeceras=None,
                 enviar=enviar):
        self.nombre = nombre
        self.max_tokens = max_tokens
        self.url = url
        self.cabeceras = cabeceras
        self.enviar = enviar
        self.uso = None

    def peticion(self, M, herramientas):
        """El cuerpo JSON de la petición: M traducido, sin tocar ningún contenido."""
        sistema = [contenido for rol, contenido in M if rol == "sistema"]
        cuerpo = {"model": self.nombre, "max_tokens": self.max_tokens}
        if sistema:
            cuerpo["system"] = "\n\n".join(sistema)
        cuerpo["messages"] = [{"role": ROLES[rol], "content": contenido}
                              for rol, contenido in M if rol != "sistema"]
        cuerpo["tools"] = herramientas
        return cuerpo

    def __call__(self, M, herramientas):
        url = self.url if self.url is not None else url_del_modelo()
        respuesta = self.enviar(url, self.peticion(M, herramientas), self.cabeceras)
        self.uso = respuesta.get("usage")
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], self.uso)
        return respuesta["content"]
