// Writes the course's service worker into a built site, with Workbox's injectManifest: the list
// of every file the site publishes (but JupyterLite's, the sources, the worker's own template and
// the in-page model's files), each with its hash as revision and its size, replaces
// `self.__WB_MANIFEST` in the bundled worker. Run by the Sphinx build (widgets/sin_conexion.py), last:
//
//   node manifiesto.mjs <site folder> <bundled sw.js> <node_modules folder>
//
// Prints one line of JSON: {"archivos": N, "bytes": B, "avisos": [...]}.
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const [sitio, plantilla, modulos] = process.argv.slice(2);
if (!sitio || !plantilla || !modulos) {
  console.error("usage: node manifiesto.mjs <site folder> <bundled sw.js> <node_modules folder>");
  process.exit(2);
}
// workbox-build is the course's npm dependency, wherever this script is installed.
const { injectManifest } = createRequire(join(resolve(modulos), "noop.js"))(
  "workbox-build/build/inject-manifest.js", // its one function: the package index loads Rollup and Babel (≈ 0.7 s)
);

const { count, size, warnings } = await injectManifest({
  globDirectory: sitio,
  globPatterns: ["**/*"],
  globIgnores: [
    "lite/**",
    "_sources/**",
    "sw.js",
    "_static/bucle/sw.js",
    "**/*.map",
    "objects.inv",
    // The in-page model (≈ 100 MB) is the reader's choice: downloaded only when they ask, and
    // kept by the page itself (modelo/motor.js), never installed with the site.
    "_static/bucle/modelo/**",
  ],
  swSrc: plantilla,
  swDest: join(sitio, "sw.js"),
  // Pyodide's interpreter is ≈ 9 MB: no file of the site is too big to keep.
  maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
  manifestTransforms: [
    async (entradas) => ({
      // `size` is Workbox's (summed, then dropped); `bytes` stays, for the install's progress.
      manifest: entradas.map((entrada) => ({ ...entrada, bytes: entrada.size })),
      warnings: [],
    }),
  ],
});
console.log(JSON.stringify({ archivos: count, bytes: size, avisos: warnings }));
