// @ts-check
// Whether the page's worker is idle: how many messages it is handling, and when it finished the
// last one. The worker does its own background work (making the memory snapshot, warming
// Python's compiler) only once it has been idle for a while. No DOM.
//
//   const ocio = new Ocio();
//   ocio.empieza(); …; ocio.acaba();     // around each message handled
//   ocio.cuando(1000, hacer);            // hacer() once nothing has been handled for 1 s
//   ocio.unaVez("red", 300, hacer);      // the same, at most once for that name; its failure is nobody's
export class Ocio {
  /** @param {{ ahora?: () => number, despues?: (f: () => void, ms: number) => unknown }} [reloj] */
  constructor({ ahora = () => performance.now(), despues = (f, ms) => setTimeout(f, ms) } = {}) {
    this.ahora = ahora;
    this.despues = despues;
    this.trabajando = 0; // messages being handled
    this.ultimaActividad = 0;
    this.pedidos = new Set(); // the names unaVez was asked for
  }

  empieza() {
    this.trabajando++;
  }

  acaba() {
    this.trabajando--;
    this.ultimaActividad = this.ahora();
  }

  /**
   * Call `hacer` once no message has been handled for `ms`.
   * @param {number} ms
   * @param {() => void} hacer
   */
  cuando(ms, hacer) {
    const intentar = () => {
      const quieto = this.ahora() - this.ultimaActividad;
      if (this.trabajando || quieto < ms) this.despues(intentar, ms - Math.min(quieto, ms) + 20);
      else hacer();
    };
    this.despues(intentar, ms);
  }

  /** `cuando(ms, hacer)`, unless `nombre` was asked for before; what `hacer` throws is dropped
   *  (background work: whatever it prepared is done again when it is needed).
   * @param {string} nombre
   * @param {number} ms
   * @param {() => void} hacer
   */
  unaVez(nombre, ms, hacer) {
    if (this.pedidos.has(nombre)) return;
    this.pedidos.add(nombre);
    this.cuando(ms, () => {
      try {
        hacer();
      } catch {}
    });
  }
}
