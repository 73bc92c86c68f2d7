// <bucle-celda>: a runnable Python cell. The page's HTML (widgets/directivas/celda.py) holds the code,
// highlighted, and its data; this turns it into:
//
//   <bucle-celda …>
//     <div class="bucle-celda-cabecera"><span>Celda 2</span> <span>Modificada</span></div>
//     <div class="highlight-python"><div class="highlight">[the static code, then the editor]</div></div>
//     <div class="bucle-eleccion bucle-celda-cambio">…the lesson's code changed: two buttons…</div>
//     <div class="bucle-eleccion bucle-celda-otra">…another tab saved it: two buttons…</div>
//     <div class="bucle-celda-barra">[Ejecutar] [Detener] [Restablecer] hint</div>
//     <div class="bucle-celda-salida" role="status" aria-live="polite">note, cut, output, end</div>
//   </bucle-celda>
//
// The output region is piezas/salida-de-celda.js: what the run printed, read as a terminal's
// transcript, with the question Python waits on (python.js's alPreguntar: a permission, input())
// after what the cell printed, until the reader answers.
//
// The cells of a page share one Python (python.js) and one namespace, in page order: running a
// cell first runs the earlier ones that have not run in the current Python (lib/cuaderno.js).
// Runs queue one after another. The edited code is kept in localStorage as {codigo, original};
// when another tab of the lesson saves a different version, the cell keeps its own and asks.
import { cuandoQuieto, python } from "./python.js";
import { avisoDePython } from "./piezas/aviso-python.js";
import { TECLA, boton, cuandoEsteOciosa, h } from "./piezas/dom.js";
import { OtraPestana, eleccion } from "./piezas/eleccion.js";
import { cuandoCerca, editorEnLugarDe, mostrarCodigo, prepararEstatico } from "./piezas/editor-perezoso.js";
import { SalidaDeCelda } from "./piezas/salida-de-celda.js";
import { borrar, claveDe, escuchar, guardar, leer } from "./piezas/almacen.js";
import { Cuaderno, avisoDeAnteriores, leidasPorLasCeldas, textoDelFallo, textoDelFinal } from "./lib/cuaderno.js";
import { CELDA, COMUN } from "./lib/textos.js";

const cuaderno = new Cuaderno();
const celdas = new Set();
const aviso = avisoDePython(python);
let cola = Promise.resolve(); // runs happen one after another
let trabajos = 0; // runs queued or running

python.addEventListener("reiniciado", () => cuaderno.olvidar());

// Python starts when the page is idle or at the first interaction with a cell, whichever first
// (where it started before in this browser, as the page loads: python.js, python-temprano.js).
function arrancarPython() {
  python.iniciar().catch((error) => aviso.fallo(error.message));
}

/** A reader's request to run a cell (and, before it, the earlier cells it depends on). */
class Trabajo {
  constructor(objetivo) {
    this.objetivo = objetivo;
    this.cancelado = false;
    this.empezado = false;
    this.enCurso = null; // the cell whose code Python is running now
  }

  detener() {
    this.cancelado = true;
    // While Python is still starting there is nothing to interrupt: the run will not begin.
    if (this.enCurso && python.estado === "ocupado") python.detener();
    else if (!this.empezado) this.objetivo.terminar({ estado: "cancelado-en-espera" });
  }

  async hacer() {
    this.empezado = true;
    const { objetivo } = this;
    if (this.cancelado) return;
    const anteriores = cuaderno.anteriores(objetivo.orden, [...celdas].map((c) => c.orden));
    objetivo.empezar(avisoDeAnteriores(anteriores));
    for (const orden of anteriores) {
      const celda = [...celdas].find((c) => c.orden === orden);
      const resultado = await celda.correr(this);
      if (this.cancelado || resultado.estado === "detenido" || resultado.estado === "fallo") {
        objetivo.terminar({ estado: resultado.estado === "fallo" ? "fallo" : "cancelado", error: resultado.error });
        return;
      }
    }
    await objetivo.correr(this);
  }
}

class BucleCelda extends HTMLElement {
  connectedCallback() {
    if (this.preparada) return;
    this.preparada = true;
    const datos = JSON.parse(this.querySelector(":scope > script.bucle-datos").textContent);
    this.leccion = datos.codigo;
    this.orden = datos.orden;
    this.codigo = datos.codigo;
    this.base = datos.codigo; // the lesson's code the reader's copy started from
    this.clave = claveDe(this);
    this.editor = null;
    this.trabajo = null;
    celdas.add(this);

    this.construir();
    this.restaurar();
    escuchar(this.clave, (valor) => this.alCambiarFuera(valor));
    if (!aviso.elemento.isConnected) aviso.colocar(this, this.salida.region);
    // The editor once the code comes near the viewport and Python is quiet (see the end).
    prepararEstatico(this.bloque);
    cuandoCerca(this.bloque, () => cuandoQuieto(python, () => this.cargarEditor()));

    // (A press on Ejecutar runs the code: it needs no editor, and making one would slow the run.)
    const alInteractuar = (evento) => {
      arrancarPython();
      if (!evento.target.closest?.(".bucle-celda-ejecutar")) this.cargarEditor();
    };
    this.addEventListener("pointerdown", alInteractuar);
    this.addEventListener("focusin", alInteractuar);
    // A click on the static code means "edit": once the editor is there, it gets the focus.
    this.bloque.addEventListener("pointerup", () => {
      if (!this.editor) this.cargarEditor().then((editor) => editor.enfocar());
    });
    // A change not yet saved (saving waits for a pause in typing) is saved when the page goes.
    addEventListener("pagehide", () => {
      if (this.pendienteGuardar) this.guardarYa();
    });
  }

  construir() {
    const n = this.orden;
    const base = this.id || `celda-${n}`;
    this.bloque = this.querySelector(":scope > .bucle-codigo") ?? h("div", { class: "highlight-python" });
    if (!this.bloque.isConnected) this.prepend(this.bloque);
    this.bloque.classList.add("bucle-celda-codigo");

    this.marca = h("span", { class: "bucle-celda-modificada", text: CELDA.modificada, hidden: true });
    this.bloque.before(h("div", { class: "bucle-celda-cabecera" },
      h("span", { class: "bucle-celda-nombre", text: CELDA.nombre(n) }), this.marca));

    this.cambio = eleccion("bucle-celda-cambio", CELDA.cambio, [
      [CELDA.usarLaNueva, () => this.restablecer({ enfocar: true })],
      [CELDA.seguirConLaMia, () => this.seguirConLaMia()],
    ]);
    this.otra = new OtraPestana("bucle-celda-otra", CELDA.otraPestana, {
      alUsar: ({ codigo, original }) => {
        this.base = original;
        this.cambio.hidden = original === this.leccion;
        this.ponerCodigo(codigo);
      },
      alSeguir: () => this.guardarYa(),
      foco: () => this.botonEjecutar,
    });

    this.botonEjecutar = boton(CELDA.ejecutar, () => this.pedir(), "bucle-celda-ejecutar");
    this.botonDetener = boton(COMUN.detener, () => (this.enTrabajo ?? this.trabajo)?.detener());
    this.botonDetener.hidden = true;
    this.ayuda = `${base}-ayuda`;
    const barra = h("div", { class: "bucle-celda-barra" },
      this.botonEjecutar, this.botonDetener, boton(COMUN.restablecer, () => this.restablecer()),
      h("span", { class: "bucle-ayuda-editor", id: this.ayuda, text: COMUN.ayuda(TECLA, CELDA.ejecuta) }));

    this.salida = new SalidaDeCelda(n, {
      foco: () => (this.botonDetener.hidden ? this.botonEjecutar : this.botonDetener),
    });

    this.bloque.after(this.cambio, this.otra.elemento, barra, this.salida.region);
  }

  // ---- the code: editor, storage, the lesson's version ----

  restaurar() {
    const guardado = leer(this.clave);
    const valido = guardado && typeof guardado.codigo === "string" && typeof guardado.original === "string";
    if (!valido || guardado.codigo === this.leccion) return;
    this.codigo = guardado.codigo;
    this.base = guardado.original;
    this.cambio.hidden = guardado.original === this.leccion;
    mostrarCodigo(this.bloque, null, this.codigo);
    this.marcar();
  }

  cargarEditor() {
    this.promesaEditor ??= editorEnLugarDe(this.bloque, "bucle-celda-editor", {
      codigo: () => this.codigo,
      etiqueta: CELDA.editor(this.orden),
      descripcion: this.ayuda,
      alEjecutar: () => this.pedir(),
      alCambiar: (texto) => this.alCambiar(texto),
    }).then((editor) => (this.editor = editor));
    return this.promesaEditor;
  }

  alCambiar(texto) {
    this.codigo = texto;
    this.marcar();
    clearTimeout(this.pendienteGuardar);
    this.pendienteGuardar = setTimeout(() => this.guardarYa(), 300);
  }

  guardarYa() {
    clearTimeout(this.pendienteGuardar);
    this.pendienteGuardar = null;
    if (this.codigo === this.leccion) borrar(this.clave);
    else guardar(this.clave, { codigo: this.codigo, original: this.base });
    // Saving here replaces the other tab's version: the reader chose, and that tab is told.
    this.otra.retirar();
  }

  marcar() {
    this.marca.hidden = this.codigo === this.leccion;
  }

  restablecer({ enfocar = false } = {}) {
    const teniaFoco = this.cambio.contains(document.activeElement);
    this.base = this.leccion;
    this.cambio.hidden = true;
    this.ponerCodigo(this.leccion);
    this.guardarYa();
    if (enfocar || teniaFoco) this.botonEjecutar.focus();
  }

  seguirConLaMia() {
    this.base = this.leccion;
    this.cambio.hidden = true;
    this.guardarYa();
    this.botonEjecutar.focus();
  }

  // ---- another tab of the same lesson ----

  /** Another tab saved this cell (or reset it: `valor` null). Ours stays; the reader chooses. */
  alCambiarFuera(valor) {
    const valido = valor && typeof valor.codigo === "string";
    const codigo = valido ? valor.codigo : this.leccion;
    const original = valido && typeof valor.original === "string" ? valor.original : this.leccion;
    this.otra.ofrecer({ codigo, original }, codigo === this.codigo);
  }

  /** Put `codigo` in the editor (or, before it loads, in the static block). */
  ponerCodigo(codigo) {
    this.codigo = codigo;
    mostrarCodigo(this.bloque, this.editor, codigo);
    this.marcar();
  }

  // ---- running ----

  pedir() {
    if (this.trabajo) return; // already running or waiting
    arrancarPython();
    const trabajo = new Trabajo(this);
    this.trabajo = trabajo;
    this.ocupar(true);
    if (trabajos > 0) {
      this.salida.limpiar();
      this.salida.mostrarNota(CELDA.enEspera);
    }
    trabajos++;
    cola = cola
      .then(() => trabajo.hacer())
      .catch((error) => this.terminar({ estado: "fallo", error: error.message }))
      .finally(() => {
        trabajos--;
        if (this.trabajo === trabajo) this.terminarTrabajo();
      });
  }

  empezar(nota) {
    aviso.colocar(this, this.salida.region);
    this.salida.limpiar();
    this.salida.mostrarNota(nota);
  }

  /** Run this cell's code as part of `trabajo`; resolves with the worker's result. */
  async correr(trabajo) {
    trabajo.enCurso = this;
    this.enTrabajo = trabajo;
    this.ocupar(true);
    if (trabajo.objetivo !== this) this.salida.limpiar();
    else this.salida.limpiarSalida();
    let resultado;
    try {
      resultado = await python.ejecutar(this.codigo, `<celda ${this.orden}>`, {
        cancelado: () => trabajo.cancelado,
        alSalir: (flujo, texto, omitidas) => this.salida.añadir(flujo, texto, omitidas),
        alPreguntar: (pregunta, responder) => this.salida.preguntar(pregunta, responder),
      });
    } catch (error) {
      resultado = { estado: "fallo", error: error.message };
      // Python had started and broke inside the run: a fatal error of Pyodide (its stack
      // overflowed printing a very deep structure, say), after which it cannot be trusted.
      if (python.estado === "listo") {
        python.reiniciar();
        resultado.reiniciado = true;
      }
    }
    trabajo.enCurso = null;
    this.enTrabajo = null;
    // A cell stopped by an interrupt counts as run (what it defined is still there); one that
    // failed to start, never began or lost its Python to a restart does not.
    if (resultado.estado !== "fallo" && !resultado.reiniciado && resultado.ejecutado !== false) {
      cuaderno.marcar(this.orden);
    }
    this.terminar(resultado);
    if (!this.trabajo) this.ocupar(false);
    return resultado;
  }

  terminar(resultado) {
    this.salida.quitarPregunta();
    this.salida.pintar();
    let final = textoDelFinal(resultado, { huboSalida: this.salida.huboSalida });
    if (resultado.estado === "fallo") final = textoDelFallo(resultado);
    if (resultado.estado === "cancelado-en-espera") {
      this.salida.mostrarNota("");
      final = CELDA.canceladaEnEspera;
    }
    this.salida.mostrarFin(final);
    if (resultado.estado === "cancelado-en-espera") this.terminarTrabajo();
  }

  terminarTrabajo() {
    this.trabajo = null;
    this.ocupar(false);
  }

  ocupar(si) {
    this.classList.toggle("bucle-ejecutando", si);
    // Detener shows only while running; if it had the focus, Ejecutar takes it.
    if (!si && document.activeElement === this.botonDetener) this.botonEjecutar.focus();
    this.botonDetener.hidden = !si;
  }
}

customElements.define("bucle-celda", BucleCelda);

// The files the cells read, fetched while Python starts (however early that is: python-temprano.js).
python.precargar(leidasPorLasCeldas([...celdas].map((c) => c.codigo)));

// Python starts when the page is idle. A cell's editor waits until its code comes near the
// viewport (two screens away) and Python has started and runs nothing, two seconds at most
// (python.js's cuandoQuieto): CodeMirror's module and an editor take 100–150 ms of the page's thread
// (seconds on a slow phone), which slowed a warm start by about a tenth on a machine of two cores
// and blocked a first visit's page under Lighthouse (BENCHMARKS.md). Until then the code shows as
// the build highlighted it, and a cell the reader clicks, focuses or types into gets its editor at
// once.
cuandoEsteOciosa(arrancarPython);
