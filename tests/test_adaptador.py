"""The course's adapter merged into the published weights (widgets/construccion/adaptador.py and
``modelo_local.convertir_a_q8_0(…, adaptador=…)``), on the pinned GGUF and a small adapter made
here: each adapted weight is the base's plus ``escala · B @ A`` with the query and key rows in
llama.cpp's order, every other tensor is the plain conversion's, and an archive that does not fit
the model, or whose hash is not the pinned one, fails in Spanish."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.test_modelo import CACHE
from widgets.construccion import modelo_local
from widgets.construccion.adaptador import al_orden_de_llama
from widgets.construccion.modelo_local import (FIJADO, ErrorDelModelo, asegurar, asegurar_base,
                                               convertir_a_q8_0, fijado, sha256)

ADAPTADAS = {"blk.0.attn_q": (576, 576), "blk.0.attn_k": (192, 576), "blk.3.ffn_down": (576, 1536)}


@pytest.fixture(scope="module")
def base() -> Path:
    return asegurar_base(CACHE)


@pytest.fixture(scope="module")
def fundido(tmp_path_factory) -> tuple[Path, Path, dict]:
    """The pinned model with a small adapter merged: (the GGUF, the adapter, its matrices)."""
    carpeta = tmp_path_factory.mktemp("fundido")
    npz, matrices = archivo_adaptador(carpeta)
    gguf = carpeta / "fundido.gguf"
    convertir_a_q8_0(CACHE / fijado().origen, gguf, adaptador=npz)
    return gguf, npz, matrices


def archivo_adaptador(carpeta: Path, r: int = 4, escala: float = 2.0, **otras) -> tuple[Path, dict]:
    """A small adapter on three weights (float16, as make adaptador writes it) and its matrices."""
    azar = np.random.default_rng(7)
    matrices = {}
    for nombre, (salidas, entradas) in ADAPTADAS.items():
        matrices[f"{nombre}.lora_a"] = (azar.standard_normal((r, entradas)) * 0.05).astype(np.float16)
        matrices[f"{nombre}.lora_b"] = (azar.standard_normal((salidas, r)) * 0.05).astype(np.float16)
    matrices.update(otras)
    ruta = carpeta / "adaptador.npz"
    np.savez(ruta, escala=np.float32(escala), **matrices)
    return ruta, matrices


def test_the_query_and_key_rows_go_back_to_llamas_order_head_by_head():
    """Within each head, Hugging Face's order holds the first halves of the rotary pairs, then the
    second halves; llama.cpp's interleaves them: rows (0, 32, 1, 33, …) of a 64-row head."""
    filas = np.arange(2 * 64, dtype=np.float32)[:, None]  # two heads of 64 rows, one column
    orden = al_orden_de_llama(filas, 2)[:, 0].astype(int).tolist()
    assert orden[:6] == [0, 32, 1, 33, 2, 34]
    assert orden[64:68] == [64, 96, 65, 97]
    assert sorted(orden) == list(range(128))


def test_each_adapted_weight_is_the_base_plus_its_delta_and_every_other_tensor_the_conversions(
        base, fundido):
    from gguf import GGMLQuantizationType as Tipo
    from gguf import GGUFReader, quants

    m = fundido[2]
    origen, plano, nuevo = (GGUFReader(CACHE / fijado().origen), GGUFReader(base), GGUFReader(fundido[0]))
    assert [t.name for t in nuevo.tensors] == [t.name for t in plano.tensors]
    adaptados = {f"{n}.weight" for n in ADAPTADAS}
    for o, p, n in zip(origen.tensors, plano.tensors, nuevo.tensors, strict=True):
        if n.name not in adaptados:
            assert n.tensor_type == p.tensor_type and np.array_equal(n.data, p.data), n.name
            continue
        assert n.tensor_type == Tipo.Q8_0
        clave = n.name.removesuffix(".weight")
        delta = 2.0 * (m[f"{clave}.lora_b"].astype(np.float32) @ m[f"{clave}.lora_a"].astype(np.float32))
        if ".attn_q" in clave:
            delta = al_orden_de_llama(delta, 9)
        elif ".attn_k" in clave:
            delta = al_orden_de_llama(delta, 3)
        esperado = quants.dequantize(o.data, o.tensor_type) + delta
        obtenido = quants.dequantize(n.data, Tipo.Q8_0)
        # Q8_0's error: at most max|x| / 254 per block of 32 (its scale kept as float16)
        cota = np.abs(esperado).reshape(-1, 32).max(axis=1) / 254 * 1.2 + 1e-6
        assert np.all(np.abs(obtenido - esperado).reshape(-1, 32).max(axis=1) <= cota), n.name
        # and the delta is really there: far from the plain conversion
        assert np.abs(obtenido - quants.dequantize(p.data, Tipo.Q8_0)).max() > 0.01, n.name


@pytest.mark.parametrize("malo, frase", [
    ({"blk.0.attn_q.lora_a": np.zeros((4, 100), np.float16)}, "blk.0.attn_q.weight es 576×576"),
    ({"blk.0.attn_z.lora_a": np.zeros((4, 576), np.float16)}, "«blk.0.attn_z.lora_a» no es un peso adaptado"),
    ({"blk.99.attn_q.lora_a": np.zeros((4, 576), np.float16),
      "blk.99.attn_q.lora_b": np.zeros((576, 4), np.float16)}, "el modelo no tiene el tensor blk.99.attn_q.weight"),
    ({"blk.5.attn_v.lora_a": np.zeros((4, 576), np.float16)}, "blk.5.attn_v.weight tiene lora_a o lora_b, no las dos"),
])
def test_an_adapter_that_does_not_fit_the_model_fails_in_spanish(tmp_path, malo, frase):
    npz, _ = archivo_adaptador(tmp_path, **malo)
    with pytest.raises(ErrorDelModelo) as fallo:
        convertir_a_q8_0(CACHE / fijado().origen, tmp_path / "x.gguf", adaptador=npz)
    assert frase in str(fallo.value)


def _fijado_con_adaptador(tmp_path: Path, npz: Path, npz_sha: str, sha: str) -> Path:
    ruta = tmp_path / "modelo-fijado.txt"
    lineas = [x for x in FIJADO.read_text(encoding="utf-8").splitlines() if not x.startswith("ADAPTADOR")]
    lineas.append(f"ADAPTADOR {npz.name} sha256:{npz_sha} Prueba-adaptada.Q8_0.gguf 1 sha256:{sha}")
    ruta.write_text("\n".join(lineas) + "\n", encoding="utf-8")
    return ruta


def _cache_con_el_origen(tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    cache.mkdir()
    origen = CACHE / fijado().origen
    for archivo in (origen, origen.with_name(origen.name + ".sha256")):
        (cache / archivo.name).hardlink_to(archivo)
    return cache


def test_an_adapter_whose_hash_is_not_the_pinned_one_fails_naming_it_and_both_hashes(base, tmp_path):
    npz, _ = archivo_adaptador(tmp_path)
    otro = "2" * 64
    pin = _fijado_con_adaptador(tmp_path, npz, otro, "3" * 64)
    with pytest.raises(ErrorDelModelo) as fallo:
        asegurar(_cache_con_el_origen(tmp_path), pin)
    mensaje = str(fallo.value)
    assert "el adaptador adaptador.npz no tiene el SHA-256 fijado" in mensaje
    assert otro in mensaje and sha256(npz) in mensaje


def test_the_merged_file_is_checked_against_its_pinned_hash_and_then_reused(fundido, tmp_path,
                                                                           monkeypatch):
    npz, correcto = tmp_path / fundido[1].name, sha256(fundido[0])
    npz.write_bytes(fundido[1].read_bytes())  # the adapter lies beside its pinned file
    cache = _cache_con_el_origen(tmp_path)
    pin = _fijado_con_adaptador(tmp_path, npz, sha256(npz), correcto)
    hecho = asegurar(cache, pin)
    assert hecho.name == "Prueba-adaptada.Q8_0.gguf" and sha256(hecho) == correcto  # deterministic
    monkeypatch.setattr(modelo_local, "convertir_a_q8_0", lambda *a, **k: pytest.fail("merged again"))
    assert asegurar(cache, pin) == hecho


def test_make_adaptador_defaults_are_the_committed_runs_settings():
    """``make adaptador`` with no arguments trains as the committed adapter was trained: the
    training script's defaults (read from its argparse calls, without torch) are the manifest's."""
    import ast
    import json

    raiz = Path(__file__).resolve().parents[1]
    arbol = ast.parse((raiz / "entrenamiento" / "entrenar.py").read_text(encoding="utf-8"))
    defaults = {}
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.Call) and getattr(nodo.func, "attr", "") == "add_argument":
            opcion = nodo.args[0].value
            for k in nodo.keywords:
                if k.arg == "default" and isinstance(k.value, ast.Constant):
                    defaults[opcion] = k.value.value
    manifiesto = json.loads((FIJADO.parent / "smollm2-135m-adaptador.json").read_text(encoding="utf-8"))
    h, d = manifiesto["hiperparametros"], manifiesto["datos"]
    assert (defaults["--ejecuciones"], defaults["--semilla"]) == (d["ejecuciones"], d["semilla"])
    assert defaults["--nombres-variados"] == d.get("nombres_variados", 0.0)
    assert defaults["--amplio"] == d.get("amplio", 0.0)
    assert (defaults["--epocas"], defaults["--rango"], defaults["--alfa"], defaults["--lr"],
            defaults["--acumular"]) == (h["epocas"], h["rango"], h["alfa"], h["lr"], h["ejecuciones_por_paso"])
    assert manifiesto["entrenamiento"]["segundos"] < defaults["--tope-minutos"] * 60  # it was not cut
