// The test site's stub model: on a page with <div id="modelo-de-prueba">, serve the course's
// model endpoint with an echo (modelo/servidor.js's servirModelo) and show the control of the
// reader's own server. The model "lento" answers only when stopped (its signal aborted).
import { montarServidorPropio, servirModelo } from "./bucle/puente.js";

const sitio = document.getElementById("modelo-de-prueba");
if (sitio) {
  window.atendidas = [];
  window.abortadas = 0;
  window.preguntada = 0; // times the service worker asked who serves (it had forgotten)
  navigator.serviceWorker?.addEventListener("message", ({ data }) => {
    if (data?.tipo === "bucle:modelo:quien") window.preguntada += 1;
  });
  servirModelo(async (peticion, { senal }) => {
    window.atendidas.push(peticion);
    if (peticion.model === "lento") {
      await new Promise((resolve) => senal.addEventListener("abort", resolve, { once: true }));
      window.abortadas += 1;
      return { estado: 200, cuerpo: { type: "message", content: [{ type: "text", text: "no debería llegar" }] } };
    }
    const ultimo = peticion.messages.at(-1).content;
    return {
      estado: 200,
      cuerpo: {
        id: "msg_prueba", type: "message", role: "assistant", model: peticion.model,
        content: [{ type: "text", text: `eco: ${ultimo}` }], stop_reason: "end_turn",
        usage: { input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 0 },
      },
    };
  });
  window.sirviendo = true;
  montarServidorPropio(sitio);
}
