"""Un modelo que casi siempre acierta y a veces se equivoca, con semilla: para medir un arnés.

Se carga después de entorno.py (usa llamada):

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/ruidoso.py").read())

y deja en tu espacio de nombres:

- ModeloRuidoso(ideal, semilla=0, herramienta=0.0, argumentos=0.0, no_para=0.0): un modelo,
  modelo(M, herramientas) -> bloques, que en cada turno da el paso de `ideal` (otro modelo, por
  ejemplo el modelo_ideal() de una Tarea) salvo cuando el azar decide que se equivoque:
  - con probabilidad `herramienta`, en lugar de la llamada pide una herramienta que no existe
    («borrar»);
  - con probabilidad `argumentos`, hace la llamada con argumentos que no son los del esquema
    (cada nombre con un «_» detrás: «ruta_»);
  - con probabilidad `no_para`, en lugar de contestar repite la última llamada que hizo (o
    lista la raíz, si no hizo ninguna), como un modelo que no sabe cuándo ha terminado.
  Las dos primeras solo pueden pasar en un turno en que `ideal` llama a una herramienta, y la
  tercera en uno en que contesta. `.turno` cuenta sus respuestas y `.errores` apunta cada error,
  (turno, "herramienta" | "argumentos" | "no_para").

Es terco, como muchos modelos reales: tras un error, en el turno siguiente repite la misma
llamada equivocada salvo que lo que le devolvió el arnés le indique el camino:
- tras «herramienta», que la observación nombre la herramienta que quería (`ideal`'s);
- tras «argumentos», que nombre cada argumento bueno («ruta», no «ruta_»);
- tras «no_para», que la observación sea un error (un arnés que no ejecuta otra vez lo mismo).
Así un arnés con mejores observaciones acaba más tareas con el mismo modelo, y se puede medir.

Con la misma semilla se equivoca en los mismos turnos: una medida con él se repite tal cual. Sus
errores no confunden a `ideal`: antes de preguntarle, quita de M sus propias llamadas equivocadas
y lo que volvió de ellas, así que cuando sale del error sigue donde estaba.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: llamada


class ModeloRuidoso:
    """El modelo `ideal`, que se equivoca a veces, con semilla (véase el principio del fichero)."""

    def __init__(self, ideal, semilla=0, herramienta=0.0, argumentos=0.0, no_para=0.0):
        import random

        for nombre, p in (("herramienta", herramienta), ("argumentos", argumentos),
                          ("no_para", no_para)):
            if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 <= p <= 1:
                raise ValueError(f"{nombre} es una probabilidad, entre 0 y 1, y es {p!r}")
        if herramienta + argumentos > 1:
            raise ValueError(f"herramienta y argumentos suman {herramienta + argumentos}: "
                             f"en un turno solo puede pasar uno de los dos, y no pueden sumar más de 1")
        self.ideal = ideal
        self.herramienta, self.argumentos, self.no_para = herramienta, argumentos, no_para
        self.turno = 0
        self.errores = []
        self._azar = random.Random(semilla)
        self._suyas = set()  # los ids de sus llamadas equivocadas
        self._ultimo = None  # su último error: (clase, nombre, entrada, id, la llamada buena)

    def __call__(self, M, herramientas=None):
        ultimo, self._ultimo = self._ultimo, None
        if ultimo is not None and not self._le_ensena(ultimo, self._observacion(M, ultimo[3])):
            self.turno += 1
            return self._equivocada(*ultimo[:3], ultimo[4])
        limpia = self._sin_sus_errores(M)
        respuesta = self.ideal(limpia, herramientas)
        self.turno += 1
        azar = self._azar.random()
        llamadas = [b for b in respuesta if isinstance(b, dict) and b.get("type") == "tool_use"]
        if llamadas:
            buena = llamadas[0]
            if azar < self.herramienta:
                return self._equivocada("herramienta", "borrar", dict(buena["input"]), buena)
            if azar < self.herramienta + self.argumentos:
                entrada = {f"{clave}_": valor for clave, valor in buena["input"].items()}
                return self._equivocada("argumentos", buena["name"], entrada or {"ruta_": ""}, buena)
        elif azar < self.no_para:
            previa = self._ultima_llamada(limpia)
            if previa is None:
                return self._equivocada("no_para", "listar", {"carpeta": ""}, None)
            return self._equivocada("no_para", previa["name"], dict(previa["input"]), None)
        return respuesta

    def _equivocada(self, clase, nombre, entrada, buena):
        id = f"ruido_{self.turno:02d}"
        self._suyas.add(id)
        self.errores.append((self.turno, clase))
        self._ultimo = (clase, nombre, entrada, id, buena)
        return [llamada(id, nombre, **entrada)]

    def _sin_sus_errores(self, M):
        """M sin sus llamadas equivocadas ni lo que volvió de ellas (ni los mensajes que se quedan
        vacíos)."""
        limpia = []
        for mensaje in M:
            rol, contenido = mensaje
            if not isinstance(contenido, list):
                limpia.append(mensaje)
                continue
            quedan = [b for b in contenido if not (
                isinstance(b, dict) and (b.get("id") in self._suyas or b.get("tool_use_id") in self._suyas))]
            if quedan or not contenido:
                limpia.append((rol, quedan) if len(quedan) != len(contenido) else mensaje)
        return limpia

    @staticmethod
    def _observacion(M, id):
        """El bloque tool_result de la llamada `id` en M, o None si el arnés no lo ha puesto."""
        for _, contenido in reversed(M):
            for b in contenido if isinstance(contenido, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") == id:
                    return b
        return None


    @staticmethod
    def _le_ensena(ultimo, resultado):
        """¿Lo que devolvió el arnés a su llamada equivocada le indica el camino?"""
        import re

        clase, buena = ultimo[0], ultimo[4]
        if resultado is None:
            return False
        if clase == "no_para":
            return bool(resultado.get("is_error"))
        texto = resultado.get("content")
        if isinstance(texto, list):
            texto = " ".join(b.get("text", "") for b in texto if isinstance(b, dict))
        texto = texto if isinstance(texto, str) else ""
        nombres = [buena["name"]] if clase == "herramienta" else list(buena["input"])
        return all(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", texto) for n in nombres)


    @staticmethod
    def _ultima_llamada(M):
        """La última llamada del asistente en M, o None."""
        for rol, contenido in reversed(M):
            for b in reversed(contenido) if rol == "asistente" and isinstance(contenido, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_use":
                    return b
        return None
