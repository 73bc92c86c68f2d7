// Nothing the reader's Python does leaves the site. Pyodide reaches the network three ways: fetch
// (pyodide.http.pyfetch, js.fetch), a synchronous XMLHttpRequest (open_url) and, for sockets
// (urllib.request.urlopen, http.client), Emscripten's WebSocket emulation. `cerrarAlExterior`
// makes each refuse a URL of another origin: fetch rejects with a TypeError, XHR's open throws one,
// and a WebSocket cannot be built (Emscripten turns that into EHOSTUNREACH, so Python raises
// an ordinary OSError / URLError in the reader's cell).

import { PYTHON } from "./textos.js";

const MENSAJE = PYTHON.exterior;

/** Whether `url` (resolved against `base`) is of another origin than `origen`. */
export function esExterior(url, base, origen) {
  try {
    return new URL(String(url), base).origin !== origen;
  } catch {
    return false; // not a URL: the real API reports it as it would
  }
}

/** Whether `url` leaves the site for an origin other than `otro` (the confirmed one, or null). */
export function prohibida(url, base, origen, otro = null) {
  if (!esExterior(url, base, origen)) return false;
  return !otro || esExterior(url, base, otro);
}

/**
 * Make `global` (a worker's self) refuse requests that would leave its origin, but those to the
 * origin `permitido()` returns (asked at each request).
 */
export function cerrarAlExterior(global = globalThis, { permitido = () => null } = {}) {
  const base = global.location.href;
  const origen = global.location.origin;
  const fetchPropio = global.fetch;
  const fuera = (url) => prohibida(url, base, origen, permitido());
  global.fetch = function fetch(recurso, opciones) {
    const url = recurso && typeof recurso === "object" && "url" in recurso ? recurso.url : recurso;
    if (fuera(url)) return Promise.reject(new TypeError(`${MENSAJE} (${url})`));
    return fetchPropio.call(global, recurso, opciones);
  };
  const XHR = global.XMLHttpRequest;
  if (XHR) {
    const abrir = XHR.prototype.open;
    XHR.prototype.open = function open(metodo, url, ...resto) {
      // (an Error, not a DOMException: Pyodide names an Error's message in the reader's cell)
      if (fuera(url)) throw new TypeError(`${MENSAJE} (${url})`);
      return abrir.call(this, metodo, url, ...resto);
    };
  }
  if (global.WebSocket) {
    global.WebSocket = class WebSocket {
      constructor(url) {
        throw new DOMException(`${MENSAJE} (${url})`, "SecurityError");
      }
    };
  }
  if (global.EventSource) {
    global.EventSource = class EventSource {
      constructor(url) {
        throw new DOMException(`${MENSAJE} (${url})`, "SecurityError");
      }
    };
  }
}
