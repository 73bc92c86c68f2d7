"""``make mutantes``'s own logic (:mod:`tests.mutantes.informe`), on small fixtures: reading
Cosmic Ray's dump, the «## Mutantes equivalentes» section of a ``clausulas.md``, and the table's
counts. Needs no mutation tool; ``make mutantes`` itself is not run here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import challenges
from tests.mutantes import informe

RAIZ = Path(__file__).resolve().parent.parent

DIFF = """\
--- mutation diff ---
--- a/x/solucion.py
+++ b/x/solucion.py
@@ -17,7 +17,7 @@
     for _ in range(tope):
-        if b["type"] == "tool_use":
+        if b["type"] is "tool_use":
             pass
"""


def linea(operador, fila, resultado, diff=DIFF, salida=""):
    trabajo = {"job_id": "x", "mutations": [{
        "module_path": "x/solucion.py", "operator_name": operador, "occurrence": 0,
        "start_pos": [fila, 8], "end_pos": [fila, 10], "operator_args": {},
        "definition_name": "bucle"}]}
    if resultado is not None and resultado != "no-test":
        resultado = {"worker_outcome": "normal", "output": salida, "test_outcome": resultado,
                     "diff": diff}
    elif resultado == "no-test":
        resultado = {"worker_outcome": "no-test", "output": None, "test_outcome": None,
                     "diff": None}
    return json.dumps([trabajo, resultado])


CLAUSULAS = """\
# Las cláusulas de «x»

## `fin`: algo

- `un_error.py` (solo esta)

## Mutantes equivalentes

Los que sobreviven sin que nada pueda cambiar:

- `core/ReplaceComparisonOperator_Eq_Is`: `if b["type"] == "tool_use":` → `if b["type"] is "tool_use":`
  Solo un ejemplo: aquí las cadenas son siempre las mismas.
- `core/NumberReplacer`: `x = 1` → `x = 2`
  Otro.

## `otra`: lo que venga después no es de la sección

- no es una viñeta de mutante
"""


def test_el_cambio_de_un_diff_son_sus_lineas_sin_sangria():
    assert informe.cambio(DIFF) == ('if b["type"] == "tool_use":', 'if b["type"] is "tool_use":')
    dos = "--- a\n+++ b\n@@\n-  a = (1,\n-       2)\n+  a = (1,\n+       3)\n"
    assert informe.cambio(dos) == ("a = (1, ⏎ 2)", "a = (1, ⏎ 3)")


def test_el_volcado_da_un_mutante_por_trabajo_con_su_veredicto():
    mutantes = informe.de_volcado([
        linea("core/AddNot", 30, "killed"),
        "",
        linea("core/ReplaceComparisonOperator_Eq_Is", 17, "survived"),
        linea("core/NumberReplacer", 5, None),
        linea("core/NumberReplacer", 6, "no-test"),
    ])
    assert [(m.linea, m.operador, m.veredicto) for m in mutantes] == [
        (5, "core/NumberReplacer", None),
        (17, "core/ReplaceComparisonOperator_Eq_Is", "survived"),
        (30, "core/AddNot", "killed"),
    ]
    assert mutantes[1].clave == ("core/ReplaceComparisonOperator_Eq_Is",
                                 'if b["type"] == "tool_use":', 'if b["type"] is "tool_use":')
    assert mutantes[0].antes == mutantes[0].despues == ""


def test_las_explicaciones_se_leen_de_su_seccion_y_solo_de_ella():
    leidas = informe.explicaciones(CLAUSULAS)
    assert leidas == {
        ("core/ReplaceComparisonOperator_Eq_Is", 'if b["type"] == "tool_use":',
         'if b["type"] is "tool_use":'):
            "Solo un ejemplo: aquí las cadenas son siempre las mismas.",
        ("core/NumberReplacer", "x = 1", "x = 2"): "Otro.",
    }
    assert informe.explicaciones("# Sin sección\n\n## `fin`: algo\n") == {}


def test_la_vineta_de_un_mutante_es_la_que_lo_explica():
    (m,) = informe.de_volcado([linea("core/ReplaceComparisonOperator_Eq_Is", 17, "survived")])
    texto = f"# x\n\n{informe.SECCION}\n\n{m.vineta()}\n  Por qué.\n"
    assert informe.explicaciones(texto) == {m.clave: "Por qué."}


@pytest.mark.parametrize("seccion, motivo", [
    ("- `core/AddNot` `x` → `y`\n  Por qué.\n", "no se entiende"),
    ("- `core/AddNot`: `x` → `y`\n", "por qué"),
    ("- `core/AddNot`: `x` → `y`\n\n  Por qué.\n", "por qué"),
    ("- `core/AddNot`: `x` → `y`\n  Uno.\n- `core/AddNot`: `x` → `y`\n  Dos.\n", "dos veces"),
])
def test_una_seccion_mal_escrita_dice_que_le_falta(seccion, motivo):
    with pytest.raises(informe.ExplicacionMal, match=motivo):
        informe.explicaciones(f"# x\n\n{informe.SECCION}\n\n{seccion}")


def test_la_cuenta_separa_muertos_explicados_sin_explicar_y_sin_veredicto():
    mutantes = informe.de_volcado([
        linea("core/AddNot", 30, "killed"),
        linea("core/AddNot", 31, "killed"),
        linea("core/ReplaceComparisonOperator_Eq_Is", 17, "survived"),
        linea("core/ReplaceComparisonOperator_Eq_Lt", 17, "survived",
              diff=DIFF.replace(" is ", " < ")),
        linea("core/ZeroIterationForLoop", 3, "incompetent", salida="Traceback\nboom\n"),
    ])
    c = informe.cuenta("x", "challenges/x/solucion.py", mutantes, informe.explicaciones(CLAUSULAS))
    assert (c.mutantes, c.muertos, c.sobreviven, c.explicados) == (5, 2, 2, 1)
    assert [m.operador for m in c.sin_explicar] == ["core/ReplaceComparisonOperator_Eq_Lt"]
    assert [m.operador for m in c.sin_veredicto] == ["core/ZeroIterationForLoop"]
    assert c.sobrantes == [("core/NumberReplacer", "x = 1", "x = 2")]
    assert not c.bien
    explicados = [m for m in mutantes if m.veredicto == "killed" or m.operador.endswith("_Is")]
    todo_explicado = informe.cuenta("x", "f", explicados, informe.explicaciones(CLAUSULAS))
    assert todo_explicado.bien and todo_explicado.sobrantes


def test_un_muerto_por_tiempo_o_sin_calificar_se_cuenta_y_se_dice():
    mutantes = informe.de_volcado([
        linea("core/AddNot", 1, "killed", salida="✘ una: no\n15 passed, 1 failed\n"),
        linea("core/AddNot", 2, "killed", salida="timeout"),
        linea("core/AddNot", 3, "killed", salida=""),
    ])
    c = informe.cuenta("x", "challenges/x/solucion.py", mutantes, {})
    assert (c.muertos, [m.linea for m in c.por_tiempo], [m.linea for m in c.sin_calificar]) == (
        3, [2], [3])
    assert c.bien
    texto = informe.tabla([c])
    assert "(de los muertos, 1 por el límite de tiempo)" in texto
    assert "aviso: muerto sin que el calificador calificara: challenges/x/solucion.py:3" in texto
    assert ":1 " not in texto


def test_la_tabla_tiene_una_fila_por_desafio_el_total_y_cada_superviviente_sin_explicar():
    sobrevive = informe.de_volcado([linea("core/ReplaceComparisonOperator_Eq_Lt", 17,
                                          "survived", diff=DIFF.replace(" is ", " < "))])
    muertos = informe.de_volcado([linea("core/AddNot", 3, "killed", salida="1 passed, 1 failed")]
                                 * 3)
    cuentas = [informe.cuenta("uno", "challenges/uno/solucion.py", sobrevive, {}),
               informe.cuenta("otro-mas-largo", "challenges/otro/solucion.py", muertos, {}),
               informe.Cuenta("roto", "challenges/roto/solucion.py", problema="no pasa")]
    lineas = informe.tabla(cuentas).splitlines()
    assert [f.split() for f in lineas[:5]] == [
        ["desafío", "mutantes", "muertos", "sobreviven", "explicados"],
        ["uno", "1", "0", "1", "0"],
        ["otro-mas-largo", "3", "3", "0", "0"],
        ["roto", "0", "0", "0", "0"],
        ["total", "4", "3", "1", "0"],
    ]
    assert len({len(f) for f in lineas[:5]}) == 1  # the columns line up
    resto = "\n".join(lineas[5:])
    assert ("sobrevive sin explicar: challenges/uno/solucion.py:17 "
            "core/ReplaceComparisonOperator_Eq_Lt") in resto
    assert '    - if b["type"] == "tool_use":' in resto
    assert '    + if b["type"] < "tool_use":' in resto
    assert sobrevive[0].vineta() in resto
    assert "roto: no se pudo probar: no pasa" in resto


@pytest.mark.parametrize("desafio", challenges.desafios())
def test_las_explicaciones_de_cada_desafio_se_leen(desafio):
    """Each challenge's «## Mutantes equivalentes» (if any) is well formed; whether each still
    matches a survivor is for `make mutantes` to say."""
    informe.explicaciones((RAIZ / "challenges" / desafio / "clausulas.md").read_text("utf-8"))
