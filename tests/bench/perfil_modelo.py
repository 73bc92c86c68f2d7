"""Where the in-page model's time goes: Chromium's own profiler on the bench's turns.

    python -m tests.bench.perfil_modelo [--salida perfil.json]

One run, isolated, under the course's service worker, on ``tests/sites/modelo-preparado`` (as
:mod:`tests.bench.modelo`): the model downloaded once, the page reloaded, then a trace of Chromium
(``disabled-by-default-v8.cpu_profiler``: V8's sampling profiler in every thread, the workers
and wllama's threads included) while the model loads from the browser's cache, reads the shared
start, and runs the lesson's first two turns in the cell. The engine's generations are marked in
the trace (``performance.mark`` around ``motor.hacerGeneracion``), so each sample is put in a
phase: the shared start read, turn 1's and turn 2's generation, and the rest of each turn (Python,
the HTTP request through the service worker, the in-page server).

wllama.wasm has no name section; wllama ships its functions' names apart (``WASM_SOURCE_MAP`` in
``src/wasm/source-map.ts``, for its own debugging), which this reads to name the samples.

Prints, per phase, the wall time, the threads' busy time and, by self time, the categories and the
functions where it goes. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import re
import struct
import sys
from collections import Counter, defaultdict
from pathlib import Path

from widgets.serve import servir

from . import grabar
from .navegador import Registro, chromium, contexto

ROOT = Path(__file__).resolve().parents[2]
MAPA = ROOT / "node_modules" / "@wllama" / "wllama" / "src" / "wasm" / "source-map.ts"

CATEGORIAS = [
    # (category, regex over the function's name), the first that matches the leaf wins.
    # The weights are Q8_0: a dot product in 16- or 32-bit floats is attention's (Q·K, or V).
    (ATENCION := "attention (flash attention; Q·K and V in f16/f32, softmax, rope, KV copies)",
     r"flash_attn|soft_max|rope|ggml_vec_dot_f16|ggml_vec_dot_f32|ggml_compute_forward_cpy|"
     r"ggml_compute_forward_dup|get_rows|set_rows"),
    ("matmul with the weights: Q8_0 dot products (and the activations quantized)",
     r"ggml_vec_dot|quantize_row_q8|ggml_cpu_fp32_to|ggml_vec_mad"),
    ("matmul: the rest (ggml_compute_forward_mul_mat*)", r"mul_mat"),
    ("other ggml ops (norm, add, mul, silu, …)", r"ggml_compute_forward|ggml_vec_|ggml_graph_compute|rms_norm|silu"),
    ("threads waiting (barrier, futex, atomics)", r"barrier|futex|emscripten_futex|__pthread|sched_yield|_emscripten_thread|atomic|ggml_graph_compute_thread|wait"),
    ("sampling and grammar", r"grammar|sampler|sample|llama_sampl|common_sampler|partial_utf8|decode_utf8"),
    ("tokenization and detokenization", r"tokeni|token_to_piece|llm_tokenizer|unicode|regex"),
    ("server and chat template (C++)", r"server_|chat|json|nlohmann|minja|common_|std::|basic_string|format"),
    ("graph build and scheduling", r"ggml_backend|ggml_new|ggml_graph|llm_build|llama_graph|build_|ggml_sched|ggml_gallocr|ggml_hash"),
    ("memory (malloc, memcpy, memset)", r"malloc|free|memcpy|memset|memmove|dlmalloc|operator new|operator delete"),
]


def nombres_de_wasm() -> tuple[int, list[str | None]]:
    """wllama's table of function names (``firstId``, names by ``funcId - firstId``)."""
    texto = MAPA.read_text()
    b64 = re.search(r'"default":\s*"([^"]+)"', texto).group(1)
    datos = gzip.decompress(base64.b64decode(b64))
    primero, cuantas, num = struct.unpack_from("<III", datos, 0)
    pos, nombres = 12, []
    for _ in range(num):
        n = datos[pos]
        nombres.append(datos[pos + 1:pos + 1 + n].decode("utf-8", "replace"))
        pos += 1 + n
    indices = struct.unpack_from(f"<{cuantas}H", datos, pos)
    return primero, [None if i == 0xFFFF else nombres[i] for i in indices]


MARCAR = """(opciones) => {
  const motor = __bucleMotorDelModelo();
  motor.opcionesDeCarga = opciones;
  let n = 0;
  for (const metodo of ["hacerPreparacion", "hacerGeneracion"]) {
    const original = motor[metodo].bind(motor);
    motor[metodo] = async (...args) => {
      const k = ++n;
      performance.mark("bucle-generacion-" + k + "-inicio");
      try { return await original(...args); }
      finally { performance.mark("bucle-generacion-" + k + "-fin"); }
    };
  }
}"""


def leer_traza(eventos: list[dict], primero: int, nombres: list[str | None]):
    """Samples ``[(ts_us, pid, tid, [frames leaf first], dt_us)]``, the marks ``{name: ts}``, and
    the threads' names ``{(pid, tid): name}``."""
    hilos = {(e["pid"], e["tid"]): e["args"]["name"] for e in eventos
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    marcas = {e["name"]: e["ts"] for e in eventos
              if e.get("name", "").startswith("bucle-generacion-") and e.get("ph") in ("R", "I", "i", "b", "n")}
    perfiles: dict = {}
    for e in eventos:
        if e.get("name") == "Profile":
            perfiles[(e["pid"], e["id"])] = {"inicio": e["args"]["data"]["startTime"], "tid": e["tid"],
                                             "nodos": {}, "muestras": [], "deltas": []}
    for e in eventos:
        if e.get("name") != "ProfileChunk":
            continue
        p = perfiles.get((e["pid"], e["id"]))
        if p is None:
            continue
        datos = e["args"]["data"]
        cpu = datos.get("cpuProfile", {})
        for nodo in cpu.get("nodes", []):
            p["nodos"][nodo["id"]] = nodo
        p["muestras"] += cpu.get("samples", [])
        p["deltas"] += datos.get("timeDeltas", [])

    def nombre(marco: dict) -> str:
        f = marco.get("functionName") or "(anónima)"
        m = re.fullmatch(r"(?:\$func|wasm-function\[)(\d+)\]?", f)
        if m and "pyodide" not in marco.get("url", ""):
            i = int(m.group(1)) - primero
            if 0 <= i < len(nombres) and nombres[i]:
                return nombres[i]
        return f

    muestras = []
    for (pid, _), p in perfiles.items():
        padres = {}
        for nodo in p["nodos"].values():
            for hijo in nodo.get("children", []):
                padres[hijo] = nodo["id"]
        for nodo in p["nodos"].values():
            if "parent" in nodo:
                padres[nodo["id"]] = nodo["parent"]
        pilas: dict = {}

        def pila(i):
            if i not in pilas:
                marcos, j = [], i
                while j is not None and j in p["nodos"]:
                    marcos.append(nombre(p["nodos"][j]["callFrame"]))
                    j = padres.get(j)
                pilas[i] = marcos
            return pilas[i]

        ts = p["inicio"]
        tiempos = []
        for d in p["deltas"]:
            ts += d
            tiempos.append(ts)
        for k, (t, s) in enumerate(zip(tiempos, p["muestras"])):
            dt = (tiempos[k + 1] - t) if k + 1 < len(tiempos) else 0
            muestras.append((t, pid, p["tid"], pila(s), max(0, min(dt, 50_000))))
    return muestras, marcas, hilos


def categoria(marcos: list[str]) -> str:
    hoja = marcos[0] if marcos else ""
    if hoja in ("(idle)", "(program)", "(garbage collector)", "(root)"):
        return hoja
    if hoja in ("JsvFunction_CallBound", "send"):  # Pyodide's worker in its synchronous HTTP request
        return "Python's worker, blocked on the model's answer (not CPU)"
    if not any(m.startswith(("ggml", "llama", "llm", "wllama", "common", "server")) or "$func" in m
               or "wasm-function" in m for m in marcos) and not re.search(
                   "|".join(r for _, r in CATEGORIAS), hoja):
        return "JavaScript (worker messages, the page, Python's bridge)"
    if any(re.search(r"flash_attn|soft_max", m) for m in marcos[:3]):
        return ATENCION  # a dot product or exp inside attention is attention's
    for nombre, patron in CATEGORIAS:
        if re.search(patron, hoja):
            return nombre
    return "other wasm"


def fases(marcas: dict) -> list[tuple[str, float, float]]:
    r = []
    for k in range(1, 10):
        a, b = marcas.get(f"bucle-generacion-{k}-inicio"), marcas.get(f"bucle-generacion-{k}-fin")
        if a is None or b is None:
            break
        r.append((("the shared start read (the preparation)" if k == 1 else f"turn {k - 1}: the engine's generation"), a, b))
    return r


def informe(muestras, marcas, hilos) -> str:
    lineas = []
    for titulo, a, b in fases(marcas):
        dentro = [m for m in muestras if a <= m[0] < b]
        lineas.append(f"\n### {titulo}: {(b - a) / 1000:.0f} ms wall\n")
        por_hilo = defaultdict(Counter)
        for t, pid, tid, marcos, dt in dentro:
            por_hilo[(pid, tid)][categoria(marcos)] += dt
        lineas.append("| thread | busy ms | idle ms |\n|---|---|---|")
        for clave, c in sorted(por_hilo.items(), key=lambda kv: -sum(kv[1].values())):
            ocioso = c.get("(idle)", 0)
            ocupado = sum(c.values()) - ocioso
            if ocupado < 50_000:
                continue
            lineas.append(f"| {hilos.get(clave, clave)} ({clave[1]}) | {ocupado / 1000:.0f} | {ocioso / 1000:.0f} |")
        total = Counter()
        funciones = Counter()
        for t, pid, tid, marcos, dt in dentro:
            cat = categoria(marcos)
            if cat == "(idle)":
                continue
            total[cat] += dt
            funciones[marcos[0] if marcos else "?"] += dt
        suma = sum(total.values()) or 1
        lineas.append("\n| category (self time, every thread) | ms | share |\n|---|---|---|")
        for cat, us in total.most_common():
            lineas.append(f"| {cat} | {us / 1000:.0f} | {100 * us / suma:.1f}% |")
        lineas.append("\n| function (self time) | ms | share |\n|---|---|---|")
        for f, us in funciones.most_common(15):
            lineas.append(f"| `{f[:90]}` | {us / 1000:.0f} | {100 * us / suma:.1f}% |")
    return "\n".join(lineas)


def medir(salida: Path | None, opciones: dict) -> str:
    primero, nombres = nombres_de_wasm()
    sitio = grabar.servir_el_sitio()
    srv = servir(sitio, 0, aislamiento=True)
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    registro = Registro()
    try:
        with chromium(registro) as navegador:
            with contexto(navegador, registro, servicio=True) as ctx:
                page = ctx.new_page()
                grabar.abrir(page, base)
                grabar.cargar_el_modelo(page)
                grabar.abrir(page, base)
                page.evaluate(MARCAR, opciones)
                navegador.start_tracing(page=page, categories=[
                    "disabled-by-default-v8.cpu_profiler", "v8.execute", "blink.user_timing",
                    "devtools.timeline", "__metadata"])
                grabar.cargar_el_modelo(page)
                grabar.esperar_la_preparacion(page)
                datos = grabar.correr_el_agente(page, max_tokens=256, tope=2, pedidos=grabar.PEDIDOS[:1])[0]
                traza = navegador.stop_tracing()
    finally:
        registro.cerrar()
        srv.shutdown()
        srv.server_close()
    eventos = json.loads(traza)
    eventos = eventos["traceEvents"] if isinstance(eventos, dict) else eventos
    if salida:
        salida.write_bytes(traza)
    muestras, marcas, hilos = leer_traza(eventos, primero, nombres)
    turnos = ", ".join(f"turn {n}: {t['segundos']:.2f} s in Python" for n, t in enumerate(datos["turnos"], 1))
    return f"{len(muestras)} samples; {turnos}; requests that left 127.0.0.1: {len(registro.fuera)}\n" + informe(
        muestras, marcas, hilos)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.perfil_modelo", description=__doc__.split("\n")[0])
    parser.add_argument("--salida", type=Path, help="keep the trace (JSON, for chrome://tracing or Perfetto)")
    parser.add_argument("--opciones", type=json.loads, default={},
                        help="more of wllama's loadModel parameters, as JSON (a candidate)")
    parser.add_argument("--traza", type=Path, help="read a kept trace instead of running the page")
    args = parser.parse_args(argv)
    if args.traza:
        eventos = json.loads(args.traza.read_bytes())
        eventos = eventos["traceEvents"] if isinstance(eventos, dict) else eventos
        print(informe(*leer_traza(eventos, *nombres_de_wasm())))
    else:
        print(medir(args.salida, args.opciones))
    return 0


if __name__ == "__main__":
    sys.exit(main())
