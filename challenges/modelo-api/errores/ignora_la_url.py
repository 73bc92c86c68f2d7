# Error: envía siempre a url_del_modelo(), aunque le den una dirección.
# Cláusula: url-al-llamar
# Falla: con url=…, envía a esa dirección
# Mensaje: Con url='http://servidor.de.prueba:8080/v1/messages', la petición fue a «http://curso.de.prueba/modelo/v1/messages»

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
        url = url_del_modelo()
        respuesta = self.enviar(url, self.peticion(M, herramientas), self.cabeceras)
        self.uso = respuesta.get("usage")
        if respuesta.get("stop_reason") == "max_tokens":
            raise RespuestaCortada(respuesta["content"], self.uso)
        return respuesta["content"]
