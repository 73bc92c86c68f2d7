// The steps of a trace (widgets/front/lib/traza-pasos.js), on traces recorded by the engine's
// widgets/calificador/trazas.py from real runs: the reference loop of «El bucle» and some buggy loops.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const { pasos, pasoEquivalente, divergencia, diferenciaTexto, diferenciaLineas, esLargo, canonico } =
  await import("../../widgets/front/lib/traza-pasos.js");

const RAIZ = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = existsSync(`${RAIZ}.venv/bin/python`) ? `${RAIZ}.venv/bin/python` : "python3";

// The engine's trazas.py exec'd into a page-like namespace (it needs nothing but the runtime).
const GENERAR = String.raw`
import json
from runtime import espacio
ns = espacio("entorno", "guionizado", "escenarios")
exec(open("widgets/calificador/trazas.py", encoding="utf-8").read(), ns)
exec(open("challenges/bucle-con-tope/solucion.py", encoding="utf-8").read(), ns)
exec('''
def sin_respuesta(modelo, inicio, entorno, tope):
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", "", M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)

def sin_fin(modelo, inicio, entorno, tope):
    while True:
        FUNCIONES["leer"](entorno, ruta="lista.txt")
''', ns)

def traza(bucle, tope):
    return ns["trazar"](ns[bucle], ns["ModeloGuionizado"](ns["guion_bucle"]()), ns["INICIO_BUCLE"],
                        dict(ns["ENTORNO"]), tope)

permiso = espacio("entorno", "guionizado", "escenarios", "permisos")
exec(open("widgets/calificador/trazas.py", encoding="utf-8").read(), permiso)
exec(open("challenges/pedir-permiso/solucion.py", encoding="utf-8").read(), permiso)

def con_permiso(respuestas):
    return permiso["trazar"](permiso["bucle"], permiso["ModeloGuionizado"](permiso["guion_permiso"](respuestas)),
                             permiso["INICIO_PERMISO"], dict(permiso["ENTORNO"]), 3,
                             preguntar=permiso["Respuestas"](respuestas))

print(json.dumps({
    "permiso": con_permiso(["sí", "no"]),
    "referencia": {str(t): traza("bucle", t) for t in range(1, 11)},
    "sin_respuesta": traza("sin_respuesta", 10),
    "sin_fin": traza("sin_fin", 10),
}, ensure_ascii=False))
`;

const T = JSON.parse(execFileSync(PYTHON, ["-c", GENERAR], { cwd: RAIZ, encoding: "utf-8", maxBuffer: 1 << 26 }));
const REF = T.referencia;
const LISTA_COMPLETA = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla";
const lineasDe = (traza, paso) => paso.M.map((i) => traza.mensajes[i].lineas.join(" | "));

test("cap 10: 2, 4, 6, 8 messages in turns 1-4, then «fin» with 9 messages and the list completed", () => {
  const p = pasos(REF["10"]);
  const llamadasAlModelo = p.filter((x) => x.tipo === "modelo");
  assert.deepEqual(llamadasAlModelo.map((x) => x.turno), [1, 2, 3, 4]);
  assert.deepEqual(llamadasAlModelo.map((x) => x.M.length), [2, 4, 6, 8]);
  assert.deepEqual(llamadasAlModelo.map((x) => x.recibe), [[0, 1], [0, 1, 2, 3], [0, 1, 2, 3, 4, 5],
    [0, 1, 2, 3, 4, 5, 6, 7]]);
  assert.match(llamadasAlModelo[1].texto, /con 4 mensajes/);
  const ultimo = p.at(-1);
  assert.equal(ultimo.tipo, "devuelve");
  assert.equal(ultimo.turno, 4);
  assert.equal(ultimo.M.length, 9);
  assert.match(ultimo.texto, /\("fin", texto, M\) tras el turno 4/);
  assert.deepEqual(ultimo.detalle, ["texto: He añadido a lista.txt tomates, pepino, pimiento, ajo, huevos y cebolla."]);
  assert.equal(ultimo.entorno["lista.txt"], LISTA_COMPLETA);
  assert.deepEqual(p.map((x) => x.tipo), [
    "modelo", "respuesta", "llamada", "observaciones",
    "modelo", "respuesta", "llamada", "llamada", "llamada", "observaciones",
    "modelo", "respuesta", "llamada", "observaciones",
    "modelo", "respuesta", "devuelve",
  ]);
  // only the steps that call the model say what it receives
  assert.deepEqual(p.filter((x) => x.recibe).map((x) => x.tipo), ["modelo", "modelo", "modelo", "modelo"]);
});

test("cap 3: «tope» after turn 3, 8 messages, the last the write's observation, no text", () => {
  const p = pasos(REF["3"]);
  const ultimo = p.at(-1);
  assert.equal(p.length, 15);
  assert.equal(ultimo.tipo, "devuelve");
  assert.equal(ultimo.turno, 3);
  assert.equal(ultimo.M.length, 8);
  assert.match(lineasDe(REF["3"], ultimo).at(-1), /^resultado t5: «escrito lista\.txt/);
  assert.equal(ultimo.entorno["lista.txt"], LISTA_COMPLETA);
  assert.match(ultimo.texto, /\("tope", None, M\) tras el turno 3\. Se agotó el tope de 3 llamadas/);
  assert.match(ultimo.texto, /No hay texto para el usuario/);
  assert.deepEqual(ultimo.detalle, []);
});

test("every cap from 1 to 10 stops where the contract says", () => {
  for (let tope = 1; tope <= 10; tope++) {
    const p = pasos(REF[String(tope)]);
    const turnos = Math.min(tope, 4);
    const ultimo = p.at(-1);
    assert.equal(p.filter((x) => x.tipo === "modelo").length, turnos, `tope ${tope}`);
    assert.equal(ultimo.turno, turnos);
    assert.equal(ultimo.M.length, tope >= 4 ? 9 : 2 + 2 * tope, `tope ${tope}`);
    assert.match(ultimo.texto, tope >= 4 ? /\("fin"/ : /\("tope"/);
    assert.equal(ultimo.entorno["lista.txt"], tope >= 3 ? LISTA_COMPLETA : "pan, leche, patatas");
  }
});

test("each step highlights what it added, and the environment changes only at the write", () => {
  const p = pasos(REF["10"]);
  assert.deepEqual(p[0].nuevos, []);
  assert.deepEqual(p[1].nuevos, [2]);
  assert.match(p[1].texto, /un texto y una llamada \(t1\); la respuesta entra en M como M\[2\]/);
  assert.deepEqual(p[3].nuevos, [3]);
  assert.match(p[3].texto, /M\[3\], un mensaje del usuario con un resultado \(t1\)/);
  assert.match(p[9].texto, /3 resultados \(t2, t3, t4\)/);
  const conCambios = p.filter((x) => x.cambios.length);
  assert.equal(conCambios.length, 1);
  assert.equal(conCambios[0].tipo, "llamada");
  assert.match(conCambios[0].texto, /escribir \(t5\): cambia lista\.txt/);
  assert.deepEqual(conCambios[0].cambios, [{ ruta: "lista.txt", antes: "pan, leche, patatas", despues: LISTA_COMPLETA }]);
  assert.equal(p[p.indexOf(conCambios[0]) - 1].entorno["lista.txt"], "pan, leche, patatas");
  assert.deepEqual(p[6].detalle, ["llamada t2 leer(ruta='recetas/gazpacho.txt')",
    "→ «Gazpacho: tomates, pepino, pimiento, ajo.»"]);
});

test("switching the cap keeps the turn and the place in it, or goes to the end", () => {
  const diez = pasos(REF["10"]);
  const tres = pasos(REF["3"]);
  const uno = pasos(REF["1"]);
  assert.equal(pasoEquivalente(diez, 7, tres), 7); // turn 2, its fourth step
  assert.equal(tres[7].turno, 2);
  assert.equal(pasoEquivalente(diez, 14, tres), tres.length - 1); // turn 4 does not exist at cap 3
  assert.equal(pasoEquivalente(tres, 14, diez), 13); // cap 3's return (turn 3) → turn 3's last step
  assert.equal(pasoEquivalente(diez, 0, uno), 0);
  assert.equal(pasoEquivalente(diez, 5, uno), uno.length - 1);
  assert.equal(pasoEquivalente(uno, uno.length - 1, diez), 3);
});

test("a loop that drops the model's response: shown as such, then the model's complaint", () => {
  const traza = T.sin_respuesta;
  const p = pasos(traza);
  assert.deepEqual(p.map((x) => x.tipo), ["modelo", "respuesta", "llamada", "observaciones", "modelo", "excepcion"]);
  assert.match(p[1].texto, /el bucle no la añade a M tal cual/);
  assert.deepEqual(p[1].nuevos, []);
  assert.deepEqual(p[1].detalle, ["texto: «Primero miro qué recetas hay.»", "llamada t1 listar(carpeta='recetas')"]);
  assert.deepEqual(p[3].nuevos, [2]);
  assert.match(p[4].texto, /con 3 mensajes\. El modelo se queja\./);
  assert.match(p[5].texto, /excepción: GuionRoto/);
  assert.match(p[5].detalle[0], /^GuionRoto: En el turno 2 el modelo recibió 3 mensajes; esperaba 4/);
});

test("divergence: none against itself, else the first differing step of each", () => {
  assert.equal(divergencia(REF["10"], REF["10"]), null);
  const d = divergencia(REF["10"], T.sin_respuesta);
  assert.equal(d.indice, 1);
  assert.equal(d.esperado.tipo, "respuesta");
  assert.match(d.obtenido.texto, /no la añade/);
  const corta = divergencia(REF["10"], REF["3"]);
  assert.equal(corta.indice, 14);
  assert.equal(corta.esperado.tipo, "modelo");
  assert.equal(corta.obtenido.tipo, "devuelve");
});

test("a run that never ends is cut, and the cut is its last step", () => {
  const p = pasos(T.sin_fin);
  assert.equal(p.at(-1).tipo, "cortada");
  assert.match(p.at(-1).texto, /pasó de 300 eventos/);
  assert.equal(p.filter((x) => x.tipo === "llamada").length, 300);
  assert.equal(p.at(-1).turno, 0);
});

test("file diffs keep whole words around what changed", () => {
  assert.deepEqual(diferenciaTexto("pan, leche, patatas", "pan, leche, patatas, tomates"), [
    { tipo: "igual", texto: "pan, leche, patatas" }, { tipo: "pone", texto: ", tomates" }]);
  assert.deepEqual(diferenciaTexto("pan, leche", "pan, lechuga"), [
    { tipo: "igual", texto: "pan, " }, { tipo: "quita", texto: "leche" }, { tipo: "pone", texto: "lechuga" }]);
  assert.deepEqual(diferenciaTexto("hola mundo", "hola, mundo"), [
    { tipo: "igual", texto: "hola" }, { tipo: "pone", texto: "," }, { tipo: "igual", texto: " mundo" }]);
  assert.deepEqual(diferenciaTexto(null, "nuevo"), [{ tipo: "pone", texto: "nuevo" }]);
  assert.deepEqual(diferenciaTexto("viejo", null), [{ tipo: "quita", texto: "viejo" }]);
  assert.deepEqual(diferenciaTexto("igual", "igual"), [{ tipo: "igual", texto: "igual" }]);
});

test("a long file's diff is its lines removed and added, among two unchanged on each side", () => {
  const antes = ["a", "b", "c", "d", "x", "e", "f", "g", "h"].join("\n") + "\n";
  const despues = antes.replace("x\n", "y\nz\n");
  assert.deepEqual(diferenciaLineas(antes, despues), [
    { tipo: "oculta", n: 2 }, { tipo: "igual", lineas: ["c", "d"] }, { tipo: "quita", lineas: ["x"] },
    { tipo: "pone", lineas: ["y", "z"] }, { tipo: "igual", lineas: ["e", "f"] }, { tipo: "oculta", n: 2 }]);
  // at the start, nothing is left out before; a new file is all lines put
  assert.deepEqual(diferenciaLineas("uno\ndos\ntres", "cero\ndos\ntres"), [
    { tipo: "quita", lineas: ["uno"] }, { tipo: "pone", lineas: ["cero"] }, { tipo: "igual", lineas: ["dos", "tres"] }]);
  assert.deepEqual(diferenciaLineas(null, "a\nb"), [{ tipo: "pone", lineas: ["a", "b"] }]);
  assert.deepEqual(diferenciaLineas("a\nb\n", null), [{ tipo: "quita", lineas: ["a", "b"] }]);
  // a shopping list reads whole (word diff); four lines or more read as lines
  assert.equal(esLargo("pan, leche, patatas"), false);
  assert.equal(esLargo("El sábado cenan los vecinos.\nMenú: gazpacho y tortilla."), false);
  assert.equal(esLargo(null, "1\n2\n3\n4\n"), true);
  assert.equal(esLargo("1\n2\n3\n"), false);
});

test("canonical JSON ignores key order", () => {
  assert.equal(canonico({ b: 1, a: [{ y: 2, x: null }] }), canonico({ a: [{ x: null, y: 2 }], b: 1 }));
  assert.notEqual(canonico({ a: "1" }), canonico({ a: 1 }));
});

test("«Pedir permiso»: each question is a step of its own, with the answer and the call's observation", () => {
  const lista = pasos(T.permiso);
  const delTurno2 = lista.filter((p) => p.turno === 2).map((p) => p.tipo);
  assert.deepEqual(delTurno2, ["modelo", "respuesta", "permiso", "llamada", "permiso", "observaciones"]);
  const [si, no] = lista.filter((p) => p.tipo === "permiso");
  assert.equal(si.texto, "El arnés pregunta al usuario por escribir (p3): «¿Permites escribir lista.txt?». " +
    "El usuario responde Permitir: la llamada se ejecuta.");
  assert.equal(no.texto, "El arnés pregunta al usuario por escribir (p4): «¿Permites escribir notas.txt?». " +
    "El usuario responde Denegar: la llamada no se ejecuta, y vuelve al modelo como un error.");
  assert.deepEqual(no.detalle.slice(1), ["→ Denegar",
    "su observación: resultado p4 (error): «no se ha ejecutado: el usuario no lo ha permitido»"]);
  // the denial changes nothing, and the response still joins M before the questions
  assert.deepEqual(no.cambios, []);
  assert.equal(no.M.length, 5);
  assert.equal(lista.at(-1).tipo, "devuelve");
  assert.equal(lista.at(-1).M.length, 7);
});
