// <bucle-progreso>: the course map on the index, with the reader's progress in each lesson and
// a way to take it elsewhere (export / import as a JSON file).
import { progresoDe, exportar, importar } from "./lib/progreso.js";

function datosDe(elemento) {
  return JSON.parse(elemento.querySelector("script.bucle-datos").textContent);
}

function resumen(leccion, progreso) {
  const p = progreso[leccion.pagina] ?? {};
  const partes = [];
  if (leccion.preguntas.length) {
    const bien = leccion.preguntas.filter((id) => p.preguntas?.[id] === true).length;
    partes.push(`${bien} de ${leccion.preguntas.length} preguntas correctas`);
  }
  for (const id of leccion.desafios) {
    const d = p.desafios?.[id];
    if (!d) partes.push("desafío sin intentar");
    else if (d.superadas === d.total) partes.push("desafío superado");
    else partes.push(`desafío: ${d.superadas} de ${d.total} pruebas`);
  }
  const completa =
    leccion.preguntas.every((id) => p.preguntas?.[id] === true) &&
    leccion.desafios.every((id) => p.desafios?.[id] && p.desafios[id].superadas === p.desafios[id].total);
  return { texto: partes.join(" · "), completa: completa && partes.length > 0 };
}

class BucleProgreso extends HTMLElement {
  connectedCallback() {
    if (this.listo) return;
    this.listo = true;
    this.datos = datosDe(this);
    this.curso = this.dataset.curso;
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
        estado = document.createElement("span");
        estado.className = "bucle-progreso-estado";
        li.querySelector("p")?.append(" ", estado);
      }
      const { texto, completa } = resumen(leccion, progreso);
      const lectura = leccion.lectura ? `${leccion.lectura} min de lectura` : "";
      estado.textContent = [lectura, texto].filter(Boolean).join(" · ");
      li.classList.toggle("bucle-completa", completa);
      if (completa) estado.textContent += " · ✔ completada";
    });
  }

  construirAcciones() {
    const acciones = document.createElement("div");
    acciones.className = "bucle-acciones";
    const exportarBoton = document.createElement("button");
    exportarBoton.type = "button";
    exportarBoton.textContent = "Exportar mi progreso";
    exportarBoton.addEventListener("click", () => this.exportar());
    const etiqueta = document.createElement("label");
    etiqueta.className = "bucle-boton";
    etiqueta.textContent = "Importar progreso";
    const archivo = document.createElement("input");
    archivo.type = "file";
    archivo.accept = "application/json,.json";
    archivo.className = "bucle-oculto-visual";
    archivo.addEventListener("change", () => this.importar(archivo));
    etiqueta.append(archivo);
    this.aviso = document.createElement("p");
    this.aviso.className = "bucle-aviso";
    this.aviso.setAttribute("role", "status");
    acciones.append(exportarBoton, etiqueta);
    this.append(acciones, this.aviso);
  }

  exportar() {
    const blob = new Blob([JSON.stringify(exportar(this.curso), null, 2)], { type: "application/json" });
    const enlace = document.createElement("a");
    enlace.href = URL.createObjectURL(blob);
    enlace.download = `progreso-${this.curso}.json`;
    enlace.click();
    setTimeout(() => URL.revokeObjectURL(enlace.href), 1000);
    this.aviso.textContent = "Progreso exportado.";
  }

  async importar(input) {
    const archivo = input.files?.[0];
    if (!archivo) return;
    try {
      const n = importar(this.curso, JSON.parse(await archivo.text()));
      this.aviso.textContent = `Progreso importado (${n} datos). Recarga las lecciones abiertas para verlo.`;
      this.pintar();
    } catch (error) {
      this.aviso.textContent = `No se pudo importar: ${error.message}`;
    } finally {
      input.value = "";
    }
  }
}

customElements.define("bucle-progreso", BucleProgreso);
