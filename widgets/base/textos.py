"""What the Python side writes for the reader into the pages, in Spanish, in one place.

The author-facing messages (build errors) stay next to the check that raises them; the front
end's strings live in its own modules (``widgets/front/``); the theme's strings that no
catalogue translates are in :mod:`widgets.construccion.traducir`. Everything a reader of a built page sees
or hears that the directives write is here.
"""

from __future__ import annotations

# -- questions (widgets.directivas.pregunta) -----------------------------------------------------------------

#: The title of a ``grupo`` whose author gave none.
TITULO_DEL_GRUPO = "Comprueba tu intuición"
#: Under a several-answers question.
INDICACION_VARIAS = "Marca todas las opciones correctas. Se corrige todo o nada."


def indicacion_margen(margen: str) -> str:
    """Under a number question; ``margen`` as a Spanish reader writes it (``2,5``)."""
    return f"Se acepta un margen de ±{margen}."


# -- reading time (widgets.construccion.lectura) ---------------------------------------------------------------

def lectura(minutos: int) -> str:
    """Under a lesson's title."""
    return "Lectura: 1 minuto" if minutos == 1 else f"Lectura: unos {minutos} minutos"


# -- traces (widgets.directivas.traza) -----------------------------------------------------------------------

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


# -- predict mode of a trace (widgets.directivas.predice) ----------------------------------------------------
# Each question: its statement, its options, and one sentence saying why, in the loop's rules.

def _mensajes(n: int) -> str:
    return "1 mensaje" if n == 1 else f"{n} mensajes"


def _ids(ids: list[str]) -> str:
    return ", ".join(ids)


_ORDINALES = ["primera", "segunda", "tercera", "cuarta", "quinta", "sexta", "séptima", "octava",
              "novena", "décima"]


def _llamada_numero(n: int) -> str:
    """«una cuarta» for the 4th model call (a number past the tenth)."""
    return f"una {_ORDINALES[n - 1]}" if n <= len(_ORDINALES) else f"una llamada número {n}"


def predice_recibe(turno: int) -> str:
    return f"¿Cuántos mensajes recibe el modelo en su llamada del turno {turno}?"


def predice_recibe_porque(n: int, antes: int | None) -> str:
    if antes is not None:
        return (f"El modelo recibe M entera, no solo lo nuevo: los {_mensajes(antes)} de la llamada "
                f"anterior, su respuesta y el mensaje con las observaciones, {n} en total.")
    return f"El modelo recibe M entera, tal como está en este momento: {_mensajes(n)}."


def predice_sigue(turno: int, tope: int) -> str:
    return (f"El modelo ha respondido en el turno {turno}, con un tope de {tope}. "
            "¿Qué hace ahora el bucle?")


#: The options of «¿Qué hace ahora el bucle?», in this order, by what the loop does.
PREDICE_SIGUE_OPCIONES = {
    "sigue": "Ejecuta sus llamadas, añade las observaciones y vuelve a llamar al modelo",
    "tope": 'Ejecuta sus llamadas, añade las observaciones y devuelve ("tope", None, M)',
    "tope_sin": 'Devuelve ("tope", None, M) sin ejecutar sus llamadas',
    "fin": 'Devuelve ("fin", texto, M) con el texto de la respuesta',
}


def predice_sigue_porque(que: str, turno: int, tope: int, ids: list[str]) -> str:
    if que == "fin":
        return ("La respuesta no pide ninguna herramienta: el modelo ha terminado, y el bucle "
                'devuelve ("fin", texto, M) con su texto.')
    if que == "sigue":
        van = "va 1" if turno == 1 else f"van {turno}"
        return (f"La respuesta pide herramientas ({_ids(ids)}) y {van} de {tope} llamadas al "
                "modelo: el bucle las ejecuta, añade sus resultados a M y vuelve a llamarlo.")
    return (f"El tope cuenta llamadas al modelo: con {tope}, no hay {_llamada_numero(tope + 1)}; "
            f"pero la respuesta pide herramientas ({_ids(ids)}), y el bucle las ejecuta y añade "
            'sus resultados antes de devolver ("tope", None, M).')


def predice_crece(llamadas: int) -> str:
    cuantas = "una llamada" if llamadas == 1 else f"{llamadas} llamadas"
    return (f"La respuesta tiene {cuantas}. Al añadir sus resultados, "
            "¿en cuántos mensajes crece M?")


def predice_crece_porque(llamadas: int) -> str:
    if llamadas == 1:
        return ("El resultado va en un mensaje del usuario, con el id de su llamada: M crece en uno, "
                "sean cuantas sean las llamadas.")
    return (f"Los {llamadas} resultados van juntos en un solo mensaje del usuario: M crece en "
            "uno, sean cuantas sean las llamadas.")


PREDICE_CAMBIA = "Al ejecutar las llamadas de esta respuesta, ¿qué fichero del entorno cambia?"
PREDICE_NINGUNO = "Ninguno"

#: What a call did to the one file it changed.
PREDICE_HACE = {"crea": "lo crea", "borra": "lo borra", "escribe": "lo escribe"}


def predice_cambia_porque(ruta: str | None, quien: str | None, hace: str | None,
                          motivos: list[str]) -> str:
    if ruta is not None:
        return (f"Cambia {ruta}: la llamada {quien} {PREDICE_HACE[hace]}; el entorno solo cambia "
                "cuando una llamada se ejecuta y escribe en él.")
    return (f"Ningún fichero: {', '.join(motivos)}; el entorno solo cambia cuando una llamada se "
            "ejecuta y escribe en él.")


def predice_no_cambia(quien: str) -> str:
    return f"{quien} no escribe nada"


def predice_falla(quien: str, clase: str) -> str:
    return f"{quien} falla con {clase}"


def predice_permiso(quien: str, permitido: bool) -> str:
    return (f"El arnés pregunta al usuario por la llamada {quien}, y el usuario responde "
            f"{'Permitir' if permitido else 'Denegar'}. ¿Qué hace el arnés con la llamada?")


#: The options of «¿Qué hace el arnés con la llamada?», in this order.
PREDICE_PERMISO_OPCIONES = {
    "ejecuta": "La ejecuta, y su resultado vuelve al modelo",
    "no": "No la ejecuta, y le devuelve al modelo un error que lo dice",
    "para": "Detiene el bucle: sin permiso no se puede seguir",
}


def predice_permiso_porque(quien: str, permitido: bool) -> str:
    if permitido:
        return f"Con el sí del usuario, {quien} se ejecuta como cualquier otra llamada."
    return (f"Sin permiso, {quien} no se ejecuta: su observación es un error, «no se ha ejecutado: "
            "el usuario no lo ha permitido», y las demás llamadas de la respuesta siguen.")


def predice_no_se_ejecuta(ident: str) -> str:
    return f"{ident} no llega a ejecutarse (su resultado es un error)"


# -- the bench (widgets.directivas.banco) ---------------------------------------------------------
# (The rows of its tables and its plot in words are written by the worker's
# widgets/trabajador/trabajador_banco_resumen.py, which the page's worker carries too.)

def _y(nombres: list[str]) -> str:
    return nombres[0] if len(nombres) == 1 else ", ".join(nombres[:-1]) + " y " + nombres[-1]


def banco_descripcion(variantes: list[str], tareas: str, veces: int, modelos: list[str],
                      tope: int | None) -> str:
    """What «Medir» does, read before it is pressed (and all there is without JavaScript)."""
    cuales = f"la variante {variantes[0]}" if len(variantes) == 1 else f"las variantes {_y(variantes)}"
    con_tope = f" y tope {tope}" if tope else ""
    modelo = (f"con el modelo {modelos[0]}" if len(modelos) == 1
              else f"con el modelo que elijas ({_y(modelos)})")
    return (f"El banco ejecuta {cuales} {veces} {'vez' if veces == 1 else 'veces'} en cada tarea "
            f"de {tareas}, {modelo}{con_tope}, y da la tasa de éxito de cada una con su "
            "intervalo de Wilson del 95 %.")


#: The title over a recorded measurement.
BANCO_GRABADA = "Medida grabada"
#: The accessible name of the plot.
BANCO_GRAFICO = "Tasas de éxito con sus intervalos de Wilson"


def banco_grabada(grabacion: dict, archivo: str) -> str:
    """Under «Medida grabada»: with which model, how many runs, how long."""
    modelo = grabacion["modelo"]
    temperatura = grabacion.get("temperatura")
    con = f", a temperatura {temperatura:g}".replace(".", ",") if isinstance(temperatura, (int, float)) else ""
    suma = f" (SHA-256 {modelo['sha256'][:12]}…)" if modelo.get("sha256") else ""
    tope = f", tope {grabacion['tope']}" if grabacion.get("tope") else ""
    n = len(grabacion["ejecuciones"])
    semillas = len(grabacion["semillas"])
    cuando = "".join(f" {que} {grabacion[clave]}" for clave, que in (("fecha", "el"), ("navegador", "en"))
                     if isinstance(grabacion.get(clave), str))
    return (f"{n} ejecuciones de {_y(grabacion['variantes'])} en {len(grabacion['tareas'])} tareas "
            f"con {semillas} {'semilla' if semillas == 1 else 'semillas'}{tope}, con el modelo "
            f"{modelo['nombre']}{suma}{con}, en {_duracion(grabacion.get('segundos'))}"
            f"{'; grabada' + cuando if cuando else ''} ({archivo}).")


def _duracion(segundos) -> str:
    if not isinstance(segundos, (int, float)) or isinstance(segundos, bool):
        return "un tiempo que no se apuntó"
    if segundos < 1:
        return "menos de un segundo"
    if segundos < 90:
        return f"{segundos:.0f} s"
    return f"{segundos / 60:.0f} min"
