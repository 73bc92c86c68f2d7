"""What every lesson and challenge of the course keeps (issue #55), measured by the project's own
code (``tests/copia.py``, ``tests/lecciones/forma.py``):

- every challenge asks for code the reader has not seen: for each name it asks for, the best
  line ratio against anything visible before it is under 0.85 and at least 40 % of the
  reference's lines stand nowhere visible;
- a lesson asks before it tells: it has predictions (a ``predice-`` question before a cell) and a
  «Cámbialo tú» with its question;
- no lesson has more than 2,800 words of prose.

The lessons' own tests (``tests/lecciones/``) check that each prediction's answer is what its
cell prints and that each «Cámbialo tú» breaks where its answer says.
"""

from __future__ import annotations

import ast

import pytest

from tests import copia
from tests.lecciones import forma

DESAFIOS = copia.desafios_del_curso()
LECCIONES = forma.lecciones_con_desafio()


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_cada_desafio_pide_codigo_que_el_lector_no_ha_visto(desafio):
    filas = copia.filas(desafio)
    assert filas, f"{desafio}: la referencia no pide nada que el código inicial no dé"
    for f in filas:
        assert f.parecido < copia.PARECIDO_MAXIMO, (
            f"{desafio}: {f.nombre} se parece {f.parecido:.2f} a algo visible antes:\n{f.mas_parecida}")
        assert f.nuevas >= copia.NUEVAS_MINIMAS, (
            f"{desafio}: solo el {f.nuevas:.0%} de las líneas de {f.nombre} es nuevo")


def test_la_medida_de_la_copia_ve_una_copia_con_otros_nombres():
    referencia = ast.parse("def bucle(modelo, M, tope):\n    '''Doc.'''\n    for _ in range(tope):\n"
                           "        r = modelo(M)\n        M.append(r)\n    return M\n").body[0]
    copiada = ast.parse("def otro(m, mensajes, n):\n    for i in range(n):\n        x = m(mensajes)\n"
                        "        mensajes.append(x)\n    return mensajes\n").body[0]
    distinta = ast.parse("def otro(m, mensajes, n):\n    while len(mensajes) < n:\n"
                         "        mensajes.extend(m(mensajes))\n    return mensajes[:n]\n").body[0]
    a, b, c = (copia.texto_normalizado(d) for d in (referencia, copiada, distinta))
    assert a == b and copia.parecido(a, b) == 1.0
    assert copia.parecido(a, c) < copia.PARECIDO_MAXIMO


@pytest.mark.parametrize("leccion", LECCIONES)
def test_cada_leccion_pide_predecir_antes_de_ejecutar(leccion):
    assert forma.predicciones(leccion), f"{leccion}: ninguna pregunta «predice-» antes de una celda"
    assert set(forma.preguntas(leccion, "predice-")) == {p for p, _ in forma.predicciones(leccion)}, (
        f"{leccion}: una pregunta «predice-» que no está justo antes de una celda")


@pytest.mark.parametrize("leccion", LECCIONES)
def test_cada_leccion_tiene_su_cambialo_tu(leccion):
    assert forma.cambialo(leccion), f"{leccion}: sin sección «Cámbialo tú» con su pregunta «cambialo-»"


@pytest.mark.parametrize("leccion", LECCIONES)
def test_ninguna_leccion_pasa_de_2800_palabras_de_prosa(leccion):
    assert forma.palabras(leccion) <= forma.PALABRAS_MAXIMAS


def test_la_prosa_no_cuenta_el_codigo():
    texto = ("# Título\n\nDos palabras `codigo en linea`.\n\n```{celda}\n:id: x\nprint('muchas palabras aqui')\n"
             "```\n\n::::{pregunta} ¿Una pregunta?\n:id: p\n- [x] Sí.\n::::\n")
    assert forma.prosa(texto).split() == ["#", "Título", "Dos", "palabras", ".", "¿Una", "pregunta?", "-",
                                          "[x]", "Sí."]
