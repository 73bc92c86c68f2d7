"""The in-page model's output read back as the page reads it (widgets/front/modelo/esquema.js's
``claveDeTexto``, lectura.js's ``interpretar`` and ``textoRescatado``), in plain Python: for the
training script's evaluation and for the bench's runs in native llama.cpp
(tests/bench/evaluar.py), which must read the model's answers as the page does. No torch here.
"""

from __future__ import annotations

import json
import re


def clave_de_texto(herramientas) -> str:
    """esquema.js claveDeTexto: «respuesta», with «_» before it while a tool has that name."""
    nombres = {h["name"] for h in herramientas or []}
    clave = "respuesta"
    while clave in nombres:
        clave = "_" + clave
    return clave


def interpretar(texto: str, clave: str):
    """lectura.js interpretar: {type: text | tool_use, …} or None."""
    try:
        valor = json.loads(texto)
    except ValueError:
        return None
    if not isinstance(valor, dict) or len(valor) != 1:
        return None
    (nombre, dentro), = valor.items()
    if nombre == clave:
        return {"type": "text", "text": dentro} if isinstance(dentro, str) else None
    if nombre != "" and isinstance(dentro, dict):
        return {"type": "tool_use", "name": nombre, "input": dentro}
    return None


def rescatado(texto: str, clave: str) -> str:
    """lectura.js textoRescatado: the decoded start of a cut text answer."""
    if not texto.lstrip().startswith("{"):
        return texto
    inicio = re.match(r'^\s*\{\s*' + re.escape(json.dumps(clave)) + r'\s*:\s*"', texto)
    if not inicio:
        return ""
    cuerpo = re.match(r'^(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*', texto[inicio.end():]).group(0)
    try:
        return json.loads(f'"{cuerpo}"')
    except ValueError:
        return ""
