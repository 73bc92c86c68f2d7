"""Each challenge's clauses (``challenges/<id>/clausulas.md``) and its known-wrong solutions.

``clausulas.md`` lists the clauses of a challenge's contract (the statement's bullets and the
starter's docstring): for each, the tests that check it and the known-wrong solutions that break
it, one of them marked «(solo esta)». Each known-wrong solution names in its header, with
``# Cláusula: <id>``, the clauses it breaks. Here: the list and the headers say the same.

Each clause also quotes, in a ``De la lección: «…»`` line, the sentence of the lesson that
states it; here: the quotes are in the lesson, and every bullet of the statement (the ``desafio``
directive) is quoted by some clause.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import challenges

RAIZ = Path(__file__).resolve().parent.parent
DESAFIOS = challenges.desafios()
SOLO = " (solo esta)"
ORIGEN = "De la lección:"
# A quote covers a bullet if it is the whole bullet, or a part of it at least this long.
PARTE_MINIMA = 30


def pruebas_de(texto: str, marca: str) -> list[str]:
    """The «names» in the paragraph that starts with ``marca``."""
    parrafo = texto.partition(marca)[2].partition("\n\n")[0]
    return re.findall(r"«([^»]+)»", " ".join(parrafo.split()))


def todo_el_contrato(desafio: str) -> list[str]:
    """The tests the introduction of clausulas.md says check the whole contract."""
    texto = (RAIZ / "challenges" / desafio / "clausulas.md").read_text(encoding="utf-8")
    return pruebas_de(texto.partition("\n## ")[0], "Miran todo el contrato:")


def retienen(desafio: str) -> list[str]:
    """The tests the introduction says hold back every other one while they fail (a suite that
    fails a correct agent is credited with no broken one): «Si falla, lo retiene todo: «…»»."""
    texto = (RAIZ / "challenges" / desafio / "clausulas.md").read_text(encoding="utf-8")
    return pruebas_de(texto.partition("\n## ")[0], "Si falla, lo retiene todo:")


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
        actual["origen"] = pruebas_de(cuerpo, ORIGEN) if ORIGEN in cuerpo else []
        for linea in cuerpo.splitlines():
            m = re.fullmatch(r"- `([\w]+\.py)`( \(solo esta\))?", linea)
            if m:
                actual["errores"].append(m.group(1))
                if m.group(2):
                    actual["solo"].append(m.group(1))
            else:
                assert not linea.startswith("- "), f"{desafio}: no se entiende {linea!r}"
    return leidas


def plano(texto: str) -> str:
    return " ".join(texto.split())


def leccion_de(desafio: str) -> Path:
    """The lesson that holds the ``desafio`` directive of ``desafio``."""
    marca = re.compile(r"^```\{desafio\} " + re.escape(desafio) + r"\s*$", re.M)
    donde = [p for p in sorted((RAIZ / "lessons").glob("*.md"))
             if marca.search(p.read_text(encoding="utf-8"))]
    assert len(donde) == 1, f"{desafio}: en qué lección está su desafío: {donde}"
    return donde[0]


def enunciado_de(desafio: str) -> str:
    """The statement of ``desafio``: the body of its ``desafio`` directive in the lesson."""
    texto = leccion_de(desafio).read_text(encoding="utf-8")
    return re.search(r"^```\{desafio\} " + re.escape(desafio) + r"\s*\n(.*?)^```\s*$",
                     texto, re.M | re.S).group(1)


def vinetas(enunciado: str) -> list[str]:
    """The bullets of a statement, each with its continuation lines, whitespace collapsed."""
    leidas: list[str] = []
    sigue = False  # the line may continue the last bullet
    for linea in enunciado.splitlines():
        if linea.startswith("- "):
            leidas.append(linea[2:])
            sigue = True
        elif sigue and linea.startswith("  ") and linea.strip():
            leidas[-1] += " " + linea
        else:
            sigue = False
    return [plano(v) for v in leidas]


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
    the clause's own and those that check the whole contract (or, if its test holds back the
    others, none whose message does not name it)."""
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
        fuera = [p for p in r["pruebas"] if not p["ok"]
                 and p["nombre"] not in clausula["pruebas"] + generales]
        if solo.falla in retienen(desafio):  # the others fail too, each naming the one that holds
            fuera = [p for p in fuera if f"«{solo.falla}»" not in p["mensaje"]]
        assert fuera == [], f"{solo.archivo.name} rompe también lo que miran {fuera}"


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_cada_clausula_cita_la_frase_de_la_leccion_que_la_dice(desafio):
    """Each clause quotes, verbatim (whitespace collapsed), the lesson's sentence that states
    it: a clause the lesson does not state is a defect of the lesson, not of the quote."""
    leccion = plano(leccion_de(desafio).read_text(encoding="utf-8"))
    for ident, clausula in clausulas(desafio).items():
        assert clausula["origen"], f"{desafio}/{ident}: ¿qué frase de la lección la dice?"
        for cita in clausula["origen"]:
            assert plano(cita) in leccion, f"{desafio}/{ident}: la lección no dice «{cita}»"


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_cada_vineta_del_enunciado_la_cita_una_clausula(desafio):
    """A rule the statement gives the reader and no clause quotes is a rule nobody checks."""
    lista = vinetas(enunciado_de(desafio))
    assert lista, f"{desafio}: el enunciado no tiene viñetas"
    citas = [plano(c) for clausula in clausulas(desafio).values() for c in clausula["origen"]]
    for vineta in lista:
        assert any(c == vineta or (len(c) >= PARTE_MINIMA and c in vineta) for c in citas), (
            f"{desafio}: ninguna cláusula cita «{vineta}»")


@pytest.mark.parametrize("desafio", DESAFIOS)
def test_cada_clausula_se_anuncia_en_el_enunciado(desafio):
    """What the grader checks the reader is told where they write it: each clause quotes some
    sentence of the statement (the lesson's prose may say it again, and better)."""
    enunciado = plano(enunciado_de(desafio))
    for ident, clausula in clausulas(desafio).items():
        assert any(plano(c) in enunciado for c in clausula["origen"]), (
            f"{desafio}/{ident}: el enunciado no la anuncia")


def test_las_vinetas_se_leen_con_sus_lineas_de_continuacion():
    enunciado = ("Escribe `f`:\n\n- Una regla\n  que sigue.\n- Otra.\n  - no es viñeta\n"
                 "\nUn párrafo\n  que no es viñeta.\n")
    assert vinetas(enunciado) == ["Una regla que sigue.", "Otra. - no es viñeta"]


def test_la_cabecera_se_lee_con_sus_clausulas(tmp_path):
    archivo = tmp_path / "x.py"
    archivo.write_text("# Error: algo.\n# Cláusula: tope\n# Cláusula: fin\n# Falla: una\n"
                       "# Mensaje: dos\n\ndef bucle(): pass\n# Cláusula: no cuenta\n",
                       encoding="utf-8")
    error = challenges.ErrorConocido(archivo)
    assert (error.clausulas, error.falla, error.mensajes) == (["tope", "fin"], "una", ["dos"])
