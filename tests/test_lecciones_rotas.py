"""Bad lessons fail the build, each with a Spanish message that names its file and line.

The pages of tests/fixtures/lecciones_rotas/ (see its LEEME.md) are built together, as one site,
with ``sphinx-build -W --keep-going``: the build must fail, and report every page's own error at
its line, and nothing else. The challenges they use live in a temporary folder: a copy of
``bucle-con-tope`` and ``tope-roto``, the same challenge with a reference solution that forgets
the cap; and the reference solution of ``pedir-permiso`` alone, whose loop takes ``preguntar``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, construir

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "lecciones_rotas"
CABECERA = re.compile(r"^% (?P<nivel>ERROR|WARNING)(?: \(línea (?P<linea>\d+)\))?: (?P<mensaje>.+)$")
# «/ruta/pagina.md:12: ERROR: mensaje [docutils]» or «/ruta/pagina.md: WARNING: mensaje [toc.…]»
AVISO = re.compile(r"^(?P<ruta>/\S+?\.md)(?::(?P<linea>\d+))?: (?P<nivel>ERROR|WARNING): (?P<mensaje>.*)$")

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
project = "Lecciones rotas"
language = "es"
extensions = ["myst_parser", "widgets"]
from tests.sites.comun import AJUSTES_DEL_REPO; globals().update(AJUSTES_DEL_REPO)
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["LEEME.md"]
bucle_curso = "lecciones-rotas"
bucle_desafios_dir = {{desafios!r}}
"""


def esperados() -> dict[str, dict]:
    """{page name: {"nivel", "linea", "mensaje"}} from the first line of each page."""
    casos = {}
    for pagina in sorted(FIXTURES.glob("*.md")):
        if pagina.name in ("index.md", "LEEME.md"):
            continue
        primera = pagina.read_text(encoding="utf-8").splitlines()[0]
        m = CABECERA.match(primera)
        assert m, f"{pagina.name}: its first line must say the error it expects, and says {primera!r}"
        casos[pagina.stem] = {"nivel": m["nivel"], "linea": m["linea"], "mensaje": m["mensaje"]}
    return casos


CASOS = esperados()


@pytest.fixture(scope="module")
def construccion(tmp_path_factory):
    """The broken site, built once: (the build's output, the temporary challenges folder)."""
    tmp = tmp_path_factory.mktemp("lecciones_rotas")
    desafios = tmp / "desafios"
    shutil.copytree(ROOT / "challenges" / "bucle-con-tope", desafios / "bucle-con-tope",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copyfile(ROOT / "challenges" / "comun.py", desafios / "comun.py")  # what tests usar
    # The loop that passes preguntar on (only its reference solution: not a challenge here).
    (desafios / "pedir-permiso").mkdir()
    shutil.copyfile(ROOT / "challenges" / "pedir-permiso" / "solucion.py",
                    desafios / "pedir-permiso" / "solucion.py")
    roto = desafios / "tope-roto"
    shutil.copytree(desafios / "bucle-con-tope", roto)
    shutil.rmtree(roto / "errores")
    # The reference forgets the cap: a known-wrong solution of the real challenge.
    shutil.copyfile(ROOT / "challenges" / "bucle-con-tope" / "errores" / "sin_tope.py",
                    roto / "solucion.py")
    conf = tmp / "conf"
    conf.mkdir()
    (conf / "conf.py").write_text(CONF.format(desafios=str(desafios)), encoding="utf-8")
    proceso = construir(FIXTURES, tmp / "html", conf, comprobar=False)
    return proceso, desafios


def avisos(salida: str) -> list[dict]:
    return [m.groupdict() | {"linea_completa": linea}
            for linea in salida.splitlines() if (m := AVISO.match(linea))]


def test_the_build_fails(construccion):
    proceso, _ = construccion
    assert proceso.returncode != 0, proceso.stderr


@pytest.mark.parametrize("pagina", sorted(CASOS))
def test_each_broken_page_gets_its_message_at_its_file_and_line(construccion, pagina):
    proceso, _ = construccion
    esperado = CASOS[pagina]
    suyos = [a for a in avisos(proceso.stderr) if Path(a["ruta"]) == FIXTURES / f"{pagina}.md"]
    assert suyos, f"nothing reported for {pagina}.md:\n{proceso.stderr}"
    assert len(suyos) == 1, "one mistake, one message:\n" + "\n".join(a["linea_completa"] for a in suyos)
    aviso = suyos[0]
    assert (aviso["nivel"], aviso["linea"]) == (esperado["nivel"], esperado["linea"]), aviso["linea_completa"]
    assert aviso["mensaje"].startswith(esperado["mensaje"]), aviso["linea_completa"]


def test_nothing_else_is_reported(construccion):
    proceso, _ = construccion
    otros = [linea for linea in proceso.stderr.splitlines()
             if ("ERROR" in linea or "WARNING" in linea) and not AVISO.match(linea)]
    assert otros == []
    ajenos = [a["linea_completa"] for a in avisos(proceso.stderr)
              if Path(a["ruta"]).stem not in CASOS]
    assert ajenos == []


def test_the_messages_say_what_to_fix(construccion):
    """Beyond the first line: what the author needs to find the mistake."""
    proceso, desafios = construccion
    salida = proceso.stderr
    # The unknown challenge: which ones there are.
    assert "no hay ningún desafío «bucle-sin-fin» en " + str(desafios) + \
        "; los hay: bucle-con-tope, tope-roto" in salida
    # The broken reference: its file, the test it fails and the grader's message.
    assert (f"  {desafios}/tope-roto/solucion.py: la solución de referencia no pasa «un modelo que "
            f"nunca para»: El tope era 5 y llamaste al modelo una 6.ª vez") in salida
    # A scripted user with too few answers: Respuestas says which question was one too many.
    assert ("el usuario guionizado tenía 1 respuesta y le han preguntado una vez más: "
            "¿Permites escribir notas.txt?") in salida
    # The rejected scenario: the scripted model's complaint, with the turn and what differs.
    rechazo = salida.split("traza_rechazada.md:7: ERROR: ", 1)[1]
    assert "turno 1" in rechazo.lower() and "M[1]" in rechazo, rechazo[:600]
    # The misspelt option: the ones that exist.
    assert "Las opciones que acepta son :bucle:, :ejecutar:, :id:, :predice:, :titulo:, :tope:" in salida
    assert "Las opciones que acepta son :pista-tras:, :solucion-tras:" in salida
