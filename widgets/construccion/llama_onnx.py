"""The course's model as an ONNX graph: Llama written out with ``onnx.helper`` (embedding, 30 ×
(RMSNorm, attention with rotary positions, grouped keys and values and a KV cache, RMSNorm,
SwiGLU), RMSNorm, the tied output matrix over the last ``ultimos`` tokens), node by node, in a
fixed order: the same GGUF gives the same bytes (the pinned hash). Its weights come from
:mod:`widgets.construccion.modelo_onnx` (``Pesos``), which writes the files, publishes them and
describes the graph's inputs and outputs.
"""

from __future__ import annotations

from types import SimpleNamespace

#: The graph's input and output names (the page's engine uses the same).
ENTRADA, ULTIMOS, LOGITS = "input_ids", "ultimos", "logits"
#: The longest conversation the page keeps (its rotary tables and its KV cache stop there).
CONTEXTO = 2048


def pasado(tipo: str, capa: int) -> str:
    return f"pasado_{tipo}_{capa}"


def nuevo(tipo: str, capa: int) -> str:
    return f"nuevo_{tipo}_{capa}"


class Grafo:
    """A small builder over onnx.helper: nodes, constants and fresh names."""

    def __init__(self):
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.nodos, self.constantes, self.cuenta = [], [], 0

    def nombre(self, base: str) -> str:
        self.cuenta += 1
        return f"{base}_{self.cuenta}"

    def op(self, tipo: str, *entradas: str, salidas: int = 1, nombre: str | None = None, **atributos):
        fuera = ([nombre or self.nombre(tipo.lower())] if salidas == 1
                 else [self.nombre(tipo.lower()) for _ in range(salidas)])
        self.nodos.append(self.helper.make_node(tipo, list(entradas), fuera, **atributos))
        return fuera[0] if salidas == 1 else fuera

    def constante(self, valor, base: str = "c") -> str:
        import numpy as np

        nombre = self.nombre(base)
        self.constantes.append(self.numpy_helper.from_array(np.asarray(valor), nombre))
        return nombre

    def enteros(self, *valores: int) -> str:
        import numpy as np

        return self.constante(np.array(valores, dtype=np.int64), "i")


def llama(w):
    """The ONNX model (an ``onnx.ModelProto``) of the Llama whose weights ``w`` holds (a
    :class:`widgets.construccion.modelo_onnx.Pesos`: its ``campo``, ``tensores``, ``matriz`` and
    ``vector``), with a KV cache."""
    import numpy as np

    f = forma(w)
    g = Grafo()
    cos, sin, mascara = _posiciones(g, f)
    embedding = w.matriz(g, "token_embd.weight", transpuesta=False)  # [vocabulario, d_modelo]
    x = g.op("Gather", embedding, ENTRADA, axis=0)  # [1, n, d_modelo]
    escala = g.constante(np.float32(1.0 / np.sqrt(f.tamano)))
    for i in range(f.capas):
        x = _capa(g, w, f, i, x, (cos, sin, mascara, escala))
    # The last `ultimos` tokens' rows, [ultimos, d]: a Slice from -ultimos to the end.
    cola = g.op("Slice", x, g.op("Neg", ULTIMOS), g.enteros(np.iinfo(np.int64).max), g.enteros(1))
    ultimos = g.op("Reshape", _rms(g, f, cola, w.vector(g, "output_norm.weight")), g.enteros(-1, f.d_modelo))
    salida = "output.weight" if "output.weight" in w.tensores else None
    # The output matrix as Gemm's B transposed: tied to the embedding, it is not copied.
    g.op("Gemm", ultimos, w.matriz(g, salida, False) if salida else embedding, nombre=LOGITS, transB=1)
    return _modelo(g, f, int(w.tensores["token_embd.weight"].shape[1]))


def forma(w) -> SimpleNamespace:
    """The model's shape, as the GGUF says it: capas, cabezas (of the queries), cabezas_kv,
    d_modelo, tamano (of a head), grupo (query heads per KV head), eps (RMS norm's), base_rope and
    contexto (the longest conversation, at most :data:`CONTEXTO`)."""
    arq = w.campo("general.architecture")
    leer = lambda clave, tipo=int: tipo(w.campo(f"{arq}.{clave}"))  # noqa: E731
    d_modelo, cabezas, cabezas_kv = (leer("embedding_length"), leer("attention.head_count"),
                                     leer("attention.head_count_kv"))
    return SimpleNamespace(capas=leer("block_count"), cabezas=cabezas, cabezas_kv=cabezas_kv,
                           d_modelo=d_modelo, tamano=d_modelo // cabezas, grupo=cabezas // cabezas_kv,
                           eps=leer("attention.layer_norm_rms_epsilon", float),
                           base_rope=leer("rope.freq_base", float),
                           contexto=min(leer("context_length"), CONTEXTO))


def _rms(g: Grafo, f: SimpleNamespace, x: str, peso: str) -> str:
    """RMS normalization of ``x`` (on its last axis), times ``peso``."""
    import numpy as np

    media = g.op("ReduceMean", g.op("Pow", x, g.constante(np.float32(2))), g.enteros(-1), keepdims=1)
    return g.op("Mul", g.op("Div", x, g.op("Sqrt", g.op("Add", media, g.constante(np.float32(f.eps))))), peso)


def _posiciones(g: Grafo, f: SimpleNamespace) -> tuple[str, str, str]:
    """What every layer's attention shares: the rotary tables at the new tokens' positions (cos,
    sin: [1, n, 1, tamano/2]) and the causal mask of their rows ([grupo*n, p+n])."""
    import numpy as np

    # Positions: the p tokens already in the cache, then the n new ones.
    p = g.op("Gather", g.op("Shape", pasado("k", 0)), g.enteros(1), axis=0)  # [1]
    n = g.op("Gather", g.op("Shape", ENTRADA), g.enteros(1), axis=0)  # [1]
    total = g.op("Add", p, n)
    escalar = lambda v: g.op("Squeeze", v, g.enteros(0))  # noqa: E731
    posiciones = g.op("Range", escalar(p), escalar(total), g.constante(np.int64(1)))  # [n]
    # Rotary tables, [contexto, tamano/2], gathered at the positions.
    inv = f.base_rope ** (-np.arange(0, f.tamano, 2, dtype=np.float64) / f.tamano)
    angulos = np.arange(f.contexto, dtype=np.float64)[:, None] * inv[None, :]
    cos = g.op("Gather", g.constante(np.cos(angulos).astype(np.float32), "cos"), posiciones, axis=0)
    sin = g.op("Gather", g.constante(np.sin(angulos).astype(np.float32), "sin"), posiciones, axis=0)
    cos = g.op("Unsqueeze", g.op("Unsqueeze", cos, g.enteros(0)), g.enteros(2))  # [1, n, 1, tamano/2]
    sin = g.op("Unsqueeze", g.op("Unsqueeze", sin, g.enteros(0)), g.enteros(2))
    # The causal mask, [n, p + n]: query i (at p + i) sees keys 0 … p + i.
    columnas = g.op("Range", g.constante(np.int64(0)), escalar(total), g.constante(np.int64(1)))
    prohibida = g.op("Greater", g.op("Unsqueeze", columnas, g.enteros(0)), g.op("Unsqueeze", posiciones, g.enteros(1)))
    mascara = g.op("Where", prohibida, g.constante(np.float32(-1e9)), g.constante(np.float32(0)))
    return cos, sin, g.op("Tile", mascara, g.enteros(f.grupo, 1))  # rows as the attention's below


def _rotar(g: Grafo, f: SimpleNamespace, x: str, h: int, cos: str, sin: str) -> str:
    """RoPE on ``x`` [1, n, h, tamano], llama.cpp's NORM rope: pairs (2i, 2i+1)."""
    pares = g.op("Reshape", x, g.enteros(1, -1, h, f.tamano // 2, 2))
    par, impar = g.op("Split", pares, g.enteros(1, 1), axis=-1, salidas=2)
    par, impar = g.op("Squeeze", par, g.enteros(-1)), g.op("Squeeze", impar, g.enteros(-1))
    a = g.op("Sub", g.op("Mul", par, cos), g.op("Mul", impar, sin))
    b = g.op("Add", g.op("Mul", par, sin), g.op("Mul", impar, cos))
    juntos = g.op("Concat", g.op("Unsqueeze", a, g.enteros(-1)), g.op("Unsqueeze", b, g.enteros(-1)), axis=-1)
    return g.op("Reshape", juntos, g.enteros(1, -1, h, f.tamano))


def _capa(g: Grafo, w, f: SimpleNamespace, i: int, x: str, comun: tuple) -> str:
    """Layer ``i`` (its tensors ``blk.i.…``): attention with its KV cache, then the SwiGLU
    feed-forward, each added to ``x``; ``comun`` is :func:`_posiciones`' and the scores' scale."""
    cos, sin, mascara, escala = comun
    b = f"blk.{i}."
    cabezas, cabezas_kv, tamano = f.cabezas, f.cabezas_kv, f.tamano
    h = _rms(g, f, x, w.vector(g, b + "attn_norm.weight"))
    q = g.op("Reshape", g.op("MatMul", h, w.matriz(g, b + "attn_q.weight", True)), g.enteros(1, -1, cabezas, tamano))
    k = g.op("Reshape", g.op("MatMul", h, w.matriz(g, b + "attn_k.weight", True)), g.enteros(1, -1, cabezas_kv, tamano))
    v = g.op("MatMul", h, w.matriz(g, b + "attn_v.weight", True))
    k = _rotar(g, f, k, cabezas_kv, cos, sin)
    g.op("Identity", k, nombre=nuevo("k", i))
    g.op("Reshape", v, g.enteros(1, -1, cabezas_kv, tamano), nombre=nuevo("v", i))
    claves = g.op("Concat", pasado("k", i), nuevo("k", i), axis=1)  # [1, p+n, kv, tamano]
    valores = g.op("Concat", pasado("v", i), nuevo("v", i), axis=1)
    # The query heads of each KV head as rows: [1, kv, grupo*n, tamano].
    q = g.op("Reshape", g.op("Transpose", g.op("Reshape", _rotar(g, f, q, cabezas, cos, sin),
                                               g.enteros(1, -1, cabezas_kv, f.grupo, tamano)),
                             perm=[0, 2, 3, 1, 4]), g.enteros(1, cabezas_kv, -1, tamano))
    pesos = g.op("MatMul", q, g.op("Transpose", claves, perm=[0, 2, 3, 1]))  # [1, kv, grupo*n, p+n]
    pesos = g.op("Softmax", g.op("Add", g.op("Mul", pesos, escala), mascara), axis=-1)
    atendido = g.op("MatMul", pesos, g.op("Transpose", valores, perm=[0, 2, 1, 3]))  # [1, kv, grupo*n, tamano]
    atendido = g.op("Transpose", g.op("Reshape", atendido, g.enteros(1, cabezas_kv, f.grupo, -1, tamano)),
                    perm=[0, 3, 1, 2, 4])
    atendido = g.op("Reshape", atendido, g.enteros(1, -1, f.d_modelo))
    x = g.op("Add", x, g.op("MatMul", atendido, w.matriz(g, b + "attn_output.weight", True)))
    h = _rms(g, f, x, w.vector(g, b + "ffn_norm.weight"))
    puerta = g.op("MatMul", h, w.matriz(g, b + "ffn_gate.weight", True))
    arriba = g.op("MatMul", h, w.matriz(g, b + "ffn_up.weight", True))
    activada = g.op("Mul", g.op("Mul", puerta, g.op("Sigmoid", puerta)), arriba)
    return g.op("Add", x, g.op("MatMul", activada, w.matriz(g, b + "ffn_down.weight", True)))


def _modelo(g: Grafo, f: SimpleNamespace, vocabulario: int):
    """The graph's nodes and constants as an ONNX model, with its inputs and outputs declared."""
    from onnx import TensorProto, helper

    forma_kv = lambda largo: ["1", largo, f.cabezas_kv, f.tamano]  # noqa: E731
    entradas = [helper.make_tensor_value_info(ENTRADA, TensorProto.INT64, [1, "n"]),
                helper.make_tensor_value_info(ULTIMOS, TensorProto.INT64, [1])]
    salidas = [helper.make_tensor_value_info(LOGITS, TensorProto.FLOAT, ["ultimos", vocabulario])]
    for i in range(f.capas):
        for t in "kv":
            entradas.append(helper.make_tensor_value_info(pasado(t, i), TensorProto.FLOAT, forma_kv("p")))
            salidas.append(helper.make_tensor_value_info(nuevo(t, i), TensorProto.FLOAT, forma_kv("n")))
    modelo = helper.make_model(
        helper.make_graph(g.nodos, "bucle", entradas, salidas, g.constantes),
        opset_imports=[helper.make_opsetid("", 18)], producer_name="el-bucle")
    modelo.ir_version = 9
    return modelo
