// @ts-check
// Nothing the reader's Python does leaves the site. Pyodide reaches the network three ways: fetch
// (pyodide.http.pyfetch, js.fetch), a synchronous XMLHttpRequest (open_url) and, for sockets
// (urllib.request.urlopen, http.client), Emscripten's WebSocket emulation. `cerrarAlExterior`
// makes each refuse a URL of another origin: fetch rejects with a TypeError, XHR's open throws one,
// and a WebSocket cannot be built (Emscripten turns that into EHOSTUNREACH, so Python raises
// an ordinary OSError / URLError in the reader's cell).

import { PYTHON } from "./textos.js";

const MENSAJE = PYTHON.exterior;

/**
 * Whether `url` (resolved against `base`) is of another origin than `origen`.
 * @param {unknown} url
 * @param {string} base
 * @param {string} origen
 */
export function esExterior(url, base, origen) {
  try {
    return new URL(String(url), base).origin !== origen;
  } catch {
    return false; // not a URL: the real API reports it as it would
  }
}

/**
 * Whether `url` leaves the site for an origin other than `otro` (the confirmed one, or null).
 * @param {unknown} url
 * @param {string} base
 * @param {string} origen
 * @param {string | null} [otro]
 */
export function prohibida(url, base, origen, otro = null) {
  if (!esExterior(url, base, origen)) return false;
  return !otro || esExterior(url, base, otro);
}

/**
 * What `cerrarAlExterior` patches: a worker's self, or the tests' stand-in. Its constructors are
 * replaced by ones that throw, so they are typed loosely.
 * @typedef {{ location: { href: string, origin: string }, fetch: typeof fetch,
 *   XMLHttpRequest?: { prototype: { open: Function } }, WebSocket?: unknown, EventSource?: unknown }} Global
 */

/**
 * Make `global` (a worker's self) refuse requests that would leave its origin, but those to the
 * origin `permitido()` returns (asked at each request).
 * @param {Global} [global]
 * @param {{ permitido?: () => string | null }} [opciones]
 */
export function cerrarAlExterior(global = globalThis, { permitido = () => null } = {}) {
  const base = global.location.href;
  const origen = global.location.origin;
  const fetchPropio = global.fetch;
  /** @type {(url: unknown) => boolean} */
  const fuera = (url) => prohibida(url, base, origen, permitido());
  global.fetch = function fetch(recurso, opciones) {
    const url = recurso && typeof recurso === "object" && "url" in recurso ? recurso.url : recurso;
    if (fuera(url)) return Promise.reject(new TypeError(`${MENSAJE} (${url})`));
    return fetchPropio.call(global, recurso, opciones);
  };
  const XHR = global.XMLHttpRequest;
  if (XHR) {
    const abrir = XHR.prototype.open;
    /** @type {(this: XMLHttpRequest, metodo: string, url: string | URL, ...resto: unknown[]) => void} */
    XHR.prototype.open = function open(metodo, url, ...resto) {
      // (an Error, not a DOMException: Pyodide names an Error's message in the reader's cell)
      if (fuera(url)) throw new TypeError(`${MENSAJE} (${url})`);
      return abrir.call(this, metodo, url, ...resto);
    };
  }
  if (global.WebSocket) {
    global.WebSocket = class WebSocket {
      /** @param {string | URL} url */
      constructor(url) {
        throw new DOMException(`${MENSAJE} (${url})`, "SecurityError");
      }
    };
  }
  if (global.EventSource) {
    global.EventSource = class EventSource {
      /** @param {string | URL} url */
      constructor(url) {
        throw new DOMException(`${MENSAJE} (${url})`, "SecurityError");
      }
    };
  }
}
