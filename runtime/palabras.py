"""Las palabras de las tareas de entrenamiento (tareas.py): comida, recetas, personas, días,
pendientes; cómo un pedido nombra un fichero y cómo se dice una respuesta; y cómo se hace con
ellas una casa al azar, un entorno de ficheros.

Se carga antes que tareas.py:

    exec(open_url("runtime/palabras.py").read())
    exec(open_url("runtime/tareas.py").read())

Lo que tareas.py, escrituras.py y entrenamiento.py usan tiene nombre sin «_» (PLATOS,
casa_al_azar, pedido_al_azar, lista_con_y…); lo que empieza por «_» solo se usa aquí.
"""

# Usa, de los ficheros que se cargan antes: nada (lo comprueba tests/test_disposicion.py).


#: Las recetas: nombre del fichero → (nombre del plato, artículo, ingredientes).
PLATOS = {
    "tortilla": ("tortilla", "la", ("huevos", "patatas", "cebolla")),
    "gazpacho": ("gazpacho", "el", ("tomates", "pepino", "pimiento", "ajo")),
    "pisto": ("pisto", "el", ("calabacín", "pimiento", "tomates", "cebolla")),
    "lentejas": ("lentejas", "las", ("lentejas", "chorizo", "zanahorias", "patatas")),
    "paella": ("paella", "la", ("arroz", "pollo", "judías verdes", "azafrán")),
    "salmorejo": ("salmorejo", "el", ("tomates", "pan", "ajo", "aceite")),
    "croquetas": ("croquetas", "las", ("jamón", "leche", "harina", "huevos")),
    "ensalada": ("ensalada", "la", ("lechuga", "tomates", "cebolla", "atún")),
    "crepes": ("crepes", "los", ("harina", "leche", "huevos", "azúcar")),
    "bizcocho": ("bizcocho", "el", ("harina", "huevos", "azúcar", "yogur", "limón")),
    "macarrones": ("macarrones", "los", ("macarrones", "salsa de tomate", "chorizo", "queso")),
    "crema-de-calabaza": ("crema de calabaza", "la", ("calabaza", "cebolla", "patatas", "nata")),
    "arroz-con-leche": ("arroz con leche", "el", ("arroz", "leche", "azúcar", "canela", "limón")),
    "guacamole": ("guacamole", "el", ("aguacates", "tomates", "cebolla", "limón", "cilantro")),
    "fabada": ("fabada", "la", ("alubias", "chorizo", "morcilla", "panceta")),
    "hummus": ("hummus", "el", ("garbanzos", "limón", "ajo", "sésamo")),
    "pollo-al-horno": ("pollo al horno", "el", ("pollo", "patatas", "limón", "romero")),
    "lasana": ("lasaña", "la", ("placas de lasaña", "carne picada", "tomate triturado", "queso")),
}

COMPRA = ("pan", "leche", "patatas", "yogures", "café", "manzanas", "plátanos", "naranjas",
           "arroz", "pasta", "queso", "mantequilla", "galletas", "agua", "aceite", "sal",
           "azúcar", "harina", "huevos", "cebolla", "tomates", "lechuga", "pollo", "atún",
           "jamón", "limón", "zanahorias", "detergente", "papel de cocina", "servilletas",
           "champú", "cereales", "mermelada", "fresas", "uvas", "pimiento", "ajo", "nata",
           "garbanzos", "espinacas", "salmón", "merluza", "chocolate", "té", "miel", "pepino")

PERSONAS = ("Marta", "Lucía", "Pablo", "Andrés", "Begoña", "Íñigo", "Carmen", "Javier",
             "Nuria", "Sergio", "Rocío", "Álvaro", "Inés", "Raúl", "Elena", "Jorge", "Pilar",
             "Tomás", "Ana", "Luis", "Maite", "Óscar", "Irene", "Hugo")

DIAS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")

_MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
          "septiembre", "octubre", "noviembre", "diciembre")

_EVENTOS = ("dentista a las {hora}", "cena con {persona}", "reunión del colegio",
            "cumpleaños de {persona}", "clase de yoga", "revisión del coche",
            "pádel con {persona}", "médico a las {hora}", "peluquería a las {hora}",
            "comida con {persona}", "tutoría a las {hora}", "cine con {persona}")

PENDIENTES = ("regar las plantas", "pagar la luz", "llamar al fontanero",
               "devolver el libro a la biblioteca", "comprar un regalo para {persona}",
               "llevar el coche al taller", "renovar el DNI", "limpiar el horno",
               "recoger el paquete", "escribir a {persona}", "poner la lavadora",
               "pedir cita en el médico", "cambiar la bombilla del baño", "planchar las camisas",
               "reservar mesa para el {dia}", "arreglar la bici")

NOTAS = ("El {dia} cenan los vecinos.", "Llamar a {persona} el {dia}.",
          "La llave de repuesto la tiene {persona}.", "El {dia} viene {persona} a comer.",
          "Recoger el paquete en correos.", "La clave del wifi está en la caja del router.",
          "El {dia} no hay clase.", "{persona} me debe 20 euros.",
          "Menú del {dia}: {plato}.", "Comprar pilas para el mando.")

#: Lo que se pregunta de una nota: plantilla de la nota → (palabra que la encuentra, qué
#: debe decir la respuesta, preguntas). En las preguntas, {dia}, {persona} y {plato} son los
#: de la nota; {donde}, dónde mirar.
PREGUNTAS_DE_NOTAS = {
    "El {dia} cenan los vecinos.": ("cenan", "vecinos", (
        "¿Quién viene a cenar el {dia}? Mira {donde}.", "¿Qué hay el {dia}?")),
    "Llamar a {persona} el {dia}.": ("Llamar", "{persona}", (
        "¿A quién tenía que llamar?", "¿A quién tengo que llamar el {dia}? Está en {donde}.")),
    "La llave de repuesto la tiene {persona}.": ("llave", "{persona}", (
        "¿Quién tiene la llave de repuesto?", "Mira en {donde} quién tiene la otra llave.")),
    "El {dia} viene {persona} a comer.": ("comer", "{persona}", (
        "¿Quién viene a comer el {dia}?", "¿Viene alguien a comer? Míralo en {donde}.")),
    "{persona} me debe 20 euros.": ("debe", "{persona}", (
        "¿Quién me debe dinero?", "¿Cuánto me debían? Está en {donde}.")),
    "Menú del {dia}: {plato}.": ("Menú", "{plato}", (
        "¿Qué menú hay el {dia}?", "¿Qué comemos el {dia}? Mira {donde}.")),
    "La clave del wifi está en la caja del router.": ("wifi", "router", (
        "¿Dónde está la clave del wifi?", "Busca en {donde} dónde dejé la clave del wifi.")),
}

#: Carpetas que no son de recetas, con sus ficheros: para que haya que elegir.
_OTRAS_CARPETAS = {
    "trabajo": {"informe.txt": "Informe de ventas: pendiente de revisar.",
                "reunion.txt": "Reunión con {persona} el {dia} a las {hora}."},
    "viajes": {"maleta.txt": "- cepillo de dientes\n- cargador\n- bañador",
               "hotel.txt": "Hotel Miramar, reserva a nombre de {persona}."},
    "colegio": {"excursion.txt": "Excursión el {dia}: llevar bocadillo y agua.",
                "horario.txt": "Entrada a las 9, salida a las {hora}."},
}

CARPETAS_DE_RECETAS = ("recetas", "cocina", "platos", "comidas", "menus", "recetario",
                        "mis-recetas", "guisos")
_FICHEROS_DE_PENDIENTES = ("tareas.txt", "pendientes.txt")

#: Con nombres variados (tareas(n, semilla, nombres_variados=True)), cómo se llama cada parte de
#: la casa: nombres que dicen lo que son, a veces con un añadido («compra-2026.txt»). Así, la única
#: manera de acertar una ruta es copiarla de lo que se ha visto, no de lo que se recuerda.
_NOMBRES_VARIADOS = {
    "lista": ("lista", "compra", "lista-compra", "lista_de_la_compra", "super", "mercado",
              "la-compra", "compras", "lista-super", "mi-lista", "lista-semana", "supermercado",
              "comprar", "lista-de-la-compra"),
    "notas": ("notas", "apuntes", "recordatorios", "notitas", "memo", "notas-casa", "avisos",
              "mis-notas", "anotaciones", "notas_varias", "post-it"),
    "agenda": ("agenda", "calendario", "citas", "eventos", "fechas", "planes", "mi-agenda",
               "agenda-casa", "compromisos", "calendario_familia"),
    "contactos": ("contactos", "telefonos", "numeros", "moviles", "libreta", "directorio",
                  "agenda-telefonos", "mis-contactos"),
    "pendientes": ("tareas", "pendientes", "por-hacer", "recados", "quehaceres",
                   "cosas-por-hacer", "todo", "hacer-esta-semana"),
    "recetas": CARPETAS_DE_RECETAS + ("cocinar", "mis-platos", "recetas-abuela", "cocina-casa",
                                       "comidas-semana", "cuaderno-recetas", "platos_favoritos",
                                       "libro-de-cocina"),
}
_ANADIDOS = ("-2026", "_v2", "-casa", "2", "-nueva", "_mia", "-bis", "-ok", "_final", "-viejo")

_SIN_TILDES = str.maketrans("áéíóúÁÉÍÓÚ", "aeiouAEIOU")

#: Con amplio: otras listas de la casa, además de la de la compra. Parte → (nombres del fichero,
#: cómo la nombra un pedido, lo que se apunta en ella).
_OTRAS_LISTAS = {
    "maleta": (("maleta.txt", "para-el-viaje.txt", "viaje/maleta.txt"),
               ("la maleta", "la lista de la maleta", "lo que me llevo de viaje"),
               ("cargador", "bañador", "chanclas", "gafas de sol", "cepillo de dientes",
                "pijama", "paraguas", "auriculares", "crema", "libro")),
    "botiquin": (("botiquin.txt", "casa/botiquin.txt"),
                 ("el botiquín", "la lista del botiquín"),
                 ("tiritas", "gasas", "paracetamol", "ibuprofeno", "termómetro", "alcohol",
                  "esparadrapo", "suero")),
    "regalos": (("regalos.txt", "navidad/regalos.txt"),
                ("la lista de regalos", "los regalos"),
                ("una bufanda", "un puzle", "unos guantes", "una taza", "un libro de cocina",
                 "unos calcetines", "una planta")),
    "congelador": (("congelador.txt", "nevera.txt"),
                   ("el congelador", "lo que hay en el congelador"),
                   ("guisantes", "helado", "pizza", "hielo", "gambas", "pan de molde",
                    "espinacas congeladas")),
    "libros": (("por-leer.txt", "libros.txt"),
               ("los libros que quiero leer", "mi lista de libros"),
               ("Niebla", "Marianela", "Platero y yo", "La colmena", "Nada", "Luces de bohemia")),
}

#: Con amplio: lo que se cuenta antes del pedido (su clase ya no la dicen las primeras palabras)
#: y lo que se añade al final.
_CONTEXTOS = ("Esta tarde voy al súper.", "Estoy organizando la semana.",
              "Tengo un rato libre ahora.", "Mañana tenemos visita.", "Acabo de llegar a casa.",
              "Vengo del trabajo y estoy reventado.", "Últimamente no me acuerdo de nada.",
              "Te escribo desde el móvil.", "Llevo todo el día liada.",
              "Estoy preparando el fin de semana.", "Voy con prisa.", "Te cuento.",
              "Bueno, a ver.", "Estoy con el café.", "Una cosa, antes de nada.")
_CIERRES = (" Gracias.", " Lo necesito para hoy.", " No corre prisa.", " Es para luego.",
            " Te lo agradezco.", " Nada más.")


def con_contexto(azar, pedido):
    """El pedido, a veces con algo contado antes («Esta tarde voy al súper. …») o un cierre."""
    if azar.random() < 0.35:
        pedido = azar.choice(_CONTEXTOS) + " " + pedido
    if azar.random() < 0.15:
        pedido = pedido + ("" if pedido[-1:] in ".?!" else ".") + azar.choice(_CIERRES)
    return pedido


# ---------------------------------------------------------------- textos y listas

def lista_con_y(cosas):
    """«pan, leche y patatas» («e» delante de i-: «pan e higos»)."""
    cosas = list(cosas)
    if len(cosas) <= 1:
        return "".join(cosas)
    union = " e " if cosas[-1].lower().startswith(("i", "hi")) else " y "
    return ", ".join(cosas[:-1]) + union + cosas[-1]


def lista_con_ni(cosas):
    """«pan, leche ni patatas»: la lista de lista_con_y tras un «no»."""
    cosas = list(cosas)
    return ", ".join(cosas[:-1]) + " ni " + cosas[-1] if len(cosas) > 1 else "".join(cosas)


def lee_lista(contenido):
    """Las cosas de una lista: separadas por comas en una línea, o una por línea (con «- » o
    sin él)."""
    contenido = contenido.strip()
    if "\n" in contenido or contenido.startswith("- "):
        partes = [linea.strip().removeprefix("- ") for linea in contenido.splitlines()]
    else:
        partes = contenido.split(",")
    return [p.strip().rstrip(".") for p in partes if p.strip().rstrip(".")]


def escribe_lista(cosas, como_estaba):
    """`cosas` escritas con el mismo formato que tenía la lista `como_estaba`."""
    lineas = como_estaba.strip().splitlines()
    if len(lineas) > 1:
        guion = "- " if lineas[0].startswith("- ") else ""
        return "\n".join(guion + c for c in cosas)
    return ", ".join(cosas)


def ingredientes_de_receta(receta):
    """Los ingredientes de una receta: «Tortilla: huevos, patatas, cebolla.» o el nombre en la
    primera línea y un ingrediente por línea, con «- »."""
    lineas = receta.strip().splitlines()
    if len(lineas) > 1:
        return [linea.removeprefix("- ").strip() for linea in lineas[1:] if linea.strip()]
    return lee_lista(receta.split(":", 1)[1])


#: Cómo empieza y acaba a veces un pedido dicho de palabra: «oye, …», «… porfa».
_ENTRADAS = ("oye, ", "a ver, ", "perdona, ", "una cosa: ", "hola, ", "venga, ", "oye ",
             "rápido: ", "una pregunta, ", "mira, ")
_COLETILLAS = (" porfa", ", gracias", " ahora mismo", ", cuando puedas", ", por favor",
               " ya", " anda", ", que no me acuerdo")
#: Las mismas, para un pedido de usted («¿Podría…?», «Anote…»): quien trata de usted no dice
#: «anda» ni «mira». Tantas como las de tú, para que elegir una gaste el mismo azar.
_ENTRADAS_DE_USTED = ("oiga, ", "a ver, ", "perdone, ", "una cosa: ", "hola, ", "buenas, ",
                      "oiga ", "disculpe, ", "una pregunta, ", "mire, ")
_COLETILLAS_DE_USTED = (", si es tan amable", ", gracias", " ahora mismo", ", cuando pueda",
                        ", por favor", " ya", ", se lo ruego", ", que no me acuerdo")
_DE_USTED = ("Podría", "podría", "Anote", "anote", "Le ruego", "le ruego")


def pedido_al_azar(azar, plantillas, **valores):
    """Una de las `plantillas` rellena con `valores`. A veces, como se escribe deprisa: sin
    tildes, sin «¿» o «¡», en minúscula, con una entrada («oye, …») o una coletilla («…
    porfa») del mismo trato que la plantilla, tú o usted (solo el texto de la plantilla: los
    valores, tal cual)."""
    plantilla = azar.choice(plantillas)
    de_usted = any(p in plantilla for p in _DE_USTED)
    entradas, coletillas = ((_ENTRADAS_DE_USTED, _COLETILLAS_DE_USTED) if de_usted
                            else (_ENTRADAS, _COLETILLAS))
    if azar.random() < 0.25:
        plantilla = plantilla.translate(_SIN_TILDES)
    if azar.random() < 0.25:
        plantilla = plantilla.replace("¿", "").replace("¡", "")
    if azar.random() < 0.2 and plantilla[:1].isalpha():
        plantilla = plantilla[0].lower() + plantilla[1:]
    if azar.random() < 0.25 and plantilla[-1:] in ".?" and not plantilla.endswith(("porfa.", "favor.")):
        plantilla = plantilla[:-1] + azar.choice(coletillas) + plantilla[-1]
    if azar.random() < 0.25:
        if plantilla[:1] in "¿¡" and plantilla[1:2].isalpha():
            plantilla = plantilla[0] + plantilla[1].lower() + plantilla[2:]
        elif plantilla[:1].isalpha():
            plantilla = plantilla[0].lower() + plantilla[1:]
        plantilla = azar.choice(entradas) + plantilla
    return plantilla.format(**valores)


def rellena_plantilla(azar, plantilla, personas=None, **valores):
    """Una plantilla de las listas de arriba, con una persona, un día y una hora al azar."""
    return plantilla.format(persona=azar.choice(personas or PERSONAS), dia=azar.choice(DIAS),
                            hora=azar.choice(("9", "10", "11", "12", "5", "6", "7")), **valores)


def _fecha(azar, formato, dia):
    if formato == 0:
        return f"{azar.choice(DIAS)} {dia}"
    return f"{dia} de {azar.choice(_MESES)}"


def _telefono(azar):
    return f"6{azar.randrange(10)}{azar.randrange(10)} " + " ".join(
        f"{azar.randrange(1000):03d}" for _ in range(2))


# ------------------------------------------------- cómo se nombra y cómo se contesta

CUANTAS = {1: "una", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco"}


def donde_al_azar(azar, ruta, sin_ruta):
    """Cómo nombra el pedido un fichero: por su ruta (dada), o con palabras (hay que buscarlo)."""
    return (ruta, True) if azar.random() < 0.55 else (azar.choice(sin_ruta), False)


def donde_lista_al_azar(azar, casa):
    """Cómo nombra el pedido la lista de la compra."""
    return donde_al_azar(azar, casa["rutas"]["lista"],
                  ("la lista", "la lista de la compra", "mi lista de la compra"))


def dice_plato(plato):
    """(«el pisto», «El pisto lleva» o «Las lentejas llevan») de un fichero de recetas."""
    nombre, articulo, _ = PLATOS[plato]
    lleva = "llevan" if articulo in ("las", "los") else "lleva"
    return f"{articulo} {nombre}", f"{articulo.capitalize()} {nombre} {lleva}"


def ingredientes_de(plato, donde="", forma=0):
    """Cómo contesta qué lleva una receta: con lo que pone en ella (de una de tres maneras)."""
    def responde(ruta, receta):
        cosas = lista_con_y(ingredientes_de_receta(receta))
        if forma == 1:
            return f"Para {dice_plato(plato)[0]} necesitas {cosas}, según {ruta}."
        if forma == 2:
            return f"Según {ruta}, lleva {cosas}."
        return f"{dice_plato(plato)[1]} {cosas}" + (f" (la receta está en {ruta})." if donde else ".")
    return responde


def dice_notas(ruta, contenido, forma=0):
    """Lo que pone en unas notas, en una frase: sus líneas entre «», separadas por «/»."""
    lineas = ' / '.join(n.rstrip('.') for n in contenido.splitlines())
    return (f"En {ruta} pone «{lineas}».", f"Tus notas ({ruta}) dicen: «{lineas}».",
            f"«{lineas}»: eso es lo que hay en {ruta}.")[forma]


def en_ficheros(salida):
    """Las rutas de una salida de buscar, sin repetir, en orden."""
    rutas = []
    for linea in salida.splitlines():
        ruta = linea.split(": ", 1)[0]
        if ruta not in rutas:
            rutas.append(ruta)
    return rutas


def palabra_suelta(entorno, palabra):
    """¿Sale `palabra` en el entorno solo como palabra entera? (No «pan» en «panceta».)"""
    import re
    patron = re.compile(r"(?<!\w)" + re.escape(palabra) + r"(?!\w)")
    return all(len(patron.findall(linea)) == linea.count(palabra)
               for t in entorno.values() for linea in t.splitlines())


#: Lo que se contesta sin mirar nada: (pedidos, respuesta, lo que debe decir la respuesta).
CHARLA = (
    (("Hola", "¡Hola!", "Buenas", "Hola, ¿qué tal?", "Buenos días."),
     "¡Hola! Dime qué quieres que haga con tus ficheros.", "hola"),
    (("¿Qué sabes hacer?", "¿Qué puedes hacer?", "¿Para qué sirves?",
      "¿En qué me puedes ayudar?"),
     "Puedo listar, leer, escribir y buscar en tus ficheros: dime qué necesitas.", "buscar"),
    (("Gracias", "¡Muchas gracias!", "Gracias, eso es todo.", "Vale, gracias."),
     "De nada: aquí estoy si necesitas algo más.", "de nada"),
    (("¿Cuántos días tiene una semana?",), "Una semana tiene siete días.", "siete"),
    (("¿Cuántos huevos hay en una docena?", "¿Cuánto es una docena?"), "Una docena son doce.",
     "doce"),
    (("¿Qué herramienta uso para buscar un texto?", "¿Cómo busco una palabra en mis ficheros?"),
     "Con buscar: da cada línea que contiene el texto, con su fichero.", "buscar"),
    (("¿Puedes borrar un fichero?", "¿Sabes borrar ficheros?"),
     "No: puedo listar, leer, escribir y buscar, pero no borrar ficheros.", "no"),
    (("¿Cambias mis ficheros sin preguntarme?", "¿Vas a escribir sin avisarme?"),
     "No: antes de cambiar un fichero te pido permiso.", "permiso"),
)


# ------------------------------------------------------------------------ una casa

def _nombre_variado(azar, parte, extension=".txt"):
    """Un nombre al azar para una parte de la casa («compra.txt», «apuntes-2026.txt»)."""
    nombre = azar.choice(_NOMBRES_VARIADOS[parte])
    if azar.random() < 0.3:
        nombre += azar.choice(_ANADIDOS)
    return nombre + extension


def casa_al_azar(azar, *necesita, variados=False, amplio=False):
    """Un entorno al azar y lo que un tipo de tarea necesita saber de él: un dict con
    "entorno" (ruta → texto), "rutas" (parte → su ruta: "lista", "notas", "agenda",
    "contactos") y, por parte, dónde está y qué tiene. Las partes de `necesita` ("agenda",
    "pendientes", "telefonos", "otra") están siempre; las demás, a veces. Sin `variados`, las
    partes se llaman siempre igual (lista.txt, notas.txt, agenda.txt, contactos.txt)."""
    rutas = {"lista": _ruta_de(azar, variados, "lista", "lista.txt"),
             "notas": _ruta_de(azar, variados, "notas", "notas.txt")}
    casa = {"entorno": {}, "rutas": rutas, "variados": variados, "amplio": amplio}
    _pon_compra_y_recetas(azar, casa)
    personas = azar.sample(PERSONAS, 8)
    casa["personas"] = personas
    notas = azar.sample(NOTAS, azar.randint(1, 3))
    casa["entorno"][rutas["notas"]] = "\n".join(
        rellena_plantilla(azar, n, personas, plato=PLATOS[azar.choice(casa["platos"])][0])
        for n in notas)
    if "agenda" in necesita or azar.random() < 0.6:
        _pon_agenda(azar, casa)
    if "pendientes" in necesita or azar.random() < 0.6:
        _pon_pendientes(azar, casa)
    if "telefonos" in necesita or azar.random() < 0.5:
        contactos = personas[:azar.randint(2, 4)]
        casa["telefonos"] = {p: _telefono(azar) for p in contactos}
        rutas["contactos"] = _ruta_de(azar, variados, "contactos", "contactos.txt")
        casa["entorno"][rutas["contactos"]] = "\n".join(
            f"{p}: {t}" for p, t in casa["telefonos"].items())
    if "otra" in necesita or azar.random() < 0.4:
        otra = azar.choice(sorted(_OTRAS_CARPETAS))
        for nombre, plantilla in _OTRAS_CARPETAS[otra].items():
            casa["entorno"][f"{otra}/{nombre}"] = rellena_plantilla(azar, plantilla, personas[6:])
        casa["otra"] = otra
    if amplio and azar.random() < 0.6:
        _pon_otra_lista(azar, casa)
    return casa


def _ruta_de(azar, variados, parte, de_siempre):
    """La ruta de una parte de la casa: con `variados`, un nombre al azar; si no, la de siempre."""
    return _nombre_variado(azar, parte) if variados else de_siempre


_FORMATOS_DE_LISTA = {"comas": "a", "lineas": "a\nb", "guiones": "- a\n- b"}


def _pon_compra_y_recetas(azar, casa):
    """La lista de la compra (en uno de tres formatos) y la carpeta de recetas, con sus platos."""
    e = casa["entorno"]
    formato = azar.choice(("comas", "comas", "comas", "lineas", "guiones"))
    compra = azar.sample(COMPRA, azar.randint(2, 5))
    e[casa["rutas"]["lista"]] = escribe_lista(compra, _FORMATOS_DE_LISTA[formato])
    casa["compra"] = compra
    casa["formato"] = formato
    carpeta = _nombre_variado(azar, "recetas", "") if casa["variados"] else azar.choice(
        CARPETAS_DE_RECETAS)
    platos = azar.sample(sorted(PLATOS), azar.randint(2, 4))
    casa["carpeta"], casa["platos"] = carpeta, platos
    for plato in platos:
        nombre, _, ingredientes = PLATOS[plato]
        if azar.random() < 0.75:
            receta = f"{nombre.capitalize()}: {', '.join(ingredientes)}."
        else:
            receta = nombre.capitalize() + "\n" + "\n".join(f"- {i}" for i in ingredientes)
        e[f"{carpeta}/{plato}.txt"] = receta


def _pon_agenda(azar, casa):
    """La agenda: de tres a cinco días con un evento y una persona, y un día libre."""
    dias = azar.sample(range(1, 29), azar.randint(3, 5))
    eventos = azar.sample(_EVENTOS, len(dias))
    gente = iter(casa["personas"])
    formato_fecha = azar.randrange(2)
    agenda = [(_fecha(azar, formato_fecha, d), rellena_plantilla(azar, ev, [next(gente)]))
              for d, ev in zip(dias, eventos, strict=True)]
    casa["rutas"]["agenda"] = _ruta_de(azar, casa["variados"], "agenda", "agenda.txt")
    casa["entorno"][casa["rutas"]["agenda"]] = "\n".join(f"{f}: {ev}" for f, ev in agenda)
    casa["agenda"] = agenda
    casa["fecha_libre"] = _fecha(azar, formato_fecha, azar.choice(
        [d for d in range(1, 29) if d not in dias]))


def _pon_pendientes(azar, casa):
    """Los pendientes: de dos a cuatro cosas por hacer, con guiones o sin ellos."""
    ruta = (_nombre_variado(azar, "pendientes") if casa["variados"]
            else azar.choice(_FICHEROS_DE_PENDIENTES))
    pendientes = [rellena_plantilla(azar, p, casa["personas"][5:])
                  for p in azar.sample(PENDIENTES, azar.randint(2, 4))]
    guion = "- " if azar.random() < 0.6 else ""
    casa["entorno"][ruta] = "\n".join(guion + p for p in pendientes)
    casa["pendientes"] = (ruta, pendientes)


def _pon_otra_lista(azar, casa):
    """Con amplio, otra lista que la de la compra (la maleta, el botiquín…), si su ruta está
    libre."""
    e = casa["entorno"]
    parte = azar.choice(sorted(_OTRAS_LISTAS))
    nombres, dichas, posibles = _OTRAS_LISTAS[parte]
    ruta = azar.choice(nombres)
    if ruta not in e and not any(r.startswith(ruta.split("/")[0] + "/")
                                 for r in e if "/" in ruta):
        cosas = azar.sample(posibles, azar.randint(2, 4))
        e[ruta] = escribe_lista(cosas, _FORMATOS_DE_LISTA[azar.choice(
            ("comas", "lineas", "guiones"))])
        casa["otra_lista"] = (ruta, cosas, dichas, posibles)
