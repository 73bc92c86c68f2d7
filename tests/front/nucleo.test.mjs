// The in-page model's generation (widgets/front/modelo/nucleo.js) over a scripted model: the chat
// as the model reads it, the KV cache reused from prompt to prompt with llama.cpp's counters,
// greedy decoding held to the output's schema, the cap, a cancellation, a full context, and the
// cache kept and put back.
import assert from "node:assert/strict";
import { test } from "node:test";

const { ContextoLleno, Nucleo, textoDelChat } = await import("../../widgets/front/modelo/nucleo.js");
const { esquemaDeSalida } = await import("../../widgets/front/modelo/esquema.js");
const { HERRAMIENTAS } = await import("./modelo-comun.mjs");

// A vocabulary of one token per byte (id = byte + 3), three special tokens and one of four bytes,
// `":{"`, which the tokenizer uses wherever it can (the model never prefers it).
const ESPECIALES = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const FIN = [0, 2];
const JUNTOS = '":{"';
const UNIDOS = 259;
const VOCABULARIO = 260;
const id = (byte) => byte + 3;
const bytesDe = (t) => (t < 3 ? null : t === UNIDOS ? new TextEncoder().encode(JUNTOS) : Uint8Array.of(t - 3));
function codificar(texto) {
  const ids = [];
  for (const trozo of texto.split(/(<\|[a-z_]+\|>|":\{")/)) {
    if (ESPECIALES.includes(trozo)) ids.push(ESPECIALES.indexOf(trozo));
    else if (trozo === JUNTOS) ids.push(UNIDOS);
    else ids.push(...new TextEncoder().encode(trozo).map(id));
  }
  return ids;
}
const FORMA = { capas: 2, cabezas_kv: 1, tamano: 2, contexto: 400 };

/**
 * A model that writes as `quiere(escrito, bytes)` says: after the assistant's turn opens, it prefers,
 * at each step, the first of that list (a string: its first byte; a number: that byte; null: the end). Its keys
 * and values are the tokens' ids, and it reads what came before from them: so a cache that does
 * not hold what was read makes it write something else. It gives the logits of the last
 * `ultimos` tokens, each from what came up to it.
 */
function modelo(quiere) {
  const llamadas = [];
  const preferencias = (secuencia) => {
    const abierto = secuencia.lastIndexOf(1); // <|im_start|>
    const partes = secuencia.slice(abierto + 1).map(bytesDe).filter(Boolean);
    const todo = new Uint8Array(partes.reduce((n, b) => n + b.length, 0));
    partes.reduce((n, b) => (todo.set(b, n), n + b.length), 0);
    const escritos = todo.subarray("assistant\n".length);
    const logits = new Float32Array(VOCABULARIO);
    logits.fill(-10);
    quiere(new TextDecoder().decode(escritos), escritos).forEach((opcion, rango) => {
      logits[opcion === null ? 2 : typeof opcion === "number" ? id(opcion) : id(new TextEncoder().encode(opcion)[0])] = 10 - rango;
    });
    return logits;
  };
  const correr = async (ids, p, pasado, ultimos = 1) => {
    llamadas.push({ ids: [...ids], p });
    assert.ok(pasado.every((m) => m.length === p * FORMA.cabezas_kv * FORMA.tamano), "a view of the p tokens");
    assert.ok(ultimos >= 1 && ultimos <= ids.length);
    // What it reads before the new tokens is its cache: the keys it gave for them.
    const secuencia = [...pasado[0].filter((_, i) => i % 2 === 0), ...ids];
    const logits = new Float32Array(ultimos * VOCABULARIO);
    for (let j = 0; j < ultimos; j++) {
      logits.set(preferencias(secuencia.slice(0, secuencia.length - ultimos + 1 + j)), j * VOCABULARIO);
    }
    const nuevos = Array.from({ length: 2 * FORMA.capas }, () => Float32Array.from(ids.flatMap((t) => [t, t])));
    return { logits, nuevos };
  };
  return { correr, llamadas };
}

/** A model that writes `texto` (byte by byte) and ends. */
function escribe(texto) {
  const meta = new TextEncoder().encode(texto);
  return modelo((_, escritos) => (escritos.length < meta.length ? [meta[escritos.length]] : [null]));
}

const nucleo = (m) => new Nucleo({ correr: m.correr, codificar, bytesDe, fin: FIN, forma: FORMA });
const SISTEMA = { role: "system", content: "Eres un asistente." };

test("the chat is the model's template: ChatML, the assistant's turn opened", () => {
  assert.equal(textoDelChat([SISTEMA, { role: "user", content: "hola" }]),
               "<|im_start|>system\nEres un asistente.<|im_end|>\n<|im_start|>user\nhola<|im_end|>\n<|im_start|>assistant\n");
});

test("each turn reuses the whole conversation before it, and counts as llama.cpp does", async () => {
  const respuesta = '{"respuesta":"Hay dos recetas."}'; // split as the tokenizer splits it
  const m = escribe(respuesta);
  const n = nucleo(m);
  const pedido = [SISTEMA, { role: "user", content: "¿Qué hay?" }];
  const uno = await n.generar({ mensajes: pedido, max_tokens: 64 });
  const prompt = codificar(textoDelChat(pedido));
  assert.deepEqual([uno.texto, uno.fin, uno.tokensEntrada, uno.tokensReusados], [respuesta, "stop", prompt.length, 0]);
  assert.equal(uno.tokensSalida, respuesta.length + 1, "the end of the turn, sampled, is counted");
  assert.deepEqual(uno.tiempos.prompt_n, prompt.length);
  assert.deepEqual(m.llamadas[0], { ids: prompt, p: 0 });
  assert.equal(m.llamadas.length, 1 + respuesta.length, "one forward for the prompt, one per token but the end");

  const m2 = [...pedido, { role: "assistant", content: respuesta }, { role: "user", content: "Resultado: nada" }];
  const dos = await n.generar({ mensajes: m2, max_tokens: 64 });
  // All of turn 1 but the token that ended it, sampled and never read.
  assert.equal(dos.tokensReusados, uno.tokensReusados + uno.tokensEntrada + uno.tokensSalida - 1);
  assert.equal(dos.tokensReusados + dos.tokensEntrada, codificar(textoDelChat(m2)).length);
  assert.equal(dos.tiempos.cache_n, dos.tokensReusados);
  assert.deepEqual(Array.from(n.memoria[3].subarray(0, 2 * n.enCache.length)).filter((_, i) => i % 2 === 0), n.enCache);
});

test("the output is held to the schema: a refused token gives way to the next best, the end only when whole", async () => {
  const esquema = esquemaDeSalida(HERRAMIENTAS);
  // It would write a space first, then stop before the closing brace.
  const m = modelo((escrito) => {
    const meta = '{"respuesta":"hola"';
    if (escrito === "") return [" ", "{"];
    if (escrito === meta) return [null, "}"];
    if (escrito === meta + "}") return ["\n", null];
    return [meta.slice(escrito.length)];
  });
  const r = await nucleo(m).generar({ mensajes: [SISTEMA], esquema, max_tokens: 64 });
  assert.deepEqual([r.texto, r.fin], ['{"respuesta":"hola"}', "stop"]);
  // Without a schema it writes what it prefers.
  const libre = await nucleo(m).generar({ mensajes: [SISTEMA], max_tokens: 64 });
  assert.equal(libre.texto[0], " ");
});

test("without a schema, a special token that does not end the answer writes nothing (as llama.cpp)", async () => {
  // The model prefers <|im_start|> (special, not in FIN), then writes "ok" and ends.
  const orden = [1, id("o".charCodeAt(0)), id("k".charCodeAt(0)), 2];
  let pasadas = 0;
  const correr = async (ids, p, pasado, ultimos = 1) => {
    const logits = new Float32Array(ultimos * VOCABULARIO).fill(-10);
    logits[(ultimos - 1) * VOCABULARIO + orden[pasadas++]] = 10;
    return { logits, nuevos: Array.from({ length: 2 * FORMA.capas }, () => new Float32Array(2 * ids.length)) };
  };
  const r = await nucleo({ correr }).generar({ mensajes: [SISTEMA], max_tokens: 16 });
  assert.deepEqual([r.texto, r.fin, r.tokensSalida], ["ok", "stop", 4]);
});

test("a character split across tokens is written whole", async () => {
  const r = await nucleo(escribe('{"respuesta":"ñandú"}')).generar({
    mensajes: [SISTEMA], esquema: esquemaDeSalida(HERRAMIENTAS), max_tokens: 64 });
  assert.equal(r.texto, '{"respuesta":"ñandú"}');
});

test("max_tokens ends it as «length», the last token never read; a cancellation ends it early", async () => {
  const m = escribe('{"respuesta":"una respuesta larga"}');
  const r = await nucleo(m).generar({ mensajes: [SISTEMA], max_tokens: 5 });
  assert.deepEqual([r.texto, r.fin, r.tokensSalida], ['{"res', "length", 5]);
  assert.equal(m.llamadas.length, 5, "the prompt, then four of the five tokens");
  let pasos = 0;
  const cancelada = await nucleo(escribe('{"respuesta":"una respuesta larga"}'))
    .generar({ mensajes: [SISTEMA], max_tokens: 64, cancelado: () => ++pasos >= 3 });
  assert.equal(cancelada.texto, '{"r');
});

test("a conversation longer than the context fails with ContextoLleno", async () => {
  const largo = [SISTEMA, { role: "user", content: "x".repeat(FORMA.contexto) }];
  await assert.rejects(nucleo(escribe("{}")).generar({ mensajes: largo, max_tokens: 8 }), ContextoLleno);
});

test("the cache kept (estado) and put back (restaurar) is reused as if it had been read", async () => {
  const prefijo = [SISTEMA, { role: "user", content: "" }];
  const a = nucleo(escribe("{}"));
  const { tokens } = await a.preparar(prefijo);
  assert.equal(tokens, codificar(textoDelChat(prefijo)).length);
  const estado = a.estado();
  const m = escribe('{"listar":{"carpeta":""}}');
  const b = nucleo(m);
  b.restaurar(estado);
  const r = await b.generar({ mensajes: [SISTEMA, { role: "user", content: "¿Qué hay?" }], max_tokens: 64 });
  // The shared start up to the user's turn is reused; nothing of it is read again.
  assert.equal(r.tokensReusados, codificar(textoDelChat([SISTEMA]).replace(/<\|im_start\|>assistant\n$/, "<|im_start|>user\n")).length);
  assert.equal(m.llamadas[0].p, r.tokensReusados);
});

/** The engine without reading ahead: one token per forward pass (what the one above must equal). */
class UnoAUno extends Nucleo {
  adelanto() {
    return [];
  }
}

/** Two turns of `texto` under the schema, by `Clase`: what each gave, the cache, the forward passes. */
async function dosTurnos(Clase, texto, max_tokens) {
  const m = escribe(texto);
  const n = new Clase({ correr: m.correr, codificar, bytesDe, fin: FIN, forma: FORMA });
  const esquema = esquemaDeSalida(HERRAMIENTAS);
  const pedido = [SISTEMA, { role: "user", content: "¿Qué hay?" }];
  const uno = await n.generar({ mensajes: pedido, esquema, max_tokens });
  const cache = [...n.enCache];
  const memoria = Array.from(n.memoria[1].subarray(0, n.enCache.length * n.fila));
  const siguiente = [...pedido, { role: "assistant", content: uno.texto }, { role: "user", content: "Resultado: nada" }];
  const dos = await n.generar({ mensajes: siguiente, esquema, max_tokens });
  const sin = ({ tiempos, ...resto }) => resto;
  return { turnos: [sin(uno), sin(dos)], cache, memoria, pasadas: m.llamadas.length, llamadas: m.llamadas,
           tiempos: [uno.tiempos, dos.tiempos] };
}

test("what the schema forces is read ahead and kept where the model would choose it: the same turns in fewer passes", async () => {
  const texto = '{"respuesta":"hola"}';
  const uno = await dosTurnos(UnoAUno, texto, 64);
  const adelantando = await dosTurnos(Nucleo, texto, 64);
  assert.equal(uno.turnos[0].texto, texto);
  assert.deepEqual(adelantando.turnos, uno.turnos);
  assert.deepEqual([adelantando.cache, adelantando.memoria], [uno.cache, uno.memoria]);
  // `{"` with the prompt, `espuesta":"` with the `r`, `}` with the closing quote: 14 passes fewer a turn.
  assert.equal(uno.pasadas - adelantando.pasadas, 2 * 14);
  const { pasadas, adelantados, acertados } = adelantando.tiempos[0];
  assert.deepEqual([pasadas, adelantados, acertados], [uno.tiempos[0].pasadas - 14, 14, 14]);
  assert.deepEqual(adelantando.llamadas[0].ids.slice(-2), codificar('{"'));
});

test("a token read ahead that the model would not choose is dropped with the rest, and the model's own is taken", async () => {
  // The tokenizer writes `":{"` as one token; the model writes it a byte at a time.
  const texto = '{"leer":{"ruta":"a.txt"}}';
  const uno = await dosTurnos(UnoAUno, texto, 64);
  const adelantando = await dosTurnos(Nucleo, texto, 64);
  assert.equal(uno.turnos[0].texto, texto);
  assert.ok(adelantando.llamadas.some((l) => l.ids.includes(UNIDOS)), "read ahead");
  assert.ok(!adelantando.cache.includes(UNIDOS), "and dropped from the cache");
  assert.deepEqual(adelantando.turnos, uno.turnos);
  assert.deepEqual([adelantando.cache, adelantando.memoria], [uno.cache, uno.memoria]);
  assert.ok(adelantando.pasadas < uno.pasadas);
  const { adelantados, acertados } = adelantando.tiempos[0];
  assert.ok(acertados < adelantados, `${acertados} of ${adelantados}`);
});

test("reading ahead never reads past max_tokens: every cap gives what one token at a time gives", async () => {
  for (const texto of ['{"respuesta":"hola"}', '{"escribir":{"ruta":"a","contenido":"b"}}']) {
    for (let max_tokens = 1; max_tokens <= texto.length + 1; max_tokens++) {
      const [uno, adelantando] = [await dosTurnos(UnoAUno, texto, max_tokens), await dosTurnos(Nucleo, texto, max_tokens)];
      assert.deepEqual(adelantando.turnos, uno.turnos, `${texto}, ${max_tokens}`);
      assert.deepEqual(adelantando.cache, uno.cache, `${texto}, ${max_tokens}`);
    }
  }
});
