// The cells' pure logic: capped output, the notebook's order, the download of Pyodide's files.
import assert from "node:assert/strict";
import { test } from "node:test";

const { Salida, textoOmitido } = await import("../../widgets/front/lib/salida.js");
const { Cuaderno, avisoDeAnteriores, leidasPorLasCeldas, textoDelFinal } =
  await import("../../widgets/front/lib/cuaderno.js");
const { enumerar, megas } = await import("../../widgets/front/lib/textos.js");
const { traerArchivos, fetchDesde } = await import("../../widgets/front/lib/descarga.js");

test("output under the limit is kept whole, in order, merged by stream", () => {
  const s = new Salida(100);
  s.añadir("stdout", "uno\n");
  s.añadir("stdout", "dos\n");
  s.añadir("stderr", "¡ay!\n");
  s.añadir("stdout", "tres\n");
  s.recortar();
  assert.deepEqual(s.segmentos, [
    { flujo: "stdout", texto: "uno\ndos\n" },
    { flujo: "stderr", texto: "¡ay!\n" },
    { flujo: "stdout", texto: "tres\n" },
  ]);
  assert.deepEqual(s.omitidas, { lineas: 0, caracteres: 0 });
  assert.equal(textoOmitido(s.omitidas), "");
});

test("a flood keeps the last lines, whole, and counts what it dropped", () => {
  const s = new Salida(1000);
  let todo = "";
  for (let i = 0; i < 100_000; i++) {
    const linea = `línea ${i}\n`;
    todo += linea;
    s.añadir(i % 1000 === 0 ? "stderr" : "stdout", linea);
    assert.ok(s.longitud <= 2000, "never holds more than twice the limit");
  }
  s.recortar();
  const visto = s.segmentos.map((x) => x.texto).join("");
  assert.ok(visto.length <= 1000);
  assert.ok(todo.endsWith(visto));
  assert.match(visto, /^línea \d+\n/, "the first line shown is whole");
  assert.ok(visto.endsWith("línea 99999\n"));
  assert.equal(s.omitidas.caracteres, todo.length - visto.length);
  assert.equal(s.omitidas.lineas + visto.split("\n").length - 1, 100_000);
  assert.match(textoOmitido(s.omitidas), /^Salida demasiado larga: se han omitido 9\d\.\d{3} líneas del principio/);
});

test("one huge line is cut by characters, and a batch carries earlier cuts on", () => {
  const s = new Salida(10);
  s.añadir("stdout", "x".repeat(5000));
  s.recortar();
  assert.equal(s.segmentos[0].texto, "x".repeat(10));
  assert.equal(textoOmitido(s.omitidas), "Salida demasiado larga: se han omitido 4990 caracteres del principio; se muestra el final.");
  const lote = s.tomar();
  assert.equal(lote.omitidas.caracteres, 4990);
  assert.deepEqual(s.segmentos, []);
  const pagina = new Salida(100);
  pagina.añadir("stdout", "fin\n", { lineas: 7, caracteres: 70 });
  assert.deepEqual(pagina.omitidas, { lineas: 7, caracteres: 70 });
  assert.equal(textoOmitido({ lineas: 1, caracteres: 5 }),
    "Salida demasiado larga: se han omitido 1 línea del principio; se muestra el final.");
});

test("the notebook runs the earlier cells that have not run, and forgets on a restart", () => {
  const c = new Cuaderno();
  assert.deepEqual(c.anteriores(3, [4, 1, 3, 2]), [1, 2]);
  c.marcar(1);
  assert.deepEqual(c.anteriores(3, [1, 2, 3, 4]), [2]);
  c.marcar(2);
  assert.deepEqual(c.anteriores(3, [1, 2, 3, 4]), []);
  assert.deepEqual(c.anteriores(1, [1, 2, 3, 4]), []);
  c.olvidar();
  assert.deepEqual(c.anteriores(4, [1, 2, 3, 4]), [1, 2, 3]);
});

test("what the reader is told", () => {
  assert.equal(enumerar([1]), "1");
  assert.equal(enumerar([1, 2]), "1 y 2");
  assert.equal(enumerar([1, 2, 3]), "1, 2 y 3");
  assert.equal(avisoDeAnteriores([]), "");
  assert.equal(avisoDeAnteriores([2]), "Antes se ejecuta la celda 2, de la que depende esta.");
  assert.equal(avisoDeAnteriores([1, 2]), "Antes se ejecutan las celdas 1 y 2, de las que depende esta.");
  assert.equal(textoDelFinal({ estado: "ok" }), "");
  assert.equal(textoDelFinal({ estado: "ok" }, { huboSalida: false }), "Ejecutada, sin salida.");
  assert.equal(textoDelFinal({ estado: "error", tipo: "NameError" }), "");
  assert.match(textoDelFinal({ estado: "salida", codigo: 3 }), /exit\(\) o sys\.exit\(\) \(código de salida 3\)/);
  assert.doesNotMatch(textoDelFinal({ estado: "salida", codigo: null }), /código/);
  assert.equal(textoDelFinal({ estado: "detenido" }), "Ejecución detenida.");
  assert.match(textoDelFinal({ estado: "detenido", reiniciado: true }), /reiniciado.*celdas anteriores se volverán a ejecutar/);
  assert.equal(megas(12_144_782), "12 MB");
  assert.equal(megas(2_545_564), "2,5 MB");
  for (const bytes of [0, 940_000, 950_000, 1_000_000, 9_949_999, 9_960_000, 154_000_000]) {
    const mb = bytes / 1e6;
    const intl = `${mb < 10 ? mb.toLocaleString("es-ES", { maximumFractionDigits: 1 }) : Math.round(mb)} MB`;
    assert.equal(megas(bytes), intl, `as Intl writes ${bytes} bytes`);
  }
});

// A Cache API and a server, in memory.
function simulados() {
  const guardadas = new Map();
  const pedidas = [];
  const cuerpos = { "pyodide.asm.wasm": new Uint8Array(3000), "python_stdlib.zip": new Uint8Array(1000),
                   "pyodide-lock.json": new TextEncoder().encode('{"packages": {}}') };
  globalThis.caches = {
    async keys() { return ["bucle-pyodide-0.1", "otra-cosa", ...new Set([...guardadas.keys()].map((k) => k.split("|")[0]))]; },
    async delete(nombre) { this.borradas = [...(this.borradas ?? []), nombre]; return true; },
    async open(nombre) {
      return {
        async match(url) { return guardadas.get(`${nombre}|${url}`)?.clone(); },
        async put(url, respuesta) { guardadas.set(`${nombre}|${url}`, respuesta); },
      };
    },
  };
  const servidor = async (url) => {
    pedidas.push(url);
    const cuerpo = cuerpos[url.split("/").pop()];
    return new Response(cuerpo, { headers: { "Content-Length": String(cuerpo.length) } });
  };
  return { pedidas, servidor };
}

test("Pyodide's files download once with their progress, then come from the cache", async () => {
  const { pedidas, servidor } = simulados();
  globalThis.fetch = servidor;
  const base = "http://sitio/_static/pyodide/";
  const avisos = [];
  const grandes = () => pedidas.filter((u) => !u.endsWith("pyodide-lock.json")).length;
  const primera = await traerArchivos(base, "0.2", (p) => avisos.push(p));
  assert.equal(primera.descargado, true);
  assert.equal(grandes(), 2);
  assert.ok(pedidas.includes(base + "pyodide-lock.json"), "the lock file is asked for beside them");
  assert.deepEqual(caches.borradas, ["bucle-pyodide-0.1"], "only old versions of our cache are deleted");
  assert.deepEqual(avisos.at(-1), { cargado: 4000, total: 4000 });
  assert.equal(avisos[0].total, 4000, "the size is known from the first notice");
  assert.equal(primera.archivos.get(base + "pyodide.asm.wasm").type, "application/wasm");
  await primera.guardado; // written to the cache while Python starts

  const despues = [];
  const segunda = await traerArchivos(base, "0.2", (p) => despues.push(p));
  assert.equal(segunda.descargado, false);
  assert.equal(grandes(), 2, "nothing big downloaded the second time");
  assert.deepEqual(despues, []);
  assert.equal(segunda.archivos.get(base + "python_stdlib.zip").size, 1000);

  // Pyodide's own fetch of the wasm is answered from memory, and of the lock file by the request
  // made beside them, once; anything else goes to the network.
  const f = fetchDesde(segunda.archivos, servidor);
  const wasm = await f(new URL(base + "pyodide.asm.wasm"));
  assert.equal(wasm.headers.get("Content-Type"), "application/wasm");
  assert.equal((await wasm.arrayBuffer()).byteLength, 3000);
  const antes = pedidas.length;
  assert.deepEqual(await (await f(base + "pyodide-lock.json")).json(), { packages: {} });
  assert.equal(pedidas.length, antes, "the lock file asked for early is the one handed over");
  await f(base + "pyodide-lock.json");
  assert.equal(pedidas.at(-1), base + "pyodide-lock.json", "a second request goes to the network");
  await f(base + "otro.json").catch(() => {});
  assert.equal(pedidas.at(-1), base + "otro.json");
});

test("a lock file whose early request failed is asked for again when Pyodide wants it", async () => {
  const pedidas = [];
  globalThis.caches = undefined;
  let falla = true;
  globalThis.fetch = async (url) => {
    pedidas.push(String(url));
    if (String(url).endsWith(".json") && falla) throw new TypeError("sin red");
    return new Response(new Uint8Array(10));
  };
  const base = "http://sitio/_static/pyodide/";
  const r = await traerArchivos(base, "0.4");
  falla = false;
  const f = fetchDesde(r.archivos, globalThis.fetch);
  assert.equal((await f(base + "pyodide-lock.json")).status, 200);
  assert.deepEqual(pedidas.filter((u) => u.endsWith(".json")), [base + "pyodide-lock.json", base + "pyodide-lock.json"]);
});

test("through the service worker, the interpreter is handed over as the response it gave, once", async () => {
  const { pedidas, servidor } = simulados();
  globalThis.fetch = async (url) => {
    const respuesta = await servidor(url);
    return new Response(respuesta.body, { headers: { "Content-Type": "application/wasm" } });
  };
  const base = "http://sitio/_static/pyodide/";
  const r = await traerArchivos(base, "0.3", () => {}, { comoRespuesta: ["pyodide.asm.wasm"] });
  const wasm = r.archivos.get(base + "pyodide.asm.wasm");
  assert.ok(wasm instanceof Response);
  assert.ok(r.archivos.get(base + "python_stdlib.zip") instanceof Blob, "the other file as bytes, as always");
  const red = async (url) => {
    pedidas.push(`red ${url}`);
    return new Response("");
  };
  const f = fetchDesde(r.archivos, red);
  assert.equal(await f(base + "pyodide.asm.wasm"), wasm, "the response itself, unread");
  await f(base + "pyodide.asm.wasm");
  assert.equal(pedidas.at(-1), `red ${base}pyodide.asm.wasm`, "a second start fetches it again");
});

test("an answer that is not a wasm (wrong type, an error, no network) leaves the interpreter to this worker's cache", async () => {
  const base = "http://sitio/_static/pyodide/";
  const malas = {
    "the wrong MIME type": async () => new Response("x", { headers: { "Content-Type": "application/octet-stream" } }),
    "an error": async () => new Response("no", { status: 404, headers: { "Content-Type": "text/html" } }),
    "no network": async () => {
      throw new TypeError("Failed to fetch");
    },
  };
  for (const [caso, mala] of Object.entries(malas)) {
    const { servidor } = simulados();
    globalThis.fetch = servidor;
    await (await traerArchivos(base, "0.4")).guardado; // an earlier visit kept both files
    globalThis.fetch = mala;
    const r = await traerArchivos(base, "0.4", () => {}, { comoRespuesta: ["pyodide.asm.wasm"] });
    const wasm = r.archivos.get(base + "pyodide.asm.wasm");
    assert.ok(wasm instanceof Blob, caso);
    assert.equal(wasm.size, 3000, caso);
    assert.equal(r.descargado, false, caso);
  }
});

test("without the Cache API the files still download", async () => {
  const { pedidas, servidor } = simulados();
  delete globalThis.caches;
  globalThis.fetch = servidor;
  const r = await traerArchivos("http://sitio/p/", "1", () => {});
  assert.equal(r.descargado, true);
  assert.deepEqual([...r.archivos.keys()].sort(), ["pyodide-lock.json", "pyodide.asm.wasm", "python_stdlib.zip"]
    .map((n) => "http://sitio/p/" + n));
  assert.equal(pedidas.length, 3);
});

test("the files the cells read with open_url are found, once each, only on the site", () => {
  const codigos = [
    'exec(open_url("runtime/entorno.py").read())\nexec(open_url( \'runtime/guionizado.py\' ).read())',
    'texto = open_url("runtime/entorno.py").read()  # again\nopen_url("https://example.com/x.py")',
    'open_url(ruta)  # not a literal\nopen_url("//example.com/y")\nopen_url("/datos/lista.txt")',
    null,
  ];
  assert.deepEqual(leidasPorLasCeldas(codigos), ["runtime/entorno.py", "runtime/guionizado.py", "/datos/lista.txt"]);
});
