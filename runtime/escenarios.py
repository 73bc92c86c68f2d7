"""Las conversaciones guionizadas de las lecciones.

Se carga después de entorno.py y guionizado.py:

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/guionizado.py").read())
    exec(open_url("runtime/escenarios.py").read())

y deja en tu espacio de nombres:

- INICIO_BUCLE: los mensajes con los que empieza la conversación de «El bucle».
- RESPUESTAS_BUCLE: las cuatro respuestas del modelo en esa conversación.
- observaciones_de(respuestas, entorno): lo que un arnés correcto añade tras
  cada respuesta (un tool_result por llamada, en orden), ejecutando las llamadas
  sobre `entorno`.
- guion_bucle(): el guion de «El bucle», listo para ModeloGuionizado.
- INICIO_ERRORES, RESPUESTAS_ERRORES, guion_errores(): la conversación de
  «Errores como observaciones», en la que el modelo se equivoca dos veces y se
  corrige al leer el error.
"""

SISTEMA_BUCLE = (
    "Eres un asistente que ayuda a organizar la compra de casa. Tienes herramientas "
    "para listar, leer, escribir y buscar en los ficheros del usuario. Úsalas para "
    "hacer lo que te pide y, al terminar, dile en una frase qué has hecho."
)

INICIO_BUCLE = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "Añade a lista.txt lo que falta para las recetas."),
]

LISTA_COMPLETA = "pan, leche, patatas, tomates, pepino, pimiento, ajo, huevos, cebolla"

RESPUESTAS_BUCLE = [
    [
        texto("Primero miro qué recetas hay."),
        llamada("t1", "listar", carpeta="recetas"),
    ],
    [
        llamada("t2", "leer", ruta="recetas/gazpacho.txt"),
        llamada("t3", "leer", ruta="recetas/tortilla.txt"),
        llamada("t4", "leer", ruta="lista.txt"),
    ],
    [
        llamada("t5", "escribir", ruta="lista.txt", contenido=LISTA_COMPLETA),
    ],
    [
        texto("He añadido a lista.txt tomates, pepino, pimiento, ajo, huevos y cebolla."),
    ],
]


def observaciones_de(respuestas, entorno):
    """Para cada respuesta, los tool_result que un arnés correcto añade tras ella.

    Ejecuta las llamadas en orden sobre `entorno` (que cambia, como en la
    conversación real). Una respuesta sin llamadas no tiene observaciones: [].
    Una llamada que no encaja con su esquema, o cuya herramienta lanza un error
    esperado (OSError o ValueError), da un resultado con is_error=True cuyo
    contenido es el motivo, tal cual.
    """
    todas = []
    for respuesta in respuestas:
        obs = []
        for bloque in respuesta:
            if bloque["type"] == "tool_use":
                obs.append(_observa(bloque, entorno))
        todas.append(obs)
    return todas


def _observa(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], str(error), es_error=True)
    return resultado(ll["id"], salida)


def guion_bucle():
    """El guion de la conversación de «El bucle», sobre una copia de ENTORNO."""
    observaciones = observaciones_de(RESPUESTAS_BUCLE, dict(ENTORNO))
    return guion_de(INICIO_BUCLE, RESPUESTAS_BUCLE, observaciones)


INICIO_ERRORES = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "Si el gazpacho lleva ajo, apúntalo en la lista."),
]

RESPUESTAS_ERRORES = [
    [
        llamada("e1", "leer", ruta="gazpacho.txt"),
    ],
    [
        texto("Me equivoqué de ruta; leo la receta y la lista."),
        llamada("e2", "leer", ruta="recetas/gazpacho.txt"),
        llamada("e3", "leer", ruta="lista.txt"),
    ],
    [
        llamada("e4", "escribir", ruta="lista.txt"),
    ],
    [
        llamada("e5", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, ajo"),
    ],
    [
        texto("El gazpacho lleva ajo: lo he añadido a lista.txt."),
    ],
]


def guion_errores():
    """El guion de «Errores como observaciones», sobre una copia de ENTORNO."""
    observaciones = observaciones_de(RESPUESTAS_ERRORES, dict(ENTORNO))
    return guion_de(INICIO_ERRORES, RESPUESTAS_ERRORES, observaciones)
