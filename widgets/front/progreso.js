// <bucle-progreso>: the course map on the index, with the reader's progress in each lesson and
// a way to take it elsewhere (export / import as a JSON file).
import { boton, h } from "./piezas/dom.js";
import "./piezas/almacen.js"; // the page's notice when storage fails
import { progresoDe, exportar, importar } from "./lib/progreso.js";
import { PREDICE, PROGRESO } from "./lib/textos.js";

function datosDe(elemento) {
  return JSON.parse(elemento.querySelector("script.bucle-datos").textContent);
}

function resumen(leccion, progreso) {
  const p = progreso[leccion.pagina] ?? {};
  const partes = [];
  if (leccion.preguntas.length) {
    const bien = leccion.preguntas.filter((id) => p.preguntas?.[id] === true).length;
    partes.push(PROGRESO.preguntas(bien, leccion.preguntas.length));
  }
  for (const id of leccion.desafios) {
    const d = p.desafios?.[id];
    if (!d) partes.push(PROGRESO.sinIntentar);
    else if (d.superadas === d.total) partes.push(PROGRESO.superado);
    else partes.push(PROGRESO.desafio(d.superadas, d.total));
  }
  // The traces' best rounds of predictions, added up (optional: not part of completing a lesson).
  const rondas = (leccion.trazas ?? []).map((id) => p.predicciones?.[id]).filter((r) => r?.total > 0);
  if (rondas.length) {
    const suma = (campo) => rondas.reduce((n, r) => n + (Number(r[campo]) || 0), 0);
    partes.push(PREDICE.mapa(suma("aciertos"), suma("total")));
  }
  const completa =
    leccion.preguntas.every((id) => p.preguntas?.[id] === true) &&
    leccion.desafios.every((id) => p.desafios?.[id] && p.desafios[id].superadas === p.desafios[id].total);
  const algo = leccion.preguntas.length + leccion.desafios.length > 0;
  return { texto: partes.join(" · "), completa: completa && algo };
}

class BucleProgreso extends HTMLElement {
  connectedCallback() {
    if (this.listo) return;
    this.listo = true;
    this.datos = datosDe(this);
    this.curso = this.dataset.bucleCurso;
    this.lista = this.querySelector("ul");
    this.construirAcciones();
    this.pintar();
    addEventListener("bucle:progreso", () => this.pintar());
    addEventListener("storage", () => this.pintar());
  }

  pintar() {
    const progreso = progresoDe(this.curso);
    const elementos = this.lista ? [...this.lista.children] : [];
    this.datos.lecciones.forEach((leccion, i) => {
      const li = elementos[i];
      if (!li) return;
      let estado = li.querySelector(".bucle-progreso-estado");
      if (!estado) {
        estado = h("span", { class: "bucle-progreso-estado" });
        li.querySelector("p")?.append(" ", estado);
      }
      const { texto, completa } = resumen(leccion, progreso);
      const lectura = leccion.lectura ? PROGRESO.lectura(leccion.lectura) : "";
      estado.textContent = [lectura, texto].filter(Boolean).join(" · ");
      li.classList.toggle("bucle-completa", completa);
      if (completa) estado.textContent += PROGRESO.completada;
    });
  }

  construirAcciones() {
    const archivo = h("input", { type: "file", accept: "application/json,.json", class: "bucle-oculto-visual" });
    archivo.addEventListener("change", () => this.importar(archivo));
    this.aviso = h("p", { class: "bucle-aviso", role: "status" });
    this.append(
      h("div", { class: "bucle-acciones" },
        boton(PROGRESO.exportar, () => this.exportar()),
        h("label", { class: "bucle-boton", text: PROGRESO.importar }, archivo)),
      this.aviso);
  }

  exportar() {
    const blob = new Blob([JSON.stringify(exportar(this.curso), null, 2)], { type: "application/json" });
    const enlace = h("a", { href: URL.createObjectURL(blob), download: `progreso-${this.curso}.json` });
    enlace.click();
    setTimeout(() => URL.revokeObjectURL(enlace.href), 1000);
    this.aviso.textContent = PROGRESO.exportado;
  }

  async importar(input) {
    const archivo = input.files?.[0];
    if (!archivo) return;
    try {
      const n = importar(this.curso, JSON.parse(await archivo.text()));
      this.aviso.textContent = PROGRESO.importado(n);
      this.pintar();
    } catch (error) {
      this.aviso.textContent = PROGRESO.noImportado(error.message);
    } finally {
      input.value = "";
    }
  }
}

customElements.define("bucle-progreso", BucleProgreso);
