"""Each challenge's clauses (``challenges/<id>/clausulas.md``) and its known-wrong solutions.

``clausulas.md`` lists the clauses of a challenge's contract (the statement's bullets and the
starter's docstring): for each, the tests that check it and the known-wrong solutions that break
it, one of them marked «(solo esta)». Each known-wrong solution names in its header, with
``# Cláusula: <id>``, the clauses it breaks. Here: the list and the headers say the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import challenges

RAIZ = Path(__file__).resolve().parent.parent
DESAFIOS = challenges.desafios()
SOLO = " (solo esta)"


def pruebas_de(texto: str, marca: str) -> list[str]:
    """The «names» in the paragraph that starts with ``marca``."""
    parrafo = texto.partition(marca)[2].partition("\n\n")[0]
    return re.findall(r"«([^»]+)»", " ".join(parrafo.split()))


def todo_el_contrato(desafio: str) -> list[str]:
    """The tests the introduction of clausulas.md says check the whole contract."""
    texto = (RAIZ / "challenges" / desafio / "clausulas.md").read_text(encoding="utf-8")
    return pruebas_de(texto.partition("\n## ")[0], "Miran todo el contrato:")


def clausulas(desafio: str) -> dict[str, dict]:
    """{id: {"texto", "pruebas", "errores": [archivo], "solo": [archivo]}} from clausulas.md
    (its section «## Mutantes equivalentes» is make mutantes's: tests/mutantes/informe.py)."""
    texto = (RAIZ / "challenges" / desafio / "clausulas.md").read_text(encoding="utf-8")
    leidas: dict[str, dict] = {}
    actual = None
    for bloque in re.split(r"\n(?=## )", texto)[1:]:
        if bloque.startswith("## Mutantes equivalentes\n"):
            continue
        cabeza, _, cuerpo = bloque.partition("\n")
        m = re.fullmatch(r"## `([A-Za-z0-9-]+)`: (.+)", cabeza)
        assert m, f"{desafio}: una sección sin «## `id`: texto»: {cabeza!r}"
        assert m.group(1) not in leidas, f"{desafio}: {m.group(1)} dos veces"
        actual = leidas[m.group(1)] = {"texto": m.group(2), "errores": [], "solo": []}
        actual["pruebas"] = pruebas_de(cuerpo, "Lo comprueban:")
        for linea in cuerpo.splitlines():
            m = re.fullmatch(r"- `([\w]+\.py)`( \(solo esta\))?", linea)
            if m:
                actual["errores"].append(m.group(1))
                if m.group(2):
                    actual["solo"].append(m.group(1))
            else:
                assert not linea.startswith("- "), f"{desafio}: no se entiende {linea!r}"
    return leidas


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_cada_clausula_tiene_un_error_que_solo_la_rompe_a_ella(desafio):
    lista = clausulas(desafio)
    assert len(lista) >= 5
    errores = {e.archivo.name: e for e in challenges.errores_conocidos(desafio)}
    for ident, clausula in lista.items():
        assert clausula["errores"], f"{desafio}: ningún error conocido rompe {ident}"
        for archivo in clausula["errores"]:
            assert archivo in errores, f"{desafio}/{ident}: no hay errores/{archivo}"
        assert len(clausula["solo"]) == 1, f"{desafio}/{ident}: uno, y solo uno, «(solo esta)»"
        solo = errores[clausula["solo"][0]]
        assert solo.clausulas == [ident], f"{solo.archivo.name} rompe más de {ident}"


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_la_lista_y_las_cabeceras_dicen_lo_mismo(desafio):
    lista = clausulas(desafio)
    for error in challenges.errores_conocidos(desafio):
        assert error.clausulas, f"{error.archivo.name}: falta «# Cláusula: <id>»"
        for ident in error.clausulas:
            assert ident in lista, f"{error.archivo.name}: no hay cláusula {ident}"
        donde = sorted(i for i, c in lista.items() if error.archivo.name in c["errores"])
        assert donde == sorted(error.clausulas), error.archivo.name


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_las_pruebas_de_cada_clausula_existen_y_su_error_falla_solo_las_suyas(desafio):
    """The tests a clause names exist; its «(solo esta)» solution fails one of them (its
    ``Falla:``, with the message meant for it: the build checks the message), and no test but
    the clause's own and those that check the whole contract."""
    calificador = challenges.calificador()
    nombres = set(calificador.nombres(desafio))
    generales = todo_el_contrato(desafio)
    assert set(generales) <= nombres, set(generales) - nombres
    errores = {e.archivo.name: e for e in challenges.errores_conocidos(desafio)}
    for ident, clausula in clausulas(desafio).items():
        assert clausula["pruebas"], f"{desafio}/{ident}: ¿qué pruebas la comprueban?"
        assert set(clausula["pruebas"]) <= nombres, set(clausula["pruebas"]) - nombres
        solo = errores[clausula["solo"][0]]
        assert solo.falla in clausula["pruebas"], (ident, solo.falla)
        r = calificador.calificar(desafio, solo.codigo)
        fuera = [p["nombre"] for p in r["pruebas"] if not p["ok"]
                 and p["nombre"] not in clausula["pruebas"] + generales]
        assert fuera == [], f"{solo.archivo.name} rompe también lo que miran {fuera}"


def test_la_cabecera_se_lee_con_sus_clausulas(tmp_path):
    archivo = tmp_path / "x.py"
    archivo.write_text("# Error: algo.\n# Cláusula: tope\n# Cláusula: fin\n# Falla: una\n"
                       "# Mensaje: dos\n\ndef bucle(): pass\n# Cláusula: no cuenta\n",
                       encoding="utf-8")
    error = challenges.ErrorConocido(archivo)
    assert (error.clausulas, error.falla, error.mensajes) == (["tope", "fin"], "una", ["dos"])
