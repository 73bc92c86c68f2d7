"""The one registrar: wires every part of the extension into Sphinx, in this order.

Settings first (:mod:`widgets.ajustes`) and the npm packages the build needs
(:mod:`widgets.construccion.paquetes_npm`), then the node every widget is (:mod:`widgets.base`), one
module per directive (:mod:`widgets.directivas`), then the build steps that are not directives
(:mod:`widgets.construccion`): the reading time, the in-page model, each page's assets, the
strict-CSP pass, the theme in Spanish, the offline site, and what is copied into it. Every
component exposes ``setup_<componente>(app)`` and imports only shared modules, never this one.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .ajustes import setup_ajustes
from .base.nodos import setup_nodos
from .construccion.csp import setup_csp
from .construccion.lectura import setup_lectura
from .construccion.modelo_onnx import setup_modelo_publicado
from .construccion.paquetes_npm import setup_paquetes_npm
from .construccion.publicar import setup_publicar
from .construccion.recursos import setup_recursos
from .construccion.sin_conexion import setup_sin_conexion
from .construccion.traducir import setup_traducir
from .directivas.banco import setup_banco
from .directivas.celda import setup_celda
from .directivas.desafio import setup_desafio
from .directivas.grabacion import setup_grabacion
from .directivas.modelo import setup_modelo
from .directivas.pregunta import setup_pregunta
from .directivas.progreso import setup_progreso
from .directivas.traza import setup_traza

#: In the order they are set up (the order of handlers of one event with one priority).
COMPONENTES = (setup_ajustes, setup_paquetes_npm, setup_nodos, setup_celda, setup_traza, setup_pregunta,
               setup_desafio, setup_banco, setup_progreso, setup_lectura, setup_modelo,
               setup_modelo_publicado, setup_grabacion, setup_recursos, setup_csp, setup_traducir,
               setup_sin_conexion, setup_publicar)


def setup_extension(app: Sphinx) -> dict:
    for setup_componente in COMPONENTES:
        setup_componente(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
