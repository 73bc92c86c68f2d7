// @ts-check
// The in-page model's weights as the page downloads them (widgets/construccion/modelo_onnx.py's
// escribir_pesos: Q8_0's int8 values and one scale per block of 32) turned into the float32 data
// the model's graph names as external (onnxruntime copies it in when the session is made). No DOM.
//
//   pesosFloat32(arrayBuffer) → Float32Array

/**
 * The float32 weights of the graph from the weights file (widgets/construccion/modelo_onnx.py's
 * escribir_pesos): each int8 value times its block's scale, at the offset the graph names.
 * @param {ArrayBuffer} pesos
 */
export function pesosFloat32(pesos) {
  const largo = new DataView(pesos).getUint32(0, true);
  const cabecera = JSON.parse(new TextDecoder().decode(new Uint8Array(pesos, 4, largo)));
  const inicio = 4 + largo;
  const salida = new Float32Array(cabecera.bytes / 4);
  for (const t of cabecera.tensores) {
    const [a, b] = t.forma;
    const q = new Int8Array(pesos, inicio + t.q, a * b);
    const base = t.salida / 4;
    if (t.traspuesta) { // [a, b], a block of 32 down each column: scales [a/32, b]
      const d = new Float32Array(pesos, inicio + t.d, (a / 32) * b);
      for (let i = 0; i < a; i++) {
        const fila = ((i >> 5) * b);
        for (let j = 0, k = i * b; j < b; j++, k++) salida[base + k] = q[k] * d[fila + j];
      }
    } else { // [a, b], a block of 32 along each row: scales [a, b/32]
      const d = new Float32Array(pesos, inicio + t.d, a * (b / 32));
      for (let k = 0; k < a * b; k++) salida[base + k] = q[k] * d[k >> 5];
    }
  }
  return salida;
}
