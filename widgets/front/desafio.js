// <bucle-desafio>: a challenge graded in the page. The build (widgets/directivas/desafio.py) leaves the
// statement, the starter code (highlighted) and the data as JSON; this turns it into:
//
//   <bucle-desafio …>
//     .bucle-desafio-enunciado            the statement (the author's, as built)
//     p.bucle-desafio-teclado             on a phone: better with a physical keyboard
//     .bucle-desafio-inicial              the code: static block, then the editor (lazy chunk)
//     .bucle-eleccion.bucle-desafio-otra  another tab saved other code: use it, or keep this one
//     .bucle-desafio-barra                [Comprobar] [Detener] [Restablecer] keyboard hint, note,
//                                         the test being tried
//     .bucle-desafio-resultados           summary «N de M pruebas superadas» (polite status),
//                                         best result, the code's loading error (with its line),
//                                         .bucle-desafio-pista (after `pista_tras` failed checks),
//                                         ol «Resultados de las pruebas»: name, ✔/✘ + words,
//                                         message, turn/line, output, [Ver tu traza]
//                                         (the error and the list: piezas/pruebas.js)
//     .bucle-desafio-solucion             [Ver la solución] (confirmation) after `solucion_tras`
//                                         failed checks or once passed (piezas/solucion.js)
//
// Grading runs in the page's worker (python.calificar → trabajador.js → trabajador_desafios.py,
// with the grader `calificador` the worker carries, lib/calificador.js; the challenge's tests and
// the runtime fetched from the widget's `urls`). The engine limits each test
// itself; the page also has a watchdog for what the engine does not see (code made with exec, a
// long call into C): if the worker says nothing about the running test for a while, Python is
// stopped (interrupted, or restarted) and the test is reported as not finished, with the
// engine's own words (the data's `mensajes`). What the engine says goes into the page as text.
// State in localStorage (lib/veredicto.js): the code, the best result, failed checks; another
// tab's best result and failed checks count here too, its code is only offered.
import { cuandoQuieto, python } from "./python.js";
import { avisoDePython } from "./piezas/aviso-python.js";
import { TECLA, boton, cuandoEsteOciosa, h } from "./piezas/dom.js";
import { OtraPestana } from "./piezas/eleccion.js";
import { cuandoCerca, editorEnLugarDe, mostrarCodigo, prepararEstatico } from "./piezas/editor-perezoso.js";
import { borrar, claveDe, escuchar, guardar, leer } from "./piezas/almacen.js";
import { ResultadosDePruebas } from "./piezas/pruebas.js";
import { Solucion } from "./piezas/solucion.js";
import { registrarDesafio } from "./lib/progreso.js";
import { COMUN, DESAFIO } from "./lib/textos.js";
import {
  combinar, detenida, estadoGuardado, paciencia, registrar, rota, textoMejor, verPista, verSolucion, vista,
} from "./lib/veredicto.js";

const aviso = avisoDePython(python);

const absoluta = (url) => new URL(url, document.baseURI).href;

/** The widget's URLs (relative to the page) made absolute, as the worker needs them. */
function urlsDe({ urls }) {
  return {
    desafios: absoluta(urls.desafios),
    runtime: absoluta(urls.runtime),
  };
}

class BucleDesafio extends HTMLElement {
  connectedCallback() {
    if (this.datos) return;
    this.datos = JSON.parse(this.querySelector(":scope > script.bucle-datos").textContent);
    this.clave = claveDe(this);
    this.estado = estadoGuardado(leer(this.clave));
    this.codigo = this.estado.codigo ?? this.datos.inicial;
    this.editor = null;
    this.ocupado = null; // the check in progress: { codigo, actual, recibidas, … }
    this.construir();
    this.mostrarEstado();
    escuchar(this.clave, (valor) => this.alCambiarFuera(valor));
    if (!aviso.elemento.isConnected) aviso.colocar(this, this.resultados);

    python.conCalificador();
    const alInteractuar = () => {
      python.iniciar().catch(() => {});
      this.cargarEditor();
    };
    this.addEventListener("pointerdown", alInteractuar);
    this.addEventListener("focusin", alInteractuar);
    addEventListener("pagehide", () => this.pendienteGuardar && this.guardarYa());
    cuandoEsteOciosa(() => python.iniciar().catch(() => {}));
    // The editor once the code comes near the viewport and Python is quiet, as the cells' (celda.js).
    prepararEstatico(this.bloque);
    cuandoCerca(this.bloque, () => cuandoQuieto(python, () => this.cargarEditor()));
  }

  construir() {
    const id = (sufijo) => `${this.id || "desafio"}-${sufijo}`;
    this.bloque = this.querySelector(":scope > .bucle-desafio-inicial") ?? h("div", { class: "highlight-python" });
    if (!this.bloque.isConnected) this.append(this.bloque);
    if (this.codigo !== this.datos.inicial) mostrarCodigo(this.bloque, null, this.codigo);

    this.bloque.before(h("p", { class: "bucle-desafio-teclado", text: DESAFIO.teclado }));

    this.botonComprobar = boton(DESAFIO.comprobar, () => this.comprobar(), "bucle-desafio-comprobar");
    this.botonDetener = boton(COMUN.detener, () => this.detener());
    this.botonDetener.hidden = true;
    const ayuda = h("span", { class: "bucle-ayuda-editor", id: id("ayuda"), text: COMUN.ayuda(TECLA, DESAFIO.comprueba) });
    this.ayuda = ayuda.id;
    this.nota = h("p", { class: "bucle-desafio-nota", role: "status" });
    // What is being tried while a check runs: seen, not announced (the summary is).
    this.progreso = h("p", { class: "bucle-desafio-progreso" });
    this.otra = new OtraPestana("bucle-desafio-otra", DESAFIO.otraPestana, {
      alUsar: (codigo) => this.ponerCodigo(codigo),
      alSeguir: () => this.guardarYa(),
      foco: () => this.botonComprobar,
    });
    const barra = h("div", { class: "bucle-desafio-barra" },
      this.botonComprobar, this.botonDetener, boton(COMUN.restablecer, () => this.restablecer()), ayuda,
      this.nota, this.progreso);

    this.resumen = h("p", { class: "bucle-desafio-resumen", role: "status", "aria-live": "polite" });
    this.mejor = h("p", { class: "bucle-desafio-mejor" });
    this.pruebas = new ResultadosDePruebas({ prefijo: () => this.id, alIrALinea: (n) => this.irALinea(n) });
    this.pista = h("div", { class: "bucle-desafio-pista", hidden: true },
      h("p", { class: "bucle-desafio-rotulo", text: DESAFIO.pista }),
      h("p", { text: this.datos.pista ?? "" }));
    this.resultados = h("div", { class: "bucle-desafio-resultados" },
      this.resumen, this.mejor, this.pruebas.error, this.pista, this.pruebas.lista);
    this.solucion = new Solucion({
      codigo: this.datos.solucion ?? "", id: id("solucion"), superado: () => this.estado.superado,
    });

    this.bloque.after(this.otra.elemento, barra, this.resultados, this.solucion.elemento);
  }

  // ---- the code: editor and storage ----

  cargarEditor() {
    this.promesaEditor ??= editorEnLugarDe(this.bloque, "bucle-desafio-editor", {
      codigo: () => this.codigo,
      etiqueta: DESAFIO.editor,
      descripcion: this.ayuda,
      alEjecutar: () => this.comprobar(),
      alCambiar: (texto) => this.alCambiar(texto),
    }).then((editor) => (this.editor = editor));
    return this.promesaEditor;
  }

  alCambiar(texto) {
    this.codigo = texto;
    clearTimeout(this.pendienteGuardar);
    this.pendienteGuardar = setTimeout(() => this.guardarYa(), 300);
  }

  guardarYa() {
    clearTimeout(this.pendienteGuardar);
    this.pendienteGuardar = null;
    this.estado.codigo = this.codigo === this.datos.inicial ? null : this.codigo;
    // Another tab may have saved a better result since: it is kept. The code is this tab's: the
    // reader chose it by editing here, and the other tab is told.
    this.estado = combinar(this.estado, estadoGuardado(leer(this.clave)));
    this.otra.retirar();
    const { codigo, mejor, fallos, superado } = this.estado;
    if (codigo === null && !mejor && !fallos && !superado) borrar(this.clave);
    else guardar(this.clave, this.estado);
  }

  // ---- another tab of the same lesson ----

  /** Another tab saved this challenge: its results count here too; its code, if it differs,
   *  is offered, never put in place of this tab's. */
  alCambiarFuera(valor) {
    const ajeno = estadoGuardado(valor);
    this.estado = combinar(this.estado, ajeno);
    this.mostrarEstado();
    const codigo = ajeno.codigo ?? this.datos.inicial;
    this.otra.ofrecer(codigo, codigo === this.codigo);
  }

  ponerCodigo(codigo) {
    this.codigo = codigo;
    mostrarCodigo(this.bloque, this.editor, codigo);
  }

  restablecer() {
    if (this.codigo === this.datos.inicial) {
      this.nota.textContent = DESAFIO.yaInicial;
      return;
    }
    this.ponerCodigo(this.datos.inicial);
    this.guardarYa();
    this.nota.textContent = DESAFIO.vueltaInicial(this.editor ? TECLA : null);
  }

  async irALinea(n) {
    const editor = await this.cargarEditor();
    const doc = editor.vista.state.doc;
    const linea = doc.line(Math.max(1, Math.min(n, doc.lines)));
    editor.vista.dispatch({ selection: { anchor: linea.from, head: linea.to }, scrollIntoView: true });
    editor.enfocar();
  }

  // ---- checking ----

  async comprobar() {
    if (this.ocupado) return;
    if (this.pendienteGuardar) this.guardarYa();
    const actual = { codigo: this.codigo, actual: null, recibidas: {}, enviado: false };
    this.ocupado = actual;
    this.ocupar(true);
    this.nota.textContent = "";
    this.resumen.textContent = DESAFIO.comprobando;
    aviso.colocar(this, this.resultados);
    const d = this.datos;
    let respuesta;
    try {
      await python.iniciar();
      if (actual.porElLector) throw new Error("detenida antes de empezar");
      actual.enviado = true;
      respuesta = await python.calificar({
        desafio: d.desafio, codigo: actual.codigo, solucion: d.solucion ?? "",
        urls: urlsDe(d), runtime_modulos: d.runtime_modulos ?? [],
      }, { alCalificar: (detalle) => this.alCalificar(actual, detalle) });
    } catch (error) {
      const motivo = String(error?.message ?? error);
      respuesta = { estado: "fallo", error: motivo };
      // Not a Python exception (those come as a traceback) but the interpreter itself, like a
      // JavaScript stack overflow: this Python cannot be trusted any more.
      if (actual.enviado && !/^Traceback \(most recent call last\)/.test(motivo)) {
        python.reiniciar();
        respuesta = { estado: "rota", motivo };
      }
    } finally {
      clearTimeout(actual.vigia);
    }
    this.ocupado = null;
    this.ocupar(false);
    this.terminar(actual, respuesta);
  }

  /** A step of check `actual` (trabajador_desafios.py's "calificacion" events): re-arm the
   *  watchdog, keep the finished results. */
  alCalificar(actual, detalle) {
    if (this.ocupado !== actual) return;
    if (detalle.evento === "prueba") {
      actual.actual = detalle.nombre;
      const n = this.datos.pruebas.indexOf(detalle.nombre) + 1;
      this.progreso.textContent = DESAFIO.probando(detalle.nombre, n, this.datos.pruebas.length);
    }
    if (detalle.evento === "resultado") actual.recibidas[detalle.resultado.nombre] = detalle.resultado;
    clearTimeout(actual.vigia);
    actual.vigia = setTimeout(() => {
      actual.parada = true;
      python.detener();
    }, paciencia(this.datos.limite));
  }

  detener() {
    const actual = this.ocupado;
    if (!actual) return;
    actual.porElLector = true;
    clearTimeout(actual.vigia);
    // Not sent yet (Python still starting): the check just will not start.
    if (actual.enviado) python.detener();
  }

  ocupar(si) {
    this.classList.toggle("bucle-comprobando", si);
    this.progreso.textContent = "";
    this.botonComprobar.setAttribute("aria-disabled", String(si));
    if (!si && document.activeElement === this.botonDetener) this.botonComprobar.focus();
    this.botonDetener.hidden = !si;
  }

  terminar(actual, respuesta) {
    let resultado;
    if (respuesta?.estado === "ok") {
      resultado = respuesta.resultado; // (even if the watchdog fired just as the answer came)
    } else if (actual.parada) {
      resultado = detenida(this.datos, actual.recibidas, actual.actual);
    } else if (respuesta?.estado === "rota") {
      resultado = rota(this.datos, actual.recibidas, actual.actual, respuesta.motivo);
    } else {
      this.pruebas.ocultar(); // no verdict: what the list showed was another check's
      const motivo = String(respuesta?.error ?? DESAFIO.desconocido).trim().split("\n").pop();
      this.resumen.textContent = actual.porElLector ? DESAFIO.detenidaPorElLector
        : respuesta?.estado === "detenido" ? DESAFIO.interrumpida : DESAFIO.noSePudo(motivo);
      return;
    }
    const pista = verPista(this.estado, this.datos.pista, this.datos.pista_tras);
    const solucion = verSolucion(this.estado, this.datos.solucion_tras);
    this.estado = registrar(this.estado, resultado);
    this.guardarYa();
    registrarDesafio(this, resultado.superadas, resultado.total);
    const lo = vista(resultado);
    this.pruebas.pintar(lo);
    let dicho = lo.resumen;
    if (!pista && verPista(this.estado, this.datos.pista, this.datos.pista_tras)) dicho += DESAFIO.hayPista;
    if (!solucion && verSolucion(this.estado, this.datos.solucion_tras)) dicho += DESAFIO.haySolucion;
    this.resumen.textContent = dicho;
    this.mostrarEstado();
  }

  mostrarEstado() {
    this.mejor.textContent = textoMejor(this.estado.mejor);
    this.pista.hidden = !verPista(this.estado, this.datos.pista, this.datos.pista_tras);
    this.solucion.elemento.hidden = !this.datos.solucion || !verSolucion(this.estado, this.datos.solucion_tras);
  }
}

customElements.define("bucle-desafio", BucleDesafio);
