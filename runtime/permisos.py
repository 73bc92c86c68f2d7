"""Los permisos de «Pedir permiso»: qué llamadas necesitan el sí del usuario, y quién responde.

Se carga después de entorno.py:

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/permisos.py").read())

y deja en tu espacio de nombres:

- CAMBIAN: los nombres de las herramientas que cambian el entorno (hoy, solo escribir). Es del
  arnés, no del modelo: el modelo no puede saltarse la pregunta diciendo que su llamada es
  inofensiva.
- CAMBIAN_LA_CARPETA: las herramientas de ficheros.py que pueden cambiar la carpeta (editar,
  crear_fichero, y ejecutar_pruebas: las pruebas son código, que el agente ha podido escribir,
  y hacen lo que quieran): también preguntan.
- necesita_permiso(ll): True si la llamada es de una herramienta de CAMBIAN o de
  CAMBIAN_LA_CARPETA.
- NO_PERMITIDO: el contenido del tool_result de una llamada denegada.
- denegado(ll): ese tool_result, con is_error=True.
- denegar(ll): el usuario cuando no hay usuario (una ejecución por lotes, una prueba): dice
  que no a todo.
- permitir(ll): un usuario que dice que sí a todo.
- Respuestas(["sí", "no", ...]): un usuario guionizado: responde en orden y anota lo que le
  preguntaron en .preguntas; si le preguntan más veces de las previstas, lanza RuntimeError.
- pregunta(ll): la pregunta que se le hace al usuario, «¿Permites escribir lista.txt?».
- que_cambia(ll, entorno=None): lo que el usuario tiene que ver para decidir: todo lo que la
  llamada escribiría y, si el fichero ya está en `entorno`, qué líneas se quitan y cuáles se
  añaden. Es una lista de partes, {"titulo": ..., "lineas": [[marca, texto], ...]}, con la
  marca "-" (se quita), "+" (se añade), " " (sigue igual), "…" (líneas iguales que no se
  muestran) o "" (una línea del contenido); vacía si la llamada no escribe un fichero. Si el
  entorno no es un diccionario sino una carpeta (una Carpeta de ficheros.py), lo dice ella:
  entorno.que_cambia(ll), el diff de una edición o el contenido de un fichero nuevo.
- preguntar_al_lector(ll, entorno=None): en la página, le pregunta al lector real, con los
  botones Permitir y Denegar y lo que dice que_cambia(ll, entorno), mientras Python espera;
  donde la página no puede esperar (no está aislada) o fuera del navegador, devuelve None:
  quien la llama decide qué hacer entonces.

Cómo se usa todo esto en ejecutar es lo que escribes tú en la lección.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: muestra, resultado


CAMBIAN = frozenset({"escribir"})
CAMBIAN_LA_CARPETA = frozenset({"editar", "crear_fichero", "ejecutar_pruebas"})

NO_PERMITIDO = "no se ha ejecutado: el usuario no lo ha permitido"


def necesita_permiso(ll):
    """True si la llamada `ll` cambia el entorno y hay que preguntar antes de ejecutarla."""
    return ll["name"] in CAMBIAN or ll["name"] in CAMBIAN_LA_CARPETA


def denegado(ll):
    """El tool_result de la llamada `ll` cuando el usuario dice que no."""
    return resultado(ll["id"], NO_PERMITIDO, es_error=True)


def denegar(ll):
    """Sin nadie a quien preguntar, la respuesta es no."""
    return False


def permitir(ll):
    """Un usuario que lo permite todo (para probar, nunca por defecto)."""
    return True


def pregunta(ll):
    """«¿Permites escribir lista.txt?»: la pregunta de la llamada `ll`."""
    entrada = ll.get("input") or {}
    objeto = entrada.get("ruta") or entrada.get("carpeta") or entrada.get("patron")
    return f"¿Permites {ll['name']} {objeto}?" if objeto else f"¿Permites {ll['name']}?"


_SI = {"sí", "si", "s", "permitir", True}
_NO = {"no", "n", "denegar", False}


class Respuestas:
    """Un usuario guionizado: Respuestas(["sí", "no"]) permite la primera pregunta y deniega la
    segunda. Es un preguntar(ll) -> bool; .preguntas guarda las llamadas que le preguntaron."""

    def __init__(self, respuestas):
        self.respuestas = list(respuestas)
        for r in self.respuestas:
            if _clave(r) not in _SI | _NO:
                raise ValueError(f"respuesta no válida: {r!r} (usa \"sí\" o \"no\")")
        self.preguntas = []

    def __call__(self, ll):
        if len(self.preguntas) >= len(self.respuestas):
            n = len(self.respuestas)
            raise RuntimeError(
                f"el usuario guionizado tenía {n} {'respuesta' if n == 1 else 'respuestas'} y "
                f"le han preguntado una vez más: {pregunta(ll)}")
        respuesta = self.respuestas[len(self.preguntas)]
        self.preguntas.append(ll)
        return _clave(respuesta) in _SI

    def __repr__(self):
        return f"Respuestas({self.respuestas!r})"


def _clave(r):
    return r.strip().lower() if isinstance(r, str) else r


def _lineas(n):
    return "1 línea" if n == 1 else f"{n} líneas"


def que_cambia(ll, entorno=None):
    """Lo que escribiría la llamada `ll`, entero, y, si su fichero ya está en `entorno`, qué
    líneas cambian (un diff de líneas, como el de `diff -u`): una lista de partes
    {"titulo", "lineas": [[marca, texto], ...]}. Vacía si `ll` no escribe un fichero. Con una
    carpeta (un entorno que no es un dict y sabe decirlo), lo que dice entorno.que_cambia(ll)."""
    import difflib

    if not isinstance(entorno, dict) and callable(getattr(entorno, "que_cambia", None)):
        return entorno.que_cambia(ll)

    entrada = ll.get("input") if isinstance(ll, dict) else None
    ruta = entrada.get("ruta") if isinstance(entrada, dict) else None
    contenido = entrada.get("contenido") if isinstance(entrada, dict) else None
    if not isinstance(ruta, str) or not isinstance(contenido, str):
        return []
    nuevas = contenido.splitlines()
    antes = entorno.get(ruta) if isinstance(entorno, dict) else None
    if not isinstance(antes, str):
        antes = None
    if not nuevas:
        titulo = f"{ruta} quedará vacío."
    elif antes is None and isinstance(entorno, dict):
        titulo = f"{ruta} no existe: se creará con esto ({_lineas(len(nuevas))}):"
    elif antes is None:
        titulo = f"Se escribirá en {ruta} ({_lineas(len(nuevas))}):"
    else:
        titulo = f"{ruta} quedará así ({_lineas(len(nuevas))}):"
    partes = [{"titulo": titulo, "lineas": [["", linea] for linea in nuevas]}]
    if antes is None:
        return partes
    if antes == contenido:
        partes.append({"titulo": f"{ruta} ya tiene ese contenido: no cambia nada.", "lineas": []})
        return partes
    cambios = []
    diff = difflib.unified_diff(antes.splitlines(), nuevas, n=2, lineterm="")
    for linea in list(diff)[2:]:  # sin las cabeceras ---/+++
        if linea.startswith("@@"):
            if cambios:
                cambios.append(["…", ""])
        else:
            cambios.append([linea[:1], linea[1:]])
    quitadas = sum(marca == "-" for marca, _ in cambios)
    puestas = sum(marca == "+" for marca, _ in cambios)
    resumen = " y ".join(
        [f"{_lineas(quitadas)} que se quita{'n' if quitadas > 1 else ''}"] * bool(quitadas)
        + [f"{_lineas(puestas)} que se añade{'n' if puestas > 1 else ''}"] * bool(puestas))
    partes.append({"titulo": f"Lo que cambia en {ruta}: {resumen} (- se quita, + se añade):",
                   "lineas": cambios})
    return partes


def preguntar_al_lector(ll, entorno=None):
    """Pregunta al lector, en la página, si permite la llamada `ll`, mostrándole lo que cambiaría
    en `entorno` (que_cambia): True (Permitir), False (Denegar), o None si aquí no se puede
    preguntar (fuera del navegador, o una página sin aislamiento, donde Python no puede esperar
    a la página)."""
    try:
        from trabajador import preguntar_en_la_pagina
    except ImportError:
        return None
    return preguntar_en_la_pagina(pregunta(ll), muestra(ll),
                                  partes=que_cambia(ll, entorno))
