# Error: pide siempre 256 tokens, le den el max_tokens que le den.
# Cláusula: modelo-y-max-tokens
# Falla: el modelo y max_tokens
# Mensaje: Con ModeloAPI(nombre='otro-modelo', max_tokens=77), cuerpo["max_tokens"] debía ser 77 y es 256

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
        cuerpo = {"model": self.nombre, "max_tokens": 256}
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
