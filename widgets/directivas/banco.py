"""The ``banco`` directive: a bench that measures one or two agents over a task set, N runs per
task (lesson «Medir el agente»).

In a lesson::

    :::{banco}
    :id: banco-ruidoso
    :tareas: tareas_del_banco()
    :variantes: agente, agente_sin_repetir
    :modelos: modelo_ruidoso, modelo_de_la_pagina
    :veces: 20
    :tope: 10
    :limite: 10
    :grabacion: medidas/modelo-real.json
    :::

``:tareas:`` is a Python expression (default ``tareas_del_banco()``) and ``:variantes:`` (one
or two) and ``:modelos:`` (default ``modelo_ruidoso``; the first is the reader's default; with
two or more, the reader may also type the name of a ``hacer_modelo`` of their own) name
functions of the page's cells: the page evaluates and looks them up when the reader presses
«Medir» (``widgets/trabajador/trabajador_banco.py``). ``:veces:`` is the default runs per task
(1 to 1000, 20 if not given), ``:tope:`` is passed to an agent that takes ``tope``, ``:limite:``
is the seconds one run of the reader's agent may take (10; the model's calls do not count).
``:grabacion:`` is a recorded measurement (a JSON file, relative to the lesson; its format is the
export's, see ``trabajador_banco.py``), shown without running: the build checks it, and renders
its summary as tables and a plot that read without JavaScript. A bad option, a missing or
malformed recording fails the build with the lesson's file and line. The node::

    widget(tipo="banco", ident, datos={"tareas", "variantes", "modelos", "veces", "tope",
                                       "limite", "grabacion": {"url", "archivo", "ejecuciones"}
                                                              | None})
      paragraph                  what «Medir» does (textos.banco_descripcion)
      container.bucle-banco-grabada          (with :grabacion:)
        rubric, paragraph        «Medida grabada», with which model, how many runs
        container.bucle-banco-tablas   a banco_tabla per variant, and «Cambiaron» with two
                                       variants (HTML: caption, row headers; other builders: a
                                       paragraph and a docutils table)
        container.bucle-banco-figura   raw SVG (the plot, role="img") + paragraph: the plot in words

The recording, with one line per block of each message (for the page's trace view), is
published as ``_static/bucle/banco/<sha256>.json``; the page fetches it when the reader opens
the recorded runs. ``widgets/front/banco.js`` makes the rest.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from ..ajustes import espacio_del_runtime
from ..base import textos
from ..base.directiva import Directiva, Invalida
from ..base.nodos import nuevo_widget
from ..base.paginas import datos_por_pagina, de_las_paginas
from ..trabajador import trabajador_banco as banco

PUBLICADOS = ("_static", "bucle", "banco")
_NOMBRE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
CLAVES = ("variante", "tarea", "tipo", "pedido", "semilla", "motivo", "turnos", "tokens",
          "segundos", "final", "error", "M")


class Banco(Directiva):
    opciones = {
        "id": directives.unchanged_required,
        "tareas": directives.unchanged_required,
        "variantes": directives.unchanged_required,
        "modelos": directives.unchanged_required,
        "veces": directives.unchanged_required,
        "tope": directives.positive_int,
        "limite": directives.unchanged_required,
        "grabacion": directives.unchanged_required,
    }

    def construir(self) -> list[nodes.Node]:
        tareas = self.options.get("tareas", "tareas_del_banco()").strip()
        try:
            compile(tareas, "<tareas>", "eval")
        except SyntaxError as error:
            raise Invalida(f"«:tareas: {tareas}» no es una expresión de Python ({error.msg}): "
                           "escribe la que da la lista de tareas, como tareas_del_banco()",
                           self.linea_de("tareas")) from None
        if "variantes" not in self.options:
            raise Invalida("falta «:variantes:»: el nombre de uno o dos agentes de las celdas de "
                           "la página, como «:variantes: agente, agente_sin_repetir»")
        variantes = self._nombres("variantes")
        if not 1 <= len(variantes) <= 2:
            raise Invalida(f"«:variantes:» nombra {len(variantes)} agentes, y el banco compara uno "
                           f"o dos: {', '.join(variantes)}", self.linea_de("variantes"))
        modelos = self._nombres("modelos", "modelo_ruidoso")
        datos = {"tareas": tareas, "variantes": variantes, "modelos": modelos,
                 "veces": self._veces(), "tope": self.options.get("tope"),
                 "limite": self._limite(), "grabacion": None}
        grabada = self._grabacion() if "grabacion" in self.options else None
        nodo = nuevo_widget(self, "banco", datos, self.options.get("id", "").strip() or None)
        descripcion = textos.banco_descripcion(variantes, tareas, datos["veces"], modelos,
                                               datos["tope"])
        nodo += nodes.paragraph(descripcion, descripcion, classes=["bucle-banco-descripcion"])
        if grabada:
            nodo += self._grabada(*grabada, nodo["ident"])
            datos["grabacion"] = self._publicar(*grabada)
        return [nodo]

    # ---- the options

    def _nombres(self, opcion: str, defecto: str | None = None) -> list[str]:
        texto = self.options.get(opcion, defecto) or ""
        nombres = [n.strip() for n in texto.split(",")]
        malos = [n for n in nombres if not _NOMBRE.match(n)]
        if malos or not nombres:
            raise Invalida(f"«:{opcion}: {texto}» no vale: escribe nombres de funciones de Python "
                           f"separados por comas (no vale «{malos[0] if malos else texto}»)",
                           self.linea_de(opcion))
        if len(set(nombres)) != len(nombres):
            raise Invalida(f"«:{opcion}: {texto}» repite un nombre", self.linea_de(opcion))
        return nombres

    def _veces(self) -> int:
        texto = self.options.get("veces", "20").strip()
        if not texto.isdigit() or not 1 <= int(texto) <= banco.VECES_MAXIMAS:
            raise Invalida(f"«:veces: {texto}» no vale en {{banco}}: debe ser un número entero de 1 "
                           f"a {banco.VECES_MAXIMAS} (las ejecuciones de cada tarea)",
                           self.linea_de("veces"))
        return int(texto)

    def _limite(self) -> float:
        texto = self.options.get("limite", f"{banco.LIMITE:g}").strip()
        try:
            limite = float(texto.replace(",", "."))
        except ValueError:
            limite = -1
        if not 0 < limite <= 3600:
            raise Invalida(f"«:limite: {texto}» no vale en {{banco}}: son los segundos que puede "
                           "durar una ejecución, un número mayor que 0 (como 10 o 2,5)",
                           self.linea_de("limite"))
        return limite

    # ---- the recording

    def _grabacion(self) -> tuple[dict, str]:
        escrito = self.options["grabacion"].strip()
        _, absoluta = self.env.relfn2path(escrito, self.env.docname)
        ruta = Path(absoluta)
        self.env.note_dependency(str(ruta))
        linea = self.linea_de("grabacion")
        if not ruta.is_file():
            raise Invalida(f"no existe la grabación «{escrito}» (se buscó {ruta}): la ruta es "
                           "relativa a la lección", linea)
        try:
            grabacion = json.loads(ruta.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise Invalida(f"la grabación «{escrito}» no es JSON válido: {error}", linea) from None
        problema = problema_de_la_grabacion(grabacion)
        if problema:
            raise Invalida(f"la grabación «{escrito}» no vale: {problema}", linea)
        return grabacion, escrito

    def _grabada(self, grabacion: dict, archivo: str, ident: str) -> nodes.container:
        resumen = banco.resumir(grabacion["ejecuciones"], grabacion["variantes"])
        vista = banco.vista(resumen)
        caja = nodes.container(classes=["bucle-banco-grabada"])
        titulo = textos.BANCO_GRABADA
        caja += nodes.rubric(titulo, titulo)
        dicho = textos.banco_grabada(grabacion, archivo)
        caja += nodes.paragraph(dicho, dicho, classes=["bucle-banco-pie"])
        tablas = nodes.container(classes=["bucle-banco-tablas"])
        for tabla in vista["tablas"] + ([vista["pareo"]] if vista["pareo"] else []):
            tablas += _tabla(tabla)
        caja += tablas
        texto_id = f"{ident}-grabada-texto"
        figura = nodes.container(classes=["bucle-banco-figura"])
        figura += nodes.raw("", banco.svg(vista["grafico"], textos.BANCO_GRAFICO, texto_id),
                            format="html")
        figura += nodes.paragraph(vista["texto"], vista["texto"], ids=[texto_id],
                                  classes=["bucle-banco-texto"])
        caja += figura
        return caja

    def _publicar(self, grabacion: dict, archivo: str) -> dict:
        """The recording and its trace lines, to publish; what the page needs to fetch it."""
        muestra = espacio_del_runtime(self.env).get("muestra")
        contenido = json.dumps({"grabacion": grabacion,
                                "lineas": [banco.lineas_de(e["M"], muestra)
                                           for e in grabacion["ejecuciones"]]},
                               ensure_ascii=False, separators=(",", ":"))
        nombre = hashlib.sha256(contenido.encode("utf-8")).hexdigest()[:20] + ".json"
        de_las_paginas(self.env, "bucle_banco_publicar").setdefault(self.env.docname, {})[nombre] = contenido
        uri = self.env.app.builder.get_target_uri(self.env.docname)
        return {"url": "../" * uri.count("/") + "/".join(PUBLICADOS) + "/" + nombre,
                "archivo": Path(archivo).name, "ejecuciones": len(grabacion["ejecuciones"])}


class banco_tabla(nodes.General, nodes.Element):
    """One table of the summary (``tabla``: {"titulo", "filas"}). Its children are a plain
    docutils table, for builders other than HTML; HTML writes the table the page writes
    (``piezas/banco-resultados.js``): a caption, row headers, values."""


def _tabla(tabla: dict) -> banco_tabla:
    nodo = banco_tabla(tabla=tabla)
    nodo += nodes.paragraph(tabla["titulo"], tabla["titulo"])
    cuadro = nodes.table()
    grupo = nodes.tgroup(cols=2)
    cuadro += grupo
    grupo += nodes.colspec(colwidth=42, stub=1)
    grupo += nodes.colspec(colwidth=18)
    cuerpo = nodes.tbody()
    for etiqueta, valor in tabla["filas"]:
        fila = nodes.row()
        for texto in (etiqueta, valor):
            fila += nodes.entry("", nodes.paragraph(texto, texto))
        cuerpo += fila
    grupo += cuerpo
    nodo += cuadro
    return nodo


def visit_tabla_html(self, node: banco_tabla) -> None:
    from html import escape

    tabla = node["tabla"]
    filas = "".join(f'<tr><th scope="row">{escape(etiqueta)}</th><td>{escape(valor)}</td></tr>'
                    for etiqueta, valor in tabla["filas"])
    self.body.append(f'<table class="bucle-banco-tabla"><caption>{escape(tabla["titulo"])}'
                     f"</caption><tbody>{filas}</tbody></table>\n")
    raise nodes.SkipNode


def _nada(self, node) -> None:
    pass


def problema_de_la_grabacion(g) -> str | None:
    """What is wrong with a recording (the export's format), in Spanish; None if nothing."""
    if not isinstance(g, dict):
        return "debe ser un objeto JSON"
    faltan = [c for c in ("modelo", "temperatura", "semillas", "tope", "variantes", "tareas",
                          "segundos", "ejecuciones") if c not in g]
    if faltan:
        return "le falta " + ", ".join(f"«{c}»" for c in faltan)
    modelo = g["modelo"]
    if not isinstance(modelo, dict) or not isinstance(modelo.get("nombre"), str) \
            or not isinstance(modelo.get("sha256"), (str, type(None))):
        return "«modelo» debe ser {\"nombre\": texto, \"sha256\": texto}"
    variantes = g["variantes"]
    if not isinstance(variantes, list) or not 1 <= len(variantes) <= 2 \
            or not all(isinstance(v, str) for v in variantes):
        return "«variantes» debe ser una lista de uno o dos nombres"
    tareas = g["tareas"]
    if not isinstance(tareas, list) or not all(isinstance(t, dict) and "pedido" in t for t in tareas):
        return "«tareas» debe ser una lista de {\"tipo\", \"pedido\"}"
    if not isinstance(g["ejecuciones"], list):
        return "«ejecuciones» debe ser una lista"
    for i, e in enumerate(g["ejecuciones"]):
        problema = _problema_de_la_ejecucion(e, variantes, len(tareas))
        if problema:
            return f"la ejecución {i} {problema}"
    return None


def _problema_de_la_ejecucion(e, variantes, tareas) -> str | None:
    if not isinstance(e, dict):
        return "no es un objeto"
    faltan = [c for c in CLAVES if c not in e]
    if faltan:
        return "no tiene " + ", ".join(f"«{c}»" for c in faltan)
    entero = lambda x: isinstance(x, int) and not isinstance(x, bool)  # noqa: E731
    if e["variante"] not in variantes:
        return f"es de «{e['variante']}», que no está en «variantes»"
    if not entero(e["tarea"]) or not 0 <= e["tarea"] < tareas:
        return f"tiene «tarea» {e['tarea']!r}, y hay {tareas} tareas"
    if e["motivo"] not in banco.MOTIVOS:
        return f"tiene «motivo» {e['motivo']!r}: debe ser uno de {', '.join(banco.MOTIVOS)}"
    if not entero(e["semilla"]) or not entero(e["turnos"]) or e["turnos"] < 0:
        return "debe tener «semilla» y «turnos» enteros"
    if not (e["tokens"] is None or entero(e["tokens"])):
        return "debe tener «tokens» entero o null"
    if not isinstance(e["segundos"], (int, float)) or isinstance(e["segundos"], bool):
        return "debe tener «segundos» numérico"
    if not isinstance(e["M"], list) or not all(isinstance(m, list) and len(m) == 2 for m in e["M"]):
        return "debe tener «M», una lista de pares [rol, contenido]"
    return None


def publicar_grabaciones(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    destino = Path(app.outdir).joinpath(*PUBLICADOS)
    for archivos in de_las_paginas(app.env, "bucle_banco_publicar").values():
        for nombre, contenido in archivos.items():
            destino.mkdir(parents=True, exist_ok=True)
            (destino / nombre).write_text(contenido, encoding="utf-8")


def setup_banco(app: Sphinx) -> None:
    app.add_directive("banco", Banco)
    otros = (_nada, _nada)
    app.add_node(banco_tabla, html=(visit_tabla_html, None), latex=otros, text=otros, man=otros,
                 texinfo=otros)
    datos_por_pagina(app, "bucle_banco_publicar")
    app.connect("build-finished", publicar_grabaciones)
