# El mundo del curso: los ficheros, una herramienta y un modelo con guion.
# Una celda lo carga con exec(open_url("runtime/mundo.py").read()); las trazas y las pruebas
# de los desafíos lo tienen ya cargado. Lo que empieza por «_» no es para el lector.

import copy as _copia

#: Los ficheros del lector: ruta → texto. Se trabaja siempre sobre una copia: dict(ENTORNO).
ENTORNO = {"saludo.txt": "hola a todos", "notas.txt": "comprar pan\nllamar a Ana"}


def contar(entorno, ruta):
    """Cuántas palabras tiene el fichero `ruta` (como texto)."""
    return str(len(entorno[ruta].split()))


#: Las herramientas: nombre → función, y su descripción como la lee el modelo.
FUNCIONES = {"contar": contar}
HERRAMIENTAS = [{
    "name": "contar",
    "description": "Cuenta las palabras de un fichero.",
    "input_schema": {"type": "object", "properties": {"ruta": {"type": "string"}},
                     "required": ["ruta"]},
}]


def texto(t):
    """Un bloque de texto del modelo."""
    return {"type": "text", "text": t}


def llamada(id, nombre, **entrada):
    """Un bloque con el que el modelo pide una herramienta."""
    return {"type": "tool_use", "id": id, "name": nombre, "input": entrada}


def resultado(id, contenido, es_error=False):
    """El resultado de una llamada, como vuelve al modelo."""
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": es_error}


def muestra(bloque):
    """Una línea legible de un bloque (o de un texto)."""
    if isinstance(bloque, str):
        return f"«{bloque}»"
    if bloque.get("type") == "tool_use":
        argumentos = ", ".join(f"{k}={v!r}" for k, v in bloque["input"].items())
        return f"llamada {bloque['id']} {bloque['name']}({argumentos})"
    if bloque.get("type") == "tool_result":
        return f"resultado {bloque['tool_use_id']}: «{bloque['content']}»"
    return f"«{bloque.get('text', '')}»"


def _como_json(x):
    """Tuplas como listas: así se comparan los mensajes."""
    if isinstance(x, (list, tuple)):
        return [_como_json(y) for y in x]
    if isinstance(x, dict):
        return {k: _como_json(v) for k, v in x.items()}
    return x


class ModeloGuionizado:
    """Un modelo que sigue su guion, [(los mensajes que espera, su respuesta), …], y se queja
    si lo que recibe no es lo que esperaba. `.turno`: cuántas respuestas ha dado."""

    def __init__(self, guion):
        self.guion = _copia.deepcopy(list(guion))
        self.turno = 0

    def __call__(self, M, herramientas):
        if self.turno >= len(self.guion):
            raise RuntimeError(f"el guion no tiene turno {self.turno + 1}")
        esperado, respuesta = self.guion[self.turno]
        self.turno += 1
        recibido, esperado = _como_json(M), _como_json(esperado)
        if recibido != esperado:
            i = next((i for i, (r, e) in enumerate(zip(recibido, esperado, strict=False)) if r != e),
                     min(len(recibido), len(esperado)))
            raise ValueError(f"en el turno {self.turno}, el mensaje {i} de M no es el que "
                             f"esperaba el guion (M tiene {len(recibido)} mensajes; el guion "
                             f"esperaba {len(esperado)})")
        return _copia.deepcopy(respuesta)


def guion_de(inicio, respuestas, entorno):
    """El guion que sigue un bucle correcto: cada respuesta, tras los mensajes que la preceden."""
    entorno, M, guion = dict(entorno), list(inicio), []
    for respuesta in respuestas:
        guion.append((_copia.deepcopy(M), respuesta))
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if llamadas:
            M.append(("usuario", [resultado(b["id"], FUNCIONES[b["name"]](entorno, **b["input"]))
                                  for b in llamadas]))
    return guion
