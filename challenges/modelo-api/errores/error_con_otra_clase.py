# Error: convierte el ErrorDelServidor en un ConnectionError con otro mensaje.
# Cláusula: error-del-servidor-sale
# Falla: un error del servidor sale tal cual: 400, 404, nadie responde
# Mensaje: ModeloAPI lanzó ConnectionError («no se pudo hablar con el modelo»)

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
        try:
            respuesta = self.enviar(url, self.peticion(M, herramientas), self.cabeceras)
        except ErrorDelServidor:
            raise ConnectionError("no se pudo hablar con el modelo") from None
        self.uso = respuesta.get("usage")
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], self.uso)
        return respuesta["content"]
