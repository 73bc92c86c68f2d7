# Error: pide la dirección en la primera llamada y se la queda para siempre.
# Cláusula: url-al-llamar
# Falla: con url=None, la dirección se pide al llamar
# Mensaje: en la 2.ª llamada url_del_modelo() daba 'http://curso.de.prueba/otra/v1/messages'

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
        if self.url is None:
            self.url = url_del_modelo()
        url = self.url
        respuesta = self.enviar(url, self.peticion(M, herramientas), self.cabeceras)
        self.uso = respuesta.get("usage")
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], self.uso)
        return respuesta["content"]
