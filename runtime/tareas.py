"""Tareas al azar para entrenar al modelo del curso: pedidos de todas las clases que usan las
lecciones, sobre entornos al azar, cada una con su modelo ideal y su comprobación.

Se carga después de entorno.py, permisos.py y palabras.py, y antes de escrituras.py y
entrenamiento.py (véase entrenamiento.py, que dice cómo se usa todo), y deja en tu espacio de
nombres:

- TIPOS_DE_TAREA: las clases de tarea, en orden: "leer" (leer un fichero y contestar con lo que
  pone), "listar" (qué hay en una carpeta), "buscar" (en qué fichero sale algo), "apuntar" y
  "quitar" (cambiar una lista, con permiso), "faltan" (lo que falta en la lista para una receta,
  apuntado), "sugerencia" (una ruta equivocada: el error dice dónde mirar), "denegado" (una
  escritura que el usuario no permite), "agenda" (buscar algo en la agenda o en los pendientes)
  y "directo" (se contesta sin herramientas).
- tarea_al_azar(azar, tipo=None, nombres_variados=False, amplio=False): una Tarea nueva (de entrenamiento.py),
  del tipo dado o de uno al azar; azar es un random.Random. Con nombres_variados, los ficheros y
  las carpetas de la casa se llaman de muchas maneras (compra.txt, apuntes-2026.txt, citas.txt…)
  y no siempre lista.txt, notas.txt, agenda.txt: una ruta se acierta copiándola, no recordándola
  (True, o la probabilidad de que una tarea los tenga).
  Con amplio (True, o la probabilidad), más variedad: pedidos que empiezan contando otra cosa
  («Esta tarde voy al súper. …»), notas con líneas que se parecen a la buscada, más listas que
  la de la compra (la maleta, el botiquín…) y respuestas dichas de varias maneras. Sin él, las
  tareas son las de siempre, las mismas para la misma semilla.
- tareas(n, semilla=0, nombres_variados=False, amplio=False): n tareas al azar, las mismas
  siempre para la misma semilla.

Cada tarea tiene un plan: un generador que pide una llamada cada vez (yield (nombre, entrada)),
recibe lo que devolvió ((texto, es_error), como lo ve el modelo en M) y al final devuelve el
texto de la respuesta. Nunca adivina una ruta que el pedido no da: antes lista.
"""


# ----------------------------------------------------- los pasos que comparten los planes

def _mira(observacion, esperado, donde):
    """Comprueba que el resultado de una llamada trae lo que el plan va a usar."""
    contenido, error = observacion
    if error or esperado not in contenido:
        raise ValueError(f"el modelo ideal esperaba ver {esperado!r} en el resultado de {donde}, "
                         f"y ha visto {contenido!r}")
    return contenido


def _mira_error(observacion, esperado):
    """Comprueba que la llamada ha dado el error que el plan esperaba."""
    contenido, error = observacion
    if not error or esperado not in contenido:
        raise ValueError(f"el modelo ideal esperaba un error con {esperado!r}, y ha visto "
                         f"{contenido!r}")


def _busca_fichero(ruta):
    """Llega a `ruta` sin adivinar: lista la raíz y, si está en una carpeta, esa carpeta."""
    carpeta, _, nombre = ruta.rpartition("/")
    vista = yield ("listar", {"carpeta": ""})
    _mira(vista, (carpeta + "/") if carpeta else nombre, "listar ''")
    if carpeta:
        vista = yield ("listar", {"carpeta": carpeta})
        _mira(vista, nombre, f"listar {carpeta!r}")


def _lee(ruta, dada=True):
    """Lee `ruta`. Si el pedido no la daba, antes la busca; si no existe y el error sugiere
    otra, lee la sugerida. Devuelve (ruta leída, contenido)."""
    if not dada:
        yield from _busca_fichero(ruta)
    contenido, error = yield ("leer", {"ruta": ruta})
    if error:
        sugerida = _sugerida(contenido)
        if sugerida is None:
            raise ValueError(f"el modelo ideal no esperaba un error al leer {ruta}: {contenido}")
        ruta = sugerida
        contenido, error = yield ("leer", {"ruta": ruta})
    return ruta, contenido


def _sugerida(error):
    """La ruta de «(¿querías decir 'x'?)» en un error de leer, o None."""
    marca = "¿querías decir '"
    if marca not in error:
        return None
    return error.split(marca, 1)[1].split("'", 1)[0]


def _contesta(final):
    """Un plan sin llamadas: contesta `final` sin mirar nada."""
    def plan():
        return final
        yield  # noqa: el «yield» hace de plan un generador, como los demás
    return plan


def _plan_lee(ruta, dada, responde):
    """Lee `ruta` (véase _lee) y contesta responde(ruta leída, contenido)."""
    def plan():
        leida, contenido = yield from _lee(ruta, dada)
        return responde(leida, contenido)
    return plan


def _escribe(ruta, contenido, hecho, sin_permiso):
    """Escribe `ruta`; el texto final es `hecho` si se escribió, o dice la verdad si no."""
    salida, error = yield ("escribir", {"ruta": ruta, "contenido": contenido})
    if not error:
        return hecho
    if salida == NO_PERMITIDO:
        return sin_permiso
    return f"No he podido escribir {ruta}: {salida}."


# ------------------------------------------------------------------ las comprobaciones

def _igual_salvo(inicial, final, ruta=None):
    """¿Es `final` el entorno `inicial`, salvo quizá el fichero `ruta`?"""
    claves = set(inicial) | ({ruta} if ruta else set())
    return set(final) <= claves and all(final.get(r) == inicial[r] for r in inicial if r != ruta)


def _lista_final(ruta, esperadas, dice=()):
    """`ruta` tiene exactamente `esperadas` (en cualquier orden), nada más ha cambiado y la
    respuesta dice `dice`."""
    def comprueba(inicial, final, texto_final):
        return (_igual_salvo(inicial, final, ruta) and ruta in final
                and sorted(_lee_lista(final[ruta])) == sorted(esperadas)
                and all(c.lower() in texto_final for c in dice))
    return comprueba


def _sin_cambios(*dice, alguna=()):
    """El entorno no cambia y la respuesta dice `dice` (y alguna de `alguna`, si las hay)."""
    def comprueba(inicial, final, texto_final):
        return (_igual_salvo(inicial, final) and all(c.lower() in texto_final for c in dice)
                and (not alguna or any(texto_final.startswith(a) or f" {a}" in texto_final
                                       for a in alguna)))
    return comprueba


_NO_LO_HA_HECHO = ("no he", "no me has")  # lo que dice una respuesta honrada tras un «no»
_YA_LO_TIENE = ("ya tienes", "ya lo tienes", "tienes todo", "no falta", "no te falta")  # … si no falta nada


# --------------------------------------------------------------------- los tipos

TIPOS_DE_TAREA = ("leer", "listar", "buscar", "apuntar", "quitar", "faltan", "sugerencia",
                  "denegado", "agenda", "directo")

#: Cuántas de cada tipo, en proporción: más de las que tienen más pasos (lo que falta para una
#: receta, cambiar una lista), menos de las que se contestan sin herramientas.
_PESOS = (12, 8, 10, 10, 10, 14, 9, 9, 12, 6)


def _con_probabilidad(azar, opcion):
    """¿Se aplica una opción que es True, False o una probabilidad? (Sin tirar el dado si no
    hace falta: sin la opción, las tareas son las de siempre.)"""
    return opcion is True or (bool(opcion) and azar.random() < opcion)


def tarea_al_azar(azar, tipo=None, nombres_variados=False, amplio=False):
    """Una tarea nueva del tipo `tipo` (uno de TIPOS_DE_TAREA; al azar si no se da), sobre un
    entorno nuevo. `azar` es un random.Random: con el mismo estado, la misma tarea. Con
    `nombres_variados` (True, o la probabilidad de que los tenga: 0.5, la mitad de las veces),
    los ficheros y carpetas de la casa tienen nombres al azar. Con `amplio` (igual), la tarea
    tiene más variedad (véase el principio de este fichero)."""
    variados = _con_probabilidad(azar, nombres_variados)
    amplio = _con_probabilidad(azar, amplio)
    if tipo is None:
        tipo = azar.choices(TIPOS_DE_TAREA, _PESOS)[0]
    if tipo not in TIPOS_DE_TAREA:
        raise ValueError(f"no hay tareas de tipo {tipo!r}; las hay: {', '.join(TIPOS_DE_TAREA)}")
    hacer = {"leer": _tarea_leer, "listar": _tarea_listar, "buscar": _tarea_buscar,
             "apuntar": _tarea_apuntar, "quitar": _tarea_quitar, "faltan": _tarea_faltan,
             "sugerencia": _tarea_sugerencia, "denegado": _tarea_denegado,
             "agenda": _tarea_agenda, "directo": _tarea_directo}[tipo]
    tarea = hacer(azar, variados=variados, amplio=amplio)
    if amplio:
        tarea.pedido = _con_contexto(azar, tarea.pedido)
    return tarea


def tareas(n, semilla=0, nombres_variados=False, amplio=False):
    """`n` tareas al azar, de todos los tipos: las mismas siempre para la misma semilla (y los
    mismos `nombres_variados` y `amplio`)."""
    import random
    azar = random.Random(semilla)
    return [tarea_al_azar(azar, nombres_variados=nombres_variados, amplio=amplio)
            for _ in range(n)]


def _tarea_leer(azar, variados=False, amplio=False):
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    que = azar.choice(("lista", "cuantas", "notas", "nota", "nota", "receta", "pendientes"))
    if que == "pendientes" and "pendientes" not in casa:
        que = "lista"
    otra = amplio and "otra_lista" in casa and azar.random() < 0.35
    if que in ("lista", "cuantas"):
        lista = casa["rutas"]["lista"]
        donde, dada = _donde_lista(azar, casa)
        cosas = casa["compra"]
        if otra:
            lista, cosas, dichas, _ = casa["otra_lista"]
            donde, dada = _donde(azar, lista, dichas)
        if que == "lista":
            pedido = _pedido(azar, ("¿Qué hay en {donde}?",
                                    "Dime qué tengo apuntado en {donde}.",
                                    "¿Qué pone en {donde}?", "Léeme {donde}, porfa.",
                                    "¿Me dices qué hay en {donde}?",
                                    "¿Podría decirme qué hay en {donde}?")
                             + (() if otra else ("¿Qué me toca comprar? Míralo en {donde}.",))
                             + ("¿Qué llevo apuntado ahora en {donde}?", "¿Qué queda en {donde}?")
                             + (("Antes de salir, ¿qué tenía en {donde}?",
                                 "Vuelve a decirme lo que hay en {donde}.",
                                 "No me acuerdo de lo que puse en {donde}, ¿me lo dices?")
                                if amplio else ()), donde=donde)
            final = azar.choice(("En {lista} tienes {cosas}.", "Tienes apuntado {cosas}.")
                                + (() if otra else ("En la lista de la compra hay {cosas}.",))
                                + (("{lista} tiene {cosas}.", "Hay {cosas}, según {lista}.")
                                   if amplio else ()))
        else:
            pedido = _pedido(azar, ("¿Cuántas cosas hay en {donde}?",
                                    "¿Cuántas cosas tengo que comprar? Mira {donde}.",
                                    "Cuéntame cuántas cosas tiene {donde}."), donde=donde)
            final = "En {lista} hay {n} cosas: {cosas}."
            cosas = cosas + [str(len(cosas))]
        plan = _plan_lee(lista, dada, lambda r, c: final.format(
            lista=lista, cosas=_y(_lee_lista(c)), n=len(_lee_lista(c))))
    elif que == "nota":
        return _tarea_una_nota(azar, casa)
    elif que == "notas":
        notas = casa["rutas"]["notas"]
        donde, dada = _donde(azar, notas, ("mis notas", "las notas"))
        pedido = _pedido(azar, ("¿Qué pone en {donde}?", "Léeme {donde}.",
                                "¿Qué tengo apuntado en {donde}?")
                         + (("Dime otra vez qué anoté en {donde}.",
                             "¿Qué había en {donde}? No me acuerdo.") if amplio else ()),
                         donde=donde)
        cosas = [n.rstrip(".") for n in casa["entorno"][notas].splitlines()]
        forma = azar.randrange(3) if amplio else 0
        plan = _plan_lee(notas, dada, lambda r, c: _notas(r, c, forma))
    elif que == "receta":
        plato = azar.choice(casa["platos"])
        ruta = f"{casa['carpeta']}/{plato}.txt"
        if azar.random() < 0.5:
            pedido, dada = _pedido(azar, ("¿Qué lleva {ruta}?",
                                          "¿Qué ingredientes tiene {ruta}?",
                                          "Dime los ingredientes de {ruta}."), ruta=ruta), True
        else:
            pedido, dada = _pedido(azar, ("¿Qué lleva {plato}?",
                                          "¿Qué ingredientes lleva {plato}?",
                                          "¿Qué necesito para hacer {plato}?"),
                                   plato=_plato(plato)[0]), False
        cosas = list(_PLATOS[plato][2])
        plan = _plan_lee(ruta, dada, _ingredientes_de(plato, forma=azar.randrange(3) if amplio
                                                      else 0))
    else:
        ruta, cosas = casa["pendientes"]
        donde, dada = _donde(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = _pedido(azar, ("¿Qué hay en {donde}?",
                                "¿Qué me queda por hacer? Mira {donde}.",
                                "Dime qué tengo en {donde}.")
                         + (("Según {donde}, ¿qué me queda?",
                             "Tengo la tarde libre: ¿qué hay en {donde}?") if amplio else ()),
                         donde=donde)
        forma = azar.randrange(2) if amplio else 0
        plan = _plan_lee(ruta, dada, lambda r, c: (f"Tienes pendiente {_y(_lee_lista(c))}.",
                                                   f"En {r} te queda {_y(_lee_lista(c))}.")[forma])
    return Tarea("leer", pedido, casa["entorno"], [], plan, _sin_cambios(*cosas))


def _tarea_una_nota(azar, casa):
    """Una pregunta de lo que dice una de las notas: se leen las notas (si el pedido no las
    nombra, antes se buscan) y se contesta con esa nota."""
    e, notas = casa["entorno"], casa["rutas"]["notas"]
    plantilla = azar.choice(sorted(_PREGUNTAS_DE_NOTAS))
    marca, dice, preguntas = _PREGUNTAS_DE_NOTAS[plantilla]
    valores = {"persona": azar.choice(casa["personas"][:5]), "dia": azar.choice(_DIAS),
               "plato": _PLATOS[azar.choice(casa["platos"])][0]}
    otras = [n for n in e[notas].splitlines() if marca not in n]
    if casa.get("amplio"):  # las otras líneas hablan del mismo día o de la misma persona
        otras = [n.format(**valores) for n in azar.sample(
            [n for n in _NOTAS if marca not in n], 2)]
    nota = plantilla.format(**valores)
    lineas = otras[:2]
    lineas.insert(azar.randint(0, len(lineas)), nota)
    e[notas] = "\n".join(lineas)
    pregunta = azar.choice(preguntas)
    if "{donde}" in pregunta:
        donde, dada = _donde(azar, notas, ("mis notas", "las notas"))
    else:
        donde, dada = "", False
    pedido = _pedido(azar, (pregunta,), donde=donde, **valores)

    forma = azar.randrange(3) if casa.get("amplio") else 0

    def responde(ruta, contenido):
        for linea in contenido.splitlines():
            if marca in linea:
                return (f"En {ruta} pone: «{linea.rstrip('.')}».",
                        f"Según {ruta}: {linea}",
                        f"Lo tienes en {ruta}: «{linea.rstrip('.')}».")[forma]
        raise ValueError(f"el modelo ideal no encuentra «{marca}» en {ruta}")
    return Tarea("leer", pedido, e, [], _plan_lee(notas, dada, responde),
                 _sin_cambios(dice.format(**valores)))


def _tarea_listar(azar, variados=False, amplio=False):
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    carpeta = casa["carpeta"]
    que = azar.choice(("recetas", "carpeta", "raiz", "otra"))
    if que == "recetas":
        pedido = _pedido(azar, ("¿Qué recetas tengo?", "¿Qué recetas hay?",
                                "Dime qué recetas tengo guardadas.",
                                "¿Qué platos tengo apuntados?",
                                "¿De qué tengo recetas?",
                                "¿Podría decirme qué recetas tengo?"))

        def plan():
            _mira((yield ("listar", {"carpeta": ""})), carpeta + "/", "listar ''")
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            platos = [_PLATOS[f.removesuffix(".txt")][0] for f in contenido.splitlines()]
            return f"En {carpeta}/ tienes {_CUANTAS[len(platos)]} recetas: {_y(platos)}."
        cosas = [_PLATOS[p][0] for p in casa["platos"]]
        return Tarea("listar", pedido, casa["entorno"], [], plan, _sin_cambios(*cosas))
    if que == "raiz":
        pedido = _pedido(azar, ("¿Qué ficheros tengo?", "¿Qué hay en mi carpeta?",
                                "Enséñame todos mis ficheros.", "¿Qué tengo guardado?"))
        carpeta = ""
    else:
        carpeta = casa.get("otra", carpeta) if que == "otra" else carpeta
        pedido = _pedido(azar, ("¿Qué hay en la carpeta {carpeta}?",
                                "Lista lo que hay en {carpeta}/.",
                                "¿Qué ficheros hay en {carpeta}?",
                                "Enséñame qué tengo en {carpeta}."),
                         carpeta=carpeta)

    def plan():
        contenido, _ = yield ("listar", {"carpeta": carpeta})
        entradas = contenido.splitlines()
        if carpeta:
            return f"En {carpeta}/ hay {_y(entradas)}."
        ficheros = [e for e in entradas if not e.endswith("/")]
        carpetas = [e for e in entradas if e.endswith("/")]
        cual = "la carpeta" if len(carpetas) == 1 else "las carpetas"
        return f"Tienes {_y(ficheros)}, y {cual} {_y(carpetas)}."
    prefijo = carpeta + "/" if carpeta else ""
    entradas = {r[len(prefijo):].split("/")[0] + ("/" if "/" in r[len(prefijo):] else "")
                for r in casa["entorno"] if r.startswith(prefijo)}
    return Tarea("listar", pedido, casa["entorno"], [], plan, _sin_cambios(*entradas))


def _tarea_buscar(azar, variados=False, amplio=False):
    que = azar.choice(("ingrediente", "telefono", "ausente"))
    casa = _casa_al_azar(azar, "telefonos", variados=variados, amplio=amplio)
    e, contactos = casa["entorno"], casa["rutas"]["contactos"]
    if que == "telefono":
        persona, telefono = azar.choice(sorted(casa["telefonos"].items()))
        pedido = _pedido(azar, ("¿Cuál es el teléfono de {p}?", "¿Tengo el número de {p}?",
                                "Búscame el teléfono de {p}, porfa.",
                                "Pásame el móvil de {p}."),
                         p=persona)

        def plan():
            salida, _ = yield ("buscar", {"patron": persona})
            linea = _mira((salida, False), f"{contactos}: {persona}: ", f"buscar {persona!r}")
            numero = linea.split(f"{contactos}: {persona}: ", 1)[1].splitlines()[0]
            return f"El teléfono de {persona} es el {numero}, según {contactos}."
        return Tarea("buscar", pedido, e, [], plan, _sin_cambios(telefono))
    if que == "ingrediente":
        palabra = azar.choice(sorted({i for p in casa["platos"] for i in _PLATOS[p][2]
                                      if _palabra_suelta(e, i)}) or ["huevos"])
        plantillas = ("¿En qué ficheros sale «{w}»?", "¿Dónde aparece {w}?",
                      "Busca {w} en mis ficheros.", "¿Qué ficheros mencionan {w}?",
                      "¿Qué recetas llevan {w}?", "¿En qué plato uso {w}?",
                      "¿Qué puedo cocinar con {w}?", "¿Hay alguna receta con {w}?") + ((
                          "Me ha sobrado {w}, ¿qué hago con eso?",
                          "Tengo {w} de más en la nevera: ¿qué receta lo lleva?",
                          "Si compro {w}, ¿para qué plato me sirve?") if amplio else ())
    else:
        palabra = azar.choice([c for c in _COMPRA if not any(c in t for t in e.values())])
        plantillas = ("¿Tengo apuntado {w} en algún sitio?", "Busca «{w}» en mis ficheros.",
                      "¿Sale {w} en algún fichero?", "¿Podría buscar «{w}» en mis ficheros?")
    pedido = _pedido(azar, plantillas, w=palabra)

    def plan():
        salida, _ = yield ("buscar", {"patron": palabra})
        if salida.startswith("ninguna línea contiene"):
            return f"«{palabra}» no aparece en ningún fichero."
        return f"«{palabra}» sale en {_y(_en_ficheros(salida))}."
    rutas = [r for r in sorted(e) if any(palabra in linea for linea in e[r].splitlines())]
    return Tarea("buscar", pedido, e, [], plan, _sin_cambios(palabra, *(rutas or ["ningún"])))


def _tarea_agenda(azar, variados=False, amplio=False):
    que = azar.choice(("fecha", "fecha", "evento", "pendiente"))
    casa = _casa_al_azar(azar, "pendientes" if que == "pendiente" else "agenda",
                         variados=variados, amplio=amplio)
    if que == "pendiente":
        ruta, pendientes = casa["pendientes"]
        donde, dada = _donde(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        tarea = azar.choice(pendientes)
        if azar.random() < 0.4:
            tarea = azar.choice([t for t in (_rellena(azar, p, casa["personas"][5:])
                                             for p in _PENDIENTES) if t not in pendientes])
        pedido = _pedido(azar, ("¿Tengo apuntado {t} en {donde}?", "¿Está «{t}» en {donde}?",
                                "Mira si {t} está en {donde}."), t=tarea, donde=donde)
        plan = _plan_lee(ruta, dada, lambda r, c: f"Sí, «{tarea}» está en {r}."
                         if tarea in _lee_lista(c) else f"No, «{tarea}» no está en {r}.")
        si = "sí," if tarea in pendientes else "no,"
        return Tarea("agenda", pedido, casa["entorno"], [], plan, _sin_cambios(tarea, alguna=[si]))
    agenda_txt = casa["rutas"]["agenda"]
    donde, dada = _donde(azar, agenda_txt, ("la agenda", "mi agenda"))
    fecha, evento = azar.choice(casa["agenda"])
    if que == "fecha":
        if azar.random() < 0.2:
            fecha, evento = casa["fecha_libre"], "nada"
        if azar.random() < 0.3:
            donde, dada = "", False
            plantillas = ("¿Qué tengo el {fecha}?", "¿Tengo algo el {fecha}?",
                          "¿Estoy libre el {fecha}?")
        else:
            plantillas = ("¿Qué tengo el {fecha}? Míralo en {donde}.",
                          "Mira en {donde} qué hay el {fecha}.",
                          "¿Qué hay apuntado en {donde} para el {fecha}?",
                          "¿Tengo algo el {fecha}? Está en {donde}.",
                          "Consulte en {donde} qué tengo el {fecha}, por favor.")
        pedido = _pedido(azar, plantillas, fecha=fecha, donde=donde)

        forma = azar.randrange(2) if amplio else 0

        def responde(ruta, agenda):
            for linea in agenda.splitlines():
                if linea.startswith(fecha + ": "):
                    que = linea.split(': ', 1)[1]
                    return (f"El {fecha} tienes {que}.", f"Según {ruta}, el {fecha} tienes {que}.")[forma]
            return (f"El {fecha} no tienes nada en la agenda.",
                    f"No hay nada el {fecha} en {ruta}: lo tienes libre.")[forma]
    else:
        plantillas = ("¿Cuándo tengo {evento}? Míralo en {donde}.",
                      "Busca en {donde} cuándo tengo {evento}.",
                      "¿Qué día tengo {evento}? Está en {donde}.")
        if azar.random() < 0.3:
            donde, dada = "", False
            plantillas = ("¿Cuándo tengo {evento}?", "¿Qué día era {evento}?",
                          "¿Para cuándo tengo {evento}?")
        pedido = _pedido(azar, plantillas, evento=evento, donde=donde)

        forma = azar.randrange(2) if amplio else 0

        def responde(ruta, agenda):
            for linea in agenda.splitlines():
                if linea.endswith(": " + evento):
                    cuando = linea.split(': ', 1)[0]
                    return (f"Tienes {evento} el {cuando}.", f"Es el {cuando}: {evento}, según {ruta}.")[forma]
            raise ValueError(f"el modelo ideal no encuentra «{evento}» en {ruta}")
    return Tarea("agenda", pedido, casa["entorno"], [], _plan_lee(agenda_txt, dada, responde),
                 _sin_cambios(fecha, evento))


def _tarea_directo(azar, variados=False, amplio=False):
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    que = azar.randrange(len(_CHARLA) + 2)
    if que < len(_CHARLA):
        pedidos, final, dice = _CHARLA[que]
        pedido = _pedido(azar, pedidos)
    elif que == len(_CHARLA):
        dice = azar.choice(_PERSONAS)
        pedido = _pedido(azar, ("Hola, soy {p}.", "¡Buenas! Me llamo {p}.", "Hola, aquí {p}."),
                         p=dice)
        final = f"¡Hola, {dice}! ¿En qué te ayudo con tus ficheros?"
    else:
        dia = azar.randrange(7)
        dice = _DIAS[(dia + 1) % 7]
        pedido = _pedido(azar, ("¿Qué día va después del {d}?",
                                "¿Qué día viene después del {d}?"),
                         d=_DIAS[dia])
        final = f"Después del {_DIAS[dia]} viene el {dice}."
    return Tarea("directo", pedido, casa["entorno"], [], _contesta(final), _sin_cambios(dice))
