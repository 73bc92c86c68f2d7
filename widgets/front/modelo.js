// <bucle-modelo>: the reader's choice to download the course's in-page model (modelo/motor.js).
// The page that shows it serves the course's model endpoint (modelo/servidor.js).
//
// Nothing is downloaded until the reader presses «Descargar el modelo (N MB)» (N: the model's ONNX
// graph, its weights, its tokenizer and onnxruntime-web's wasm, as the build measured them). Then a
// native <progress> with «12 de 154 MB» and «Cancelar»; then «Modelo listo». When every file is
// already kept in this browser, the widget says so and offers «Cargar el modelo (ya descargado)»:
// the reader chose once, so a cell that
// needs the model loads it without asking again (motor.generar does), and the button is there for
// whoever wants it ready before. Errors and the reason a machine cannot run it: one sentence, in
// a live status.
import { boton, h } from "./piezas/dom.js";
import { impedimento, motorDelModelo } from "./modelo/motor.js";
import { mensajesDelPrefijo } from "./modelo/indicaciones.js";
import { responder } from "./modelo/protocolo.js";
import { servirModelo } from "./modelo/servidor.js";
import { MODELO } from "./lib/textos.js";

// For the tests and the browser's console: the page's engine, under a name no page uses.
globalThis.__bucleMotorDelModelo = motorDelModelo;

class BucleModelo extends HTMLElement {
  connectedCallback() {
    if (this.listo) return;
    this.listo = true;
    const datos = JSON.parse(this.querySelector("script.bucle-datos").textContent);
    this.motor = motorDelModelo().configurar(datos);
    this.prefijo = datos.prefijo ?? null;
    // This page answers the course's endpoint (…/modelo/v1/messages, through the service worker):
    // the messages protocol (protocolo.js) on this engine. Before the model is downloaded, the
    // answer is a protocol error that says to download it.
    servirModelo((peticion, { senal }) =>
      responder(peticion, (pedido) => this.motor.generar({ ...pedido, senal }), { senal }));
    this.querySelector("p")?.remove();

    this.boton = boton(MODELO.descargar(this.motor.total), () => this.descargar(), "bucle-modelo-descargar");
    this.cancelar = boton(MODELO.cancelar, () => this.control?.abort(), "bucle-modelo-cancelar");
    this.barra = h("progress", { "aria-label": MODELO.barra, max: this.motor.total, value: 0 });
    this.cifras = h("span", { class: "bucle-modelo-cifras" });
    this.avance = h("div", { class: "bucle-modelo-avance", hidden: true }, this.barra, this.cifras, this.cancelar);
    this.estado = h("p", { class: "bucle-modelo-estado", role: "status", "aria-live": "polite" });
    this.append(
      h("p", { class: "bucle-modelo-que", text: MODELO.queEs(datos.nombre, datos.licencia) }),
      h("div", { class: "bucle-acciones" }, this.boton),
      this.avance,
      this.estado,
    );
    this.motor.addEventListener("cambio", () => this.pintar());
    this.pintar();
    this.motor.enCache().then((hay) => {
      this.guardado = hay;
      this.pintar();
    });
  }

  pintar() {
    const { estado, error } = this.motor;
    const ocupado = estado === "descargando" || estado === "cargando";
    const motivo = impedimento();
    this.boton.hidden = ocupado || estado === "listo";
    this.boton.disabled = Boolean(motivo);
    this.boton.textContent = this.guardado ? MODELO.cargarDescargado : MODELO.descargar(this.motor.total);
    this.avance.hidden = estado !== "descargando";
    this.cancelar.disabled = estado !== "descargando";
    this.dataset.estado = estado;
    let texto;
    if (motivo) texto = motivo;
    else if (estado === "listo") texto = MODELO.listo;
    else if (estado === "cargando") texto = MODELO.cargando;
    else if (estado === "descargando") texto = MODELO.descargando;
    else if (estado === "error") texto = error;
    else if (this.cancelado) texto = MODELO.cancelada;
    else texto = this.guardado ? MODELO.yaDescargado : MODELO.sinDescargar;
    if (this.estado.textContent !== texto) this.estado.textContent = texto;
  }

  async descargar() {
    this.cancelado = false;
    this.control = new AbortController();
    this.barra.value = 0;
    this.cifras.textContent = MODELO.cifras(0, this.motor.total);
    const alProgreso = ({ bytes, total }) => {
      this.barra.max = total;
      this.barra.value = bytes;
      this.cifras.textContent = MODELO.cifras(bytes, total);
    };
    try {
      await this.motor.cargar({ alProgreso, senal: this.control.signal });
      this.guardado = true;
      // The start the lesson's conversations share (the directive's sistema and herramientas),
      // read now, while the reader reads: their first turn then processes only its own messages.
      if (this.prefijo) this.motor.preparar(mensajesDelPrefijo(this.prefijo));
    } catch (error) {
      if (error?.name === "AbortError") this.cancelado = true;
      // any other error is the engine's state ("error"), shown by pintar()
      this.guardado = await this.motor.enCache();
    } finally {
      this.control = null;
      this.pintar();
    }
  }
}

customElements.define("bucle-modelo", BucleModelo);
