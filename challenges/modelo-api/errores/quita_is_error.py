# Error: «limpia» los tool_result quitándoles is_error=False, en los bloques de M.
# Cláusula: contenido-tal-cual
# Cláusula: m-sin-tocar
# Falla: el contenido de cada mensaje, tal cual
# Mensaje: ["is_error"] debía ser False y es nada (la clave no está)

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
        for rol, contenido in M:
            for b in contenido if isinstance(contenido, list) else []:
                if b.get("is_error") is False:
                    del b["is_error"]
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
