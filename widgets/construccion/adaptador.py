"""The course's adapter for its in-page model, merged into the weights the build publishes.

The course tunes its model (issue «A model that can use the tools»): ``make adaptador`` trains a
low-rank adapter (LoRA) on the course's own runs (``entrenamiento/``) and writes it as a
NumPy archive, ``widgets/datos/smollm2-135m-adaptador.npz``, with its manifest beside it. The
archive holds, for each adapted weight ``W`` of block ``i`` (``attn_q``, ``attn_k``, ``attn_v``,
``attn_output``, ``ffn_gate``, ``ffn_up``, ``ffn_down``)::

    blk.{i}.{nombre}.lora_a    r × entradas   (float16)
    blk.{i}.{nombre}.lora_b    salidas × r    (float16)
    escala                     alpha / r      (float32, 0-d)

in the orientation transformers uses (its rows of the query and key weights in Hugging Face's
order, the one ``convert_hf_to_gguf.py`` permutes when it writes a GGUF). The merged weight is
``W + escala · B @ A``, computed in float32 and, for ``attn_q`` and ``attn_k``, with its rows put
back in llama.cpp's order (:func:`al_orden_de_llama`) before it is added to the GGUF's.

:func:`deltas` reads an archive into ``{tensor name: float32 delta}`` in the GGUF's own layout;
``modelo_local.convertir_a_q8_0`` adds them to the dequantized weights before it re-encodes them as
Q8_0. Only NumPy is needed (the build's own, pinned in ``requirements.txt``).
"""

from __future__ import annotations

import re
from pathlib import Path

#: The adapted weights, by their GGUF names inside a block.
ADAPTADOS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")

_CLAVE = re.compile(r"^blk\.(\d+)\.(" + "|".join(ADAPTADOS) + r")\.lora_([ab])$")


class ErrorDelAdaptador(Exception):
    """An adapter that does not fit the model it is merged into (message in Spanish)."""


def al_orden_de_llama(filas, cabezas: int):
    """``filas`` (a query or key weight, or its delta: salidas × entradas) with its rows in
    llama.cpp's order: within each of ``cabezas`` heads, the two halves of the rotary dimensions
    interleaved, as ``convert_hf_to_gguf.py``'s ``permute`` writes them."""
    salidas = filas.shape[0]
    return (filas.reshape(cabezas, 2, salidas // cabezas // 2, *filas.shape[1:])
            .swapaxes(1, 2).reshape(filas.shape))


def deltas(archivo: Path, formas: dict[str, tuple[int, int]], cabezas: int,
           cabezas_kv: int) -> dict[str, object]:
    """``{"blk.i.nombre.weight": delta}``: each adapted weight's ``escala · B @ A`` in float32,
    in the GGUF's layout (salidas × entradas, llama.cpp's row order). ``formas`` gives each
    tensor's shape in the GGUF; a pair of matrices that does not fit it, a key that is not an
    adapted weight, or an ``A`` without its ``B`` raises :class:`ErrorDelAdaptador`."""
    import numpy as np

    with np.load(archivo, allow_pickle=False) as npz:
        claves = set(npz.files)
        if "escala" not in claves:
            raise ErrorDelAdaptador(f"{archivo.name}: falta «escala» (alpha / r)")
        escala = np.float32(npz["escala"])
        pares: dict[str, dict[str, object]] = {}
        for clave in sorted(claves - {"escala"}):
            m = _CLAVE.match(clave)
            if not m:
                raise ErrorDelAdaptador(f"{archivo.name}: «{clave}» no es un peso adaptado "
                                        f"(blk.N.{{{','.join(ADAPTADOS)}}}.lora_a|lora_b)")
            nombre = f"blk.{m.group(1)}.{m.group(2)}.weight"
            pares.setdefault(nombre, {})[m.group(3)] = npz[clave].astype(np.float32)
    salida = {}
    for nombre, par in pares.items():
        if set(par) != {"a", "b"}:
            raise ErrorDelAdaptador(f"{archivo.name}: {nombre} tiene lora_a o lora_b, no las dos")
        if nombre not in formas:
            raise ErrorDelAdaptador(f"{archivo.name}: el modelo no tiene el tensor {nombre}")
        a, b = par["a"], par["b"]
        if a.ndim != 2 or b.ndim != 2 or b.shape[1] != a.shape[0] or (b.shape[0], a.shape[1]) != formas[nombre]:
            raise ErrorDelAdaptador(
                f"{archivo.name}: {nombre} es {formas[nombre][0]}×{formas[nombre][1]} en el modelo, "
                f"y su adaptador da B {b.shape[0]}×{b.shape[1]} por A {a.shape[0]}×{a.shape[1]}")
        delta = escala * (b @ a)
        if ".attn_q." in nombre:
            delta = al_orden_de_llama(delta, cabezas)
        elif ".attn_k." in nombre:
            delta = al_orden_de_llama(delta, cabezas_kv)
        salida[nombre] = delta.astype(np.float32)
    return salida
