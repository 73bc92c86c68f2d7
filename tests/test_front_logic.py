"""The widgets' pure logic (no DOM) runs under Node's test runner: tests/front/*.test.mjs."""

import shutil
import subprocess
from pathlib import Path

import pytest

FRONT_TESTS = sorted((Path(__file__).parent / "front").glob("*.test.mjs"))


@pytest.mark.parametrize("archivo", FRONT_TESTS, ids=[p.name for p in FRONT_TESTS])
def test_front_logic(archivo):
    node = shutil.which("node")
    assert node, "Node.js is needed for the front-end tests"
    proceso = subprocess.run([node, "--test", str(archivo)], capture_output=True, text=True, check=False)
    assert proceso.returncode == 0, proceso.stdout + proceso.stderr
