import { test } from "node:test";
import assert from "node:assert/strict";
import { cerrarAlExterior, esExterior } from "../../widgets/front/lib/solo-origen.js";

const BASE = "http://127.0.0.1:8000/curso/_static/bucle/trabajador.js";

test("esExterior tells other origins from the site's own", () => {
  assert.equal(esExterior("../pyodide/pyodide.asm.wasm", BASE, "http://127.0.0.1:8000"), false);
  assert.equal(esExterior("/runtime/entorno.py", BASE, "http://127.0.0.1:8000"), false);
  assert.equal(esExterior("http://example.com/", BASE, "http://127.0.0.1:8000"), true);
  assert.equal(esExterior("ws://127.0.0.1:8000/", BASE, "http://127.0.0.1:8000"), true);
  assert.equal(esExterior("http://127.0.0.1:9000/", BASE, "http://127.0.0.1:8000"), true);
});

function mundo() {
  const pedidas = [];
  class XHR {
    open(metodo, url) {
      pedidas.push(["xhr", url]);
    }
  }
  const global = {
    location: new URL(BASE),
    fetch: async (url) => pedidas.push(["fetch", String(url)]),
    XMLHttpRequest: XHR,
    WebSocket: class {},
  };
  cerrarAlExterior(global);
  return { global, pedidas };
}

test("fetch, XHR and WebSocket refuse what would leave the site, and let the rest through", async () => {
  const { global, pedidas } = mundo();
  await global.fetch("../../runtime/entorno.py");
  await assert.rejects(global.fetch("https://example.com/x"), /no sale de este sitio/);
  await assert.rejects(global.fetch({ url: "https://example.com/y" }), TypeError);
  new global.XMLHttpRequest().open("GET", "/runtime/guionizado.py");
  assert.throws(() => new global.XMLHttpRequest().open("GET", "http://example.com/"), /no hay acceso a la red/);
  assert.throws(() => new global.WebSocket("ws://example.com:80/"), /no sale de este sitio/);
  assert.deepEqual(pedidas, [
    ["fetch", "../../runtime/entorno.py"],
    ["xhr", "/runtime/guionizado.py"],
  ]);
});

test("the confirmed origin, and only it, gets through fetch and XHR; WebSocket stays closed", async () => {
  const pedidas = [];
  class XHR {
    open(metodo, url) {
      pedidas.push(["xhr", url]);
    }
  }
  let permitido = null;
  const global = {
    location: new URL(BASE),
    fetch: async (url) => pedidas.push(["fetch", String(url)]),
    XMLHttpRequest: XHR,
    WebSocket: class {},
  };
  cerrarAlExterior(global, { permitido: () => permitido });
  assert.throws(() => new global.XMLHttpRequest().open("POST", "http://localhost:11434/v1/messages"), TypeError);
  permitido = "http://localhost:11434"; // the reader confirmed it (asked at each request)
  new global.XMLHttpRequest().open("POST", "http://localhost:11434/v1/messages");
  await global.fetch("http://localhost:11434/v1/messages");
  assert.throws(() => new global.XMLHttpRequest().open("POST", "http://localhost:11435/v1/messages"), /no sale de este sitio/);
  await assert.rejects(global.fetch("https://localhost:11434/"), /no sale de este sitio/);
  assert.throws(() => new global.WebSocket("ws://localhost:11434/"), /no sale de este sitio/);
  permitido = null; // forgotten
  assert.throws(() => new global.XMLHttpRequest().open("POST", "http://localhost:11434/v1/messages"), TypeError);
  assert.deepEqual(pedidas, [
    ["xhr", "http://localhost:11434/v1/messages"],
    ["fetch", "http://localhost:11434/v1/messages"],
  ]);
});
