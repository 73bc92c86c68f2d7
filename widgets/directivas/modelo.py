"""The ``modelo`` directive: where the reader chooses to download the course's in-page model.

In a lesson::

    ```{modelo}
    sistema = SISTEMA_AGENTE
    herramientas = HERRAMIENTAS
    ```

The content is optional: Python run with the runtime loaded (as a ``traza``'s), which may define
the start every conversation of the lesson shares, ``sistema`` (the system message, a text) and
``herramientas`` (the tools, as the adapter sends them). As soon as the model is loaded, the page
has it read that start (the in-page server's system prompt, which depends on nothing else), so
that the reader's first turn processes only its own messages.

It renders the download widget (``widgets/front/modelo.js``): a button **Descargar el modelo
(N MB)** with the size of what it fetches (the ONNX model, its tokenizer and onnxruntime's wasm,
from the site), a
sentence saying what it is, then the progress and **Cancelar**, then «Modelo listo». A page that
uses it makes the build publish the model (:mod:`widgets.construccion.modelo_local`). The node::

    widget(tipo="modelo", ident="modelo", datos={"nombre", "licencia",
                                                  "modelo": {"archivo", "bytes", "sha256"},
                                                  "tokenizador": {"archivo", "bytes", "sha256"},
                                                  "wasm": {"archivo", "bytes", "sha256"},
                                                  "ort": onnxruntime's module,
                                                  "forma": {"capas", "cabezas_kv", "tamano",
                                                            "contexto"}, "fin": [token ids],
                                                  "prefijo": {"system", "tools"} | None})
      paragraph       ← what reads without JavaScript

``archivo`` is relative to ``_static/bucle/``; the page checks each file's SHA-256 against the
one written here before it keeps or runs it. The data is written again each time the page is
(``doctree-resolved``), so that a page read by an earlier build names the files this build
publishes (another onnxruntime wasm after ``npm ci``).
"""

from __future__ import annotations

import json

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ..ajustes import espacio_del_runtime
from ..base.directiva import Directiva, Invalida, linea_en
from ..construccion.modelo_local import ErrorDelModelo
from ..construccion.modelo_onnx import datos_del_modelo
from ..base.nodos import nuevo_widget, widget
from ..base.paginas import datos_por_pagina, de_las_paginas


class Modelo(Directiva):
    has_content = True

    def construir(self) -> list[nodes.Node]:
        try:
            datos = datos_del_modelo(self.env.app)
        except ErrorDelModelo as error:
            raise Invalida(str(error)) from None
        datos["prefijo"] = self._prefijo() if self.content else None
        de_las_paginas(self.env, "bucle_modelo_paginas")[self.env.docname] = True
        nodo = nuevo_widget(self, "modelo", datos, "modelo")
        nodo += nodes.paragraph(
            "", f"Aquí se puede descargar un modelo de lenguaje pequeño, {datos['nombre']} "
            f"({datos['licencia']}), para ejecutarlo en este navegador. Hace falta JavaScript.")
        return [nodo]

    def _prefijo(self) -> dict:
        """``sistema`` and ``herramientas`` of the content, as the request's ``system`` and
        ``tools``; what is wrong with them fails the build at its line."""
        nombre = f"<modelo de {self.env.docname}>"
        ns = espacio_del_runtime(self.env)
        try:
            exec(compile("\n".join(self.content), nombre, "exec"), ns)
        except Exception as error:  # noqa: BLE001 - any failure of the author's code is reported
            linea = linea_en(error, nombre)
            mensaje = error.msg if isinstance(error, SyntaxError) else str(error)
            raise Invalida(f"el código del modelo falla: {type(error).__name__}: {mensaje}",
                           self.linea_del_contenido(linea) if linea else None) from None
        sistema, herramientas = ns.get("sistema"), ns.get("herramientas")
        if not isinstance(sistema, str) or not sistema.strip():
            raise Invalida("el código del modelo debe definir sistema, el mensaje de sistema que "
                           "comparten las conversaciones de la lección (un texto), y "
                           + ("no lo define" if sistema is None else
                              f"es {type(sistema).__name__} {sistema!r:.60}"))
        if not isinstance(herramientas, list) or not all(
                isinstance(h, dict) and isinstance(h.get("name"), str)
                and isinstance(h.get("input_schema"), dict) for h in herramientas):
            raise Invalida("el código del modelo debe definir herramientas, la lista de "
                           "herramientas que manda el adaptador (cada una un dict con «name» e "
                           "«input_schema»), y " + ("no la define" if herramientas is None else
                                                   f"es {herramientas!r:.80}"))
        try:
            json.dumps(herramientas)
        except (TypeError, ValueError) as error:
            raise Invalida(f"las herramientas del modelo no se pueden escribir en JSON: {error}") from None
        return {"system": sistema, "tools": herramientas}


def _al_dia(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for nodo in doctree.findall(widget):
        if nodo["tipo"] == "modelo":
            try:
                nodo["datos"] = {**nodo["datos"], **datos_del_modelo(app)}
            except ErrorDelModelo as error:
                raise ExtensionError(f"{docname}: el modelo del curso: {error}") from None


class ServidorPropio(Directiva):
    """``{servidor-propio}``: the control where the reader types and confirms the address of
    their own model server (``widgets/front/servidor-propio.js``); the page's Python reaches it,
    and no other address off the site, through ``trabajador.servidor_propio()``."""

    has_content = False

    def construir(self) -> list[nodes.Node]:
        nodo = nuevo_widget(self, "servidor-propio", {}, "servidor-propio")
        nodo += nodes.paragraph(
            "", "Aquí se puede escribir la dirección de un servidor de modelos propio. Hace "
                "falta JavaScript.")
        return [nodo]


def setup_modelo(app: Sphinx) -> None:
    app.add_directive("modelo", Modelo)
    app.add_directive("servidor-propio", ServidorPropio)
    app.connect("doctree-resolved", _al_dia)
    datos_por_pagina(app, "bucle_modelo_paginas")
