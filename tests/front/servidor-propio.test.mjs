import { test } from "node:test";
import assert from "node:assert/strict";
import { CLAVE, direccionPropia, guardarPropia, leerPropia } from "../../widgets/front/lib/servidor-propio.js";

test("an address becomes its origin and its messages endpoint", () => {
  assert.deepEqual(direccionPropia(" http://localhost:11434 "),
    { origen: "http://localhost:11434", url: "http://localhost:11434/v1/messages" });
  assert.deepEqual(direccionPropia("http://127.0.0.1:8080/"),
    { origen: "http://127.0.0.1:8080", url: "http://127.0.0.1:8080/v1/messages" });
  assert.deepEqual(direccionPropia("https://mi-servidor.example/api//"),
    { origen: "https://mi-servidor.example", url: "https://mi-servidor.example/api/v1/messages" });
  assert.deepEqual(direccionPropia("http://localhost:11434/v1/messages"),
    { origen: "http://localhost:11434", url: "http://localhost:11434/v1/messages" });
});

test("what is not an address of a server says, in Spanish, what to type", () => {
  assert.throws(() => direccionPropia(""), /^Error: Escribe la dirección de tu servidor/);
  assert.throws(() => direccionPropia("localhost:11434"), /^Error: «localhost:11434» no es una dirección web: escríbela completa/);
  assert.throws(() => direccionPropia("no es una dirección"), /no es una dirección web/);
  assert.throws(() => direccionPropia("ftp://127.0.0.1"), /no por ftp:\/\//);
  assert.throws(() => direccionPropia("http://yo:clave@localhost:11434"), /usuario, contraseña/);
  assert.throws(() => direccionPropia("http://localhost:11434/?x=1"), /usuario, contraseña/);
  assert.throws(() => direccionPropia("http://127.0.0.1:8000/curso/", "http://127.0.0.1:8000"), /este mismo sitio/);
});

test("the confirmed address is kept, read back and forgotten", () => {
  const datos = new Map();
  const almacen = { getItem: (k) => datos.get(k) ?? null, setItem: (k, v) => datos.set(k, v), removeItem: (k) => datos.delete(k) };
  assert.equal(leerPropia(almacen), null);
  assert.equal(guardarPropia(direccionPropia("http://localhost:11434"), almacen), true);
  assert.deepEqual(leerPropia(almacen), { origen: "http://localhost:11434", url: "http://localhost:11434/v1/messages" });
  datos.set(CLAVE, JSON.stringify({ url: "javascript:alert(1)" })); // tampered with: ignored
  assert.equal(leerPropia(almacen), null);
  datos.set(CLAVE, "{no es json");
  assert.equal(leerPropia(almacen), null);
  guardarPropia(null, almacen);
  assert.equal(datos.has(CLAVE), false);
  const lleno = { setItem() { throw new Error("QuotaExceededError"); } };
  assert.equal(guardarPropia(direccionPropia("http://localhost:1"), lleno), false);
});

test("with storage blocked (reading localStorage throws), nothing is kept and nothing throws", () => {
  const antes = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  Object.defineProperty(globalThis, "localStorage", {
    configurable: true,
    get() {
      throw new Error("SecurityError: Access is denied for this document.");
    },
  });
  try {
    assert.equal(leerPropia(), null);
    assert.equal(guardarPropia(direccionPropia("http://localhost:11434")), false);
  } finally {
    if (antes) Object.defineProperty(globalThis, "localStorage", antes);
    else delete globalThis.localStorage;
  }
});
