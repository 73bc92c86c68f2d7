"""Las tareas de entrenamiento que cambian un fichero (apuntar, quitar, lo que falta para una
receta), las que se piden con una ruta equivocada, y las escrituras que el usuario no permite.

Se carga después de palabras.py y tareas.py, que usa:

    exec(open_url("runtime/palabras.py").read())
    exec(open_url("runtime/tareas.py").read())
    exec(open_url("runtime/escrituras.py").read())

Todo lo que deja empieza por «_»: las tareas se piden con tarea_al_azar(azar, tipo) y
tareas(n), de tareas.py.
"""


#: Cómo se dice que se ha añadido algo a una lista (con amplio, cualquiera; si no, la primera).
_HE_ANADIDO = ("He añadido {cosas} a {ruta}", "Hecho: {cosas} ya está en {ruta}",
               "Listo, he apuntado {cosas} en {ruta}", "Ahora {ruta} también tiene {cosas}")
_HE_QUITADO = ("He quitado {cosas} de {ruta}", "Hecho: {cosas} ya no está en {ruta}",
               "Listo, he borrado {cosas} de {ruta}", "He sacado {cosas} de {ruta}")


def _plan_anade(ruta, dada, pedidas, cita=False, forma=0):
    """Lee la lista `ruta`, le añade lo pedido que aún no tiene y la escribe entera."""
    def plan():
        _, contenido = yield from _lee(ruta, dada)
        tenia = _lee_lista(contenido)
        nuevas = [c for c in pedidas if c not in tenia]
        ya = [c for c in pedidas if c in tenia]
        if not nuevas:
            return f"Ya estaba todo en {ruta}: no he cambiado nada."
        dichas = [f"«{c}»" for c in nuevas] if cita else nuevas
        hecho = (_HE_ANADIDO[forma].format(cosas=_y(dichas), ruta=ruta)
                 + (f"; ya tenías {_y(ya)}." if ya else "."))
        no = f"No he añadido {_ni(dichas)} a {ruta}: no me has dado permiso para escribir."
        return (yield from _escribe(ruta, _escribe_lista(tenia + nuevas, contenido), hecho, no))
    return plan


def _plan_quita(ruta, dada, pedidas, cita=False, forma=0):
    """Lee la lista `ruta`, le quita lo pedido que tiene y la escribe entera."""
    def plan():
        _, contenido = yield from _lee(ruta, dada)
        tenia = _lee_lista(contenido)
        fuera = [c for c in pedidas if c in tenia]
        no_estaban = [c for c in pedidas if c not in tenia]
        if not fuera:
            return f"En {ruta} no había {_ni(no_estaban)}: no he cambiado nada."
        dichas = [f"«{c}»" for c in fuera] if cita else fuera
        hecho = (_HE_QUITADO[forma].format(cosas=_y(dichas), ruta=ruta)
                 + (f"; no había {_ni(no_estaban)}." if no_estaban else "."))
        no = f"No he quitado {_ni(dichas)} de {ruta}: no me has dado permiso para escribir."
        quedan = [c for c in tenia if c not in fuera]
        return (yield from _escribe(ruta, _escribe_lista(quedan, contenido), hecho, no))
    return plan


def _cambio(ruta, antes, despues, dice, permiso):
    """La tarea de cambiar la lista `ruta` de `antes` a `despues`: si el usuario lo permite,
    y si hay algo que cambiar, se le pregunta una vez."""
    if antes == despues:
        return [], _sin_cambios(*dice)
    if permiso:
        return ["sí"], _lista_final(ruta, despues, dice)
    return ["no"], _sin_cambios(alguna=_NO_LO_HA_HECHO)


#: Cómo se pide cambiar una lista cualquiera; con amplio, también sin empezar por lo que hay que
#: hacer. (Ninguno se parece a los pedidos apartados de tests/bench/apartadas.py.)
_APUNTAR = ("Añade {cosas} a {donde}.", "Apunta {cosas} en {donde}.",
            "Pon {cosas} en {donde}, porfa.", "¿Puedes añadir {cosas} a {donde}?",
            "Necesito {cosas}: apúntalo en {donde}.", "Por favor, añada {cosas} a {donde}.")
_APUNTAR_AMPLIO = ("{cosas}: eso va a {donde}, apúntalo.",
                   "Para el finde quiero {cosas}, así que añádelo a {donde}.",
                   "Falta {cosas} en {donde}; escríbelo.")
_QUITAR = ("Quita {cosas} de {donde}.", "Tacha {cosas} de {donde}.",
           "Borra {cosas} de {donde}, por favor.", "Le ruego que quite {cosas} de {donde}.")
_QUITAR_AMPLIO = ("{cosas} ya no hace falta en {donde}: táchalo.",
                  "Cambio de planes: {cosas} fuera de {donde}.",
                  "En {donde} sobra {cosas}; quítalo.")


def _tarea_apuntar(azar, permiso=True, tipo="apuntar", variados=False, amplio=False):
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    if amplio and "otra_lista" in casa and azar.random() < 0.35:
        ruta, antes, dichas, posibles = casa["otra_lista"]
        pedidas = azar.sample([c for c in posibles if c not in antes], azar.randint(1, 2))
        donde, dada = _donde(azar, ruta, dichas)
        pedido = _pedido(azar, _APUNTAR + _APUNTAR_AMPLIO, cosas=_y(pedidas), donde=donde)
        cita = False
    elif "pendientes" in casa and azar.random() < 0.3:
        ruta, antes = casa["pendientes"]
        nueva = azar.choice([t for t in (_rellena(azar, p, casa["personas"][5:])
                                         for p in _PENDIENTES) if t not in antes])
        donde, dada = _donde(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = _pedido(azar, ("Apunta en {donde} que tengo que {t}.", "Añade «{t}» a {donde}.",
                                "No me dejes olvidar {t}: apúntalo en {donde}.",
                                "Tengo que {t}; ponlo en {donde}.")
                         + (("Pendiente nuevo: {t}. Escríbelo en {donde}.",
                             "Mañana toca {t}, así que mételo en {donde}.",
                             "{t}: eso también va a {donde}.") if amplio else ()),
                         t=nueva, donde=donde)
        pedidas, cita = [nueva], True
    else:
        ruta, antes, cita = casa["rutas"]["lista"], casa["compra"], False
        pedidas = azar.sample([c for c in _COMPRA if c not in antes], azar.randint(1, 3))
        if permiso and azar.random() < 0.2:
            pedidas.insert(azar.randrange(len(pedidas) + 1), azar.choice(antes))
        donde, dada = _donde_lista(azar, casa)
        pedido = _pedido(azar, ("Añade {cosas} a {donde}.", "Apunta {cosas} en {donde}.",
                                "Pon {cosas} en {donde}, porfa.",
                                "¿Puedes añadir {cosas} a {donde}?",
                                "Necesito {cosas}: apúntalo en {donde}.",
                                "Hay que comprar {cosas}. Añádelo a {donde}, por favor.",
                                "Por favor, añada {cosas} a {donde}.")
                         + (_APUNTAR_AMPLIO + ("Se me ha acabado {cosas}; apúntalo en {donde}.",
                                               "Me he quedado sin {cosas}. ¿Lo pones en {donde}?")
                            if amplio else ()),
                         cosas=_y(pedidas), donde=donde)
    despues = antes + [c for c in pedidas if c not in antes]
    respuestas, comprueba = _cambio(ruta, antes, despues,
                                    [c for c in pedidas if c not in antes], permiso)
    forma = azar.randrange(len(_HE_ANADIDO)) if amplio else 0
    return Tarea(tipo, pedido, casa["entorno"], respuestas,
                 _plan_anade(ruta, dada, pedidas, cita, forma), comprueba)


def _tarea_quitar(azar, permiso=True, tipo="quitar", variados=False, amplio=False):
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    if amplio and "otra_lista" in casa and azar.random() < 0.35:
        ruta, antes, dichas, _ = casa["otra_lista"]
        pedidas, cita = azar.sample(antes, azar.randint(1, min(2, len(antes) - 1))), False
        donde, dada = _donde(azar, ruta, dichas)
        pedido = _pedido(azar, _QUITAR + _QUITAR_AMPLIO, cosas=_y(pedidas), donde=donde)
    elif "pendientes" in casa and azar.random() < 0.3:
        ruta, antes = casa["pendientes"]
        pedidas, cita = [azar.choice(antes)], True
        donde, dada = _donde(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = _pedido(azar, ("Ya he hecho «{t}»: quítalo de {donde}.",
                                "Borra «{t}» de {donde}.",
                                "Tacha {t} de {donde}, que ya está hecho.")
                         + (("{t} ya está hecho, así que fuera de {donde}.",) if amplio else ()),
                         t=pedidas[0], donde=donde)
    else:
        ruta, antes, cita = casa["rutas"]["lista"], casa["compra"], False
        pedidas = azar.sample(antes, azar.randint(1, min(2, len(antes) - 1)))
        if permiso and azar.random() < 0.2:
            pedidas.append(azar.choice([c for c in _COMPRA if c not in antes]))
        donde, dada = _donde_lista(azar, casa)
        pedido = _pedido(azar, ("Quita {cosas} de {donde}.",
                                "Ya he comprado {cosas}: bórralo de {donde}.",
                                "Tacha {cosas} de {donde}.",
                                "Saca {cosas} de {donde}, que ya lo tengo.",
                                "Borra {cosas} de {donde}, por favor.",
                                "Le ruego que quite {cosas} de {donde}.")
                         + (_QUITAR_AMPLIO + ("Ya tengo {cosas} en casa; bórralo de {donde}.",)
                            if amplio else ()),
                         cosas=_y(pedidas), donde=donde)
    despues = [c for c in antes if c not in pedidas]
    respuestas, comprueba = _cambio(ruta, antes, despues,
                                    [c for c in pedidas if c in antes], permiso)
    forma = azar.randrange(len(_HE_QUITADO)) if amplio else 0
    return Tarea(tipo, pedido, casa["entorno"], respuestas,
                 _plan_quita(ruta, dada, pedidas, cita, forma), comprueba)


def _tarea_faltan(azar, permiso=True, tipo="faltan", equivocada=False, variados=False, amplio=False):
    """Lo que falta en la lista para una receta (o para todas), apuntado en ella."""
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    e, carpeta, lista_txt = casa["entorno"], casa["carpeta"], casa["rutas"]["lista"]
    todas = not equivocada and len(casa["platos"]) <= 3 and azar.random() < 0.25
    platos = casa["platos"] if todas else [azar.choice(casa["platos"])]
    necesarios = []
    for plato in platos:
        necesarios += [i for i in _PLATOS[plato][2] if i not in necesarios]
    suerte = azar.random()
    if permiso and suerte < 0.12:  # ya lo tiene todo
        casa["compra"] += [i for i in necesarios if i not in casa["compra"]]
    elif suerte < 0.5:  # ya tiene algo
        casa["compra"] += [i for i in necesarios[:1] if i not in casa["compra"]]
    e[lista_txt] = _escribe_lista(casa["compra"], e[lista_txt])
    antes = casa["compra"]
    faltan = [i for i in necesarios if i not in antes]
    lista, lista_dada = _donde_lista(azar, casa)
    plato = platos[0]
    receta = f"{carpeta}/{plato}.txt"
    if equivocada:
        otra = azar.choice([c for c in _CARPETAS_DE_RECETAS if c != carpeta] + [""])
        receta_dicha = f"{otra}/{plato}.txt" if otra else f"{plato}.txt"
        cual, receta_dada, carpeta_dada = f"la receta de {receta_dicha}", True, True
    elif todas:
        receta_dicha, receta_dada, carpeta_dada = None, False, azar.random() < 0.4
        cual = f"las recetas de {carpeta}/" if carpeta_dada else azar.choice(
            ("mis recetas", "todas las recetas", "todas mis recetas"))
    else:
        receta_dicha = receta
        receta_dada = carpeta_dada = azar.random() < 0.3
        cual = f"la receta de {receta}" if receta_dada else _plato(plato)[0]
    pedido = _pedido(azar, ("Apunta en {lista} lo que falta para {cual}.",
                            "¿Qué me falta para {cual}? Apúntalo en {lista}.",
                            "Quiero hacer {cual}: añade a {lista} lo que no tenga.",
                            "Pon en {lista} lo que haga falta para {cual}.",
                            "Por favor, anote en {lista} lo que falte para {cual}.")
                     + (("Hoy toca {cual}: comprueba qué no tengo y ponlo en {lista}.",
                         "Para {cual}, lo que no tenga va a {lista}.",
                         "Me apetece {cual}; lo que falte, apúntalo en {lista}.")
                        if amplio else ()),
                     lista=lista, cual=cual)
    forma = azar.randrange(3) if amplio else 0
    para = "tus recetas" if todas else _plato(plato)[0]

    def plan():
        if not lista_dada or not carpeta_dada:
            vista = yield ("listar", {"carpeta": ""})
            for falta, buscada in ((lista_dada, lista_txt), (carpeta_dada, carpeta + "/")):
                if not falta:
                    _mira(vista, buscada, "listar ''")
        if todas:
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            rutas = [f"{carpeta}/{f}" for f in contenido.splitlines()]
        else:
            if not receta_dada:
                _mira((yield ("listar", {"carpeta": carpeta})), f"{plato}.txt", "listar")
            rutas = [receta_dicha]
        necesarios = []
        for ruta in rutas:
            _, texto_receta = yield from _lee(ruta)
            necesarios += [i for i in _ingredientes(texto_receta) if i not in necesarios]
        _, contenido = yield from _lee(lista_txt)
        tenia = _lee_lista(contenido)
        faltan = [i for i in necesarios if i not in tenia]
        if not faltan:
            return (f"Ya tienes en {lista_txt} todo lo que hace falta para {para}: "
                    f"no he cambiado nada.")
        hecho = (f"He apuntado en {lista_txt} lo que faltaba para {para}: {_y(faltan)}.",
                 f"Para {para} te faltaba {_y(faltan)}: ya está en {lista_txt}.",
                 f"Hecho: he añadido {_y(faltan)} a {lista_txt}, que es lo que faltaba para "
                 f"{para}.")[forma]
        no = (f"No he apuntado {_ni(faltan)} en {lista_txt}: no me has dado permiso para "
              f"escribir.")
        return (yield from _escribe(lista_txt, _escribe_lista(tenia + faltan, contenido),
                                    hecho, no))
    respuestas, comprueba = _cambio(lista_txt, antes, antes + faltan, faltan, permiso)
    if not faltan:  # nada que apuntar: la respuesta tiene que decirlo
        comprueba = _sin_cambios(alguna=_YA_LO_TIENE)
    return Tarea(tipo, pedido, e, respuestas, plan, comprueba)


def _tarea_sugerencia(azar, variados=False, amplio=False):
    """Un pedido con una ruta equivocada: el error de la herramienta dice dónde mirar."""
    que = azar.choice(("receta", "faltan", "carpeta", "notas"))
    if que == "faltan":
        return _tarea_faltan(azar, tipo="sugerencia", equivocada=True, variados=variados, amplio=amplio)
    casa = _casa_al_azar(azar, variados=variados, amplio=amplio)
    e, carpeta = casa["entorno"], casa["carpeta"]
    otra = azar.choice([c for c in _CARPETAS_DE_RECETAS if c != carpeta])
    if que == "carpeta":
        pedido = _pedido(azar, ("¿Qué recetas hay en {otra}/?",
                                "Lista las recetas de la carpeta {otra}.",
                                "¿Qué tengo en la carpeta {otra}?"), otra=otra)

        def plan():
            _mira_error((yield ("listar", {"carpeta": otra})), "no existe la carpeta")
            _mira((yield ("listar", {"carpeta": ""})), carpeta + "/", "listar ''")
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            platos = [_PLATOS[f.removesuffix(".txt")][0] for f in contenido.splitlines()]
            return (f"No hay ninguna carpeta {otra}/: tus recetas están en {carpeta}/ "
                    f"y son {_y(platos)}.")
        dice = [carpeta] + [_PLATOS[p][0] for p in casa["platos"]]
        return Tarea("sugerencia", pedido, e, [], plan, _sin_cambios(*dice))
    if que == "notas":
        sitio = azar.choice(("documentos", "casa", "personal"))
        notas = casa["rutas"]["notas"]
        e[f"{sitio}/{notas}"] = e.pop(notas)
        pedido = _pedido(azar, ("¿Qué pone en {notas}?", "Léeme {notas}.",
                                "¿Qué tengo apuntado en {notas}?"), notas=notas)
        dice = [n.rstrip(".") for n in e[f"{sitio}/{notas}"].splitlines()]
        plan = _plan_lee(notas, True, _notas)
        return Tarea("sugerencia", pedido, e, [], plan, _sin_cambios(*dice))
    plato = azar.choice(casa["platos"])
    ruta = azar.choice((f"{plato}.txt", f"{otra}/{plato}.txt"))
    pedido = _pedido(azar, ("¿Qué lleva {ruta}?", "Lee {ruta} y dime qué ingredientes tiene.",
                            "¿Qué ingredientes hay en {ruta}?"), ruta=ruta)
    plan = _plan_lee(ruta, True, _ingredientes_de(plato, donde=True))
    return Tarea("sugerencia", pedido, e, [], plan, _sin_cambios(*_PLATOS[plato][2]))


def _tarea_denegado(azar, variados=False, amplio=False):
    """Una escritura que el usuario no permite: la respuesta dice que no se ha hecho."""
    hacer = azar.choice((_tarea_apuntar, _tarea_quitar, _tarea_faltan))
    return hacer(azar, permiso=False, tipo="denegado", variados=variados, amplio=amplio)
