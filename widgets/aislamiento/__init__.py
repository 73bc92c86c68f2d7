"""Grading in child processes: what any course built with the extension gets.

The engine (:mod:`widgets.calificador`) grades in the process that calls it, as the page's
worker does. Here, each grading runs in a child Python whose result comes signed through a pipe
of its own, so that code that ends its process (``os._exit``), loops past every clock, floods
its output or crashes becomes a verdict, never the end of the caller:

- :mod:`.aislado`: one submission graded in a child (the parent's side); :mod:`.hijo`, the
  child's side; :mod:`.canal`, the signed channel and the watched child both share;
  :mod:`.textos`, the verdicts of a child that died.
- :mod:`.comprobacion`: a challenge's build-time checks (its reference, starter and known-wrong
  solutions) in a child, and a pool of them: the build, ``python -m widgets comprobar`` and a
  course's own command use it.
- :mod:`.lote`: many submissions (files, folders, the page's exported progress) graded in
  parallel: ``python -m widgets calificar`` (:mod:`widgets.autor.calificar`).

A course is given as a :class:`Curso`: its folders and runtime modules, as its ``conf.py``
sets them (:meth:`Curso.de_conf`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Curso:
    """What grading needs of a course: its challenges folder, its runtime folder and the runtime
    modules in order, and its id (``bucle_curso``: the key of the page's exported progress)."""

    desafios: Path
    runtime: Path
    modulos: tuple[str, ...]
    ident: str = "curso"

    @classmethod
    def de_conf(cls, carpeta: Path) -> Curso:
        """The course whose ``conf.py`` is in ``carpeta``, with the extension's defaults for
        what it does not set (read without starting Sphinx)."""
        from ..ajustes import ajustes_de_conf
        from ..calificador.disco import modulos_de

        carpeta = Path(carpeta).resolve()
        ajustes = ajustes_de_conf(carpeta / "conf.py")
        runtime = carpeta / ajustes["bucle_runtime_dir"]
        modulos = ajustes["bucle_runtime_modulos"]
        return cls(carpeta / ajustes["bucle_desafios_dir"], runtime,
                   tuple(modulos_de(runtime) if modulos is None else modulos),
                   ajustes["bucle_curso"])

    def pedido(self) -> dict:
        """The course as the child reads it (JSON)."""
        return {"desafios": str(self.desafios), "runtime": str(self.runtime),
                "modulos": list(self.modulos)}

    @classmethod
    def del_pedido(cls, pedido: dict) -> Curso:
        return cls(Path(pedido["desafios"]), Path(pedido["runtime"]), tuple(pedido["modulos"]))
