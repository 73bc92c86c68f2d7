"""Questions: the ``pregunta`` directive, its ``explicacion``, and the ``grupo`` that scores them.

What an author writes (MyST; statement, options, feedback and explanation are Markdown)::

    :::::{grupo} Comprueba tu intuición

    ::::{pregunta} ¿Quién decide que el bucle termina en el turno 4?
    :id: quien-termina

    - [x] El modelo, al responder sin llamadas.
      > Exacto: sin `tool_use` no hay nada que ejecutar.
    - [ ] El arnés, porque llegó al tope.
      > No: el tope es 10.

    :::{explicacion}
    Markdown shown once the reader has checked an answer.
    :::
    ::::

    ::::{pregunta} ¿Cuántos mensajes tiene `M` al final?
    :respuesta: 13
    :margen: 0
    ::::
    :::::

Options of ``pregunta``: ``:id:``, ``:tipo:`` (``una`` · ``varias`` · ``numero``; without it a
question with options is ``una`` and one with ``:respuesta:`` is ``numero``), ``:respuesta:`` and
``:margen:`` (numbers; ``2,5`` and ``2.5`` both read). ``grupo`` takes ``:id:`` and a title
(«Comprueba tu intuición» when none is given).

The node tree of a question (children are what reads without JavaScript; no correct answer is
marked in it, and feedback and explanation are ``hidden``)::

    widget(tipo="pregunta", ident, datos={"tipo": "una", "opciones": 2, "correctas": [0]})
    │                              or {"tipo": "numero", "respuesta": 13, "margen": 0}
    ├── paragraph.bucle-pregunta-enunciado       the statement (inline Markdown)
    ├── container.bucle-pregunta-contexto        more statement (code, paragraphs), if any
    ├── paragraph.bucle-pregunta-indicacion      «Marca todas…» (varias) / «Se acepta…» (numero)
    ├── bullet_list.bucle-pregunta-opciones      una / varias only
    │   └── list_item
    │       ├── paragraph.bucle-pregunta-texto   the option, its «[x]»/«[ ]» removed
    │       └── oculto(clase="retro")            its feedback, if any
    └── oculto(clase="explicacion")              the explanation, if any

and of a group: ``widget(tipo="grupo", datos={"preguntas": [ids]})`` holding
``rubric.bucle-grupo-titulo`` and the questions. ``widgets/front/pregunta.js`` turns them into
a fieldset per question with native radios, checkboxes or a text field, and the group's score.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..base import textos
from ..base.directiva import Directiva, Invalida
from ..base.nodos import nuevo_widget, widget
from .preguntas_validacion import (
    comprobar_opciones,
    decidir_tipo,
    es_lista_de_opciones,
    leer_numero,
    leer_opciones,
    numero_legible,
)

_EN_PREGUNTA = "bucle_pregunta_abierta"
_EN_GRUPO = "bucle_grupo_abierto"


class oculto(nodes.General, nodes.Element):
    """Feedback (``clase="retro"``) or explanation (``clase="explicacion"``) of a question:
    a ``hidden`` div in HTML, revealed by the front end once the reader checks an answer;
    left out by other builders, which cannot check anything."""


def visit_oculto_html(self, node: oculto) -> None:
    self.body.append(self.starttag(node, "div", "", CLASS=f"bucle-pregunta-{node['clase']}",
                                   hidden="hidden"))


def depart_oculto_html(self, node: oculto) -> None:
    self.body.append("</div>\n")


def saltar(self, node: oculto) -> None:
    raise nodes.SkipNode


def nada(self, node: oculto) -> None:
    pass


class Explicacion(Directiva):
    """``{explicacion}`` inside a question: Markdown shown once the reader has answered."""

    has_content = True

    def construir(self):
        if not self.env.temp_data.get(_EN_PREGUNTA):
            raise Invalida("«{explicacion}» solo puede ir dentro de una «{pregunta}»")
        if not "".join(self.content).strip():
            raise Invalida("la explicación está vacía: escribe dentro lo que verá el lector al responder")
        nodo = oculto(clase="explicacion")
        self.set_source_info(nodo)
        nodo += self.parse_content_to_nodes()
        return [nodo]


class Pregunta(Directiva):
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    opciones = {
        "id": directives.unchanged,
        "tipo": directives.unchanged,
        "respuesta": directives.unchanged,
        "margen": directives.unchanged,
    }

    def construir(self):
        if self.env.temp_data.get(_EN_PREGUNTA):
            raise Invalida("una «{pregunta}» no puede ir dentro de otra")
        enunciado = (self.arguments[0] if self.arguments else "").strip()
        if not enunciado:
            raise Invalida("la pregunta no tiene enunciado: escríbelo en la misma línea, tras «{pregunta}»")
        en_linea, mensajes = self.parse_inline(enunciado, lineno=self.lineno)
        contexto, lista, explicacion = self.repartir(self.contenido_dentro(_EN_PREGUNTA))

        opciones = leer_opciones(lista) if lista is not None else None
        tipo = decidir_tipo(self.options.get("tipo"), opciones, "respuesta" in self.options,
                            self.linea_de("tipo"), self.lineno)
        if tipo == "numero":
            datos, indicacion = self.numero(lista)
        else:
            for nombre in ("respuesta", "margen"):
                if nombre in self.options:
                    raise Invalida(f"«:{nombre}:» solo vale en preguntas de número («:tipo: numero»)",
                                   self.linea_de(nombre))
            comprobar_opciones(tipo, opciones, self.lineno)
            datos = {"tipo": tipo, "opciones": len(opciones),
                     "correctas": [i for i, o in enumerate(opciones) if o.correcta]}
            indicacion = textos.INDICACION_VARIAS if tipo == "varias" else None

        nodo = nuevo_widget(self, "pregunta", datos, self.options.get("id"))
        nodo += nodes.paragraph("", "", *en_linea, classes=["bucle-pregunta-enunciado"])
        nodo += mensajes
        if contexto:
            nodo += nodes.container("", *contexto, classes=["bucle-pregunta-contexto"])
        if indicacion:
            nodo += nodes.paragraph("", indicacion, classes=["bucle-pregunta-indicacion"])
        if opciones:
            lista_nueva = nodes.bullet_list(bullet="-", classes=["bucle-pregunta-opciones"])
            for opcion in opciones:
                # a class keeps the <p> even in a compact list, so the front end finds the text
                opcion.texto["classes"] = ["bucle-pregunta-texto"]
                item = nodes.list_item("", opcion.texto)
                if opcion.retro:
                    item += oculto("", *opcion.retro, clase="retro")
                lista_nueva += item
            nodo += lista_nueva
        if explicacion is not None:
            nodo += explicacion
        return [nodo]

    def repartir(self, contenido):
        """Split the content into more statement, the options list and the explanation."""
        contexto, lista, explicacion = [], None, None
        for hijo in contenido:
            if isinstance(hijo, oculto):
                if explicacion is not None:
                    raise Invalida("una pregunta lleva una sola «{explicacion}»", hijo.line)
                explicacion = hijo
            elif es_lista_de_opciones(hijo):
                if lista is not None:
                    raise Invalida("las opciones van en una sola lista, sin líneas en blanco "
                                   "ni texto entre ellas", hijo.line)
                lista = hijo
            elif isinstance(hijo, nodes.system_message):
                contexto.append(hijo)
            elif lista is not None:
                if isinstance(hijo, nodes.block_quote):
                    raise Invalida("el comentario de una opción va sangrado bajo ella, con dos "
                                   "espacios: «  > …»", hijo.line)
                raise Invalida("tras las opciones solo puede ir la «{explicacion}»: el resto "
                               "del enunciado va antes de la lista", hijo.line)
            else:
                contexto.append(hijo)
        return contexto, lista, explicacion

    def numero(self, lista):
        if lista is not None:
            raise Invalida("una pregunta de número no lleva opciones: quita la lista «- [x] …» "
                           "o cambia «:tipo:»", lista.line)
        if not (self.options.get("respuesta") or "").strip():
            raise Invalida("a una pregunta de número le falta «:respuesta:», el valor correcto",
                           self.linea_de("respuesta"))
        respuesta = leer_numero(self.options["respuesta"], "respuesta",
                                self.linea_de("respuesta"))
        linea_margen = self.linea_de("margen")
        margen = leer_numero(self.options.get("margen") or "0", "margen", linea_margen)
        if margen < 0:
            raise Invalida(f"«:margen:» no puede ser negativo ({numero_legible(margen)}): es "
                           "cuánto puede alejarse una respuesta aceptada, 0 o más", linea_margen)
        datos = {"tipo": "numero", "respuesta": respuesta, "margen": margen}
        return datos, textos.indicacion_margen(numero_legible(margen))


class Grupo(Directiva):
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    opciones = {"id": directives.unchanged}

    def construir(self):
        if self.env.temp_data.get(_EN_GRUPO) or self.env.temp_data.get(_EN_PREGUNTA):
            raise Invalida("un «{grupo}» no puede ir dentro de otro ni de una pregunta")
        titulo = (self.arguments[0] if self.arguments else "").strip() or textos.TITULO_DEL_GRUPO
        en_linea, mensajes = self.parse_inline(titulo, lineno=self.lineno)
        nodo = nuevo_widget(self, "grupo", {}, self.options.get("id"))
        contenido = self.contenido_dentro(_EN_GRUPO)
        preguntas = [n["ident"] for hijo in contenido for n in hijo.findall(widget)
                     if n["tipo"] == "pregunta"]
        fallidas = any(isinstance(n, nodes.system_message) for hijo in contenido
                       for n in hijo.findall(nodes.system_message))
        if not preguntas and not fallidas:
            raise Invalida("el grupo no tiene preguntas: escribe dentro una o más «{pregunta}»")
        nodo["datos"] = {"preguntas": preguntas}
        nodo += nodes.rubric("", "", *en_linea, classes=["bucle-grupo-titulo"])
        nodo += mensajes
        nodo += contenido
        return [nodo]


def setup_pregunta(app: Sphinx) -> None:
    otros = (saltar, nada)
    app.add_node(oculto, html=(visit_oculto_html, depart_oculto_html),
                 latex=otros, text=otros, man=otros, texinfo=otros)
    app.add_directive("pregunta", Pregunta)
    app.add_directive("explicacion", Explicacion)
    app.add_directive("grupo", Grupo)
