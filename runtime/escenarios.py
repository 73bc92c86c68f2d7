"""Las conversaciones guionizadas de las lecciones.

Se carga después de entorno.py y guionizado.py:

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/guionizado.py").read())
    exec(open_url("runtime/escenarios.py").read())

y deja en tu espacio de nombres:

- INICIO_BUCLE: los mensajes con los que empieza la conversación de «El bucle».
- RESPUESTAS_BUCLE: las cuatro respuestas del modelo en esa conversación.
- OBSERVACIONES_BUCLE: lo que el arnés le devuelve al modelo tras cada una de esas
  respuestas (un tool_result por llamada, en orden; [] tras la última), escrito tal
  cual, sobre una copia de ENTORNO.
- guion_bucle(): el guion de «El bucle», listo para ModeloGuionizado.
- INICIO_ERRORES, RESPUESTAS_ERRORES, OBSERVACIONES_ERRORES, guion_errores(): la
  conversación de «Errores como observaciones», en la que el modelo se equivoca dos
  veces y se corrige al leer el error.

Las observaciones son datos, no código: cómo se calculan es lo que escribes tú en las
lecciones.
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


OBSERVACIONES_BUCLE = [
    [
        resultado("t1", "gazpacho.txt\ntortilla.txt"),
    ],
    [
        resultado("t2", "Gazpacho: tomates, pepino, pimiento, ajo."),
        resultado("t3", "Tortilla: huevos, patatas, cebolla."),
        resultado("t4", "pan, leche, patatas"),
    ],
    [
        resultado("t5", "escrito lista.txt (68 caracteres)"),
    ],
    [],
]


def guion_bucle():
    """El guion de la conversación de «El bucle»."""
    return guion_de(INICIO_BUCLE, RESPUESTAS_BUCLE, OBSERVACIONES_BUCLE)


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


OBSERVACIONES_ERRORES = [
    [
        resultado("e1", "no existe el fichero 'gazpacho.txt' (¿querías decir "
                        "'recetas/gazpacho.txt'?)", es_error=True),
    ],
    [
        resultado("e2", "Gazpacho: tomates, pepino, pimiento, ajo."),
        resultado("e3", "pan, leche, patatas"),
    ],
    [
        resultado("e4", "a escribir le falta el argumento 'contenido'", es_error=True),
    ],
    [
        resultado("e5", "escrito lista.txt (24 caracteres)"),
    ],
    [],
]


def guion_errores():
    """El guion de «Errores como observaciones»."""
    return guion_de(INICIO_ERRORES, RESPUESTAS_ERRORES, OBSERVACIONES_ERRORES)
