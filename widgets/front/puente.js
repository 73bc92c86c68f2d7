// The bridge to the course's model as an entry of the bundle (_static/bucle/puente.js), for the
// pages that serve the model and show the control of the reader's own server: see
// modelo/servidor.js.
export { detenerPeticiones, montarServidorPropio, servirModelo } from "./modelo/servidor.js";
