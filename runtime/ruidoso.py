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
  - con probabilidad `argumentos`, hace la llamada con un argumento que no es el del esquema;
  - con probabilidad `no_para`, en lugar de contestar vuelve a pedir una llamada (listar la
    raíz), como un modelo que no sabe cuándo ha terminado.
  Las dos primeras solo pueden pasar en un turno en que `ideal` llama a una herramienta, y la
  tercera en uno en que contesta. `.turno` cuenta sus respuestas y `.errores` apunta cada error,
  (turno, "herramienta" | "argumentos" | "no_para").

Con la misma semilla se equivoca en los mismos turnos: una medida con él se repite tal cual. Sus
errores no confunden a `ideal`: antes de preguntarle, quita de M sus propias llamadas equivocadas
y lo que volvió de ellas, así que después de un error el modelo sigue donde estaba.
"""


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

    def __call__(self, M, herramientas=None):
        respuesta = self.ideal(self._sin_sus_errores(M), herramientas)
        self.turno += 1
        azar = self._azar.random()
        llamadas = [b for b in respuesta if isinstance(b, dict) and b.get("type") == "tool_use"]
        if llamadas and azar < self.herramienta:
            return self._equivocada("herramienta", "borrar", dict(llamadas[0]["input"]))
        if llamadas and azar < self.herramienta + self.argumentos:
            entrada = {f"{clave}_": valor for clave, valor in llamadas[0]["input"].items()}
            return self._equivocada("argumentos", llamadas[0]["name"], entrada or {"ruta_": ""})
        if not llamadas and azar < self.no_para:
            return self._equivocada("no_para", "listar", {"carpeta": ""})
        return respuesta

    def _equivocada(self, clase, nombre, entrada):
        id = f"ruido_{self.turno:02d}"
        self._suyas.add(id)
        self.errores.append((self.turno, clase))
        return [llamada(id, nombre, **entrada)]  # noqa: F821 (entorno.py)

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
