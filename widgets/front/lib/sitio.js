// @ts-check
// What the page told its worker of the site (trabajador.js's "sitio" message, also `sitio` in
// "iniciar"): whether the course's service worker controls the page (the course's model answers
// through it), whether this page serves the course's model (modelo/servidor.js), and the reader's
// own server ({origen, url}, or null), the one other origin the worker's guard lets through
// (lib/solo-origen.js). Pure: no DOM, no worker globals.
//
//   const sitio = new Sitio({ raiz, ruedas });   // the site's root and its wheels' folder (URLs)
//   sitio.ajustar({ controlado: true, propio: { url: "http://127.0.0.1:8080/v1/messages" } });
//   sitio.permitido();    // "http://127.0.0.1:8080", or null
//   sitio.conRed();       // the page's cells will send HTTP requests (it serves the model, or has a server)
//   sitio.paraPython();   // JSON for trabajador.py's url_del_modelo() and servidor_propio()

export class Sitio {
  /** @param {{ raiz: string, ruedas: string }} urls the site's root and its wheels' folder */
  constructor({ raiz, ruedas }) {
    this.raiz = raiz;
    this.ruedas = ruedas;
    this.controlado = false;
    this.sirve = false;
    this.propio = null;
  }

  /**
   * Take what the page says; what it leaves out stays as it was.
   * @param {{ controlado?: unknown, sirve?: unknown, propio?: { url: unknown } | null }} [datos]
   */
  ajustar({ controlado, sirve, propio } = {}) {
    if (controlado !== undefined) this.controlado = Boolean(controlado);
    if (sirve !== undefined) this.sirve = Boolean(sirve);
    if (propio === undefined) return;
    // The origin let through is always the one of the URL servidor_propio() returns.
    try {
      this.propio = propio ? { origen: new URL(String(propio.url)).origin, url: String(propio.url) } : null;
    } catch {
      this.propio = null;
    }
  }

  /** The origin the guard lets through besides the site's own, or null. */
  permitido() {
    return this.propio?.origen ?? null;
  }

  /** Whether the page's cells will send HTTP requests: it serves the course's model, or the
   *  reader confirmed a server of their own. */
  conRed() {
    return this.sirve || this.propio !== null;
  }

  /** `sitio` of the module `_bucle_pagina` (trabajador.py): JSON {raiz, ruedas, controlado, propio}. */
  paraPython() {
    const { raiz, ruedas, controlado, propio } = this;
    return JSON.stringify({ raiz, ruedas, controlado, propio: propio?.url ?? null });
  }
}
