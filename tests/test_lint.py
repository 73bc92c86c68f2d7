"""All the Python of the repository passes ruff, the version pinned in requirements.txt, with the
rules of pyproject.toml ([tool.ruff]): `make test` is the gate. Every ignore there is one rule with
its reason, and every `# noqa` in the code must still be needed (RUF100).

To see what it finds: `.venv/bin/ruff check .` (no formatter runs: fix by hand, or with
`ruff check --fix` on the files you changed).
"""

import re
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
RUFF = [sys.executable, "-m", "ruff"]


def ruff(*argumentos, cwd=RAIZ):
    return subprocess.run([*RUFF, *map(str, argumentos)], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_ruff_that_runs_is_the_pinned_one():
    fijado = re.search(r"^ruff==(\S+)$", (RAIZ / "requirements.txt").read_text(encoding="utf-8"), re.M)
    assert fijado, "requirements.txt pins no ruff"
    proceso = ruff("--version")
    assert proceso.returncode == 0, proceso.stderr
    assert proceso.stdout.split() == ["ruff", fijado.group(1)], (proceso.stdout, fijado.group(1))


def test_the_repository_passes_ruff():
    proceso = ruff("check", "--output-format", "concise", ".")
    assert proceso.returncode == 0, f"ruff finds:\n{proceso.stdout}{proceso.stderr}"


def test_the_gate_reports_what_the_rules_catch(tmp_path):
    """The gate can fail: the repository's rules, on a file with an unused import, an undefined
    name, a blind except, a zip that can drop items, a one-letter `l` and a `# noqa` not needed."""
    roto = tmp_path / "roto.py"
    roto.write_text(
        "import json\n"
        "\n"
        "\n"
        "def f(a, b):\n"
        "    try:\n"
        "        return [x + y for x, y in zip(a, b)]\n"
        "    except Exception:\n"
        "        return no_definido\n"
        "\n"
        "\n"
        "def g(lineas):\n"
        "    return [l for l in lineas]  # noqa: E731\n",
        encoding="utf-8")
    proceso = ruff("check", "--no-cache", "--output-format", "concise", "--config",
                   RAIZ / "pyproject.toml", roto)
    assert proceso.returncode == 1, proceso.stdout + proceso.stderr
    reglas = sorted(re.findall(r"^\S*roto\.py:\d+:\d+: ([A-Z]+\d+)", proceso.stdout, re.M))
    assert reglas == ["B905", "BLE001", "C416", "E741", "F401", "F821", "RUF100"], proceso.stdout
