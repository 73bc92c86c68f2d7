// The pure pieces of the page's worker (widgets/front/trabajador.js): its output sent in batches,
// what the page told it of the site, when it is idle, the files the cells read, the snapshot's
// bytes handed over once.
import assert from "node:assert/strict";
import { test } from "node:test";

const { EnvioPorLotes } = await import("../../widgets/front/lib/salida.js");
const { Sitio } = await import("../../widgets/front/lib/sitio.js");
const { Ocio } = await import("../../widgets/front/lib/ocio.js");
const { leerTextos } = await import("../../widgets/front/lib/descarga.js");
const { unaVez } = await import("../../widgets/front/lib/instantanea.js");

function reloj() {
  const r = { t: 0 };
  r.ahora = () => r.t;
  return r;
}

test("output goes at once at a run's start, then at most once every 40 ms", () => {
  const r = reloj();
  const enviados = [];
  const envio = new EnvioPorLotes((s) => enviados.push(s), { ahora: r.ahora });
  envio.empezar();
  r.t = 1000;
  envio.añadir("stdout", "uno\n");
  assert.deepEqual(enviados, [{ flujo: "stdout", texto: "uno\n" }]);
  r.t = 1010;
  envio.añadir("stdout", "dos\n");
  envio.añadir("stderr", "¡ay!\n");
  assert.equal(enviados.length, 1, "held until the interval has passed");
  r.t = 1041;
  envio.añadir("stdout", "tres\n");
  assert.deepEqual(enviados.slice(1), [
    { flujo: "stdout", texto: "dos\n" }, { flujo: "stderr", texto: "¡ay!\n" }, { flujo: "stdout", texto: "tres\n" },
  ]);
  envio.añadir("stdout", "cuatro\n");
  envio.pronto();
  envio.añadir("stdout", "cinco\n");
  assert.deepEqual(enviados.at(-1), { flujo: "stdout", texto: "cuatro\ncinco\n" }, "pronto: the next write goes");
  envio.añadir("stdout", "seis\n");
  envio.vaciar();
  assert.deepEqual(enviados.at(-1), { flujo: "stdout", texto: "seis\n" });
  envio.vaciar();
  assert.equal(enviados.length, 6, "nothing held, nothing sent");
});

test("a flood: each batch keeps its last part, says what it left out, and goes every 250 ms", () => {
  const r = reloj();
  const enviados = [];
  const envio = new EnvioPorLotes((s) => enviados.push(s), { ahora: r.ahora });
  r.t = 1000;
  envio.añadir("stdout", "x".repeat(99) + "\n");
  r.t = 1001;
  for (let i = 0; i < 2000; i++) envio.añadir("stdout", `${i}`.padEnd(99, ".") + "\n");
  envio.vaciar();
  const lote = enviados.at(-1);
  assert.ok(lote.omitidas.caracteres > 0 && lote.omitidas.lineas > 0, JSON.stringify(lote.omitidas));
  assert.ok(lote.texto.endsWith("1999".padEnd(99, ".") + "\n"));
  assert.equal(envio.intervalo, 250);
  const antes = enviados.length;
  r.t = 1200;
  envio.añadir("stdout", "más\n");
  assert.equal(enviados.length, antes, "not before 250 ms");
  r.t = 1260;
  envio.añadir("stdout", "más\n");
  assert.deepEqual(enviados.at(-1), { flujo: "stdout", texto: "más\nmás\n" });
  envio.empezar();
  assert.equal(envio.intervalo, 40);
});

test("the site: controlled or not, serving the model or not, the reader's own server and its origin", () => {
  const sitio = new Sitio({ raiz: "http://127.0.0.1:8000/curso/", ruedas: "http://127.0.0.1:8000/curso/_static/bucle/ruedas/" });
  assert.equal(sitio.permitido(), null);
  assert.equal(sitio.conRed(), false);
  assert.deepEqual(JSON.parse(sitio.paraPython()), {
    raiz: "http://127.0.0.1:8000/curso/", ruedas: "http://127.0.0.1:8000/curso/_static/bucle/ruedas/",
    controlado: false, propio: null,
  });
  sitio.ajustar({ controlado: 1, propio: { url: "http://localhost:8080/v1/messages" } });
  assert.equal(sitio.permitido(), "http://localhost:8080");
  assert.equal(JSON.parse(sitio.paraPython()).propio, "http://localhost:8080/v1/messages");
  assert.equal(JSON.parse(sitio.paraPython()).controlado, true);
  sitio.ajustar({ controlado: false });
  assert.equal(sitio.permitido(), "http://localhost:8080", "what the page leaves out stays");
  sitio.ajustar({ propio: { url: "no es una URL" } });
  assert.equal(sitio.permitido(), null);
  sitio.ajustar({ propio: { url: "http://localhost:8080/v1/messages" } });
  assert.equal(sitio.conRed(), true, "a page with the reader's own server sends requests");
  sitio.ajustar({ propio: null });
  assert.equal(JSON.parse(sitio.paraPython()).propio, null);
  assert.equal(sitio.conRed(), false);
  sitio.ajustar({ sirve: true });
  assert.equal(sitio.conRed(), true, "a page that serves the course's model sends requests");
  sitio.ajustar({ controlado: true });
  assert.equal(sitio.conRed(), true, "what the page leaves out stays");
  sitio.ajustar({ sirve: false });
  assert.equal(sitio.conRed(), false);
});

test("idle: hacer waits until no message has been handled for the time asked", () => {
  const r = reloj();
  const pendientes = [];
  const ocio = new Ocio({ ahora: r.ahora, despues: (f, ms) => pendientes.push([r.t + ms, f]) });
  const correr = () => {
    pendientes.sort((a, b) => a[0] - b[0]);
    const [cuando, f] = pendientes.shift();
    r.t = cuando;
    f();
  };
  let hecho = 0;
  ocio.cuando(1000, () => hecho++);
  ocio.empieza();
  correr(); // at 1000: still working
  assert.equal(hecho, 0);
  r.t = 1500;
  ocio.acaba();
  correr();
  assert.equal(hecho, 0, "idle for less than a second");
  assert.ok(r.t < 2500);
  while (pendientes.length) correr();
  assert.equal(hecho, 1);
  assert.ok(r.t >= 2500);
});

test("idle, once: a name asked for twice is done once, and what it throws goes nowhere", () => {
  const pendientes = [];
  const ocio = new Ocio({ ahora: () => 10_000, despues: (f) => pendientes.push(f) });
  const hechos = [];
  ocio.unaVez("red", 300, () => hechos.push("red"));
  ocio.unaVez("red", 300, () => hechos.push("otra vez"));
  ocio.unaVez("calentar", 300, () => {
    hechos.push("calentar");
    throw new Error("una parada que llegó tarde");
  });
  while (pendientes.length) pendientes.shift()();
  assert.deepEqual(hechos, ["red", "calentar"]);
  ocio.unaVez("red", 300, () => hechos.push("después"));
  assert.equal(pendientes.length, 0, "never again for that name");
});

test("the files the cells read: those that could be read, relative to the page", async () => {
  const original = globalThis.fetch;
  const pedidas = [];
  globalThis.fetch = async (url) => {
    pedidas.push(String(url));
    if (String(url).endsWith("roto.txt")) throw new TypeError("sin red");
    return new Response(String(url).endsWith("falta.txt") ? "no" : "hola", {
      status: String(url).endsWith("falta.txt") ? 404 : 200,
    });
  };
  try {
    const leidos = await leerTextos(["a.txt", "falta.txt", "roto.txt"], "http://127.0.0.1:8000/curso/leccion.html");
    assert.deepEqual(leidos, [["a.txt", "hola"]]);
    assert.equal(pedidas[0], "http://127.0.0.1:8000/curso/a.txt");
    assert.deepEqual(await leerTextos(undefined, "http://127.0.0.1:8000/"), []);
  } finally {
    globalThis.fetch = original;
  }
});

test("the snapshot's bytes are handed over once, then let go", async () => {
  const bytes = unaVez(Promise.resolve(new Uint8Array([1, 2, 3])));
  assert.deepEqual(await bytes, new Uint8Array([1, 2, 3]));
  assert.throws(() => bytes.then(() => {}), TypeError);
});
