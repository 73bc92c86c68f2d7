"""The in-page model's output read back as the page reads it (widgets/front/modelo/esquema.js's
``claveDeTexto``, lectura.js's ``interpretar`` and ``textoRescatado``), in plain Python: for the
training script's evaluation and for the bench's runs in native llama.cpp
(bench/evaluar.py), which must read the model's answers as the page does. No torch here.
tests/test_salida_del_modelo.py runs both on the same outputs and holds them equal.
"""

from __future__ import annotations

import json
import re

#: What JavaScript's ``trimStart`` and ``\s`` take for white space (Python's ``str.isspace``
#: and ``\s`` differ: they take U+001C–U+001F and U+0085, and not U+FEFF).
ESPACIOS = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
            "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
_S = f"[{ESPACIOS}]"


def _no_es_json(constante: str):
    """``NaN``, ``Infinity``, ``-Infinity``: Python's json reads them, JSON.parse does not."""
    raise ValueError(f"{constante} no es JSON")


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
        valor = json.loads(texto, parse_constant=_no_es_json)
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
    if not texto.lstrip(ESPACIOS).startswith("{"):
        return texto
    inicio = re.match(f"^{_S}*\\{{{_S}*" + re.escape(json.dumps(clave)) + f'{_S}*:{_S}*"', texto)
    if not inicio:
        return ""
    resto = texto[inicio.end():]
    cuerpo = re.match(r'^(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*', resto).group(0)
    try:
        return json.loads(f'"{cuerpo}"')
    except ValueError:
        return ""
