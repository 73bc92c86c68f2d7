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
- SISTEMA_AGENTE: el mensaje de sistema del agente de «El agente y sus pruebas».
- PEDIDO_TORTILLA, INICIO_TORTILLA, RESPUESTAS_TORTILLA, OBSERVACIONES_TORTILLA,
  guion_tortilla(): el pedido de la tortilla cuando el usuario deja escribir; con
  _TORTILLA_DENEGADA y guion_tortilla_denegada(), cuando no lo deja.
- PEDIDO_TERCO, INICIO_TERCO, respuestas_terco(n), observaciones_terco(n),
  guion_terco(n): un modelo terco que busca lo mismo n veces y nunca contesta.
- PEDIDO_SIN_CONTENIDO, INICIO_SIN_CONTENIDO, RESPUESTAS_SIN_CONTENIDO,
  OBSERVACIONES_SIN_CONTENIDO, guion_sin_contenido(): una escritura sin contenido.

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


# ======================================================================================
# «El agente y sus pruebas» (lección 5): las conversaciones del agente.
# --------------------------------------------------------------------------------------

SISTEMA_AGENTE = (
    "Eres un asistente que ayuda a organizar la compra de casa. Tienes herramientas "
    "para listar, leer, escribir y buscar en los ficheros del usuario. Antes de cambiar "
    "un fichero, el arnés le pide permiso al usuario: si no lo da, no insistas. Al "
    "terminar, dile en una frase qué has hecho."
)

PEDIDO_TORTILLA = "Apunta en lista.txt lo que falta para la tortilla."

INICIO_TORTILLA = [("sistema", SISTEMA_AGENTE), ("usuario", PEDIDO_TORTILLA)]

LISTA_TORTILLA = "pan, leche, patatas, huevos, cebolla"

RESPUESTAS_TORTILLA = [
    [
        texto("Leo la receta y la lista."),
        llamada("a1", "leer", ruta="recetas/tortilla.txt"),
        llamada("a2", "leer", ruta="lista.txt"),
    ],
    [
        llamada("a3", "escribir", ruta="lista.txt", contenido=LISTA_TORTILLA),
    ],
    [
        texto("He apuntado en lista.txt los huevos y la cebolla."),
    ],
]

OBSERVACIONES_TORTILLA = [
    [
        resultado("a1", "Tortilla: huevos, patatas, cebolla."),
        resultado("a2", "pan, leche, patatas"),
    ],
    [
        resultado("a3", "escrito lista.txt (36 caracteres)"),
    ],
    [],
]

#: La misma conversación cuando el usuario no deja escribir: la tercera respuesta cambia.
RESPUESTAS_TORTILLA_DENEGADA = RESPUESTAS_TORTILLA[:2] + [
    [
        texto("No me has dejado escribir: para la tortilla te faltan huevos y cebolla."),
    ],
]

OBSERVACIONES_TORTILLA_DENEGADA = OBSERVACIONES_TORTILLA[:1] + [
    [
        resultado("a3", "no se ha ejecutado: el usuario no lo ha permitido", es_error=True),
    ],
    [],
]

PEDIDO_TERCO = "¿En qué recetas salen los huevos?"

INICIO_TERCO = [("sistema", SISTEMA_AGENTE), ("usuario", PEDIDO_TERCO)]


def respuestas_terco(turnos):
    """Un modelo terco: en cada turno vuelve a buscar lo mismo, y nunca contesta."""
    return [[llamada(f"b{k}", "buscar", patron="huevos")] for k in range(1, turnos + 1)]


def observaciones_terco(turnos):
    """Lo que un arnés correcto le devuelve al modelo terco tras cada búsqueda."""
    return [[resultado(f"b{k}", "recetas/tortilla.txt: Tortilla: huevos, patatas, cebolla.")]
            for k in range(1, turnos + 1)]


PEDIDO_SIN_CONTENIDO = "Apunta los huevos en lista.txt."

INICIO_SIN_CONTENIDO = [("sistema", SISTEMA_AGENTE), ("usuario", PEDIDO_SIN_CONTENIDO)]

RESPUESTAS_SIN_CONTENIDO = [
    [
        llamada("c1", "escribir", ruta="lista.txt"),
    ],
    [
        texto("No he podido escribir: me faltó decir qué poner en lista.txt."),
    ],
]

OBSERVACIONES_SIN_CONTENIDO = [
    [
        resultado("c1", "a escribir le falta el argumento 'contenido'", es_error=True),
    ],
    [],
]


def guion_tortilla():
    """El guion del pedido de la tortilla cuando el usuario permite escribir."""
    return guion_de(INICIO_TORTILLA, RESPUESTAS_TORTILLA, OBSERVACIONES_TORTILLA)


def guion_tortilla_denegada():
    """El guion del pedido de la tortilla cuando el usuario no permite escribir."""
    return guion_de(INICIO_TORTILLA, RESPUESTAS_TORTILLA_DENEGADA,
                    OBSERVACIONES_TORTILLA_DENEGADA)


def guion_terco(turnos):
    """El guion del modelo terco: `turnos` búsquedas iguales, ninguna respuesta final."""
    return guion_de(INICIO_TERCO, respuestas_terco(turnos), observaciones_terco(turnos))


def guion_sin_contenido():
    """El guion de una escritura sin contenido, que vuelve al modelo como error."""
    return guion_de(INICIO_SIN_CONTENIDO, RESPUESTAS_SIN_CONTENIDO, OBSERVACIONES_SIN_CONTENIDO)
