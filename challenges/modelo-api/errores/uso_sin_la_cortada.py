# Error: guarda el usage solo de las respuestas que devuelve: tras una cortada, uso sigue con el
# que tenía (None, si es la primera), aunque la cortada también gastó tokens.
# Cláusula: uso-de-la-ultima
# Falla: una respuesta cortada también deja su uso
# Mensaje: una respuesta cortada también gastó tokens

ROLES = {"usuario": "user", "asistente": "assistant"}


class ModeloAPI:

    def __init__(self, nombre="smollm2-135m", max_tokens=256, url=None, cabeceras=None,
                 enviar=enviar):
        self.nombre = nombre
        self.max_tokens = max_tokens
        self.url = url
        self.cabeceras = cabeceras
        self.enviar = enviar
        self.uso = None

    def peticion(self, M, herramientas):
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
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], respuesta.get("usage"))
        self.uso = respuesta.get("usage")
        return respuesta["content"]
