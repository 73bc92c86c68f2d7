"""The in-page model's output read in two languages, held equal: the page reads it with
widgets/front/modelo/lectura.js (``bloquesDeSalida``) and esquema.js (``claveDeTexto``), and
CPython (the training's evaluation, the bench's native runs) with entrenamiento/salida.py
(``interpretar``, ``rescatado``, ``clave_de_texto``). Both are run here on the same outputs, the
JavaScript in Node, and must give the same blocks."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from entrenamiento import salida

RAIZ = Path(__file__).resolve().parents[1]
MODELO = RAIZ / "widgets" / "front" / "modelo"

NODE = """
import { readFileSync } from "node:fs";
const { bloquesDeSalida } = await import(process.argv[2]);
const { claveDeTexto } = await import(process.argv[3]);
const casos = JSON.parse(readFileSync(process.argv[4], "utf8"));
const salida = casos.map(([texto, fin, herramientas]) => {
  let n = 0;
  const clave = claveDeTexto(herramientas);
  return [clave, bloquesDeSalida(texto, fin, () => `toolu_${++n}`, clave)];
});
// Infinity and NaN as their names (JSON.stringify would write null), as the Python side does
const nombrado = (_, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v);
process.stdout.write(JSON.stringify(salida, nombrado));
"""

RESPUESTA = {"name": "respuesta", "input_schema": {"type": "object"}}
LEER = {"name": "leer", "input_schema": {"type": "object"}}
#: Outputs (whole, cut, malformed, and in the corners where two languages' JSON, whitespace and
#: regular expressions could part), each read whole ("stop") and cut ("length").
SALIDAS = [
    '{"respuesta":"Ya está: he apuntado huevos y cebolla."}',
    '{ "respuesta": "Hola" }\n',
    '{"respuesta":""}',
    '{"leer":{"ruta":"lista.txt"}}',
    '{"escribir":{"ruta":"lista.txt","contenido":"pan, «ñ» 😀 \\"x\\""}}',
    '{"leer":{}}',
    '{"leer":"lista.txt"}',
    '{"respuesta":{"texto":"no"}}',
    '{"":{"a":1}}',
    '{"leer":{"ruta":"a"},"respuesta":"b"}',
    '{"respuesta":"a","respuesta":"b"}',
    '["respuesta","hola"]',
    '"hola"',
    "null",
    "Hola, soy un modelo que no",
    "",
    "   ",
    '{"escribir":{"ruta":"lista.txt","conte',
    '{"escri',
    "{",
    '{"respuesta":"Te falta: \\"huevos\\"\\ny cebo',
    '{ "respuesta": "caf\\u00e9 y t\\u00',
    '{"respuesta":',
    '{"respuesta":"fin\\',
    '{"respuesta":"tab\tcruda',
    '{"respuesta" : "x\\ud83d\\ude00 y',
    '\n\t {"respuesta":"con espacios delante',
    '\u00a0{"respuesta":"tras un espacio duro',
    '\ufeff{"respuesta":"tras una marca de orden',
    '\u2028{"respuesta":"tras un separador de línea',
    '\x1c{"respuesta":"tras un separador de ficheros',
    '\x85{"respuesta":"tras un NEL',
    '\u3000\u1680\u205f{"respuesta":"tras espacios de otras escrituras',
    '\u200b{"respuesta":"tras un espacio de anchura cero',
    '{\u00a0"respuesta":"espacio duro dentro',
    '{"leer":{"n":NaN}}',
    '{"leer":{"n":Infinity}}',
    '{"leer":{"n":-Infinity}}',
    '{"leer":{"n":1e400}}',
    '{"leer":{"n":01}}',
    '{"leer":{"t":"\\ud800"}}',
    '{"_respuesta":"con la otra clave"}',
    '{"_respuesta":"cortada con la otra cl',
]
HERRAMIENTAS = [[], [LEER], [RESPUESTA, LEER], [RESPUESTA, {**LEER, "name": "_respuesta"}]]


def en_la_pagina(casos: list, carpeta: Path) -> list:
    """[clave, bloquesDeSalida(…)] of each (texto, fin, herramientas), computed by the page's
    modules in Node."""
    node = shutil.which("node")
    assert node, "Node.js is needed for this test"
    guion, datos = carpeta / "leer.mjs", carpeta / "casos.json"
    guion.write_text(NODE, encoding="utf-8")
    datos.write_text(json.dumps(casos), encoding="utf-8")
    p = subprocess.run([node, guion, (MODELO / "lectura.js").as_uri(),
                        (MODELO / "esquema.js").as_uri(), datos],
                       capture_output=True, text=True, timeout=60, check=False)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def en_cpython(texto: str, fin: str, herramientas: list) -> list:
    """The same, from salida.py: the blocks the page builds from what ``interpretar`` and
    ``rescatado`` read."""
    clave = salida.clave_de_texto(herramientas)
    entero = salida.interpretar(texto, clave)
    if entero and entero["type"] == "tool_use":
        llamada = {"type": "tool_use", "id": "toolu_1", "name": entero["name"],
                   "input": entero["input"]}
        return [clave, {"content": [llamada], "stop_reason": "tool_use"}]
    if entero:
        texto, razon = entero["text"], "end_turn"
    elif fin == "length":
        texto, razon = salida.rescatado(texto, clave), "max_tokens"
    else:
        razon = "end_turn"
    bloques = [{"type": "text", "text": texto}] if texto else []
    return [clave, {"content": bloques, "stop_reason": razon}]


def comparable(valor):
    """``valor`` with each infinite or NaN number as its name, as the Node side writes it."""
    return json.loads(json.dumps(valor), parse_constant=str)


def test_the_page_and_cpython_read_every_output_the_same(tmp_path):
    casos = [[t, fin, h] for t in SALIDAS for fin in ("stop", "length") for h in HERRAMIENTAS]
    pagina = en_la_pagina(casos, tmp_path)
    distintos = [(caso, p, py) for caso, p in zip(casos, pagina, strict=True)
                 if (py := comparable(en_cpython(*caso))) != p]
    assert not distintos, ("lectura.js/esquema.js and salida.py read these differently "
                           "(case, page, CPython):\n" + "\n".join(repr(d) for d in distintos[:20]))


def test_the_cases_reach_every_branch_of_the_reading():
    """Calls, text answers, salvaged cuts, raw text and nothing: the cases are not all alike."""
    casos = [[t, fin, h] for t in SALIDAS for fin in ("stop", "length") for h in HERRAMIENTAS[:1]]
    razones = {json.dumps(en_cpython(*c)[1]["stop_reason"]) for c in casos}
    assert razones == {'"tool_use"', '"end_turn"', '"max_tokens"'}
    assert {salida.clave_de_texto(h) for h in HERRAMIENTAS} == {"respuesta", "_respuesta",
                                                                  "__respuesta"}
