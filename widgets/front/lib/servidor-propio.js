// @ts-check
// The reader's own model server: the one address off the site that Python may reach, typed and
// confirmed by the reader (modelo/servidor.js shows the control). Pure logic, no DOM:
//
//   direccionPropia("http://localhost:11434/") → { origen: "http://localhost:11434",
//                                                 url: "http://localhost:11434/v1/messages" }
//   (or throws an Error whose message, in Spanish, says what to type instead)
//
// The worker's guard (lib/solo-origen.js) then lets through exactly `origen`; trabajador.py's
// servidor_propio() returns `url`. The CSP that widgets/serve.py sends lets through loopback
// addresses only (connect-src), where such a server usually runs.

import { PUENTE } from "./textos.js";

/** Where the confirmed address is kept (this browser, every page of the site). */
export const CLAVE = "bucle:servidor-propio";

/**
 * The address the reader typed, checked: {origen, url} (url: its messages endpoint).
 * @param {string} texto
 * @param {string | null} [origenDelSitio]
 */
export function direccionPropia(texto, origenDelSitio = null) {
  const limpio = String(texto ?? "").trim();
  if (!limpio) throw new Error(PUENTE.vacia);
  let url;
  try {
    // ("localhost:11434" parses, as the scheme «localhost:»: it is not a whole address either)
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(limpio)) throw new TypeError();
    url = new URL(limpio);
  } catch {
    throw new Error(PUENTE.invalida(limpio));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(PUENTE.esquema(url.protocol));
  if (url.username || url.password || url.search || url.hash || limpio.endsWith("?") || limpio.endsWith("#")) {
    throw new Error(PUENTE.conDatos);
  }
  if (origenDelSitio && url.origin === origenDelSitio) throw new Error(PUENTE.mismoSitio);
  const ruta = url.pathname.replace(/\/+$/, "");
  const base = url.origin + ruta;
  // An address that already names the endpoint is taken as it is.
  const completa = ruta.endsWith("/v1/messages") ? base : `${base}/v1/messages`;
  return { origen: url.origin, url: completa };
}

/** The page's localStorage, or null where reading it throws (storage blocked). */
function almacenDeLaPagina() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The confirmed address kept in `almacen` (localStorage), or null. */
export function leerPropia(almacen = almacenDeLaPagina()) {
  try {
    const guardada = JSON.parse(almacen?.getItem(CLAVE) ?? "null");
    return guardada ? direccionPropia(guardada.url) : null;
  } catch {
    return null;
  }
}

/**
 * Keep (or, with null, forget) the confirmed address; false if storage is off.
 * @param {{ url: string } | null} direccion
 * @param {Storage | null} [almacen]
 */
export function guardarPropia(direccion, almacen = almacenDeLaPagina()) {
  if (!almacen) return false;
  try {
    if (direccion) almacen.setItem(CLAVE, JSON.stringify({ url: direccion.url }));
    else almacen.removeItem(CLAVE);
    return true;
  } catch {
    return false;
  }
}
