// <bucle-banco>: the bench of «Medir el agente». The build (widgets/directivas/banco.py) leaves
// what «Medir» does, a recorded measurement's tables and plot (with `:grabacion:`) and the data;
// this adds:
//
//   <bucle-banco …>
//     p.bucle-banco-descripcion         (the build's)
//     .bucle-banco-grabada              (the build's) + the recorded runs (piezas/banco-ejecuciones.js,
//                                       fetched from the published file when opened)
//     .bucle-banco-mandos               combobox «Modelo» (with several: the listed ones, or the
//                                       name of the reader's own hacer_modelo) · input «Ejecuciones por tarea»
//                                       · [Medir] [Detener]
//     p.bucle-banco-aviso[role=status]  what went wrong, in Spanish, or how the measurement ended
//     .bucle-banco-progreso             <progress «Progreso de la medida»> «Ejecución i de N · quedan unos 5 s»
//     section.bucle-banco-tuya          «Tu medida»: tables and plot (piezas/banco-resultados.js),
//                                       [Exportar CSV] [Exportar JSON], the runs and their traces
//
// «Medir» runs in the page's worker (python.medir → trabajador.js → trabajador_banco.py), which
// sends each finished run at once: Detener (an interrupt, or a restart of the worker where the
// page is not isolated) keeps every run that finished. The summary is the worker's; after a
// restart the new worker makes it from the runs the page kept. The measurement is saved in
// localStorage (lib/banco-medida.js's format) and shown again on reload. A bad input (a name no
// cell has defined yet, N out of range, an expression that raises) is told and nothing is lost.
import { python } from "./python.js";
import { avisoDePython } from "./piezas/aviso-python.js";
import { boton, h } from "./piezas/dom.js";
import { claveDe, guardar, leer } from "./piezas/almacen.js";
import { ListaDeEjecuciones } from "./piezas/banco-ejecuciones.js";
import { pintarResultados } from "./piezas/banco-resultados.js";
import { campoDeModelo } from "./piezas/banco-modelo.js";
import { Medida, VECES_MAXIMAS, celdaQueDefine, leerModelo, leerVeces, segundosRestantes } from "./lib/banco-medida.js";
import { BANCO, COMUN } from "./lib/textos.js";

const aviso = avisoDePython(python);

/** How often (ms) a measurement under way is saved as its runs come. */
const GUARDAR_CADA = 1000;

function descargar(texto, tipo, nombre) {
  const enlace = h("a", { href: URL.createObjectURL(new Blob([texto], { type: tipo })), download: nombre });
  enlace.click();
  setTimeout(() => URL.revokeObjectURL(enlace.href), 1000);
}

class BucleBanco extends HTMLElement {
  connectedCallback() {
    if (this.datos) return;
    this.datos = JSON.parse(this.querySelector(":scope > script.bucle-datos").textContent);
    this.clave = claveDe(this);
    this.medida = null;
    this.midiendo = null; // the measurement under way: { porElLector, medida, inicio, guardado }
    this.construir();
    const guardado = leer(this.clave);
    this.restaurar(guardado);
    const arrancar = () => python.iniciar().catch(() => {});
    this.addEventListener("pointerdown", arrancar);
    this.addEventListener("focusin", arrancar);
  }

  construir() {
    const id = (s) => `${this.id}-${s}`;
    const d = this.datos;
    const modelo = campoDeModelo(id, d.modelos);
    this.modelo = modelo.campo;
    this.veces = h("input", { id: id("veces"), type: "number", min: 1, max: VECES_MAXIMAS, step: 1,
      inputmode: "numeric", value: d.veces });
    this.botonMedir = boton(BANCO.medir, () => this.medir(), "bucle-banco-medir");
    this.botonDetener = boton(COMUN.detener, () => this.detener());
    this.botonDetener.hidden = true;
    const mandos = h("div", { class: "bucle-banco-mandos" }, ...modelo.elementos,
      h("label", { for: id("veces"), text: BANCO.veces }), this.veces,
      this.botonMedir, this.botonDetener);
    this.aviso = h("p", { class: "bucle-banco-aviso", role: "status" });
    this.barra = h("progress", { "aria-label": BANCO.barra, max: 1, value: 0 });
    this.cuenta = h("p", { class: "bucle-banco-cuenta" });
    this.progreso = h("div", { class: "bucle-banco-progreso", hidden: true }, this.barra, this.cuenta);
    this.estado = h("p", { class: "bucle-banco-estado" });
    this.resultados = h("div", { class: "bucle-banco-resultados" });
    this.lista = new ListaDeEjecuciones({ prefijo: id("tuyas"), titulo: BANCO.ejecuciones });
    this.acciones = h("div", { class: "bucle-banco-acciones" },
      boton(BANCO.exportarCSV, () => this.exportar("csv")),
      boton(BANCO.exportarJSON, () => this.exportar("json")));
    this.tuya = h("section", { class: "bucle-banco-tuya", "aria-labelledby": id("tuya"), hidden: true },
      h("p", { class: "bucle-banco-rotulo", id: id("tuya"), text: BANCO.tuMedida }),
      this.estado, this.resultados,
      this.acciones, this.lista.elemento);
    this.append(mandos, this.aviso, this.progreso, this.tuya);
    const grabada = this.querySelector(":scope > .bucle-banco-grabada");
    if (grabada && d.grabacion) {
      const lista = new ListaDeEjecuciones({
        prefijo: id("grabadas"), titulo: () => BANCO.grabadas(d.grabacion.ejecuciones), propias: false,
        cargar: async () => {
          const respuesta = await fetch(new URL(d.grabacion.url, document.baseURI));
          if (!respuesta.ok) throw new Error(`HTTP ${respuesta.status}`);
          return Medida.desdeGrabacion(await respuesta.json());
        },
      });
      grabada.append(lista.elemento);
    }
  }

  restaurar(guardado) {
    const medida = Medida.desdeGuardado(guardado);
    if (guardado?.eleccion) {
      if (leerModelo(guardado.eleccion.modelo).modelo) this.modelo.value = guardado.eleccion.modelo;
      if (leerVeces(guardado.eleccion.veces).veces) this.veces.value = guardado.eleccion.veces;
    }
    if (!medida) return;
    this.medida = medida;
    const fecha = medida.fecha ? new Date(medida.fecha).toLocaleString("es-ES") : "";
    this.mostrar(medida, BANCO.guardada(medida.hechas, medida.total, fecha)
      + (medida.soloResumen ? BANCO.soloResumen : medida.sinTrazas ? BANCO.sinTrazas : ""));
  }

  // ---- measuring ----

  async medir() {
    if (this.midiendo) return;
    const { veces, error } = leerVeces(this.veces.value);
    if (error) {
      this.aviso.textContent = BANCO.vecesNoVale(this.veces.value, VECES_MAXIMAS);
      return;
    }
    const { modelo } = leerModelo(this.modelo.value);
    if (!modelo) {
      this.aviso.textContent = BANCO.modeloNoVale(this.modelo.value);
      return;
    }
    this.modelo.value = modelo; // as it is sent and saved
    if (python.estado === "ocupado") {
      this.aviso.textContent = BANCO.ocupado;
      return;
    }
    const actual = { porElLector: false, medida: null, inicio: 0, guardado: 0 };
    this.midiendo = actual;
    this.ocupar(true);
    this.aviso.textContent = "";
    aviso.colocar(this, this.progreso);
    const d = this.datos;
    const peticion = { tareas: d.tareas, variantes: d.variantes, modelo, veces,
      tope: d.tope ?? null, limite: d.limite };
    let respuesta;
    try {
      respuesta = await python.medir(peticion, {
        alMedir: (mensaje) => this.alMedir(actual, mensaje),
        cancelado: () => actual.porElLector,
      });
    } catch (fallo) {
      respuesta = { estado: "fallo", mensaje: String(fallo?.message ?? fallo).trim().split("\n").pop() };
    }
    await this.terminar(actual, respuesta, veces);
    this.midiendo = null;
    this.ocupar(false);
  }

  /** What the worker says while measuring: the start (the new measurement) and each run. */
  alMedir(actual, { evento, total, ejecucion, lineas, vista, ...cabecera }) {
    if (this.midiendo !== actual) return;
    if (evento === "empieza") {
      actual.medida = new Medida(cabecera, total);
      actual.inicio = performance.now();
      this.medida = actual.medida;
      this.mostrar(actual.medida, "");
    } else if (evento === "ejecucion" && actual.medida) {
      actual.medida.añadir(ejecucion, lineas);
      if (vista) actual.medida.vista = vista;
    }
    this.pedirPintura();
  }

  pedirPintura() {
    if (this.pintura) return;
    this.pintura = requestAnimationFrame(() => {
      this.pintura = null;
      this.pintarProgreso();
    });
  }

  pintarProgreso() {
    const actual = this.midiendo;
    const medida = actual?.medida;
    if (!medida) return;
    const hechas = medida.ejecuciones.length;
    const ms = performance.now() - actual.inicio;
    this.barra.max = medida.total;
    this.barra.value = hechas;
    const quedan = segundosRestantes(hechas, medida.total, ms);
    const texto = BANCO.progreso(hechas, medida.total);
    this.barra.setAttribute("aria-valuetext", texto);
    this.cuenta.textContent = quedan == null ? texto : `${texto} · ${BANCO.quedan(quedan)}`;
    if (medida.vista && medida.vista !== this.pintada) this.pintarVista(medida.vista);
    if (performance.now() - actual.guardado > GUARDAR_CADA) {
      actual.guardado = performance.now();
      this.guardarYa();
    }
  }

  detener() {
    const actual = this.midiendo;
    if (!actual) return;
    actual.porElLector = true;
    if (python.estado === "ocupado") python.detener();
  }

  async terminar(actual, respuesta, veces) {
    const medida = actual.medida;
    if (!medida) { // nothing ran: what was shown stays
      this.aviso.replaceChildren(...this.motivoDe(respuesta, actual));
      return;
    }
    medida.estado = respuesta?.estado === "ok" ? "completa" : "detenida";
    medida.segundos = respuesta?.segundos ?? (performance.now() - actual.inicio) / 1000;
    let dicho;
    if (medida.estado === "completa") {
      medida.vista = respuesta.vista;
      dicho = BANCO.completa(medida.ejecuciones.length, medida.segundos);
    } else {
      dicho = respuesta?.estado === "fallo" ? `${BANCO.noSePudo(respuesta.mensaje)} ` : "";
      dicho += BANCO.detenida(medida.ejecuciones.length, medida.total) + (respuesta?.reiniciado ? BANCO.reiniciado : "");
      // The summary of the runs the page kept (a stop may come between a run and its message).
      this.aviso.textContent = BANCO.calculando;
      try {
        const hecho = await python.resumirBanco({ ejecuciones: medida.ligeras(), variantes: medida.variantes });
        if (hecho?.vista) medida.vista = hecho.vista;
      } catch {
        // the last summary the worker sent stays
      }
    }
    this.aviso.textContent = dicho; // (announced there; «Tu medida» says it again after a reload)
    this.guardarYa(veces);
    this.mostrar(medida, "");
  }

  /** Why nothing was measured, as nodes (a name in code). */
  motivoDe(respuesta, actual) {
    if (actual.porElLector) return [BANCO.antesDeEmpezar];
    if (respuesta?.estado === "falta") {
      const codigos = [...document.querySelectorAll("bucle-celda")].map((c) => c.codigo ?? "");
      const n = celdaQueDefine(respuesta.nombre, codigos);
      return [BANCO.falta, h("code", { text: respuesta.nombre }), n ? BANCO.laCelda(n) : "", "."];
    }
    if (respuesta?.estado === "no-vale") return [respuesta.mensaje];
    return [BANCO.noSePudo(respuesta?.mensaje ?? respuesta?.estado ?? "")];
  }

  // ---- showing, saving, exporting ----

  mostrar(medida, dicho) {
    this.tuya.hidden = false;
    this.estado.textContent = dicho;
    this.pintada = null;
    if (medida.vista) this.pintarVista(medida.vista);
    else this.resultados.replaceChildren();
    // The runs show once the measurement ends (while it runs, the progress tells how many).
    this.lista.elemento.hidden = medida.estado === "midiendo" || medida.soloResumen;
    this.acciones.hidden = medida.soloResumen;
    if (medida.estado !== "midiendo") this.lista.poner(medida);
  }

  pintarVista(vista) {
    this.pintada = vista;
    pintarResultados(this.resultados, vista, { id: `${this.id}-texto`, etiqueta: BANCO.grafico });
  }

  guardarYa(veces = null) {
    if (!this.medida) return;
    const eleccion = { modelo: this.modelo.value, veces: veces ?? this.veces.value };
    const valor = this.medida.paraGuardar({ eleccion });
    this.medida.sinTrazas = valor.sinTrazas;
    guardar(this.clave, valor);
  }

  exportar(tipo) {
    if (!this.medida) return;
    if (tipo === "csv") descargar(this.medida.aCSV(), "text/csv;charset=utf-8", `${this.id}.csv`);
    else descargar(JSON.stringify(this.medida.aGrabacion(), null, 1), "application/json", `${this.id}.json`);
  }

  ocupar(si) {
    this.classList.toggle("bucle-midiendo", si);
    this.botonMedir.setAttribute("aria-disabled", String(si));
    this.progreso.hidden = !si;
    if (si) {
      this.barra.removeAttribute("value"); // indeterminate until the first run
      this.barra.removeAttribute("aria-valuetext");
      this.cuenta.textContent = BANCO.preparando;
    }
    if (!si && document.activeElement === this.botonDetener) this.botonMedir.focus();
    this.botonDetener.hidden = !si;
  }
}

customElements.define("bucle-banco", BucleBanco);
