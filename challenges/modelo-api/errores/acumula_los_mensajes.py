# Error: guarda los mensajes de cada llamada y los manda todos en la siguiente.
# Cláusula: sin-memoria
# Falla: dos llamadas no se acuerdan de nada
# Mensaje: la 2.ª, con otro M de 3, no envía lo que envía un ModeloAPI nuevo con ese M
# Mensaje: ModeloAPI no se acuerda de nada entre llamadas

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
        self.historia = []

    def peticion(self, M, herramientas):
        sistema = [contenido for rol, contenido in M if rol == "sistema"]
        cuerpo = {"model": self.nombre, "max_tokens": self.max_tokens}
        if sistema:
            cuerpo["system"] = "\n\n".join(sistema)
        self.historia += [{"role": ROLES[rol], "content": contenido}
                          for rol, contenido in M if rol != "sistema"]
        cuerpo["messages"] = self.historia
        cuerpo["tools"] = herramientas
        return cuerpo

    def __call__(self, M, herramientas):
        url = self.url if self.url is not None else url_del_modelo()
        respuesta = self.enviar(url, self.peticion(M, herramientas), self.cabeceras)
        self.uso = respuesta.get("usage")
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], self.uso)
        return respuesta["content"]
