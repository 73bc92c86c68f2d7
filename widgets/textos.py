"""What the Python side writes for the reader into the pages, in Spanish, in one place.

The author-facing messages (build errors) stay next to the check that raises them; the front
end's strings live in its own modules (``widgets/front/``); the theme's strings that no
catalogue translates are in :mod:`widgets.traducir`. Everything a reader of a built page sees
or hears that the directives write is here.
"""

from __future__ import annotations

# -- questions (widgets.pregunta) -----------------------------------------------------------------

#: The title of a ``grupo`` whose author gave none.
TITULO_DEL_GRUPO = "Comprueba tu intuición"
#: Under a several-answers question.
INDICACION_VARIAS = "Marca todas las opciones correctas. Se corrige todo o nada."


def indicacion_margen(margen: str) -> str:
    """Under a number question; ``margen`` as a Spanish reader writes it (``2,5``)."""
    return f"Se acepta un margen de ±{margen}."


# -- reading time (widgets.lectura) ---------------------------------------------------------------

def lectura(minutos: int) -> str:
    """Under a lesson's title."""
    return "Lectura: 1 minuto" if minutos == 1 else f"Lectura: unos {minutos} minutos"


# -- traces (widgets.traza) -----------------------------------------------------------------------

#: The title of a ``traza`` whose author gave none.
TITULO_DE_LA_TRAZA = "El bucle, paso a paso"


def final_de_la_traza(tope: int, motivo, mensajes: int) -> str:
    """What reads without JavaScript above the final M of a trace."""
    return (f"Al final, con tope {tope}, el bucle devuelve «{motivo}» "
            f"y M tiene {mensajes} {'mensaje' if mensajes == 1 else 'mensajes'}:")


# -- notebooks (widgets.jupyterlite) --------------------------------------------------------------

#: The link under the title of a lesson with cells.
ABRIR_EN_JUPYTERLITE = "Abrir en JupyterLite"
#: The few words JupyterLite's pages say before its (translated) interface starts.
JUPYTERLITE_EN_ESPANOL = {
    "<html>": '<html lang="es">',
    "Loading JupyterLite...": "Cargando JupyterLite…",
    "JupyterLite requires JavaScript to be enabled in your browser.":
        "JupyterLite necesita que JavaScript esté activado en el navegador.",
}
