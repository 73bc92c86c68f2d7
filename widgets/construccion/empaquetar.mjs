// Bundles the widgets' front end (run by `make bundle`): every widgets/front/*.js and *.css is an
// entry point; ES modules with code splitting, so CodeMirror stays in its own chunk that reading
// a page never loads; the Python the worker runs is imported as text. The service worker
// (servicio/sw.js, with Workbox) is bundled apart, as one classic script: sw.js, whose list of
// files the site build writes in (widgets/construccion/sin_conexion.py).
//
// One patch, for a site that works under `style-src 'self'`: CodeMirror's style-mod writes its
// rules into a <style> element when the root is a document (inline CSS, blocked by that policy)
// and into a constructed stylesheet (CSSOM, allowed) only in shadow roots. It is told to use the
// constructed stylesheet everywhere, which every current browser supports.
//
// onnxruntime-web (the in-page model's engine, loaded by modelo-trabajador.js) is not bundled: its
// module and the script of its threads are copied as they are published into `ort/`, so that the
// threads start from the site's own files (under a strict Content-Security-Policy too) and the
// service worker keeps them for offline use. Its wasm is the model's file, downloaded and checked
// by the page (widgets/construccion/modelo_local.py).
import { readdirSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const aqui = dirname(fileURLToPath(import.meta.url));
const FRONT = join(aqui, "..", "front");
// The workers' entries are bundled whole, each one file (below): a worker's module map is its
// own, so a chunk it shared with the page's modules was fetched again, one round trip after the
// worker's script and before Pyodide's first request (the cold start waits for it).
const TRABAJADORES = ["trabajador.js", "modelo-trabajador.js"];
const entradas = readdirSync(FRONT)
  .filter((f) => /\.(js|css)$/.test(f) && !TRABAJADORES.includes(f))
  .map((f) => join(FRONT, f));

const HOJA_EN_LINEA = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {";
const HOJA_CONSTRUIDA = "if (root.adoptedStyleSheets && win.CSSStyleSheet) {";

const estilosSinElementoStyle = {
  name: "style-mod-sin-style",
  setup(build) {
    build.onLoad({ filter: /style-mod[\\/]src[\\/]style-mod\.js$/ }, async ({ path }) => {
      const codigo = await readFile(path, "utf8");
      if (!codigo.includes(HOJA_EN_LINEA)) {
        throw new Error(`${path} changed: review the style-src patch in empaquetar.mjs`);
      }
      return { contents: codigo.replace(HOJA_EN_LINEA, HOJA_CONSTRUIDA), loader: "js" };
    });
  },
};

// The grader, for the page's worker: `import ARCHIVOS from "calificador:archivos"` is
// {name: text} of every widgets/calificador/*.py, the very package the build and the grader
// command import in CPython. The worker writes them into Pyodide's file system and imports the
// package, in its memory snapshot too, so a page's start fetches none of them.
const CALIFICADOR = join(aqui, "..", "calificador");

const archivosDelCalificador = {
  name: "archivos-del-calificador",
  setup(build) {
    build.onResolve({ filter: /^calificador:archivos$/ }, ({ path }) => ({ path, namespace: "calificador" }));
    build.onLoad({ filter: /.*/, namespace: "calificador" }, async () => {
      const nombres = readdirSync(CALIFICADOR).filter((f) => f.endsWith(".py")).sort();
      const archivos = {};
      for (const nombre of nombres) archivos[nombre] = await readFile(join(CALIFICADOR, nombre), "utf8");
      return { contents: `export default ${JSON.stringify(archivos)};`, loader: "js",
               watchFiles: nombres.map((n) => join(CALIFICADOR, n)) };
    });
  },
};

const salida = process.argv[2] ?? join(aqui, "..", "static");

const comunes = {
  outdir: salida,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  loader: { ".py": "text" },
  entryNames: "[name]",
  logLevel: "warning",
  plugins: [estilosSinElementoStyle, archivosDelCalificador],
};
const { metafile } = await esbuild.build({
  ...comunes,
  entryPoints: entradas,
  metafile: true,
  splitting: true,
  chunkNames: "[name]-[hash]",
});
await esbuild.build({ ...comunes, entryPoints: TRABAJADORES.map((f) => join(FRONT, f)) });

// precargas.json: each entry module → the chunks it imports statically, all the way down. A page
// links them as modulepreload (widgets/construccion/recursos.py), so the browser fetches them beside the entry
// modules instead of one level after another.
const estaticos = (salida) => (metafile.outputs[salida]?.imports ?? [])
  .filter((i) => i.kind === "import-statement").map((i) => i.path);
const precargas = {};
for (const [archivo, datos] of Object.entries(metafile.outputs)) {
  if (!datos.entryPoint || !archivo.endsWith(".js")) continue;
  const vistos = new Set();
  const pendientes = estaticos(archivo);
  while (pendientes.length) {
    const siguiente = pendientes.pop();
    if (vistos.has(siguiente)) continue;
    vistos.add(siguiente);
    pendientes.push(...estaticos(siguiente));
  }
  precargas[basename(archivo)] = [...vistos].map((v) => basename(v)).sort();
}
const ORT = join(aqui, "..", "..", "node_modules", "onnxruntime-web", "dist");
await mkdir(join(salida, "ort"), { recursive: true });
for (const nombre of ["ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs"]) {
  await copyFile(join(ORT, nombre), join(salida, "ort", nombre));
}

await writeFile(join(salida, "precargas.json"), JSON.stringify(precargas, null, 1) + "\n");

await esbuild.build({
  entryPoints: [join(FRONT, "servicio", "sw.js")],
  outfile: join(salida, "sw.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});
