"""A candidate engine for the in-page model: onnxruntime-web, measured beside wllama (the engine
the page had until 2026-12-07).

The page now runs onnxruntime-web with a model the build writes without torch
(``widgets/construccion/modelo_onnx.py``: the GGUF's Q8_0 blocks as they are, the same graph as
``exportar --kv`` below). This script stays as the record of how the candidates in BENCHMARKS.md
were made and measured.

Not part of ``make test`` nor ``make bench`` (it needs torch, from ``make adaptador``'s
``.venv-entrenar``, and onnx packages on top). Two steps:

1. **Export** (``.venv-entrenar``'s Python, with ``onnx==1.23.2 onnxscript==0.7.2
   onnxruntime==1.32.0`` on its path, e.g. ``pip install --target DIR`` and ``PYTHONPATH=DIR``)::

       PYTHONPATH=DIR .venv-entrenar/bin/python -m bench.motor_onnx exportar CARPETA

   The published tuned model (``_build/modelo/<the pinned merged GGUF>``, read by transformers,
   which dequantizes its Q8_0 weights to float32) exported to ONNX by torch's exporter: one forward
   over the prompt's tokens, the last token's logits (what llama.cpp computes for a prompt; no KV
   cache). Then ``q8f``: every weight of two dimensions stored as int8 in blocks of 32 with one
   float32 scale per block (Q8_0's own layout, so the download stays ~150 MB), rebuilt by
   ``Cast → Mul → Reshape`` nodes that onnxruntime folds into float32 constants when the session
   is made: the page computes with float32 weights, with onnxruntime's SIMD SGEMM. Also the
   usual quantizations for comparison (``int8``: dynamic, MatMulInteger; ``nbits8``: MatMulNBits,
   8 bits, blocks of 32, int8 compute). Each is checked against the model: greedy, no grammar, on
   the adapter manifest's six fixed prompts (``widgets/datos/…-adaptador.json``), answers equal to
   transformers' on the same GGUF.

2. **Measure** (the bench's venv; onnxruntime-web 1.30.0 taken with ``npm pack``)::

       .venv/bin/python -m bench.motor_onnx medir CARPETA [--runs 2]

   A page served isolated from ``CARPETA`` runs each model with onnxruntime-web's WebAssembly
   backend (SIMD, every core) in Chromium: the session made, then forwards over 511 tokens (the
   shared start), 22 and 38 (turn 1's and turn 2's new tokens) and 1 (a generated token),
   without a KV cache.

3. **With a KV cache** (``exportar CARPETA --kv``, then ``medir CARPETA --kv [--hilos 2 1]``): the
   same model exported with each layer's keys and values in and out (``pasado_k_i``/``pasado_v_i``
   in, ``nuevo_k_i``/``nuevo_v_i`` out: the new tokens' only), token by token (``[1, tokens, heads,
   size]``), with attention by groups (``atencion_por_grupos``), as ``q8f-kv.onnx``; checked greedy
   on the six fixed prompts one after the other, each reusing the longest prefix it shares with
   the tokens already in the cache (the previous prompt and its answer), as llama.cpp's
   ``cache_prompt`` does. The page reads the shared start (511 tokens), then 22 more, then
   generates one token at a time, then 38 more, the cache growing in place as it goes.

What it found is in BENCHMARKS.md («the candidates, side by side»; «with a KV cache»).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORT_WEB = "onnxruntime-web@1.30.0"
MODELOS = ("q8f", "int8", "nbits8")
# SmolLM2-135M's layers, KV heads and head size: the shapes of q8f-kv.onnx's cache (exportar_kv checks it).
FORMA_KV = (30, 3, 64)

PAGINA = """<!doctype html><meta charset="utf-8"><title>onnxruntime-web</title>
<script type="module">
import * as ort from "./ort/ort.wasm.min.mjs";
const nombre = new URLSearchParams(location.search).get("m");
ort.env.wasm.wasmPaths = new URL("./ort/", location).href;
ort.env.wasm.numThreads = navigator.hardwareConcurrency;
async function main() {
  const r = { nombre, aislada: crossOriginIsolated, hilos: ort.env.wasm.numThreads };
  let t = performance.now();
  const s = await ort.InferenceSession.create(`${nombre}.onnx`,
    { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  r.carga = performance.now() - t;
  const ids = (n) => new ort.Tensor("int64",
    BigInt64Array.from({ length: n }, (_, i) => BigInt((i * 37) % 1000 + 10)), [1, n]);
  await s.run({ input_ids: ids(8) });
  for (const n of [511, 22, 38, 1]) {
    t = performance.now();
    await s.run({ input_ids: ids(n) });
    r["n" + n] = performance.now() - t;
  }
  window.__r = r;
}
main().catch((e) => { window.__r = { nombre, error: String(e?.stack || e) }; });
</script>
"""


PAGINA_KV = """<!doctype html><meta charset="utf-8"><title>onnxruntime-web, KV cache</title>
<script type="module">
import * as ort from "./ort/ort.wasm.min.mjs";
const q = new URLSearchParams(location.search);
const [L, H, D] = JSON.parse(q.get("forma"));
ort.env.wasm.wasmPaths = new URL("./ort/", location).href;
ort.env.wasm.numThreads = Number(q.get("hilos")) || navigator.hardwareConcurrency;
async function main() {
  const r = { aislada: crossOriginIsolated, hilos: ort.env.wasm.numThreads };
  let t = performance.now();
  const s = await ort.InferenceSession.create("q8f-kv.onnx",
    { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  r.carga = performance.now() - t;
  const ids = (n, d) => new ort.Tensor("int64",
    BigInt64Array.from({ length: n }, (_, i) => BigInt(((i + d) * 37) % 1000 + 10)), [1, n]);
  // Each layer's keys and values, token by token ([1, tokens, H, D]): a token's are appended in
  // place, and the model is handed a view of what is filled.
  const TOPE = 2048;
  const memoria = Array.from({ length: 2 * L }, () => new Float32Array(TOPE * H * D));
  let p = 0;
  r.juntar = 0;
  const paso = async (n) => {
    const feeds = { input_ids: ids(n, p) };
    memoria.forEach((m, j) => (feeds[`pasado_${j % 2 ? "v" : "k"}_${j >> 1}`] =
      new ort.Tensor("float32", m.subarray(0, p * H * D), [1, p, H, D])));
    const salida = await s.run(feeds);
    const t0 = performance.now();
    memoria.forEach((m, j) => m.set(salida[`nuevo_${j % 2 ? "v" : "k"}_${j >> 1}`].data, p * H * D));
    p += n;
    r.juntar += performance.now() - t0;
  };
  for (const [clave, n] of [["n511", 511], ["n22", 22]]) {
    t = performance.now(); await paso(n); r[clave] = performance.now() - t;
  }
  r.uno = [];
  for (let k = 0; k < 12; k++) {
    t = performance.now(); await paso(1); r.uno.push(Math.round(performance.now() - t));
  }
  t = performance.now(); await paso(38); r.n38 = performance.now() - t;
  r.cache_final = p;
  window.__r = r;
}
main().catch((e) => { window.__r = { error: String(e?.stack || e) }; });
</script>
"""


def publicado() -> str:
    """The published tuned GGUF's name: the ADAPTADOR line of widgets/datos/modelo-fijado.txt
    (read here without widgets.construccion, which needs Sphinx: not in .venv-entrenar)."""
    for linea in (ROOT / "widgets" / "datos" / "modelo-fijado.txt").read_text(encoding="utf-8").splitlines():
        if linea.startswith("ADAPTADOR "):
            return linea.split()[3]
    raise SystemExit("modelo-fijado.txt has no ADAPTADOR line")


def a_q8f(origen: Path, destino: Path) -> None:
    """``q8f``: Q8_0's layout, rebuilt as float32 constants when the session is made (see above)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    m = onnx.load(origen)
    g = m.graph
    iniciales = {i.name: i for i in g.initializer}
    hechas, nodos, nuevas = {}, [], []
    for nodo in g.node:
        for entrada in nodo.input:
            if entrada not in iniciales or entrada in hechas or nodo.op_type not in ("MatMul", "Gather"):
                continue
            w = numpy_helper.to_array(iniciales[entrada])
            if w.dtype != np.float32 or w.ndim != 2 or w.size < 100_000:
                continue
            filas = nodo.op_type == "Gather"  # the embedding: rows [V, D]; MatMul's B: [K, N]
            wt = w.T if filas else w
            k, n = wt.shape
            if k % 32:
                continue
            b = wt.reshape(k // 32, 32, n)
            escala = np.abs(b).max(axis=1, keepdims=True) / 127.0
            escala[escala == 0] = 1.0
            q = np.round(b / escala).clip(-127, 127).astype(np.int8)
            base = entrada.replace("/", "_").replace(".", "_")
            nuevas += [numpy_helper.from_array(q, base + "_q8"),
                       numpy_helper.from_array(escala.astype(np.float32), base + "_escala"),
                       numpy_helper.from_array(np.array([k, n], dtype=np.int64), base + "_forma")]
            salida = base + "_f32"
            nodos += [helper.make_node("Cast", [base + "_q8"], [base + "_c"], to=TensorProto.FLOAT),
                      helper.make_node("Mul", [base + "_c", base + "_escala"], [base + "_m"]),
                      helper.make_node("Reshape", [base + "_m", base + "_forma"], [base + "_r" if filas else salida])]
            if filas:
                nodos.append(helper.make_node("Transpose", [base + "_r"], [salida], perm=[1, 0]))
            hechas[entrada] = salida
    for nodo in g.node:
        for i, entrada in enumerate(nodo.input):
            if entrada in hechas:
                nodo.input[i] = hechas[entrada]
    resto = [i for i in g.initializer if i.name not in hechas]
    del g.initializer[:]
    g.initializer.extend(resto + nuevas)
    todos = nodos + list(g.node)
    del g.node[:]
    g.node.extend(todos)
    onnx.save(m, destino)


def exportar(carpeta: Path) -> None:
    import onnx
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer

    from entrenamiento.modelo import cargar

    carpeta.mkdir(parents=True, exist_ok=True)
    modelo, tok = cargar(ROOT / "_build" / "modelo" / publicado())

    class Ultimo(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids):
            h = self.m.model(input_ids=input_ids, use_cache=False).last_hidden_state
            return self.m.lm_head(h[:, -1, :])

    fp32 = carpeta / "fp32.onnx"
    programa = torch.onnx.export(Ultimo(modelo).eval(), (torch.randint(0, 1000, (1, 64)),),
                                 input_names=["input_ids"], output_names=["logits"], opset_version=18,
                                 dynamic_shapes={"input_ids": {1: torch.export.Dim("n", min=1, max=2048)}},
                                 dynamo=True)
    programa.save(str(fp32), external_data=False)
    a_q8f(fp32, carpeta / "q8f.onnx")
    quantize_dynamic(str(fp32), str(carpeta / "int8.onnx"), weight_type=QuantType.QInt8)
    q = MatMulNBitsQuantizer(onnx.load(fp32), block_size=32, is_symmetric=True, bits=8, accuracy_level=4)
    q.process()
    q.model.save_model_to_file(str(carpeta / "nbits8.onnx"), use_external_data_format=False)
    fp32.unlink()
    for nombre in MODELOS:
        comprobar(carpeta / f"{nombre}.onnx", modelo, tok)


def atencion_por_grupos(module, query, key, value, attention_mask, scaling, dropout=0.0, **_):
    """Attention with grouped keys and values, without repeating them: the query heads that share a
    KV head are stacked as rows against it. transformers' own (``repeat_kv``) exports an ``Expand``
    that copies the whole cache three times for every token."""
    import torch

    b, hq, n, d = query.shape
    hkv, largo = key.shape[1], key.shape[2]
    g = hq // hkv
    pesos = torch.matmul(query.reshape(b, hkv, g * n, d), key.transpose(2, 3)) * scaling
    if attention_mask is not None:
        pesos = (pesos.reshape(b, hkv, g, n, largo)
                 + attention_mask[:, :, None, :, :largo]).reshape(b, hkv, g * n, largo)
    pesos = torch.softmax(pesos, dim=-1, dtype=torch.float32).to(query.dtype)
    return torch.matmul(pesos, value).reshape(b, hq, n, d).transpose(1, 2).contiguous(), None


def exportar_kv(carpeta: Path) -> None:
    """``q8f-kv.onnx``: the model with each layer's keys and values in and out (see above), token
    by token (``[1, tokens, heads, size]``), so that the page appends a token's in place."""
    import torch
    from transformers import AttentionInterface, DynamicCache
    from transformers.masking_utils import AttentionMaskInterface, eager_mask

    from entrenamiento.modelo import cargar

    carpeta.mkdir(parents=True, exist_ok=True)
    modelo, tok = cargar(ROOT / "_build" / "modelo" / publicado())
    capas, forma = forma_kv(modelo.config)
    if (capas, *forma) != FORMA_KV:
        raise SystemExit(f"the model's cache is {(capas, *forma)}, not FORMA_KV {FORMA_KV}")
    AttentionInterface.register("por_grupos", atencion_por_grupos)
    AttentionMaskInterface.register("por_grupos", eager_mask)
    implementacion = modelo.config._attn_implementation
    modelo.set_attn_implementation("por_grupos")

    class ConCache(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, *pasado):
            cache = DynamicCache(config=self.m.config)
            for i in range(capas):
                cache.update(pasado[2 * i].transpose(1, 2), pasado[2 * i + 1].transpose(1, 2), i)
            p = pasado[0].shape[1]
            posiciones = torch.arange(p, p + input_ids.shape[1]).unsqueeze(0)
            h = self.m.model(input_ids=input_ids, past_key_values=cache, position_ids=posiciones,
                             use_cache=True).last_hidden_state
            nuevos = [t[:, :, p:, :].transpose(1, 2) for capa in cache.layers for t in (capa.keys, capa.values)]
            return (self.m.lm_head(h[:, -1, :]), *nuevos)

    ejemplo = (torch.randint(0, 1000, (1, 5)),) + tuple(torch.randn(1, 7, *forma) for _ in range(2 * capas))
    fp32 = carpeta / "fp32-kv.onnx"
    with torch.no_grad():
        programa = torch.onnx.export(
            ConCache(modelo).eval(), ejemplo, opset_version=18, dynamo=True,
            input_names=["input_ids"] + [f"pasado_{k}_{i}" for i in range(capas) for k in "kv"],
            output_names=["logits"] + [f"nuevo_{k}_{i}" for i in range(capas) for k in "kv"],
            dynamic_shapes={"input_ids": {1: torch.export.Dim("n", min=1, max=2048)},
                            "pasado": tuple({1: torch.export.Dim("p", min=0, max=2048)} for _ in range(2 * capas))})
    programa.save(str(fp32), external_data=False)
    a_q8f(fp32, carpeta / "q8f-kv.onnx")
    fp32.unlink()
    modelo.set_attn_implementation(implementacion)  # the answers to compare with: transformers' own
    comprobar(carpeta / "q8f-kv.onnx", modelo, tok, kv=(capas, forma))


def forma_kv(config) -> tuple[int, tuple[int, int]]:
    """(layers, (KV heads, head size)) of the model."""
    return config.num_hidden_layers, (config.num_key_value_heads, config.hidden_size // config.num_attention_heads)


def comprobar(archivo: Path, modelo, tok, kv=None) -> None:
    """Greedy, no grammar, on the manifest's fixed prompts: the ONNX model's answers against
    transformers' on the same GGUF. With ``kv`` ((layers, (heads, size))), the prompts one after
    the other, each reusing the longest prefix it shares with the tokens already in the cache."""
    import numpy as np
    import onnxruntime as ort

    from entrenamiento import datos
    from entrenamiento.evaluacion import Generador

    ns = datos.pagina()
    transformers = Generador(modelo, tok)
    fin = {tok.convert_tokens_to_ids("<|im_end|>"), tok.convert_tokens_to_ids("<|endoftext|>")}
    opciones = ort.SessionOptions()
    opciones.intra_op_num_threads = 2
    sesion = ort.InferenceSession(str(archivo), opciones)
    iguales, reusados = 0, []
    en_cache, cache = [], None
    if kv:
        capas, (cabezas, tamano) = kv
        cache = [np.zeros((1, 0, cabezas, tamano), np.float32) for _ in range(2 * capas)]
    for _, M in datos.indicaciones_fijas(ns):
        mensajes = datos.chat(ns, M)
        x, nuevos = datos.ids(tok, datos.prompt(tok, mensajes)), []
        if kv:
            comun = 0
            while comun < min(len(x) - 1, len(en_cache)) and x[comun] == en_cache[comun]:
                comun += 1
            cache, en_cache = [t[:, :comun] for t in cache], x[:comun]
            reusados.append(f"{comun}/{len(x)}")
            entrada = x[comun:]
        while len(nuevos) < 128:
            if kv:
                r = sesion.run(None, {"input_ids": np.array([entrada], dtype=np.int64),
                                      **{f"pasado_{k}_{i}": cache[2 * i + (k == "v")]
                                         for i in range(capas) for k in "kv"}})
                cache = [np.concatenate([c, n], axis=1) for c, n in zip(cache, r[1:], strict=True)]
                en_cache = en_cache + entrada
                logits = r[0][0]
            else:
                logits = sesion.run(None, {"input_ids": np.array([x + nuevos], dtype=np.int64)})[0][0]
            t = int(np.argmax(logits))
            if t in fin:
                break
            nuevos.append(t)
            entrada = [t]
        iguales += tok.decode(nuevos) == transformers(mensajes)[0]
    print(json.dumps({"modelo": archivo.stem, "MB": round(archivo.stat().st_size / 1e6),
                      "iguales_a_transformers": iguales, "de": len(datos.indicaciones_fijas(ns)),
                      **({"reusados": reusados} if kv else {})}), flush=True)


def medir(carpeta: Path, runs: int, kv: bool = False, hilos=(0,)) -> None:
    from playwright.sync_api import sync_playwright

    from widgets.serve import servir

    from .navegador import CHROMIUM

    ort_dir = carpeta / "ort"
    if not ort_dir.is_dir():
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(["npm", "pack", ORT_WEB, "--pack-destination", tmp], check=True, capture_output=True)
            with tarfile.open(next(Path(tmp).glob("*.tgz"))) as tgz:
                tgz.extractall(tmp, filter="data")
            ort_dir.mkdir()
            for nombre in ("ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm"):
                (ort_dir / nombre).write_bytes((Path(tmp) / "package" / "dist" / nombre).read_bytes())
    (carpeta / "index.html").write_text(PAGINA_KV if kv else PAGINA, encoding="utf-8")
    srv = servir(carpeta, 0, aislamiento=True)
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    try:
        with sync_playwright() as p:
            navegador = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            paginas = ([f"index.html?hilos={h}&forma={json.dumps(FORMA_KV)}" for h in hilos] if kv else
                       [f"index.html?m={nombre}" for nombre in MODELOS if (carpeta / f"{nombre}.onnx").exists()])
            for _ in range(runs):
                for pagina in paginas:
                    page = navegador.new_page()
                    page.goto(base + pagina)
                    page.wait_for_function("window.__r", timeout=600_000)
                    r = page.evaluate("window.__r")
                    print(json.dumps({k: round(v) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
                    page.close()
            navegador.close()
    finally:
        srv.shutdown()
        srv.server_close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.motor_onnx", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="paso", required=True)
    e = sub.add_parser("exportar")
    e.add_argument("carpeta", type=Path)
    e.add_argument("--kv", action="store_true", help="the model with a KV cache (q8f-kv.onnx)")
    m = sub.add_parser("medir")
    m.add_argument("carpeta", type=Path)
    m.add_argument("--runs", type=int, default=1)
    m.add_argument("--kv", action="store_true", help="q8f-kv.onnx, its cache growing turn by turn")
    m.add_argument("--hilos", type=int, nargs="+", default=[0], help="threads (0: every core)")
    args = parser.parse_args(argv)
    if args.paso == "exportar":
        (exportar_kv if args.kv else exportar)(args.carpeta)
    else:
        medir(args.carpeta, args.runs, args.kv, args.hilos)
    return 0


if __name__ == "__main__":
    sys.exit(main())
