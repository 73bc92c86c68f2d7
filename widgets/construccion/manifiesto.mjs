// Writes the course's service worker into a built site, with Workbox's injectManifest: the list
// of every file the site publishes (but JupyterLite's, the sources, the worker's own template and
// the in-page model's files), each with its hash as revision, its integrity (SRI, which the
// install's fetch checks), its size and the queries the pages ask for it with (`variantes`:
// Sphinx's `?v=<checksum>`, which the worker's static routes must know: servicio/sw.js),
// replaces `self.__WB_MANIFEST` in the bundled worker. Run by the Sphinx build
// (widgets/construccion/sin_conexion.py), last:
//
//   node manifiesto.mjs <site folder> <bundled sw.js> <node_modules folder>
//
// Prints one line of JSON: {"archivos": N, "bytes": B, "avisos": [...]}.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
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
    async (entradas) => {
      const variantes = await variantesEnLasPaginas(entradas.map(({ url }) => url));
      return {
        // `size` is Workbox's (summed, then dropped); `bytes` stays, for the install's progress.
        manifest: await Promise.all(entradas.map(async (entrada) => ({
          ...entrada,
          bytes: entrada.size,
          integrity: await integridad(entrada.url),
          ...(variantes.has(entrada.url) ? { variantes: [...variantes.get(entrada.url)].sort() } : {}),
        }))),
        warnings: [],
      };
    },
  ],
});

/**
 * The file's Subresource Integrity («sha384-…»): the worker's install fetches each file with it,
 * so that a copy cut short or changed on its way is refused, never kept (the browser checks it).
 */
async function integridad(url) {
  const bytes = await readFile(join(sitio, url));
  return `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
}

/**
 * url → the queries («?v=…») with which the site's pages link that file of the list: what a
 * page really requests, and so the keys the worker's static routes must answer.
 */
async function variantesEnLasPaginas(urls) {
  const enLista = new Set(urls);
  const base = "https://sitio.invalid/";
  const variantes = new Map();
  for (const pagina of urls.filter((u) => u.endsWith(".html"))) {
    const html = await readFile(join(sitio, pagina), "utf-8");
    for (const [, enlace] of html.matchAll(/(?:src|href)="([^"#]+\?[^"#]+)"/g)) {
      const destino = new URL(enlace.replaceAll("&amp;", "&"), base + pagina);
      if (destino.origin + "/" !== base) continue;
      const url = decodeURIComponent(destino.pathname.slice(1));
      if (!enLista.has(url)) continue;
      if (!variantes.has(url)) variantes.set(url, new Set());
      variantes.get(url).add(destino.search);
    }
  }
  return variantes;
}
console.log(JSON.stringify({ archivos: count, bytes: size, avisos: warnings }));
