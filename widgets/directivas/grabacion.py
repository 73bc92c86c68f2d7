"""The ``grabacion`` directive: a run of the agent on the real model, as it was recorded.

An author writes::

    ```{grabacion}
    grabacion = GRABACION
    ```

The content is Python, run at build time with the runtime modules loaded (as a ``traza``'s). It
must define ``grabacion``, a recording as ``bench/grabar.py`` writes it
(``runtime/grabacion.py``)::

    {"modelo": {"archivo", "sha256", "temperatura", "max_tokens", "n_ctx"},
     "navegador": str, "fecha": str, "sistema": str, "pedido": str,
     "turnos": [{"segundos", "tokens_entrada", "tokens_reusados", "tokens_salida",
                 "respuesta": [bloque, …]}, …],
     "final": {"como": "fin" | "tope", "texto": str | None},
     "mensajes": [[rol, contenido], …],
     "permite": bool, "entorno": {ruta: texto}}   (the last two optional: whether the user
                                                   allowed writes, the files at the end)

The build checks that the recording is of the model the build publishes: its ``sha256`` must be
that GGUF's, pinned in ``bucle_modelo_fijado`` (:mod:`widgets.construccion.modelo_local`). When the pin moves and
the recording does not, the build fails at the directive's line and says how to record again.

It renders a table, one row per turn: seconds, the input tokens the model processed anew and
those it reused from the previous turn's prompt, the output tokens, and what the model answered
(one ``muestra`` line per block); then how the run ended and its final text, whole. Plain
docutils: it reads without JavaScript.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ..ajustes import espacio_del_runtime
from ..base.directiva import Directiva, Invalida
from ..construccion.modelo_local import ErrorDelModelo, fijado, ruta_fijado

COLUMNAS = ("Turno", "Segundos", "Tokens nuevos", "Reusados", "Salida", "Lo que respondió el modelo")
ANCHOS = (6, 9, 9, 9, 7, 60)
CLAVES = ("archivo", "sha256", "temperatura", "max_tokens")


class Grabacion(Directiva):
    has_content = True

    def construir(self) -> list[nodes.Node]:
        ns = self._ejecutar()
        grabacion = ns.get("grabacion")
        if not isinstance(grabacion, dict) or not isinstance(grabacion.get("turnos"), list):
            raise Invalida("el código de la grabación debe definir grabacion, un dict con sus "
                           "«turnos» (lo que escribe bench/grabar.py)")
        self._comprobar_modelo(grabacion)
        muestra = ns["muestra"]
        tabla = nodes.table(classes=["bucle-grabacion"])
        grupo = nodes.tgroup(cols=len(COLUMNAS))
        tabla += grupo
        for ancho in ANCHOS:
            grupo += nodes.colspec(colwidth=ancho)
        cabecera = nodes.thead()
        cabecera += _fila(COLUMNAS)
        grupo += cabecera
        cuerpo = nodes.tbody()
        for numero, turno in enumerate(grabacion["turnos"], start=1):
            lineas = [muestra(b) for b in turno["respuesta"]] or ["(nada)"]
            cuerpo += _fila((str(numero), f"{turno['segundos']:.1f}".replace(".", ","),
                             str(turno["tokens_entrada"]), str(turno["tokens_reusados"]),
                             str(turno["tokens_salida"]), lineas))
        grupo += cuerpo
        final = grabacion.get("final") or {}
        if final.get("como") == "fin":
            dicho = f"Terminó con «fin», y su texto final fue: «{final.get('texto') or ''}»"
        else:
            dicho = f"Terminó con «{final.get('como')}», sin texto final"
        termino = nodes.paragraph("", dicho + ".", classes=["bucle-grabacion-final"])
        modelo = grabacion["modelo"]
        pie = nodes.paragraph(
            "", f"Grabado el {grabacion['fecha']} con {modelo['archivo']} (SHA-256 "
                f"{modelo['sha256'][:12]}…), a temperatura {modelo['temperatura']} y con "
                f"max_tokens={modelo['max_tokens']}, en {grabacion['navegador']}.",
            classes=["bucle-grabacion-pie"])
        return [tabla, termino, pie]

    def _ejecutar(self) -> dict:
        ns = espacio_del_runtime(self.env)
        try:
            exec(compile("\n".join(self.content), f"<grabación de {self.env.docname}>", "exec"), ns)
        except Exception as error:  # noqa: BLE001 - any failure of the author's code is reported
            raise Invalida(f"el código de la grabación falla: {type(error).__name__}: {error}") from None
        return ns

    def _comprobar_modelo(self, grabacion: dict) -> None:
        modelo = grabacion.get("modelo")
        if not isinstance(modelo, dict) or any(c not in modelo for c in CLAVES):
            raise Invalida("la grabación no dice con qué modelo se hizo: le falta «modelo» con "
                           + ", ".join(CLAVES))
        app = self.env.app
        try:
            pin = fijado(ruta_fijado(app))
        except ErrorDelModelo as error:
            raise Invalida(str(error)) from None
        self.env.note_dependency(str(ruta_fijado(app)))
        if modelo["sha256"] != pin.publicado_sha256:
            raise Invalida(
                f"la grabación es de un modelo con SHA-256 {modelo['sha256']}, y el modelo fijado "
                f"({ruta_fijado(app).name}) tiene {pin.publicado_sha256}: vuelve a grabarla con el modelo "
                "fijado, para que la lección enseñe lo que hace este modelo")


def _fila(celdas) -> nodes.row:
    fila = nodes.row()
    for celda in celdas:
        entrada = nodes.entry()
        for linea in ([celda] if isinstance(celda, str) else celda):
            if isinstance(celda, str):
                entrada += nodes.paragraph("", linea)
            else:
                parrafo = nodes.paragraph()
                parrafo += nodes.literal(linea, linea)
                entrada += parrafo
        fila += entrada
    return fila


def setup_grabacion(app: Sphinx) -> None:
    app.add_directive("grabacion", Grabacion)
