// The bench's pure logic (widgets/front/lib/banco-medida.js, lib/banco-traza.js): a measurement
// as the page keeps and exports it, and a run's trace made from its M, checked against the trace
// the engine's widgets/calificador/trazas.py records of the very same run (made here in CPython
// with the worker's trabajador_banco.py, the runtime's noisy model and the course's agent).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const { Medida, leerModelo, leerVeces, segundosRestantes, celdaQueDefine, COLUMNAS_CSV, LIMITE_GUARDADO } =
  await import("../../widgets/front/lib/banco-medida.js");
const { trazaDeEjecucion, partirError } = await import("../../widgets/front/lib/banco-traza.js");
const { pasos } = await import("../../widgets/front/lib/traza-pasos.js");

const RAIZ = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = existsSync(`${RAIZ}.venv/bin/python`) ? `${RAIZ}.venv/bin/python` : "python3";

// Runs of the bench (records and lines as the worker sends them) and, for each, the engine's
// trace of the same run.
const GENERAR = String.raw`
import json
from runtime import espacio
from widgets.trabajador import trabajador_banco as banco
from widgets.calificador.trazas import trazar
ns = espacio("entorno", "permisos", "palabras", "tareas", "escrituras", "entrenamiento", "ruidoso",
             "banco", "escenarios")
exec(compile('''
def ejecutar(ll, entorno, preguntar):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    if necesita_permiso(ll) and not preguntar(ll):
        return denegado(ll)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)

def agente(modelo, pedido, entorno, preguntar=denegar, tope=10):
    M = [("sistema", SISTEMA_AGENTE), ("usuario", pedido)]
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return ("fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M)
        M.append(("usuario", [ejecutar(ll, entorno, preguntar) for ll in llamadas]))
    return ("tope", None, M)
''', "<celda 1>", "exec"), ns)
salida = []
tareas = ns["tareas_del_banco"]()
for t in range(0, 20, 3):
    for semilla in range(3):
        tarea = tareas[t]
        r = banco.ejecutar_una(ns["agente"], "agente", ns["modelo_ruidoso"], "modelo_ruidoso", tarea, t,
                               semilla, ns["usuario"], tope=10)
        def bucle(modelo, inicio, entorno, tope, tarea=tarea):
            return ns["agente"](modelo, tarea.pedido, entorno, ns["usuario"](tarea), tope)
        bucle.__wrapped__ = ns["agente"]
        real = trazar(bucle, ns["modelo_ruidoso"](tarea, semilla),
                      [("sistema", ns["SISTEMA_AGENTE"]), ("usuario", tarea.pedido)],
                      dict(tarea.entorno), 10, funciones=ns["FUNCIONES"], muestra=ns["muestra"])
        salida.append({"ejecucion": r, "lineas": banco.lineas_de(r["M"], ns["muestra"]), "real": real})
print(json.dumps(salida, ensure_ascii=False))
`;

const corridas = JSON.parse(execFileSync(PYTHON, ["-c", GENERAR], { cwd: RAIZ, encoding: "utf8", maxBuffer: 1 << 28 }));

function medidaDe(lista, cabecera = {}) {
  const medida = new Medida({ variantes: ["agente"], tope: 10, semillas: [0, 1, 2], ...cabecera }, lista.length);
  for (const { ejecucion, lineas } of lista) medida.añadir(ejecucion, lineas);
  return medida;
}

test("a run's trace from M steps as the engine's trace of the same run, but for the tool calls", () => {
  const medida = medidaDe(corridas);
  assert.ok(corridas.some((c) => c.ejecucion.motivo === "tope") && corridas.some((c) => c.ejecucion.motivo === "resuelta"));
  corridas.forEach(({ real }, i) => {
    const nuestra = trazaDeEjecucion(medida.ejecuciones[i], medida, 10);
    const sinLlamadas = (traza) => pasos(traza).filter((p) => p.tipo !== "llamada")
      .map((p) => [p.tipo, p.turno, p.texto, p.detalle, p.M.map((k) => traza.mensajes[k].lineas)]);
    assert.deepEqual(sinLlamadas(nuestra), sinLlamadas(real), `run ${i}`);
  });
});

test("an error run's trace ends in the exception, with the model's complaint when it raised", () => {
  const medida = medidaDe([]);
  const M = [["sistema", "Eres…"], ["usuario", "¿Qué hay?"]];
  medida.añadir({ variante: "agente", tarea: 0, semilla: 0, motivo: "error", turnos: 0, M,
    error: "el modelo lanzó ValueError: el modelo ideal no esperaba un error", final: null },
  [["«Eres…»"], ["«¿Qué hay?»"]]);
  medida.añadir({ variante: "agente", tarea: 0, semilla: 1, motivo: "error", turnos: 0, M: [],
    error: "agente lanzó KeyError: 'ruta'", final: null }, []);
  const [del_modelo, del_agente] = medida.ejecuciones.map((e) => pasos(trazaDeEjecucion(e, medida, 10)));
  assert.deepEqual(del_modelo.map((p) => p.tipo), ["modelo", "excepcion"]);
  assert.equal(del_modelo[0].texto, "El bucle llama al modelo con 2 mensajes. El modelo se queja.");
  assert.deepEqual(del_modelo[0].detalle, ["ValueError: el modelo ideal no esperaba un error"]);
  assert.equal(del_modelo[1].texto, "El bucle se detiene tras el turno 1 con una excepción: ValueError.");
  assert.deepEqual(del_agente.map((p) => p.tipo), ["excepcion"]);
  assert.deepEqual(del_agente[0].detalle, ["KeyError: 'ruta'"]);
  assert.deepEqual(partirError("agente_sin_fin no terminó en 1 s: ¿falta el tope?"),
    { clase: "Error", mensaje: "agente_sin_fin no terminó en 1 s: ¿falta el tope?" });
  assert.deepEqual(partirError("ValueError: a: b"), { clase: "ValueError", mensaje: "a: b" });
});

test("messages are kept once however many runs share them, and the export gives each run its M back", () => {
  const medida = medidaDe(corridas);
  const todos = corridas.flatMap((c) => c.ejecucion.M.map((m) => JSON.stringify(m)));
  assert.equal(medida.mensajes.length, new Set(todos).size);
  assert.ok(medida.mensajes.length < todos.length * 0.6, `${medida.mensajes.length} of ${todos.length}`);
  const grabacion = medida.aGrabacion();
  assert.deepEqual(Object.keys(grabacion),
    ["modelo", "temperatura", "semillas", "tope", "variantes", "tareas", "segundos", "ejecuciones"]);
  assert.deepEqual(grabacion.ejecuciones, corridas.map((c) => c.ejecucion));
});

test("the export orders runs by variant, task and seed, and the CSV is one quoted row per run", () => {
  const medida = new Medida({ variantes: ["a", "b"] }, 4);
  const run = (variante, tarea, semilla, extra = {}) => ({ variante, tarea, tipo: "leer", pedido: "¿Qué hay, \"hoy\"?",
    semilla, motivo: "resuelta", turnos: 2, tokens: null, segundos: 0.5, final: "Hay pan,\nleche", error: null, M: [],
    ...extra });
  medida.añadir(run("b", 0, 0));
  medida.añadir(run("a", 1, 0));
  medida.añadir(run("a", 0, 1, { motivo: "error", error: "agente lanzó X", final: null, tokens: 7 }));
  medida.añadir(run("a", 0, 0));
  assert.deepEqual(medida.aGrabacion().ejecuciones.map((e) => [e.variante, e.tarea, e.semilla]),
    [["a", 0, 0], ["a", 0, 1], ["a", 1, 0], ["b", 0, 0]]);
  const filas = medida.aCSV().split("\r\n");
  assert.equal(filas[0], COLUMNAS_CSV.join(","));
  assert.equal(filas[0], "variante,tarea,tipo,pedido,semilla,motivo,turnos,tokens,segundos,final,error");
  assert.equal(filas[1], 'a,0,leer,"¿Qué hay, ""hoy""?",0,resuelta,2,,0.5,"Hay pan,\nleche",');
  assert.equal(filas[2], 'a,0,leer,"¿Qué hay, ""hoy""?",1,error,2,7,0.5,,agente lanzó X');
  assert.equal(filas.at(-1), "");
  assert.equal(filas.length, 1 + 4 + 1); // rows end in CRLF; a newline inside a field stays quoted
});

test("what is saved comes back, and a measurement too big keeps its runs without their conversations", () => {
  const medida = medidaDe(corridas);
  medida.estado = "completa";
  medida.vista = { tablas: [] };
  const otra = Medida.desdeGuardado(JSON.parse(JSON.stringify(medida.paraGuardar({ eleccion: { veces: 3 } }))));
  assert.deepEqual(otra.aGrabacion(), medida.aGrabacion());
  assert.equal(otra.estado, "completa");
  assert.deepEqual(otra.vista, { tablas: [] });
  assert.equal(Medida.desdeGuardado({ version: 99 }), null);
  assert.equal(Medida.desdeGuardado("x"), null);

  const grande = medidaDe([]);
  const largo = "x".repeat(2000);
  for (let i = 0; i < LIMITE_GUARDADO / 2000 + 10; i++) {
    grande.añadir({ variante: "agente", tarea: 0, semilla: i, motivo: "tope", turnos: 1, M: [["usuario", largo + i]] },
      [[`«${i}»`]]);
  }
  const guardado = grande.paraGuardar();
  assert.equal(guardado.sinTrazas, true);
  assert.ok(JSON.stringify(guardado).length < LIMITE_GUARDADO);
  const vuelta = Medida.desdeGuardado(JSON.parse(JSON.stringify(guardado)));
  assert.equal(vuelta.ejecuciones.length, grande.ejecuciones.length);
  assert.ok(vuelta.ejecuciones.every((e) => e.M === null));
  assert.equal(vuelta.hechas, grande.ejecuciones.length);

  // Saved without M, a run gets its task's words back from the header, in the record's order.
  const tareas = [{ tipo: "leer", pedido: "¿Qué hay?" }];
  const pocas = new Medida({ variantes: ["agente"], tareas }, 1);
  pocas.añadir({ variante: "agente", tarea: 0, tipo: "leer", pedido: "¿Qué hay?", semilla: 0, motivo: "tope",
    turnos: 1, tokens: null, segundos: 1, final: null, error: null, M: [["usuario", "¿Qué hay?"]] }, [["«¿Qué hay?»"]]);
  pocas.sinTrazas = true;
  const sin = Medida.desdeGuardado(JSON.parse(JSON.stringify(pocas.paraGuardar())));
  assert.deepEqual(sin.aGrabacion().ejecuciones, [{ variante: "agente", tarea: 0, tipo: "leer", pedido: "¿Qué hay?",
    semilla: 0, motivo: "tope", turnos: 1, tokens: null, segundos: 1, final: null, error: null, M: null }]);

  // Too big even without M: the summary alone, which says how many runs it had.
  const enorme = medidaDe([]);
  enorme.vista = { tablas: ["…"] };
  for (let i = 0; i < LIMITE_GUARDADO / 1000 + 10; i++) {
    enorme.añadir({ variante: "agente", tarea: 0, semilla: i, motivo: "resuelta", turnos: 1, final: "x".repeat(1000),
      M: [] }, []);
  }
  const resumen = enorme.paraGuardar();
  assert.equal(resumen.soloResumen, true);
  assert.ok(JSON.stringify(resumen).length < 10_000);
  const solo = Medida.desdeGuardado(JSON.parse(JSON.stringify(resumen)));
  assert.equal(solo.soloResumen, true);
  assert.equal(solo.hechas, enorme.ejecuciones.length);
  assert.deepEqual(solo.vista, { tablas: ["…"] });
});

test("the runs per task the reader may ask for, the time left and the cell that defines a name", () => {
  assert.deepEqual(leerVeces(" 20 "), { veces: 20 });
  assert.deepEqual(leerVeces("1000"), { veces: 1000 });
  for (const malo of ["0", "10000", "2.5", "-3", "", "veinte", "1e3"]) {
    assert.deepEqual(leerVeces(malo), { error: true }, malo);
  }
  // «Modelo»: a listed name or the reader's own, any Python name; nothing else is sent
  assert.deepEqual(leerModelo(" modelo_de_la_pagina "), { modelo: "modelo_de_la_pagina" });
  assert.deepEqual(leerModelo("mi_modelo_2"), { modelo: "mi_modelo_2" });
  assert.deepEqual(leerModelo("modelo_mío"), { modelo: "modelo_mío" });
  for (const malo of ["", "  ", "mi modelo", "2modelo", "modelo()", "m.x", "modelo-mio"]) {
    assert.deepEqual(leerModelo(malo), { error: true }, malo);
  }
  assert.equal(segundosRestantes(2, 100, 1000), null);
  assert.equal(segundosRestantes(50, 100, 10_000), 10);
  assert.equal(segundosRestantes(100, 100, 10_000), 0);
  const celdas = ['exec(open_url("runtime/banco.py").read())', "def agente(modelo):\n    pass",
    "x = 1\nagente_sin_repetir = agente_con(ejecutar_sin_repetir)", "class Modelo:\n    pass"];
  assert.equal(celdaQueDefine("agente", celdas), 2);
  assert.equal(celdaQueDefine("agente_sin_repetir", celdas), 3);
  assert.equal(celdaQueDefine("Modelo", celdas), 4);
  assert.equal(celdaQueDefine("agente_con", celdas), null);
  assert.equal(celdaQueDefine("x", ["if x == 1:\n    pass"]), null);
});
