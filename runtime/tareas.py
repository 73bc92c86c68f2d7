"""Tareas al azar para entrenar al modelo del curso: qué es una tarea (Tarea) y las que se
contestan leyendo o sin herramientas, sobre entornos al azar, cada una con su modelo ideal y su
comprobación.

Se carga después de entorno.py, permisos.py y palabras.py, y antes de escrituras.py y
entrenamiento.py (véase entrenamiento.py, que dice cómo se usa todo), y deja en tu espacio de
nombres Tarea, una función por clase de tarea (tarea_leer, tarea_listar, tarea_buscar,
tarea_agenda, tarea_directo: tarea_x(azar, variados=False, amplio=False) da una Tarea nueva) y
los pasos y comprobaciones que también usa escrituras.py (plan_lee, pasos_para_leer,
mira_resultado, comprueba_lista, comprueba_sin_cambios). Las tareas se piden con
tarea_al_azar(azar, tipo) y tareas(n), de entrenamiento.py.

Cada tarea tiene un plan: un generador que pide una llamada cada vez (yield (nombre, entrada)),
recibe lo que devolvió ((texto, es_error), como lo ve el modelo en M) y al final devuelve el
texto de la respuesta. Nunca adivina una ruta que el pedido no da: antes lista.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: llamada, muestra, texto
#   palabras.py: CHARLA, COMPRA, CUANTAS, DIAS, NOTAS, PENDIENTES, PERSONAS, PLATOS,
#                PREGUNTAS_DE_NOTAS, casa_al_azar, dice_notas, dice_plato, donde_al_azar,
#                donde_lista_al_azar, en_ficheros, ingredientes_de, lee_lista, lista_con_y,
#                palabra_suelta, pedido_al_azar, rellena_plantilla


# ------------------------------------------------------------------------ la tarea

class Tarea:
    """Un pedido sobre un entorno, cómo se comprueba que ha quedado hecho y su modelo ideal.

    Las hace tarea_al_azar. `plan` es una función sin argumentos que da un generador nuevo: pide
    una llamada en cada yield, (nombre, entrada), recibe lo que devolvió, (texto, es_error), y al
    terminar devuelve el texto de la respuesta. `comprueba(inicial, final, texto)` dice si la
    tarea ha quedado hecha (el texto le llega en minúsculas)."""

    def __init__(self, tipo, pedido, entorno, respuestas, plan, comprueba):
        self.tipo = tipo
        self.pedido = pedido
        self.entorno = dict(entorno)
        self.respuestas = list(respuestas)
        self._inicial = dict(entorno)
        self._plan = plan
        self._comprueba = comprueba

    def comprobar(self, entorno_final, texto_final):
        """¿Ha quedado hecha? Mira el entorno final (lo que hay escrito, y que nada más ha
        cambiado) y la respuesta final (que diga lo que se ha encontrado o hecho)."""
        if not isinstance(texto_final, str) or not texto_final.strip():
            return False
        return bool(self._comprueba(self._inicial, dict(entorno_final), texto_final.lower()))

    def modelo_ideal(self):
        """Un modelo nuevo, modelo(M, herramientas) -> bloques, que resuelve esta tarea: cada vez
        que lo llaman, repasa en M sus llamadas y lo que devolvieron, y da el paso siguiente."""
        plan = self._plan

        def modelo(M, herramientas=None):
            hechas = _llamadas_hechas(M)
            politica = plan()
            paso = _avanza(politica, None)
            for n, (ll, observacion) in enumerate(hechas, 1):
                if paso != (ll.get("name"), ll.get("input")):
                    raise ValueError(
                        f"el modelo ideal no reconoce la llamada {n} de M, {muestra(ll)}: "
                        f"esperaba {_describe(paso)}")
                paso = _avanza(politica, observacion)
            if isinstance(paso, str):
                return [texto(paso)]
            nombre, entrada = paso
            return [llamada(f"toolu_{len(hechas) + 1:02d}", nombre, **entrada)]
        return modelo

    def __repr__(self):
        return f"Tarea({self.tipo!r}, {self.pedido!r})"


def _avanza(politica, observacion):
    """El paso siguiente de la política: una llamada (nombre, entrada) o el texto final."""
    try:
        return politica.send(observacion)
    except StopIteration as fin:
        return fin.value


def _describe(paso):
    if isinstance(paso, str):
        return f"contestar {muestra(paso)}"
    nombre, entrada = paso
    return f"{nombre}({', '.join(f'{k}={v!r}' for k, v in entrada.items())})"


def _llamadas_hechas(M):
    """[(llamada, (texto, es_error))]: las llamadas del asistente en M, con su resultado."""
    llamadas, resultados = [], {}
    for mensaje in M:
        rol, contenido = mensaje
        for b in contenido if isinstance(contenido, list) else []:
            if rol == "asistente" and b.get("type") == "tool_use":
                llamadas.append(b)
            elif b.get("type") == "tool_result":
                resultados[b.get("tool_use_id")] = b
    hechas = []
    for ll in llamadas:
        r = resultados.get(ll.get("id"))
        if r is None:
            raise ValueError(f"en M falta el resultado de {muestra(ll)}: el modelo ideal decide "
                             f"mirando lo que devolvió cada llamada")
        contenido = r.get("content")
        if isinstance(contenido, list):
            contenido = "\n".join(b.get("text", "") for b in contenido)
        hechas.append((ll, (contenido or "", bool(r.get("is_error")))))
    return hechas


# ----------------------------------------------------- los pasos que comparten los planes

def mira_resultado(observacion, esperado, donde):
    """Comprueba que el resultado de una llamada trae lo que el plan va a usar."""
    contenido, error = observacion
    if error or esperado not in contenido:
        raise ValueError(f"el modelo ideal esperaba ver {esperado!r} en el resultado de {donde}, "
                         f"y ha visto {contenido!r}")
    return contenido


def _busca_fichero(ruta):
    """Llega a `ruta` sin adivinar: lista la raíz y, si está en una carpeta, esa carpeta."""
    carpeta, _, nombre = ruta.rpartition("/")
    vista = yield ("listar", {"carpeta": ""})
    mira_resultado(vista, (carpeta + "/") if carpeta else nombre, "listar ''")
    if carpeta:
        vista = yield ("listar", {"carpeta": carpeta})
        mira_resultado(vista, nombre, f"listar {carpeta!r}")


def pasos_para_leer(ruta, dada=True):
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
        yield  # el «yield» hace de plan un generador, como los demás
    return plan


def plan_lee(ruta, dada, responde):
    """Lee `ruta` (véase pasos_para_leer) y contesta responde(ruta leída, contenido)."""
    def plan():
        leida, contenido = yield from pasos_para_leer(ruta, dada)
        return responde(leida, contenido)
    return plan


# ------------------------------------------------------------------ las comprobaciones

def _igual_salvo(inicial, final, ruta=None):
    """¿Es `final` el entorno `inicial`, salvo quizá el fichero `ruta`?"""
    claves = set(inicial) | ({ruta} if ruta else set())
    return set(final) <= claves and all(final.get(r) == inicial[r] for r in inicial if r != ruta)


def comprueba_lista(ruta, esperadas, dice=()):
    """`ruta` tiene exactamente `esperadas` (en cualquier orden), nada más ha cambiado y la
    respuesta dice `dice`."""
    def comprueba(inicial, final, texto_final):
        return (_igual_salvo(inicial, final, ruta) and ruta in final
                and sorted(lee_lista(final[ruta])) == sorted(esperadas)
                and all(c.lower() in texto_final for c in dice))
    return comprueba


def comprueba_sin_cambios(*dice, alguna=()):
    """El entorno no cambia y la respuesta dice `dice` (y alguna de `alguna`, si las hay)."""
    def comprueba(inicial, final, texto_final):
        return (_igual_salvo(inicial, final) and all(c.lower() in texto_final for c in dice)
                and (not alguna or any(texto_final.startswith(a) or f" {a}" in texto_final
                                       for a in alguna)))
    return comprueba


def tarea_leer(azar, variados=False, amplio=False):
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    que = azar.choice(("lista", "cuantas", "notas", "nota", "nota", "receta", "pendientes"))
    if que == "pendientes" and "pendientes" not in casa:
        que = "lista"
    otra = amplio and "otra_lista" in casa and azar.random() < 0.35
    if que in ("lista", "cuantas"):
        pedido, plan, cosas = _leer_lista(azar, casa, que == "cuantas", otra, amplio)
    elif que == "nota":
        return _tarea_una_nota(azar, casa)
    elif que == "notas":
        notas = casa["rutas"]["notas"]
        donde, dada = donde_al_azar(azar, notas, ("mis notas", "las notas"))
        pedido = pedido_al_azar(azar, ("¿Qué pone en {donde}?", "Léeme {donde}.",
                                "¿Qué tengo apuntado en {donde}?")
                         + (("Dime otra vez qué anoté en {donde}.",
                             "¿Qué había en {donde}? No me acuerdo.") if amplio else ()),
                         donde=donde)
        cosas = [n.rstrip(".") for n in casa["entorno"][notas].splitlines()]
        forma = azar.randrange(3) if amplio else 0
        plan = plan_lee(notas, dada, lambda r, c: dice_notas(r, c, forma))
    elif que == "receta":
        plato = azar.choice(casa["platos"])
        ruta = f"{casa['carpeta']}/{plato}.txt"
        if azar.random() < 0.5:
            pedido, dada = pedido_al_azar(azar, ("¿Qué lleva {ruta}?",
                                          "¿Qué ingredientes tiene {ruta}?",
                                          "Dime los ingredientes de {ruta}."), ruta=ruta), True
        else:
            pedido, dada = pedido_al_azar(azar, ("¿Qué lleva {plato}?",
                                          "¿Qué ingredientes lleva {plato}?",
                                          "¿Qué necesito para hacer {plato}?"),
                                   plato=dice_plato(plato)[0]), False
        cosas = list(PLATOS[plato][2])
        plan = plan_lee(ruta, dada, ingredientes_de(plato, forma=azar.randrange(3) if amplio
                                                      else 0))
    else:
        ruta, cosas = casa["pendientes"]
        donde, dada = donde_al_azar(azar, ruta, ("mis pendientes", "mi lista de tareas"))
        pedido = pedido_al_azar(azar, ("¿Qué hay en {donde}?",
                                "¿Qué me queda por hacer? Mira {donde}.",
                                "Dime qué tengo en {donde}.")
                         + (("Según {donde}, ¿qué me queda?",
                             "Tengo la tarde libre: ¿qué hay en {donde}?") if amplio else ()),
                         donde=donde)
        forma = azar.randrange(2) if amplio else 0
        plan = plan_lee(ruta, dada, lambda r, c: (f"Tienes pendiente {lista_con_y(lee_lista(c))}.",
                                                   f"En {r} te queda {lista_con_y(lee_lista(c))}.")[forma])
    return Tarea("leer", pedido, casa["entorno"], [], plan, comprueba_sin_cambios(*cosas))


_QUE_HAY = ("¿Qué hay en {donde}?", "Dime qué tengo apuntado en {donde}.", "¿Qué pone en {donde}?",
            "Léeme {donde}, porfa.", "¿Me dices qué hay en {donde}?",
            "¿Podría decirme qué hay en {donde}?")
_QUE_HAY_AMPLIO = ("Antes de salir, ¿qué tenía en {donde}?", "Vuelve a decirme lo que hay en {donde}.",
                   "No me acuerdo de lo que puse en {donde}, ¿me lo dices?")


def _leer_lista(azar, casa, cuantas, otra, amplio):
    """Qué hay en la lista (la de la compra u `otra`), o cuántas cosas: (pedido, plan, dice)."""
    lista = casa["rutas"]["lista"]
    donde, dada = donde_lista_al_azar(azar, casa)
    cosas = casa["compra"]
    if otra:
        lista, cosas, dichas, _ = casa["otra_lista"]
        donde, dada = donde_al_azar(azar, lista, dichas)
    if not cuantas:
        pedido = pedido_al_azar(azar, _QUE_HAY
                                + (() if otra else ("¿Qué me toca comprar? Míralo en {donde}.",))
                                + ("¿Qué llevo apuntado ahora en {donde}?", "¿Qué queda en {donde}?")
                                + (_QUE_HAY_AMPLIO if amplio else ()), donde=donde)
        final = azar.choice(("En {lista} tienes {cosas}.", "Tienes apuntado {cosas}.")
                            + (() if otra else ("En la lista de la compra hay {cosas}.",))
                            + (("{lista} tiene {cosas}.", "Hay {cosas}, según {lista}.")
                               if amplio else ()))
    else:
        pedido = pedido_al_azar(azar, ("¿Cuántas cosas hay en {donde}?",
                                       "¿Cuántas cosas tengo que comprar? Mira {donde}.",
                                       "Cuéntame cuántas cosas tiene {donde}."), donde=donde)
        final = "En {lista} hay {n} cosas: {cosas}."
        cosas = cosas + [str(len(cosas))]
    plan = plan_lee(lista, dada, lambda r, c: final.format(
        lista=lista, cosas=lista_con_y(lee_lista(c)), n=len(lee_lista(c))))
    return pedido, plan, cosas


def _tarea_una_nota(azar, casa):
    """Una pregunta de lo que dice una de las notas: se leen las notas (si el pedido no las
    nombra, antes se buscan) y se contesta con esa nota."""
    e, notas = casa["entorno"], casa["rutas"]["notas"]
    plantilla = azar.choice(sorted(PREGUNTAS_DE_NOTAS))
    marca, dice, preguntas = PREGUNTAS_DE_NOTAS[plantilla]
    valores = {"persona": azar.choice(casa["personas"][:5]), "dia": azar.choice(DIAS),
               "plato": PLATOS[azar.choice(casa["platos"])][0]}
    otras = [n for n in e[notas].splitlines() if marca not in n]
    if casa.get("amplio"):  # las otras líneas hablan del mismo día o de la misma persona
        otras = [n.format(**valores) for n in azar.sample(
            [n for n in NOTAS if marca not in n], 2)]
    nota = plantilla.format(**valores)
    lineas = otras[:2]
    lineas.insert(azar.randint(0, len(lineas)), nota)
    e[notas] = "\n".join(lineas)
    pregunta = azar.choice(preguntas)
    if "{donde}" in pregunta:
        donde, dada = donde_al_azar(azar, notas, ("mis notas", "las notas"))
    else:
        donde, dada = "", False
    pedido = pedido_al_azar(azar, (pregunta,), donde=donde, **valores)

    forma = azar.randrange(3) if casa.get("amplio") else 0

    def responde(ruta, contenido):
        for linea in contenido.splitlines():
            if marca in linea:
                return (f"En {ruta} pone: «{linea.rstrip('.')}».",
                        f"Según {ruta}: {linea}",
                        f"Lo tienes en {ruta}: «{linea.rstrip('.')}».")[forma]
        raise ValueError(f"el modelo ideal no encuentra «{marca}» en {ruta}")
    return Tarea("leer", pedido, e, [], plan_lee(notas, dada, responde),
                 comprueba_sin_cambios(dice.format(**valores)))


def tarea_listar(azar, variados=False, amplio=False):
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    carpeta = casa["carpeta"]
    que = azar.choice(("recetas", "carpeta", "raiz", "otra"))
    if que == "recetas":
        pedido = pedido_al_azar(azar, ("¿Qué recetas tengo?", "¿Qué recetas hay?",
                                "Dime qué recetas tengo guardadas.",
                                "¿Qué platos tengo apuntados?",
                                "¿De qué tengo recetas?",
                                "¿Podría decirme qué recetas tengo?"))

        def plan():
            mira_resultado((yield ("listar", {"carpeta": ""})), carpeta + "/", "listar ''")
            contenido, _ = yield ("listar", {"carpeta": carpeta})
            platos = [PLATOS[f.removesuffix(".txt")][0] for f in contenido.splitlines()]
            return f"En {carpeta}/ tienes {CUANTAS[len(platos)]} recetas: {lista_con_y(platos)}."
        cosas = [PLATOS[p][0] for p in casa["platos"]]
        return Tarea("listar", pedido, casa["entorno"], [], plan, comprueba_sin_cambios(*cosas))
    if que == "raiz":
        pedido = pedido_al_azar(azar, ("¿Qué ficheros tengo?", "¿Qué hay en mi carpeta?",
                                "Enséñame todos mis ficheros.", "¿Qué tengo guardado?"))
        carpeta = ""
    else:
        carpeta = casa.get("otra", carpeta) if que == "otra" else carpeta
        pedido = pedido_al_azar(azar, ("¿Qué hay en la carpeta {carpeta}?",
                                "Lista lo que hay en {carpeta}/.",
                                "¿Qué ficheros hay en {carpeta}?",
                                "Enséñame qué tengo en {carpeta}."),
                         carpeta=carpeta)

    def plan():
        contenido, _ = yield ("listar", {"carpeta": carpeta})
        entradas = contenido.splitlines()
        if carpeta:
            return f"En {carpeta}/ hay {lista_con_y(entradas)}."
        ficheros = [e for e in entradas if not e.endswith("/")]
        carpetas = [e for e in entradas if e.endswith("/")]
        cual = "la carpeta" if len(carpetas) == 1 else "las carpetas"
        return f"Tienes {lista_con_y(ficheros)}, y {cual} {lista_con_y(carpetas)}."
    prefijo = carpeta + "/" if carpeta else ""
    entradas = {r[len(prefijo):].split("/")[0] + ("/" if "/" in r[len(prefijo):] else "")
                for r in casa["entorno"] if r.startswith(prefijo)}
    return Tarea("listar", pedido, casa["entorno"], [], plan, comprueba_sin_cambios(*entradas))


def tarea_buscar(azar, variados=False, amplio=False):
    que = azar.choice(("ingrediente", "telefono", "ausente"))
    casa = casa_al_azar(azar, "telefonos", variados=variados, amplio=amplio)
    e, contactos = casa["entorno"], casa["rutas"]["contactos"]
    if que == "telefono":
        persona, telefono = azar.choice(sorted(casa["telefonos"].items()))
        pedido = pedido_al_azar(azar, ("¿Cuál es el teléfono de {p}?", "¿Tengo el número de {p}?",
                                "Búscame el teléfono de {p}, porfa.",
                                "Pásame el móvil de {p}."),
                         p=persona)

        def plan():
            salida, _ = yield ("buscar", {"patron": persona})
            linea = mira_resultado((salida, False), f"{contactos}: {persona}: ", f"buscar {persona!r}")
            numero = linea.split(f"{contactos}: {persona}: ", 1)[1].splitlines()[0]
            return f"El teléfono de {persona} es el {numero}, según {contactos}."
        return Tarea("buscar", pedido, e, [], plan, comprueba_sin_cambios(telefono))
    if que == "ingrediente":
        palabra = azar.choice(sorted({i for p in casa["platos"] for i in PLATOS[p][2]
                                      if palabra_suelta(e, i)}) or ["huevos"])
        plantillas = ("¿En qué ficheros sale «{w}»?", "¿Dónde aparece {w}?",
                      "Busca {w} en mis ficheros.", "¿Qué ficheros mencionan {w}?",
                      "¿Qué recetas llevan {w}?", "¿En qué plato uso {w}?",
                      "¿Qué puedo cocinar con {w}?", "¿Hay alguna receta con {w}?") + ((
                          "Me ha sobrado {w}, ¿qué hago con eso?",
                          "Tengo {w} de más en la nevera: ¿qué receta lo lleva?",
                          "Si compro {w}, ¿para qué plato me sirve?") if amplio else ())
    else:
        palabra = azar.choice([c for c in COMPRA if not any(c in t for t in e.values())])
        plantillas = ("¿Tengo apuntado {w} en algún sitio?", "Busca «{w}» en mis ficheros.",
                      "¿Sale {w} en algún fichero?", "¿Podría buscar «{w}» en mis ficheros?")
    pedido = pedido_al_azar(azar, plantillas, w=palabra)

    def plan():
        salida, _ = yield ("buscar", {"patron": palabra})
        if salida.startswith("ninguna línea contiene"):
            return f"«{palabra}» no aparece en ningún fichero."
        return f"«{palabra}» sale en {lista_con_y(en_ficheros(salida))}."
    rutas = [r for r in sorted(e) if any(palabra in linea for linea in e[r].splitlines())]
    return Tarea("buscar", pedido, e, [], plan, comprueba_sin_cambios(palabra, *(rutas or ["ningún"])))


def tarea_agenda(azar, variados=False, amplio=False):
    que = azar.choice(("fecha", "fecha", "evento", "pendiente"))
    casa = casa_al_azar(azar, "pendientes" if que == "pendiente" else "agenda",
                         variados=variados, amplio=amplio)
    if que == "pendiente":
        return _agenda_pendiente(azar, casa)
    agenda_txt = casa["rutas"]["agenda"]
    donde, dada = donde_al_azar(azar, agenda_txt, ("la agenda", "mi agenda"))
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
        pedido = pedido_al_azar(azar, plantillas, fecha=fecha, donde=donde)

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
        pedido = pedido_al_azar(azar, plantillas, evento=evento, donde=donde)

        forma = azar.randrange(2) if amplio else 0

        def responde(ruta, agenda):
            for linea in agenda.splitlines():
                if linea.endswith(": " + evento):
                    cuando = linea.split(': ', 1)[0]
                    return (f"Tienes {evento} el {cuando}.", f"Es el {cuando}: {evento}, según {ruta}.")[forma]
            raise ValueError(f"el modelo ideal no encuentra «{evento}» en {ruta}")
    return Tarea("agenda", pedido, casa["entorno"], [], plan_lee(agenda_txt, dada, responde),
                 comprueba_sin_cambios(fecha, evento))


def _agenda_pendiente(azar, casa):
    """¿Está una tarea (apuntada o no) en los pendientes? Se contesta sí o no."""
    ruta, pendientes = casa["pendientes"]
    donde, dada = donde_al_azar(azar, ruta, ("mis pendientes", "mi lista de tareas"))
    tarea = azar.choice(pendientes)
    if azar.random() < 0.4:
        tarea = azar.choice([t for t in (rellena_plantilla(azar, p, casa["personas"][5:])
                                         for p in PENDIENTES) if t not in pendientes])
    pedido = pedido_al_azar(azar, ("¿Tengo apuntado {t} en {donde}?", "¿Está «{t}» en {donde}?",
                                   "Mira si {t} está en {donde}."), t=tarea, donde=donde)
    plan = plan_lee(ruta, dada, lambda r, c: f"Sí, «{tarea}» está en {r}."
                    if tarea in lee_lista(c) else f"No, «{tarea}» no está en {r}.")
    si = "sí," if tarea in pendientes else "no,"
    return Tarea("agenda", pedido, casa["entorno"], [], plan, comprueba_sin_cambios(tarea, alguna=[si]))


def tarea_directo(azar, variados=False, amplio=False):
    casa = casa_al_azar(azar, variados=variados, amplio=amplio)
    que = azar.randrange(len(CHARLA) + 2)
    if que < len(CHARLA):
        pedidos, final, dice = CHARLA[que]
        pedido = pedido_al_azar(azar, pedidos)
    elif que == len(CHARLA):
        dice = azar.choice(PERSONAS)
        pedido = pedido_al_azar(azar, ("Hola, soy {p}.", "¡Buenas! Me llamo {p}.", "Hola, aquí {p}."),
                         p=dice)
        final = f"¡Hola, {dice}! ¿En qué te ayudo con tus ficheros?"
    else:
        dia = azar.randrange(7)
        dice = DIAS[(dia + 1) % 7]
        pedido = pedido_al_azar(azar, ("¿Qué día va después del {d}?",
                                "¿Qué día viene después del {d}?"),
                         d=DIAS[dia])
        final = f"Después del {DIAS[dia]} viene el {dice}."
    return Tarea("directo", pedido, casa["entorno"], [], _contesta(final), comprueba_sin_cambios(dice))
