"""Un modelo guionizado: hace de modelo de lenguaje siguiendo un guion fijo.

Se carga en una celda con una sola línea:

    exec(open_url(".../runtime/guionizado.py").read())

y deja en tu espacio de nombres:

- ModeloGuionizado(guion): un modelo que se llama como modelo(M, herramientas)
  y devuelve una respuesta (una lista de bloques).
- guion_de(inicio, respuestas, observaciones): construye el guion de una
  conversación.
- GuionRoto: el error que lanza el modelo cuando no recibe lo que esperaba.

El guion es una lista de turnos; cada turno es un par (esperados, respuesta):
esperados es la lista completa de mensajes que el modelo debe recibir en ese
turno y respuesta es lo que contesta. Si recibe otra cosa, lanza GuionRoto y
dice qué mensaje es distinto. Si entorno.py está cargado, los mensajes se
enseñan con su función muestra.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entorno.py: muestra (si está cargado: véase _linea)


import copy as _copy


class GuionRoto(AssertionError):
    """El modelo no recibió los mensajes que el guion esperaba.

    turno: el número de la llamada al modelo (1 es la primera).
    indice: la posición del primer mensaje distinto en M.
    esperado, recibido: ese mensaje en el guion y en M (None si no hay).
    pista: una frase sobre el fallo probable, o None.
    """

    def __init__(self, turno, esperados, recibidos):
        self.turno = turno
        self.indice = _primer_distinto(esperados, recibidos)
        self.esperado = _copy.deepcopy(_en(esperados, self.indice))
        self.recibido = _copy.deepcopy(_en(recibidos, self.indice))
        self.pista = _pista(esperados, recibidos, self.indice)
        super().__init__(_explica(self, len(esperados), len(recibidos)))


class ModeloGuionizado:
    """Un modelo que sigue un guion: modelo(M, herramientas) → respuesta.

    .turno es el número de respuestas que ha dado hasta ahora.
    """

    def __init__(self, guion):
        _valida_guion(guion)
        # Una copia: si luego cambias `guion`, el modelo no se entera.
        self._guion = _copy.deepcopy(list(guion))
        self.turno = 0

    def __call__(self, M, herramientas=None):
        if herramientas is None:
            raise TypeError("llama al modelo con los mensajes y las herramientas: "
                            "modelo(M, HERRAMIENTAS)")
        if not isinstance(herramientas, (list, tuple)):
            raise TypeError(f"las herramientas deben ser una lista de definiciones "
                            f"y son {type(herramientas).__name__}")
        if not isinstance(M, (list, tuple)):
            raise TypeError(f"M debe ser la lista de mensajes y es {type(M).__name__}")
        if self.turno == len(self._guion):
            raise RuntimeError(_fin_del_guion(self._guion))
        esperados, respuesta = self._guion[self.turno]
        if _normaliza(esperados) != _normaliza(M):
            raise GuionRoto(self.turno + 1, esperados, list(M))
        self.turno += 1
        # Una copia: si el bucle la cambia, el guion sigue intacto.
        return _copy.deepcopy(respuesta)


def guion_de(inicio, respuestas, observaciones):
    """El guion de una conversación que sigue un bucle correcto.

    inicio: los mensajes con los que empieza M.
    respuestas: lo que contesta el modelo en cada turno.
    observaciones: para cada respuesta, la lista de bloques tool_result que el
    bucle añade tras ella, en un mensaje del usuario ([] o None si no hay llamadas).

    En el turno 1 el modelo espera `inicio`; en el turno k+1 espera lo del
    turno k más ("asistente", respuesta k) y ("usuario", observaciones k).
    """
    if len(respuestas) != len(observaciones):
        raise ValueError(f"hay {len(respuestas)} respuestas y {len(observaciones)} listas de "
                         f"observaciones: debe haber una lista por respuesta")
    guion = []
    M = list(inicio)
    for k, (respuesta, obs) in enumerate(zip(respuestas, observaciones, strict=True), start=1):
        _valida_observaciones(k, respuesta, obs or [])
        guion.append((_copy.deepcopy(M), _copy.deepcopy(respuesta)))
        M.append(("asistente", respuesta))
        if obs:
            M.append(("usuario", list(obs)))
    return guion


# ------------------------------------------------------- validar el guion

def _valida_guion(guion):
    if not isinstance(guion, (list, tuple)) or not guion:
        raise ValueError("el guion debe ser una lista con al menos un turno")
    for k, turno in enumerate(guion, start=1):
        if not (isinstance(turno, (list, tuple)) and len(turno) == 2
                and isinstance(turno[0], (list, tuple)) and isinstance(turno[1], list)):
            raise ValueError(f"el turno {k} del guion debe ser un par "
                             f"(mensajes esperados, respuesta), con dos listas")
        if not all(_es_mensaje(m) for m in turno[0]):
            raise ValueError(f"en el turno {k} del guion, cada mensaje esperado debe ser "
                             f"un par (rol, contenido)")


def _valida_observaciones(k, respuesta, obs):
    """Cada llamada de la respuesta k debe tener su resultado, en el mismo orden."""
    llamadas = [b.get("id") for b in respuesta
                if isinstance(b, dict) and b.get("type") == "tool_use"]
    resultados = [b.get("tool_use_id") for b in obs if isinstance(b, dict)]
    if llamadas != resultados:
        raise ValueError(f"la respuesta {k} llama a {_lista(llamadas) or 'nada'} y sus "
                         f"observaciones responden a {_lista(resultados) or 'nada'}")


def _fin_del_guion(guion):
    n = len(guion)
    dadas = "su única respuesta" if n == 1 else f"sus {n} respuestas"
    aviso = (f"El guion se acabó: el modelo ya dio {dadas} y lo llamaron "
             f"una {n + 1}.ª vez (turno {n + 1}).")
    if not _ids(guion[-1][1], "tool_use", "id"):
        aviso += ("\nPista: la última respuesta no tenía llamadas a herramientas; "
                  "ahí el bucle debía parar.")
    return aviso


# ------------------------------------------------------ comparar mensajes

def _normaliza(mensajes):
    """Los mensajes en una forma comparable: [rol, contenido] vale lo mismo que
    (rol, contenido), y un tool_result sin is_error vale lo mismo que con False."""
    return [_normaliza_mensaje(m) for m in mensajes]


def _normaliza_mensaje(m):
    if _es_mensaje(m):
        rol, contenido = m
        if isinstance(contenido, (list, tuple)):
            contenido = [_normaliza_bloque(b) for b in contenido]
        return (rol, contenido)
    return m


def _normaliza_bloque(b):
    if isinstance(b, dict) and b.get("type") == "tool_result" and "is_error" not in b:
        return {**b, "is_error": False}
    return b


def _es_mensaje(m):
    return isinstance(m, (tuple, list)) and len(m) == 2 and isinstance(m[0], str)


def _primer_distinto(esperados, recibidos):
    for i, (e, r) in enumerate(zip(esperados, recibidos, strict=False)):
        if _normaliza_mensaje(e) != _normaliza_mensaje(r):
            return i
    return min(len(esperados), len(recibidos))


def _en(mensajes, i):
    return mensajes[i] if i < len(mensajes) else None


# ------------------------------------------------------- explicar el fallo

def _explica(error, n_esperados, n_recibidos):
    t, i = error.turno, error.indice
    if n_esperados != n_recibidos:
        lineas = [f"En el turno {t} el modelo recibió {_mensajes(n_recibidos)}; "
                  f"esperaba {n_esperados}."]
    else:
        lineas = [f"En el turno {t} el modelo recibió {_mensajes(n_recibidos)}, tantos "
                  f"como esperaba, pero no son los esperados."]
    lineas.append(f"Primer mensaje distinto: M[{i}]")
    esperado = _linea(error.esperado) if i < n_esperados else f"nada ({_fin_de_M(i)})"
    recibido = _linea(error.recibido) if i < n_recibidos else f"nada ({_fin_de_M(i)})"
    lineas.append(f"  esperado: {esperado}")
    lineas.append(f"  recibido: {recibido}")
    if esperado == recibido:
        lineas += _detalle(error.esperado, error.recibido)
    if error.pista:
        lineas.append(f"Pista: {error.pista}")
    return "\n".join(lineas)


def _mensajes(n):
    return "1 mensaje" if n == 1 else f"{n} mensajes"


def _fin_de_M(i):
    return "M está vacía" if i == 0 else f"M acaba en M[{i - 1}]"


def _linea(x):
    """Una línea para x: con muestra de entorno.py si está cargada; si no, con repr."""
    muestra = globals().get("muestra")
    if callable(muestra):
        return muestra(x)
    linea = repr(x).replace("\n", "⏎")
    return linea if len(linea) <= 100 else linea[:99] + "…"


def _detalle(esperado, recibido):
    """Cuando las dos líneas resumidas se ven iguales: dónde está la diferencia."""
    donde, e, r = _donde_difieren(esperado, recibido)
    return [f"  La diferencia, {donde}:", f"    esperado: {e!r}", f"    recibido: {r!r}"]


def _donde_difieren(esperado, recibido):
    """(dónde, lo esperado, lo recibido), afinando hasta el bloque y el campo distintos."""
    if not (_es_mensaje(esperado) and _es_mensaje(recibido)):
        return "en detalle", esperado, recibido
    e, r = _normaliza_mensaje(esperado)[1], _normaliza_mensaje(recibido)[1]
    if not (isinstance(e, list) and isinstance(r, list) and len(e) == len(r)):
        return "en detalle", esperado, recibido
    j = next((j for j in range(len(e)) if e[j] != r[j]), 0)
    if isinstance(e[j], dict) and isinstance(r[j], dict):
        for campo in {**e[j], **r[j]}:
            if e[j].get(campo) != r[j].get(campo):
                return f"en el bloque {j}, campo '{campo}'", e[j].get(campo), r[j].get(campo)
    return f"en el bloque {j}", e[j], r[j]


def _pista(esperados, recibidos, i):
    """Una frase sobre el error probable cuando M[i] no es lo esperado, o None."""
    e, r = _en(esperados, i), _en(recibidos, i)
    if i < len(recibidos) and not _es_mensaje(r):
        return _pista_no_mensaje(r, i)
    if i >= len(esperados):
        return _pista_sobra(recibidos, i)
    if r is not None and e[0] != r[0] and _normaliza_mensaje(e)[1] == _normaliza_mensaje(r)[1]:
        return (f"el contenido de M[{i}] es el esperado, pero el rol no: "
                f"debía ser '{e[0]}' y es '{r[0]}'.")
    if _es_observacion(e):
        return _pista_observacion(e, r, recibidos, i)
    if e[0] == "asistente":
        if r is None or _es_observacion(r):
            return ("falta la respuesta del modelo: añade ('asistente', respuesta) a M "
                    "antes de sus observaciones.")
        k = sum(1 for m in esperados[:i + 1] if m[0] == "asistente")
        return (f"M[{i}] debe ser ('asistente', respuesta) con la respuesta que dio "
                f"el modelo en el turno {k}, tal cual.")
    if not any(m[0] == "asistente" for m in esperados[:i]):
        return "M debe empezar con los mensajes iniciales del ejercicio, sin cambios."
    return None


def _pista_no_mensaje(r, i):
    if isinstance(r, dict):
        return (f"M[{i}] es un bloque suelto, no un mensaje (rol, contenido): "
                f"¿usaste M.extend(...) en vez de M.append((rol, contenido))?")
    if isinstance(r, list):
        return (f"M[{i}] es una lista sin rol: añade el mensaje entero, "
                f"como ('asistente', respuesta).")
    return f"M[{i}] no es un mensaje: cada mensaje es una tupla (rol, contenido)."


def _pista_sobra(recibidos, i):
    r = recibidos[i]
    if i > 0 and _normaliza_mensaje(r) == _normaliza_mensaje(recibidos[i - 1]):
        return f"M[{i}] repite M[{i - 1}]: ¿añades el mismo mensaje dos veces?"
    if r[0] == "usuario" and not r[1]:
        return ("sobra un mensaje del usuario vacío: si la respuesta no trae llamadas, "
                "no hay observación que añadir.")
    return f"sobra M[{i}]: el modelo no debía recibirlo en este turno."


def _es_observacion(m):
    """¿Es m un mensaje del usuario con resultados de herramientas?"""
    return (_es_mensaje(m) and m[0] == "usuario" and isinstance(m[1], (list, tuple))
            and len(m[1]) > 0 and all(_es_bloque(b, "tool_result") for b in m[1]))


def _pista_observacion(e, r, recibidos, i):
    if r is None or r[0] == "asistente":
        return ("falta la observación: tras una respuesta con llamadas, añade a M "
                "('usuario', [resultados]), un tool_result por llamada, "
                "antes de volver a llamar al modelo.")
    if not _es_observacion(r):
        return ("la observación debe ser ('usuario', [resultados]): una lista de bloques "
                "tool_result, uno por llamada, hechos con resultado(id, contenido).")
    quiere = _ids(e[1], "tool_result", "tool_use_id")
    llegan = _ids(r[1], "tool_result", "tool_use_id")
    if quiere == llegan:
        return _pista_contenido(e[1], r[1])
    if sorted(quiere) == sorted(llegan):
        return (f"los resultados van en otro orden: deben seguir el de las llamadas "
                f"({_lista(quiere)}) y van {_lista(llegan)}.")
    if any(x not in quiere for x in llegan):
        return (f"los tool_use_id no corresponden a las llamadas: se esperaban "
                f"{_lista(quiere)} y llegaron {_lista(llegan)}.")
    faltan = [x for x in quiere if x not in llegan]
    if faltan and i + 1 < len(recibidos) and _es_observacion(recibidos[i + 1]):
        return ("los resultados van en mensajes separados: los de una misma respuesta "
                "van juntos, en un solo mensaje del usuario.")
    if faltan:
        return f"falta el resultado de {_lista(faltan)}: cada llamada necesita su tool_result."
    return "sobran resultados: va uno por llamada, ni más ni menos."


def _pista_contenido(esperados, recibidos):
    for e, r in zip(esperados, recibidos, strict=False):
        if _normaliza_bloque(e) == _normaliza_bloque(r):
            continue
        ident = e.get("tool_use_id")
        if bool(e.get("is_error")) != bool(r.get("is_error")):
            return f"el resultado de {ident} debía llevar is_error={bool(e.get('is_error'))}."
        return (f"el resultado de {ident} no es el esperado: ¿ejecutaste su herramienta "
                f"con su entrada, sobre el entorno del ejercicio?")
    return None


def _es_bloque(b, tipo):
    return isinstance(b, dict) and b.get("type") == tipo


def _ids(bloques, tipo, campo):
    return [b.get(campo) for b in bloques if _es_bloque(b, tipo)]


def _lista(ids):
    return ", ".join(str(x) for x in ids)
