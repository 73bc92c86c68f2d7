// wllama (the in-page model's llama.cpp), made to start from the site's own files. Used by
// empaquetar.mjs.
//
// wllama writes its worker at run time and starts it from blob: URLs: the worker (its options
// written in, then emscripten's module and its own code), and, for llama.cpp's threads, the
// emscripten module again; the worker then fetches the wasm from the URL it is given (the page
// used a blob: URL of the checked copy). A strict Content-Security-Policy (`worker-src 'self'`,
// `connect-src 'self'`) refuses all three. So:
//
// - the bundle writes the two scripts as files beside the widgets, `wllama-trabajador.js` and
//   `wllama-hilo.js`, made from the very strings wllama would have put in its blobs (taken from
//   the package when the bundle is made, so a new wllama cannot leave them stale), the worker
//   preceded by modelo/cabecera-del-trabajador.js (its options from the URL's fragment; the wasm
//   from the model's cache);
// - wllama's module is patched (three places, each checked: a wllama that changed them stops the
//   bundle) so that, once the page calls `usarArchivosDelSitio({trabajador, hilo})`, it starts
//   those files instead; without that call it is wllama as published. Only for the worker these
//   files are: CPU only (no WebGPU), not the compat build, no worker code of the caller's.
//
// Also: its fallback build ("compat", for browsers without JSPI) points at a CDN; the page turns
// it off (modelo/motor.js: setCompat(null)) and the bundle does not even carry those addresses.
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const aqui = dirname(fileURLToPath(import.meta.url));
const CABECERA = join(aqui, "..", "front", "modelo", "cabecera-del-trabajador.js");

const CDN = /var WasmCompatFromCDN = \{[^}]*cdn\.jsdelivr\.net[^}]*\};/;
const SIN_CDN = 'var WasmCompatFromCDN = { worker: "", wasm: "" };';
const SIN_WEBGPU = /moduleCode = ('try\{Object\.defineProperty\(WorkerNavigator\.prototype,"gpu".*?\}catch\(e\)\{\}') \+ moduleCode;/;

// [what wllama has, what the bundle puts instead]
const PARCHES = [
  [CDN, SIN_CDN],
  ["this.worker = createWorker(completeCode);",
   "this.worker = trabajadorDelSitio(runOptions, this.resources) ?? createWorker(completeCode);"],
  ['new Blob([moduleCode], { type: "text/javascript" }),',
   'hiloDelSitio(this.resources) ?? new Blob([moduleCode], { type: "text/javascript" }),'],
];

const AL_FINAL = `
var ARCHIVOS_DEL_SITIO = null;
function usarArchivosDelSitio(archivos) { ARCHIVOS_DEL_SITIO = archivos; }
function delSitio(r) {
  return ARCHIVOS_DEL_SITIO && r.noWebGPU && !r.compat && !r.jsPath ? ARCHIVOS_DEL_SITIO : null;
}
function trabajadorDelSitio(opciones, r) {
  const a = delSitio(r);
  return a ? new Worker(a.trabajador + "#" + encodeURIComponent(JSON.stringify(opciones)), { type: "module" }) : null;
}
function hiloDelSitio(r) { return delSitio(r)?.hilo ?? null; }
export { usarArchivosDelSitio };
`;

/** wllama's module as the bundle takes it (throws, naming this file, if a patch no longer fits). */
export function parchear(codigo, ruta) {
  for (const [antes, despues] of PARCHES) {
    const hay = typeof antes === "string" ? codigo.split(antes).length - 1 : (codigo.match(new RegExp(antes, "g")) ?? []).length;
    if (hay !== 1) throw new Error(`${ruta} changed: review the patches in widgets/construccion/wllama.mjs`);
    codigo = codigo.replace(antes, despues);
  }
  return codigo + AL_FINAL;
}

export const plugin = {
  name: "wllama-desde-el-sitio",
  setup(build) {
    build.onLoad({ filter: /@wllama[\\/]wllama[\\/]esm[\\/]index\.js$/ }, async ({ path }) => ({
      contents: parchear(await readFile(path, "utf8"), path), loader: "js", watchFiles: [CABECERA],
    }));
  },
};

/** Write wllama-trabajador.js and wllama-hilo.js into `salida`: what wllama would have made,
 *  for a CPU-only worker that is not the compat build (see delSitio). */
export async function escribirTrabajadores(salida, ruta) {
  const codigo = await readFile(ruta, "utf8");
  const sinWebgpu = codigo.match(SIN_WEBGPU);
  if (!sinWebgpu || sinWebgpu[1].includes("\\")) throw new Error(`${ruta} changed: review the patches in widgets/construccion/wllama.mjs`);
  // The package's own strings, read by importing a copy of it that also exports them.
  const carpeta = await mkdtemp(join(tmpdir(), "wllama-"));
  let cadenas;
  try {
    const copia = join(carpeta, "index.mjs");
    await writeFile(copia, codigo + "\nexport { LLAMA_CPP_WORKER_CODE as __trabajador, " +
                    "WLLAMA_EMSCRIPTEN_CODE as __emscripten, JSPI_STUB as __jspi };\n");
    cadenas = await import(pathToFileURL(copia).href);
  } finally {
    await rm(carpeta, { recursive: true, force: true });
  }
  // As ProxyToWorker.moduleInit builds them.
  const modulo = sinWebgpu[1].slice(1, -1) + cadenas.__jspi + cadenas.__emscripten;
  const trabajador = [
    await readFile(CABECERA, "utf8"),
    `function wModuleInit() { ${modulo.replace("var Module", "var ___Module")}; return Module; }`,
    cadenas.__trabajador,
  ].join(";\n\n");
  await writeFile(join(salida, "wllama-trabajador.js"), trabajador);
  await writeFile(join(salida, "wllama-hilo.js"), modulo);
}
