// The page's Python: one worker per page, made by a factory so that a restart is ordinary.
//
//   import { python } from "./python.js";
//   const r = await python.ejecutar("print(1)", "<celda 1>", { alSalir: (flujo, texto) => ... });
//
// Events (python is an EventTarget): "estado" (detail: apagado|arrancando|listo|ocupado),
// "progreso" (detail: {cargado, total}), "reiniciado" (the namespace was lost).

export function crearTrabajador() {
  return new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "python" });
}

export class Python extends EventTarget {
  constructor(fabrica = crearTrabajador) {
    super();
    this.fabrica = fabrica;
    this.trabajador = null;
    this.pendientes = new Map();
    this.siguienteId = 1;
    this.estado = "apagado";
    this.arranque = null;
    // Interrupting Python needs SharedArrayBuffer, which needs cross-origin isolation.
    this.interrupcion = globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
  }

  _cambiar(estado) {
    this.estado = estado;
    this.dispatchEvent(new CustomEvent("estado", { detail: estado }));
  }

  _enviar(type, datos = {}, alSalir = null) {
    const id = this.siguienteId++;
    return new Promise((resolve, reject) => {
      this.pendientes.set(id, { resolve, reject, alSalir });
      this.trabajador.postMessage({ id, type, ...datos });
    });
  }

  _recibir({ data }) {
    const pendiente = this.pendientes.get(data.id);
    if (data.type === "progreso") {
      this.dispatchEvent(new CustomEvent("progreso", { detail: data }));
    } else if (!pendiente) {
      return;
    } else if (data.type === "salida") {
      pendiente.alSalir?.(data.flujo, data.texto);
    } else {
      this.pendientes.delete(data.id);
      if (data.type === "hecho") pendiente.resolve(data.resultado);
      else pendiente.reject(new Error(data.error));
    }
  }

  /** Start the worker and Pyodide; safe to call many times. */
  iniciar() {
    if (!this.arranque) {
      this.trabajador = this.fabrica();
      this.trabajador.onmessage = (evento) => this._recibir(evento);
      this._cambiar("arrancando");
      this.arranque = this._enviar("iniciar", {
        pagina: document.baseURI,
        interrupcion: this.interrupcion,
      }).then(
        (info) => {
          this._cambiar("listo");
          return info;
        },
        (error) => {
          this.arranque = null;
          this._cambiar("apagado");
          throw error;
        },
      );
    }
    return this.arranque;
  }

  async _ocupado(type, datos, alSalir) {
    await this.iniciar();
    if (this.interrupcion) this.interrupcion[0] = 0;
    this._cambiar("ocupado");
    try {
      return await this._enviar(type, datos, alSalir);
    } finally {
      if (this.estado === "ocupado") this._cambiar("listo");
    }
  }

  /** Run code in the page's shared namespace; output streams to alSalir(flujo, texto). */
  ejecutar(codigo, nombre, { alSalir } = {}) {
    return this._ocupado("ejecutar", { codigo, nombre }, alSalir);
  }

  /** Call a function of the worker's Python module with JSON-able arguments. */
  llamar(funcion, args = [], { alSalir } = {}) {
    return this._ocupado("llamar", { funcion, args }, alSalir);
  }

  /**
   * Stop the running code: an interrupt (KeyboardInterrupt) when the page is cross-origin
   * isolated; otherwise the worker is terminated and a new one started. Returns "interrumpido"
   * or "reiniciado".
   */
  detener() {
    if (this.interrupcion) {
      this.interrupcion[0] = 2; // SIGINT
      return "interrumpido";
    }
    this.reiniciar();
    return "reiniciado";
  }

  /** Throw the worker away and start a new one; every pending call ends as "detenido". */
  reiniciar() {
    this.trabajador?.terminate();
    this.trabajador = null;
    this.arranque = null;
    for (const { resolve } of this.pendientes.values()) resolve({ estado: "detenido", reiniciado: true });
    this.pendientes.clear();
    this._cambiar("apagado");
    this.dispatchEvent(new CustomEvent("reiniciado"));
    this.iniciar();
  }
}

/** The page's one Python. */
export const python = new Python();
