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
- INICIO_UNA_A_UNA, RESPUESTAS_UNA_A_UNA, OBSERVACIONES_UNA_A_UNA, guion_una_a_una(): la
  conversación de la celda de «El bucle», en la que el modelo escribe un solo bloque en
  cada respuesta: una llamada o el texto final.
- INICIO_ERRORES, RESPUESTAS_ERRORES, OBSERVACIONES_ERRORES, guion_errores(): la
  conversación de «Errores como observaciones», en la que el modelo se equivoca dos
  veces y se corrige al leer el error.
- INICIO_COPIA, RESPUESTAS_COPIA, OBSERVACIONES_COPIA, guion_copia(): la segunda
  conversación de esa lección, en la que el modelo pide una herramienta que no existe
  (copiar) y escribe un contenido que no es texto.
- INICIO_PERMISO, RESPUESTAS_PERMISO, FINALES_PERMISO, observaciones_permiso(respuestas),
  guion_permiso(respuestas): la conversación de «Pedir permiso», en la que el modelo quiere
  escribir dos ficheros en una misma respuesta (LISTA_TORTILLA en lista.txt, NOTAS_PERMISO en
  notas.txt, que nadie le ha pedido) y el usuario responde a cada escritura. Lo que
  el arnés le devuelve depende de lo que responda el usuario, así que el guion se hace para
  unas respuestas dadas: guion_permiso(["sí", "no"]). modelo_permiso() es el modelo de esa
  conversación cuando no se sabe de antemano qué responderá el usuario (tú, en la página).
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

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: llamada, resultado, texto
#   guionizado.py: ModeloGuionizado, guion_de


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


#: La conversación de la celda de «El bucle»: un modelo que escribe un solo bloque en cada
#: respuesta, una llamada o el texto final, así que pide las herramientas una a una.
INICIO_UNA_A_UNA = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "Añade a lista.txt lo que falta para la tortilla."),
]

RESPUESTAS_UNA_A_UNA = [
    [llamada("u1", "listar", carpeta="recetas")],
    [llamada("u2", "leer", ruta="recetas/tortilla.txt")],
    [llamada("u3", "leer", ruta="lista.txt")],
    [llamada("u4", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, huevos, cebolla")],
    [texto("He añadido a lista.txt huevos y cebolla, lo que faltaba para la tortilla.")],
]

OBSERVACIONES_UNA_A_UNA = [
    [resultado("u1", "gazpacho.txt\ntortilla.txt")],
    [resultado("u2", "Tortilla: huevos, patatas, cebolla.")],
    [resultado("u3", "pan, leche, patatas")],
    [resultado("u4", "escrito lista.txt (36 caracteres)")],
    [],
]


def guion_una_a_una():
    """El guion de la celda de «El bucle»: las llamadas llegan una a una."""
    return guion_de(INICIO_UNA_A_UNA, RESPUESTAS_UNA_A_UNA, OBSERVACIONES_UNA_A_UNA)


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


# La segunda conversación de «Errores como observaciones»: el modelo pide una herramienta que no
# existe y, después, escribe el contenido como una lista en vez de como un texto.
INICIO_COPIA = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "Haz una copia de lista.txt en compra/sabado.txt."),
]

RESPUESTAS_COPIA = [
    [
        llamada("c1", "copiar", ruta="lista.txt", destino="compra/sabado.txt"),
    ],
    [
        texto("No tengo copiar: leo la lista para escribirla yo."),
        llamada("c2", "leer", ruta="lista.txt"),
    ],
    [
        llamada("c3", "escribir", ruta="compra/sabado.txt", contenido=["pan", "leche", "patatas"]),
    ],
    [
        llamada("c4", "escribir", ruta="compra/sabado.txt", contenido="pan, leche, patatas"),
    ],
    [
        texto("He copiado lista.txt en compra/sabado.txt."),
    ],
]

OBSERVACIONES_COPIA = [
    [
        resultado("c1", "no existe la herramienta 'copiar'; las hay: listar, leer, escribir, "
                        "buscar", es_error=True),
    ],
    [
        resultado("c2", "pan, leche, patatas"),
    ],
    [
        resultado("c3", "el argumento 'contenido' de escribir debe ser texto y es ['pan', "
                        "'leche', 'patatas'] (list)", es_error=True),
    ],
    [
        resultado("c4", "escrito compra/sabado.txt (19 caracteres)"),
    ],
    [],
]


def guion_copia():
    """El guion de la copia de lista.txt, la segunda conversación de «Errores como
    observaciones»."""
    return guion_de(INICIO_COPIA, RESPUESTAS_COPIA, OBSERVACIONES_COPIA)


# ---------------------------------------------------------------- «Pedir permiso»

INICIO_PERMISO = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "Apunta en lista.txt lo que falta para la tortilla."),
]

#: Lo que el modelo quiere escribir: la lista que le piden, y una nota que nadie le ha pedido.
LISTA_TORTILLA = "pan, leche, patatas, huevos, cebolla"
NOTAS_PERMISO = ("El sábado cenan los vecinos.\nMenú: gazpacho y tortilla.\n"
                 "Compra: faltan huevos y cebolla.")

#: Las respuestas del modelo antes de saber qué dice el usuario: lee, y después pide dos
#: escrituras en la misma respuesta (la segunda, que nadie le ha pedido).
RESPUESTAS_PERMISO = [
    [
        texto("Leo la receta y la lista."),
        llamada("p1", "leer", ruta="recetas/tortilla.txt"),
        llamada("p2", "leer", ruta="lista.txt"),
    ],
    [
        llamada("p3", "escribir", ruta="lista.txt", contenido=LISTA_TORTILLA),
        llamada("p4", "escribir", ruta="notas.txt", contenido=NOTAS_PERMISO),
    ],
]

#: La respuesta final del modelo según lo que el usuario permitió: (p3, p4) → texto.
FINALES_PERMISO = {
    (True, True): "He apuntado huevos y cebolla en lista.txt y lo he anotado en notas.txt.",
    (True, False): "He apuntado huevos y cebolla en lista.txt; notas.txt sigue como estaba.",
    (False, True): "No me has dejado cambiar lista.txt; lo he anotado solo en notas.txt.",
    (False, False): "No he cambiado nada: no me has dejado escribir.",
}

#: Lo que el arnés le devuelve al modelo por una escritura que el usuario no permite.
_NO_PERMITIDO = "no se ha ejecutado: el usuario no lo ha permitido"

_PERMITE = {"sí": True, "si": True, "no": False, True: True, False: False}


def _permisos(respuestas):
    """(p3, p4): lo que el usuario permite, de dos respuestas "sí" o "no"."""
    respuestas = list(respuestas)
    if len(respuestas) != 2 or any(_PERMITE.get(r) is None for r in respuestas):
        raise ValueError(f"la conversación de «Pedir permiso» pregunta dos veces: da dos "
                         f"respuestas, \"sí\" o \"no\", y no {respuestas!r}")
    return tuple(_PERMITE[r] for r in respuestas)


def observaciones_permiso(respuestas):
    """Lo que el arnés le devuelve al modelo tras cada respuesta cuando el usuario responde
    `respuestas` (una por escritura, en orden: p3, p4) a las preguntas."""
    p3, p4 = _permisos(respuestas)
    no = _NO_PERMITIDO
    return [
        [
            resultado("p1", "Tortilla: huevos, patatas, cebolla."),
            resultado("p2", "pan, leche, patatas"),
        ],
        [
            resultado("p3", "escrito lista.txt (36 caracteres)") if p3
            else resultado("p3", no, es_error=True),
            resultado("p4", "escrito notas.txt (88 caracteres)") if p4
            else resultado("p4", no, es_error=True),
        ],
        [],
    ]


def guion_permiso(respuestas=("sí", "no")):
    """El guion de «Pedir permiso» cuando el usuario responde `respuestas` (dos, "sí" o "no":
    a escribir lista.txt y a escribir notas.txt)."""
    final = [texto(FINALES_PERMISO[_permisos(respuestas)])]
    return guion_de(INICIO_PERMISO, RESPUESTAS_PERMISO + [final], observaciones_permiso(respuestas))


def modelo_permiso():
    """El modelo de «Pedir permiso» para un usuario que responde en el momento: en sus dos
    primeros turnos no depende de las respuestas; en el tercero sigue guion_permiso con las que
    lee en M, en las observaciones de p3 y p4 (un error que dice que no se ha ejecutado es un
    «no»). Por lo demás, es un ModeloGuionizado: se queja igual si M no es la esperada."""
    no = _NO_PERMITIDO
    modelos = {r: ModeloGuionizado(guion_permiso(r))
               for r in (("sí", "sí"), ("sí", "no"), ("no", "sí"), ("no", "no"))}

    def respuestas_en(M):
        for mensaje in reversed(M) if isinstance(M, list) else []:
            contenido = mensaje[1] if isinstance(mensaje, tuple) and len(mensaje) == 2 else None
            bloques = {b.get("tool_use_id"): b for b in contenido if isinstance(b, dict)} \
                if isinstance(contenido, list) else {}
            if "p3" in bloques or "p4" in bloques:
                return tuple("no" if bloques.get(i, {}).get("content") == no else "sí"
                             for i in ("p3", "p4"))
        return None

    def modelo(M, herramientas=None):
        respuestas = respuestas_en(M)
        if respuestas is None:  # aún no ha preguntado: los cuatro guiones van a la par
            return [m(M, herramientas) for m in modelos.values()][0]  # noqa: RUF015 (los cuatro)
        return modelos[respuestas](M, herramientas)
    return modelo


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
        resultado("a3", _NO_PERMITIDO, es_error=True),
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
