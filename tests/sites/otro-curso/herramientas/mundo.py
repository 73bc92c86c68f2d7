# El mundo de «Otro curso»: un archivo, una herramienta y un modelo con guion.
# Se carga con exec(open_url("runtime/mundo.py").read()).

import copy as _copia

ENTORNO = {"saludo.txt": "hola a todos"}


def contar(entorno, ruta):
    """Cuántas palabras tiene el archivo `ruta`."""
    return str(len(entorno[ruta].split()))


FUNCIONES = {"contar": contar}
HERRAMIENTAS = [{
    "name": "contar",
    "description": "Cuenta las palabras de un archivo.",
    "input_schema": {"type": "object", "properties": {"ruta": {"type": "string"}},
                     "required": ["ruta"]},
}]


def texto(t):
    return {"type": "text", "text": t}


def llamada(id, nombre, **input):
    return {"type": "tool_use", "id": id, "name": nombre, "input": input}


def resultado(id, contenido, es_error=False):
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": es_error}


def muestra(x):
    """Una línea legible de un bloque (o de un texto)."""
    if isinstance(x, str):
        return f"«{x}»"
    if x.get("type") == "tool_use":
        argumentos = ", ".join(f"{k}={v!r}" for k, v in x["input"].items())
        return f"llamada {x['id']} {x['name']}({argumentos})"
    if x.get("type") == "tool_result":
        return f"resultado {x['tool_use_id']}: «{x['content']}»"
    return f"«{x.get('text', '')}»"


def _normal(x):
    if isinstance(x, (list, tuple)):
        return [_normal(y) for y in x]
    if isinstance(x, dict):
        return {k: _normal(v) for k, v in x.items()}
    return x


class ModeloGuionizado:
    """Un modelo que sigue su guion: [(los mensajes que espera, su respuesta), ...]."""

    def __init__(self, guion):
        self.guion = _copia.deepcopy(list(guion))
        self.turno = 0

    def __call__(self, M, herramientas):
        if self.turno >= len(self.guion):
            raise RuntimeError(f"el guion no tiene turno {self.turno + 1}")
        esperado, respuesta = self.guion[self.turno]
        self.turno += 1
        if _normal(M) != _normal(esperado):
            raise ValueError(f"En el turno {self.turno} el modelo recibió {len(M)} mensajes; "
                             f"esperaba {len(esperado)}.")
        return _copia.deepcopy(respuesta)


def guion_de(inicio, respuestas, entorno):
    """El guion que sigue un bucle correcto: cada respuesta, con los mensajes que la preceden."""
    entorno, M, guion = dict(entorno), list(inicio), []
    for respuesta in respuestas:
        guion.append((_copia.deepcopy(M), respuesta))
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if llamadas:
            M.append(("usuario", [resultado(b["id"], FUNCIONES[b["name"]](entorno, **b["input"]))
                                  for b in llamadas]))
    return guion
