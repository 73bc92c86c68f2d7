// The service worker's static routes name exactly the URLs their caches hold: each file's, the
// folder's for index.html, each query the pages link it with; none for the big files but wasm,
// whose copy has a cache of its own revision; a new list of files gets a new cache. (That the copies carry the isolation headers is checked in the browser:
// tests/browser/test_sin_conexion.py.)
import assert from "node:assert/strict";
import { test } from "node:test";

const { TOPE, claves, huella, literal, reglas } = await import(
  "../../widgets/front/servicio/rutas.js"
);

const RAIZ = "http://127.0.0.1:8000/curso/";
const ENTRADAS = [
  { url: "index.html", revision: "a", bytes: 10 },
  { url: "el-bucle.html", revision: "b", bytes: 10 },
  { url: "_static/pygments.css", revision: "c", bytes: 10, variantes: ["?v=d111a655"] },
  { url: "_static/pyodide/pyodide.asm.wasm", revision: "d", bytes: TOPE + 1 },
  { url: "_static/pyodide/python_stdlib.zip", revision: "f", bytes: TOPE + 1 },
  { url: "_static/a (1)+b.js", revision: "e", bytes: 10 },
];

test("the keys: each file, the folder for index.html, each query; big files only if wasm", () => {
  const L = "bucle-rutas-x";
  assert.deepEqual(claves(ENTRADAS, RAIZ, L), [
    { url: "index.html", clave: RAIZ + "index.html", cache: L },
    { url: "index.html", clave: RAIZ, cache: L },
    { url: "el-bucle.html", clave: RAIZ + "el-bucle.html", cache: L },
    { url: "_static/pygments.css", clave: RAIZ + "_static/pygments.css", cache: L },
    { url: "_static/pygments.css", clave: RAIZ + "_static/pygments.css?v=d111a655", cache: L },
    // in a cache of its own revision, which a build that leaves it unchanged keeps
    { url: "_static/pyodide/pyodide.asm.wasm", clave: RAIZ + "_static/pyodide/pyodide.asm.wasm", cache: "bucle-rutas-archivo-d" },
    { url: "_static/a (1)+b.js", clave: RAIZ + "_static/a%20(1)+b.js", cache: L },
  ]);
});

test("one rule per cache, one exact condition per key, answered from that cache", () => {
  const [lista, wasm, ...otras] = reglas(claves(ENTRADAS, RAIZ, "bucle-rutas-x"));
  assert.equal(otras.length, 0);
  assert.deepEqual(lista.source, { cacheName: "bucle-rutas-x" });
  assert.deepEqual(lista.condition.or.map((c) => c.urlPattern), [
    { pathname: "/curso/index.html", search: "" },
    { pathname: "/curso/", search: "" },
    { pathname: "/curso/el-bucle.html", search: "" },
    { pathname: "/curso/_static/pygments.css", search: "" },
    { pathname: "/curso/_static/pygments.css", search: "v=d111a655" },
    { pathname: "/curso/_static/a%20\\(1\\)\\+b.js", search: "" },
  ]);
  assert.deepEqual(wasm, {
    condition: { or: [{ urlPattern: { pathname: "/curso/_static/pyodide/pyodide.asm.wasm", search: "" } }] },
    source: { cacheName: "bucle-rutas-archivo-d" },
  });
});

test("URLPattern's syntax characters are escaped, nothing else", () => {
  assert.equal(literal("/a/b-c_d.e~f%20"), "/a/b-c_d.e~f%20");
  assert.equal(literal("*?+():{}[]\\"), "\\*\\?\\+\\(\\)\\:\\{\\}\\[\\]\\\\");
});

test("a new list of files (or a new revision) names a new cache; the same list, the same", () => {
  const una = huella(ENTRADAS);
  assert.match(una, /^bucle-rutas-[0-9a-f]{8}$/);
  assert.equal(huella(ENTRADAS.map((e) => ({ ...e }))), una);
  assert.notEqual(huella([...ENTRADAS.slice(0, 1), { ...ENTRADAS[1], revision: "z" }, ...ENTRADAS.slice(2)]), una);
  assert.notEqual(huella(ENTRADAS.slice(1)), una);
});
