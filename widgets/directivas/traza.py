"""The `traza` directive: an agent loop over a scripted conversation, step by step.

An author writes::

    ```{traza}
    :tope: 10
    :id: el-bucle
    :titulo: El bucle, paso a paso
    inicio = INICIO_BUCLE
    guion = guion_bucle()
    ```

The content is Python, run at build time in a fresh namespace with the runtime modules loaded
(``bucle_runtime_modulos`` of ``bucle_runtime_dir``, as a page loads them). It must define
``inicio`` (the start messages) and either ``guion`` (the script of ``ModeloGuionizado``) or
``nuevo_modelo``, a function without arguments that returns a new model (for example a seeded
``ModeloRuidoso``: any model the runtime can make the same way each time); it may define
``entorno`` (default: ``dict(ENTORNO)``; or a folder, ``carpeta_de({ruta: texto})``, with
``FUNCIONES = FUNCIONES_DE_FICHEROS`` and ``HERRAMIENTAS = HERRAMIENTAS_DE_FICHEROS``: each cap
runs on a copy of it, and each step shows what changed in its files) and ``preguntar``, the user of «Pedir permiso»
(``preguntar = Respuestas(["sí", "no"])``): then the loop is called with it, a fresh copy per
cap, as ``bucle(modelo, inicio, entorno, tope, preguntar)``, and each question is a step of the
trace. ``:tope:`` is the maximum of the page's cap control.

The build runs the reference loop, the ``bucle`` of the ``solucion.py`` of the challenge named
by ``:bucle:`` or by the setting ``bucle_referencia`` (in ``bucle_desafios_dir``), with
``ModeloGuionizado(guion)`` once per cap from 1 to ``tope``, records each run with
``widgets.calificador.trazas`` (whose docstring is the trace format), and embeds them all; the
page steps through them with no Python. ``:ejecutar:`` names a challenge whose reference
``ejecutar`` the loop uses instead. A reference runs in the build's process only once its
challenge's checks, run in a child (:mod:`widgets.base.comprobaciones`), found nothing wrong
with it: one that ends its process or loops fails the build with its file. A scenario the
model rejects fails the build at the directive's line, with the model's complaint. Each cap's
trace also gets the questions of predict mode (``widgets.directivas.predice``), unless the author
writes ``:predice: no``.

Node tree (the children are what reads without JavaScript: the final M of the largest cap)::

    widget(tipo="traza", ident, datos={"titulo", "tope", "trazas": {"1": traza, …},
                                       "predicciones": {"1": [pregunta, …], …}})
      rubric            titulo
      paragraph         "Al final, con tope 10, el bucle devuelve «fin» y M tiene 9 mensajes:"
      enumerated_list   start=0, one item per message of M
        list_item
          paragraph       strong(rol)
          bullet_list     one item per block: paragraph > literal(muestra line)
"""

from __future__ import annotations

import copy
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..base import comprobaciones, textos
from ..ajustes import espacio_del_runtime, ruta
from ..calificador.trazas import trazar
from ..base.directiva import Directiva, Invalida, linea_en
from ..base.nodos import nuevo_widget
from ..base.opciones import si_o_no
from .predice import preguntas

TOPE_MAXIMO = 50


class Traza(Directiva):
    has_content = True
    opciones = {
        "tope": directives.unchanged_required,
        "id": directives.unchanged_required,
        "titulo": directives.unchanged_required,
        # A challenge id: the loop is the `bucle` of its reference solution (default: the
        # setting bucle_referencia).
        "bucle": directives.unchanged_required,
        # A challenge id: the loop runs with the `ejecutar` of that challenge's reference
        # solution (for lessons where `ejecutar` is what changes).
        "ejecutar": directives.unchanged_required,
        # «no»: no «Predice» button (predict mode, widgets/directivas/predice.py) for this trace.
        "predice": si_o_no,
    }

    def construir(self) -> list[nodes.Node]:
        tope = self._tope()
        ns = self._escenario()
        trazas = {str(c): self._trazar(ns, c) for c in range(1, tope + 1)}
        titulo = self.options.get("titulo", textos.TITULO_DE_LA_TRAZA)
        datos = {"titulo": titulo, "tope": tope, "trazas": trazas}
        if self.options.get("predice", True):
            datos["predicciones"] = {c: preguntas(traza) for c, traza in trazas.items()}
        nodo = nuevo_widget(self, "traza", datos, self.options.get("id"))
        nodo += nodes.rubric(titulo, titulo)
        nodo += self._final_legible(trazas[str(tope)], tope)
        return [nodo]

    def _tope(self) -> int:
        texto = self.options.get("tope", "10").strip()
        if not texto.isdigit() or not 1 <= int(texto) <= TOPE_MAXIMO:
            raise Invalida(f"«:tope: {texto}» no vale: el tope debe ser un número entero "
                           f"de 1 a {TOPE_MAXIMO}")
        return int(texto)

    def _escenario(self) -> dict:
        """Run the author's code in a fresh namespace with the runtime loaded; check it."""
        ns = espacio_del_runtime(self.env)
        codigo = "\n".join(self.content)
        nombre = f"<traza de {self.env.docname}>"
        try:
            exec(compile(codigo, nombre, "exec"), ns)
        except Exception as error:  # noqa: BLE001 - any failure of the author's code is reported
            linea = linea_en(error, nombre)
            donde = ""
            if linea:
                donde = f" en su línea {linea} (línea {self.linea_del_contenido(linea)} del archivo)"
            mensaje = error.msg if isinstance(error, SyntaxError) else str(error)
            raise Invalida(f"el código de la traza falla{donde}: "
                           f"{type(error).__name__}: {mensaje}") from None
        faltan = [f"{n} ({que})" for n, que in (("inicio", "los mensajes iniciales"),
                                                 ("guion", "el guion del modelo")) if n not in ns]
        if "nuevo_modelo" in ns and "guion" not in ns:
            faltan = [f for f in faltan if not f.startswith("guion")]
            self._prueba_nuevo_modelo(ns["nuevo_modelo"])
        if faltan:
            raise Invalida("el código de la traza debe definir " + " y ".join(faltan))
        ns.setdefault("entorno", dict(ns["ENTORNO"]))
        if not isinstance(ns["entorno"], dict) and not callable(getattr(ns["entorno"], "ficheros", None)):
            raise Invalida(f"entorno debe ser un diccionario ruta → texto o una carpeta "
                           f"(carpeta_de({{ruta: texto}})), y es {type(ns['entorno']).__name__}")
        if "preguntar" in ns and not callable(ns["preguntar"]):
            raise Invalida(f"preguntar debe ser el usuario que responde, una función "
                           f"preguntar(ll) -> bool como Respuestas([\"sí\", \"no\"]), y es "
                           f"{type(ns['preguntar']).__name__} {ns['preguntar']!r}")
        # The author's user, before a reference solution can define anything in ns.
        ns["__preguntar__"] = ns.get("preguntar")
        # The reference loop, read from the challenge; it replaces any `bucle` of the author's.
        if "bucle" in self.options:
            desafio = self.options["bucle"].strip()
            ns["bucle"] = self._de_la_solucion(desafio, "bucle", f"«:bucle: {desafio}»", ns)
        elif self.config.bucle_referencia:
            desafio = self.config.bucle_referencia
            ns["bucle"] = self._de_la_solucion(desafio, "bucle",
                                               f"«bucle_referencia = {desafio!r}»", ns)
        else:
            raise Invalida("falta el bucle de referencia: pon «:bucle: <id de un desafío>» en "
                           "la traza o bucle_referencia = \"<id>\" en conf.py")
        if "ejecutar" in self.options:
            # Its globals are a copy of `ns` holding the same FUNCIONES dict, which the
            # recorder patches: its tool calls are recorded like the reference's.
            desafio = self.options["ejecutar"].strip()
            ns["ejecutar"] = self._de_la_solucion(desafio, "ejecutar", f"«:ejecutar: {desafio}»",
                                                  dict(ns))
        return ns

    def _prueba_nuevo_modelo(self, nuevo_modelo) -> None:
        """``nuevo_modelo()`` must give a model: a callable made anew on each call."""
        que = "nuevo_modelo debe ser una función sin argumentos que da un modelo nuevo"
        try:
            modelo = nuevo_modelo()
        except Exception as error:  # noqa: BLE001 - reported to the author
            raise Invalida(f"{que}, y nuevo_modelo() falla: {type(error).__name__}: {error}") from None
        if not callable(modelo):
            raise Invalida(f"{que}, y nuevo_modelo() da {type(modelo).__name__}, que no es un "
                           f"modelo: modelo(M, herramientas) -> bloques")

    def _de_la_solucion(self, desafio: str, nombre: str, donde: str, ns: dict):
        """Function ``nombre`` of challenge ``desafio``'s reference solution, executed in
        ``ns``; ``donde`` names, in an error, what asked for it."""
        solucion = ruta(self.env.app, "bucle_desafios_dir") / desafio / "solucion.py"
        if not solucion.is_file():
            raise Invalida(f"{donde}: no existe el desafío «{desafio}» (se buscó {solucion})")
        self.env.note_dependency(str(solucion))
        app = self.env.app
        hecho = comprobaciones.comprobar(app, comprobaciones.curso(app), desafio)
        suyos = [problema for archivo, problema in hecho.problemas if Path(archivo) == solucion]
        if suyos:  # checked in a child first: it may end its process, loop or crash
            raise Invalida(f"{donde}: su solución no pasa sus comprobaciones; "
                           f"{solucion.name}: {suyos[0]}")
        exec(compile(solucion.read_text(encoding="utf-8"), str(solucion), "exec"), ns)
        if not callable(ns.get(nombre)):
            raise Invalida(f"{donde}: su solución no define {nombre}")
        return ns[nombre]

    def _trazar(self, ns: dict, tope: int) -> dict:
        try:
            modelo = (ns["ModeloGuionizado"](ns["guion"]) if "guion" in ns
                      else ns["nuevo_modelo"]())
        except Exception as error:  # noqa: BLE001
            que = "el guion no vale" if "guion" in ns else "nuevo_modelo() falla"
            raise Invalida(f"{que}: {type(error).__name__}: {error}") from None
        preguntar = ns.get("__preguntar__")
        traza = trazar(
            ns["bucle"], modelo, copy.deepcopy(ns["inicio"]), copy.deepcopy(ns["entorno"]), tope,
            funciones=ns["FUNCIONES"], muestra=ns["muestra"],
            preguntar=None if preguntar is None else copy.deepcopy(preguntar),
            pregunta=ns.get("pregunta"),
        )
        final = traza["eventos"][-1]
        usuario = next((e for e in traza["eventos"] if e["tipo"] == "permiso" and "error" in e),
                       None)
        if final["tipo"] == "excepcion" and usuario is not None:
            raise Invalida(f"con tope {tope}, el usuario de la traza (preguntar) no puede "
                           f"responder a {usuario['linea']} ({usuario['error']['clase']}):\n"
                           f"{usuario['error']['mensaje']}")
        if final["tipo"] == "excepcion":
            raise Invalida(f"con tope {tope}, el bucle de referencia no puede seguir el guion; "
                           f"el modelo guionizado se queja ({final['clase']}):\n"
                           f"{final['mensaje']}")
        if final["tipo"] != "devuelve":
            raise Invalida(f"con tope {tope}, la traza del bucle de referencia es demasiado larga")
        return traza

    def _final_legible(self, traza: dict, tope: int) -> list[nodes.Node]:
        final = traza["eventos"][-1]
        M = final["M"] or []
        resumen = textos.final_de_la_traza(tope, final["motivo"], len(M))
        lista = nodes.enumerated_list(enumtype="arabic", start=0, classes=["bucle-traza-final"])
        for indice in M:
            mensaje = traza["mensajes"][indice]
            item = nodes.list_item()
            item += nodes.paragraph("", "", nodes.strong(mensaje["rol"] or "", mensaje["rol"] or "?"))
            bloques = nodes.bullet_list()
            for linea in mensaje["lineas"]:
                bloques += nodes.list_item("", nodes.paragraph("", "", nodes.literal(linea, linea)))
            item += bloques
            lista += item
        return [nodes.paragraph(resumen, resumen), lista]


def setup_traza(app: Sphinx) -> None:
    app.add_directive("traza", Traza)
