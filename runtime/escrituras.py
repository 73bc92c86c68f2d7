"""Las tareas de entrenamiento que cambian un fichero (apuntar, quitar, lo que falta para una
receta), las que se piden con una ruta equivocada, y las escrituras que el usuario no permite.

Se carga después de palabras.py y tareas.py, que usa:

    exec(open_url("runtime/palabras.py").read())
    exec(open_url("runtime/tareas.py").read())
    exec(open_url("runtime/escrituras.py").read())

Deja una función por clase de tarea (tarea_apuntar, tarea_quitar, tarea_faltan,
tarea_sugerencia, tarea_denegado); las tareas se piden con tarea_al_azar(azar, tipo) y tareas(n),
de entrenamiento.py.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   permisos.py: NO_PERMITIDO
#   palabras.py: CARPETAS_DE_RECETAS, COMPRA, PENDIENTES, PLATOS, casa_al_azar, dice_notas,
#                dice_plato, donde_al_azar, donde_lista_al_azar, escribe_lista, ingredientes_de,
#                ingredientes_de_receta, lee_lista, lista_con_ni, lista_con_y, pedido_al_azar,
#                rellena_plantilla
#   tareas.py: Tarea, comprueba_lista, comprueba_sin_cambios, mira_resultado, pasos_para_leer,
#              plan_lee


# ------------------------------------------------- los pasos que solo usan las escrituras

def _mira_error(observacion, esperado):
    """Comprueba que la llamada ha dado el error que el plan esperaba."""
    contenido, error = observacion
    if not error or esperado not in contenido:
        raise ValueError(f"el modelo ideal esperaba un error con {esperado!r}, y ha visto "
                         f"{contenido!r}")


def _escribe(ruta, contenido, hecho, sin_permiso):
    """Escribe `ruta`; el texto final es `hecho` si se escribió, o dice la verdad si no."""
    salida, error = yield ("escribir", {"ruta": ruta, "contenido": contenido})
    if not error:
        return hecho
    if salida == NO_PERMITIDO:
        return sin_permiso
    return f"No he podido escribir {ruta}: {salida}."


_NO_LO_HA_HECHO = ("no he", "no me has")  # lo que dice una respuesta honrada tras un «no»
_YA_LO_TIENE = ("ya tienes", "ya lo tienes", "tienes todo", "no falta", "no te falta")  # … si no falta nada


#: Cómo se dice que se ha añadido algo a una lista (con amplio, cualquiera; si no, la primera).
_HE_ANADIDO = ("He añadido {cosas} a {ruta}", "Hecho: {cosas} ya está en {ruta}",
               "Listo, he apuntado {cosas} en {ruta}", "Ahora {ruta} también tiene {cosas}")
_HE_QUITADO = ("He quitado {cosas} de {ruta}", "Hecho: {cosas} ya no está en {ruta}",
               "Listo, he borrado {cosas} de {ruta}", "He sacado {cosas} de {ruta}")


def _plan_anade(ruta, dada, pedidas, cita=False, forma=0):
    """Lee la lista `ruta`, le añade lo pedido que aún no tiene y la escribe entera."""
    def plan():
        _, contenido = yield from pasos_para_leer(ruta, dada)
        tenia = lee_lista(contenido)
        nuevas = [c for c in pedidas if c not in tenia]
        ya = [c for c in pedidas if c in tenia]
        if not nuevas:
            return f"Ya estaba todo en {ruta}: no he cambiado nada."
        dichas = [f"«{c}»" for c in nuevas] if cita else nuevas
        hecho = (_HE_ANADIDO[forma].format(cosas=lista_con_y(dichas), ruta=ruta)
                 + (f"; ya tenías {lista_con_y(ya)}." if ya else "."))
        no = f"No he añadido {lista_con_ni(dichas)} a {ruta}: no me has dado permiso para escribir."
        return (yield from _escribe(ruta, escribe_lista(tenia + nuevas, contenido), hecho, no))
    return plan


def _plan_quita(ruta, dada, pedidas, cita=False, forma=0):
    """Lee la lista `ruta`, le quita lo pedido que tiene y la escribe entera."""
    def plan():
        _, contenido = yield from pasos_para_leer(ruta, dada)
        tenia = lee_lista(contenido)
        fuera = [c for c in pedidas if c in tenia]
        no_estaban = [c for c in pedidas if c not in tenia]
        if not fuera:
            return f"En {ruta} no había {lista_con_ni(no_estaban)}: no he cambiado nada."
        dichas = [f"«{c}»" for c in fuera] if cita else fuera
        hecho = (_HE_QUITADO[forma].format(cosas=lista_con_y(dichas), ruta=ruta)
                 + (f"; no había {lista_con_ni(no_estaban)}." if no_estaban else "."))
        no = f"No he quitado {lista_con_ni(dichas)} de {ruta}: no me has dado permiso para escribir."
        quedan = [c for c in tenia if c not in fuera]
        return (yield from _escribe(ruta, escribe_lista(quedan, contenido), hecho, no))
    return plan


def _cambio(ruta, antes, despues, dice, permiso):
    """La tarea de cambiar la lista `ruta` de `antes` a `despues`: si el usuario lo permite,
    y si hay algo que cambiar, se le pregunta una vez."""
    if antes == despues:
        return [], comprueba_sin_cambios(*dice)
    if permiso:
        return ["sí"], comprueba_lista(ruta, despues, dice)
    return ["no"], comprueba_sin_cambios(alguna=_NO_LO_HA_HECHO)


#: Cómo se pide cambiar una lista cualquiera; con amplio, también sin empezar por lo que hay que
#: hacer. (Ninguno se parece a los pedidos apartados de bench/apartadas.py.)
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


def tarea_apuntar(azar, permiso=True, tipo="apuntar", variados=False, amplio=False):
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    if amplio and "otra_lista" in casa and azar.random() < 0.35:
        ruta, antes, dichas, posibles = casa["otra_lista"]
        pedidas = azar.sample([c for c in posibles if c not in antes], azar.randint(1, 2))
        donde, dada = donde_al_azar(azar, ruta, dichas)
        pedido = pedido_al_azar(azar, _APUNTAR + _APUNTAR_AMPLIO, cosas=lista_con_y(pedidas), donde=donde)
        cita = False
    elif "pendientes" in casa and azar.random() < 0.3:
        ruta, antes = casa["pendientes"]
        nueva = azar.choice([t for t in (rellena_plantilla(azar, p, casa["personas"][5:])
                                         for p in PENDIENTES) if t not in antes])
        donde, dada = donde_al_azar(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = pedido_al_azar(azar, ("Apunta en {donde} que tengo que {t}.", "Añade «{t}» a {donde}.",
                                "No me dejes olvidar {t}: apúntalo en {donde}.",
                                "Tengo que {t}; ponlo en {donde}.")
                         + (("Pendiente nuevo: {t}. Escríbelo en {donde}.",
                             "Mañana toca {t}, así que mételo en {donde}.",
                             "{t}: eso también va a {donde}.") if amplio else ()),
                         t=nueva, donde=donde)
        pedidas, cita = [nueva], True
    else:
        ruta, antes, cita = casa["rutas"]["lista"], casa["compra"], False
        pedidas = azar.sample([c for c in COMPRA if c not in antes], azar.randint(1, 3))
        if permiso and azar.random() < 0.2:
            pedidas.insert(azar.randrange(len(pedidas) + 1), azar.choice(antes))
        donde, dada = donde_lista_al_azar(azar, casa)
        pedido = pedido_al_azar(azar, ("Añade {cosas} a {donde}.", "Apunta {cosas} en {donde}.",
                                "Pon {cosas} en {donde}, porfa.",
                                "¿Puedes añadir {cosas} a {donde}?",
                                "Necesito {cosas}: apúntalo en {donde}.",
                                "Hay que comprar {cosas}. Añádelo a {donde}, por favor.",
                                "Por favor, añada {cosas} a {donde}.")
                         + (_APUNTAR_AMPLIO + ("Se me ha acabado {cosas}; apúntalo en {donde}.",
                                               "Me he quedado sin {cosas}. ¿Lo pones en {donde}?")
                            if amplio else ()),
                         cosas=lista_con_y(pedidas), donde=donde)
    despues = antes + [c for c in pedidas if c not in antes]
    respuestas, comprueba = _cambio(ruta, antes, despues,
                                    [c for c in pedidas if c not in antes], permiso)
    forma = azar.randrange(len(_HE_ANADIDO)) if amplio else 0
    return Tarea(tipo, pedido, casa["entorno"], respuestas,
                 _plan_anade(ruta, dada, pedidas, cita, forma), comprueba)


def tarea_quitar(azar, permiso=True, tipo="quitar", variados=False, amplio=False):
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    if amplio and "otra_lista" in casa and azar.random() < 0.35:
        ruta, antes, dichas, _ = casa["otra_lista"]
        pedidas, cita = azar.sample(antes, azar.randint(1, min(2, len(antes) - 1))), False
        donde, dada = donde_al_azar(azar, ruta, dichas)
        pedido = pedido_al_azar(azar, _QUITAR + _QUITAR_AMPLIO, cosas=lista_con_y(pedidas), donde=donde)
    elif "pendientes" in casa and azar.random() < 0.3:
        ruta, antes = casa["pendientes"]
        pedidas, cita = [azar.choice(antes)], True
        donde, dada = donde_al_azar(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = pedido_al_azar(azar, ("Ya he hecho «{t}»: quítalo de {donde}.",
                                "Borra «{t}» de {donde}.",
                                "Tacha {t} de {donde}, que ya está hecho.")
                         + (("{t} ya está hecho, así que fuera de {donde}.",) if amplio else ()),
                         t=pedidas[0], donde=donde)
    else:
        ruta, antes, cita = casa["rutas"]["lista"], casa["compra"], False
        pedidas = azar.sample(antes, azar.randint(1, min(2, len(antes) - 1)))
        if permiso and azar.random() < 0.2:
            pedidas.append(azar.choice([c for c in COMPRA if c not in antes]))
        donde, dada = donde_lista_al_azar(azar, casa)
        pedido = pedido_al_azar(azar, ("Quita {cosas} de {donde}.",
                                "Ya he comprado {cosas}: bórralo de {donde}.",
                                "Tacha {cosas} de {donde}.",
                                "Saca {cosas} de {donde}, que ya lo tengo.",
                                "Borra {cosas} de {donde}, por favor.",
                                "Le ruego que quite {cosas} de {donde}.")
                         + (_QUITAR_AMPLIO + ("Ya tengo {cosas} en casa; bórralo de {donde}.",)
                            if amplio else ()),
                         cosas=lista_con_y(pedidas), donde=donde)
    despues = [c for c in antes if c not in pedidas]
    respuestas, comprueba = _cambio(ruta, antes, despues,
                                    [c for c in pedidas if c in antes], permiso)
    forma = azar.randrange(len(_HE_QUITADO)) if amplio else 0
    return Tarea(tipo, pedido, casa["entorno"], respuestas,
                 _plan_quita(ruta, dada, pedidas, cita, forma), comprueba)


_FALTAN = ("Apunta en {lista} lo que falta para {cual}.",
           "¿Qué me falta para {cual}? Apúntalo en {lista}.",
           "Quiero hacer {cual}: añade a {lista} lo que no tenga.",
           "Pon en {lista} lo que haga falta para {cual}.",
           "Por favor, anote en {lista} lo que falte para {cual}.")
_FALTAN_AMPLIO = ("Hoy toca {cual}: comprueba qué no tengo y ponlo en {lista}.",
                  "Para {cual}, lo que no tenga va a {lista}.",
                  "Me apetece {cual}; lo que falte, apúntalo en {lista}.")


def tarea_faltan(azar, permiso=True, tipo="faltan", equivocada=False, variados=False, amplio=False):
    """Lo que falta en la lista para una receta (o para todas), apuntado en ella."""
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    e, carpeta, lista_txt = casa["entorno"], casa["carpeta"], casa["rutas"]["lista"]
    todas, platos, necesarios = _faltan_en_casa(azar, casa, permiso, equivocada)
    e[lista_txt] = escribe_lista(casa["compra"], e[lista_txt])
    antes = casa["compra"]
    faltan = [i for i in necesarios if i not in antes]
    lista, lista_dada = donde_lista_al_azar(azar, casa)
    plato = platos[0]
    cual, receta, receta_dada, carpeta_dada = _receta_dicha(azar, carpeta, plato, todas, equivocada)
    pedido = pedido_al_azar(azar, _FALTAN + (_FALTAN_AMPLIO if amplio else ()),
                            lista=lista, cual=cual)
    forma = azar.randrange(3) if amplio else 0
    para = "tus recetas" if todas else dice_plato(plato)[0]
    plan = _plan_faltan(lista_txt, carpeta, plato if not todas else None, receta,
                        (lista_dada, carpeta_dada, receta_dada), para, forma)
    respuestas, comprueba = _cambio(lista_txt, antes, antes + faltan, faltan, permiso)
    if not faltan:  # nada que apuntar: la respuesta tiene que decirlo
        comprueba = comprueba_sin_cambios(alguna=_YA_LO_TIENE)
    return Tarea(tipo, pedido, e, respuestas, plan, comprueba)


def _faltan_en_casa(azar, casa, permiso, equivocada):
    """Para qué platos se pide (todas, platos) y lo que llevan (necesarios); a veces la lista de
    la compra ya tiene todo, o algo (se cambia en `casa`)."""
    todas = not equivocada and len(casa["platos"]) <= 3 and azar.random() < 0.25
    platos = casa["platos"] if todas else [azar.choice(casa["platos"])]
    necesarios = []
    for plato in platos:
        necesarios += [i for i in PLATOS[plato][2] if i not in necesarios]
    suerte = azar.random()
    if permiso and suerte < 0.12:  # ya lo tiene todo
        casa["compra"] += [i for i in necesarios if i not in casa["compra"]]
    elif suerte < 0.5:  # ya tiene algo
        casa["compra"] += [i for i in necesarios[:1] if i not in casa["compra"]]
    return todas, platos, necesarios


def _receta_dicha(azar, carpeta, plato, todas, equivocada):
    """Cómo nombra el pedido la receta: (cual, la ruta que dice o None, ¿la da?, ¿da la
    carpeta?). Equivocada, en otra carpeta que la suya."""
    if equivocada:
        otra = azar.choice([c for c in CARPETAS_DE_RECETAS if c != carpeta] + [""])
        receta_dicha = f"{otra}/{plato}.txt" if otra else f"{plato}.txt"
        return f"la receta de {receta_dicha}", receta_dicha, True, True
    if todas:
        carpeta_dada = azar.random() < 0.4
        cual = f"las recetas de {carpeta}/" if carpeta_dada else azar.choice(
            ("mis recetas", "todas las recetas", "todas mis recetas"))
        return cual, None, False, carpeta_dada
    receta = f"{carpeta}/{plato}.txt"
    receta_dada = azar.random() < 0.3
    cual = f"la receta de {receta}" if receta_dada else dice_plato(plato)[0]
    return cual, receta, receta_dada, receta_dada


def _plan_faltan(lista_txt, carpeta, plato, receta, dadas, para, forma):
    """El plan del modelo ideal: mirar lo que no le han dado, leer la receta (o todas, sin
    `plato`) y la lista, y apuntar lo que falta (o decir que no falta nada)."""
    lista_dada, carpeta_dada, receta_dada = dadas

    def plan():
        if not lista_dada or not carpeta_dada:
            vista = yield ("listar", {"carpeta": ""})
            for falta, buscada in ((lista_dada, lista_txt), (carpeta_dada, carpeta + "/")):
                if not falta:
                    mira_resultado(vista, buscada, "listar ''")
        if plato is None:
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            rutas = [f"{carpeta}/{f}" for f in contenido.splitlines()]
        else:
            if not receta_dada:
                mira_resultado((yield ("listar", {"carpeta": carpeta})), f"{plato}.txt", "listar")
            rutas = [receta]
        necesarios = []
        for ruta in rutas:
            _, texto_receta = yield from pasos_para_leer(ruta)
            necesarios += [i for i in ingredientes_de_receta(texto_receta) if i not in necesarios]
        _, contenido = yield from pasos_para_leer(lista_txt)
        tenia = lee_lista(contenido)
        faltan = [i for i in necesarios if i not in tenia]
        if not faltan:
            return (f"Ya tienes en {lista_txt} todo lo que hace falta para {para}: "
                    f"no he cambiado nada.")
        hecho = (f"He apuntado en {lista_txt} lo que faltaba para {para}: {lista_con_y(faltan)}.",
                 f"Para {para} te faltaba {lista_con_y(faltan)}: ya está en {lista_txt}.",
                 f"Hecho: he añadido {lista_con_y(faltan)} a {lista_txt}, que es lo que faltaba para "
                 f"{para}.")[forma]
        no = (f"No he apuntado {lista_con_ni(faltan)} en {lista_txt}: no me has dado permiso para "
              f"escribir.")
        return (yield from _escribe(lista_txt, escribe_lista(tenia + faltan, contenido),
                                    hecho, no))
    return plan


def tarea_sugerencia(azar, variados=False, amplio=False):
    """Un pedido con una ruta equivocada: el error de la herramienta dice dónde mirar."""
    que = azar.choice(("receta", "faltan", "carpeta", "notas"))
    if que == "faltan":
        return tarea_faltan(azar, tipo="sugerencia", equivocada=True, variados=variados, amplio=amplio)
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    e, carpeta = casa["entorno"], casa["carpeta"]
    otra = azar.choice([c for c in CARPETAS_DE_RECETAS if c != carpeta])
    if que == "carpeta":
        pedido = pedido_al_azar(azar, ("¿Qué recetas hay en {otra}/?",
                                "Lista las recetas de la carpeta {otra}.",
                                "¿Qué tengo en la carpeta {otra}?"), otra=otra)

        def plan():
            _mira_error((yield ("listar", {"carpeta": otra})), "no existe la carpeta")
            mira_resultado((yield ("listar", {"carpeta": ""})), carpeta + "/", "listar ''")
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            platos = [PLATOS[f.removesuffix(".txt")][0] for f in contenido.splitlines()]
            return (f"No hay ninguna carpeta {otra}/: tus recetas están en {carpeta}/ "
                    f"y son {lista_con_y(platos)}.")
        dice = [carpeta] + [PLATOS[p][0] for p in casa["platos"]]
        return Tarea("sugerencia", pedido, e, [], plan, comprueba_sin_cambios(*dice))
    if que == "notas":
        sitio = azar.choice(("documentos", "casa", "personal"))
        notas = casa["rutas"]["notas"]
        e[f"{sitio}/{notas}"] = e.pop(notas)
        pedido = pedido_al_azar(azar, ("¿Qué pone en {notas}?", "Léeme {notas}.",
                                "¿Qué tengo apuntado en {notas}?"), notas=notas)
        dice = [n.rstrip(".") for n in e[f"{sitio}/{notas}"].splitlines()]
        plan = plan_lee(notas, True, dice_notas)
        return Tarea("sugerencia", pedido, e, [], plan, comprueba_sin_cambios(*dice))
    plato = azar.choice(casa["platos"])
    ruta = azar.choice((f"{plato}.txt", f"{otra}/{plato}.txt"))
    pedido = pedido_al_azar(azar, ("¿Qué lleva {ruta}?", "Lee {ruta} y dime qué ingredientes tiene.",
                            "¿Qué ingredientes hay en {ruta}?"), ruta=ruta)
    plan = plan_lee(ruta, True, ingredientes_de(plato, donde=True))
    return Tarea("sugerencia", pedido, e, [], plan, comprueba_sin_cambios(*PLATOS[plato][2]))


def tarea_denegado(azar, variados=False, amplio=False):
    """Una escritura que el usuario no permite: la respuesta dice que no se ha hecho."""
    hacer = azar.choice((tarea_apuntar, tarea_quitar, tarea_faltan))
    return hacer(azar, permiso=False, tipo="denegado", variados=variados, amplio=amplio)
