"""Lo que se comprueba de lo que devuelve el medir del lector, en las pruebas de
«medir-el-agente»: cada campo con su tipo, los motivos contra las ejecuciones esperadas
(Esperada), la tasa y el intervalo de Wilson, calculado aquí con su fórmula en cuentas (otra
forma que la del enunciado, la misma función); todo(...), lo de una medida entera. Cada
comprobación lanza Fallo con un mensaje que dice qué está mal y, si se sabe, en qué ejecuciones.
"""

import math

from runtime import MOTIVOS
from calificador import Fallo
from ..comun import breve

#: z del intervalo al 95 %, la del enunciado.
Z = 1.96
#: Cuánto puede separarse un número de lo esperado (formas distintas de la misma fórmula).
MARGEN = 1e-9


class Esperada:
    """Una ejecución como debe acabar: su tarea (índice), su número (k o la semilla) y su motivo."""

    def __init__(self, tarea, n, motivo, destino=None):
        self.tarea, self.n, self.motivo, self.destino = tarea, n, motivo, destino


def de_los_destinos(mundo):
    """Las ejecuciones esperadas de un mundo de tareas de mentira."""
    return [Esperada(i, n, t.motivo(n), t.destinos[n])
            for i, t in enumerate(mundo.tareas) for n in range(mundo.veces)]


def cuales(mundo, esperadas):
    """«las ejecuciones 0 y 2 de «A» y la ejecución 1 de «B»»."""
    partes = []
    for i, t in enumerate(mundo.tareas):
        ns = [str(e.n) for e in esperadas if e.tarea == i]
        if ns:
            las = ns[0] if len(ns) == 1 else ", ".join(ns[:-1]) + " y " + ns[-1]
            cuales_ = "la ejecución" if len(ns) == 1 else "las ejecuciones"
            partes.append(f"{cuales_} {las} de «{t.pedido}»")
    if not partes:
        return "ninguna"
    return partes[0] if len(partes) == 1 else ", ".join(partes[:-1]) + " y " + partes[-1]


# ------------------------------------------------------------------ lo que devuelve medir


def campo(r, clave):
    if type(r) is not dict:
        raise Fallo(f"medir debe devolver un diccionario con \"exitos\", \"ejecuciones\", "
                    f"\"tasa\", \"intervalo\", \"motivos\" y \"motivo_de\", y devolvió "
                    f"{breve(r)}.")
    if clave not in r:
        tiene = ", ".join(f'"{k}"' if type(k) is str else breve(k) for k in r) or "nada"
        raise Fallo(f"Al diccionario que devuelve medir le falta \"{clave}\" (tiene {tiene}).")
    return r[clave]


def ajeno(x):
    """¿Es x lo que queda de un objeto que no es de un tipo exacto (un Counter…)?"""
    return type(x).__name__ == "Ajeno"


def entero(r, clave):
    x = campo(r, clave)
    if type(x) is not int:
        raise Fallo(f"\"{clave}\" debe ser un número entero de ejecuciones, y es {breve(x)}.")
    return x


def motivos_de(r):
    m = campo(r, "motivos")
    if type(m) is not dict:
        extra = (" Las pruebas solo leen tipos exactos (dict, tuple, int, float, str): si cuentas "
                 "con Counter o defaultdict, devuelve dict(…)." if ajeno(m) else "")
        raise Fallo(f"\"motivos\" debe ser un diccionario (dict), motivo → ejecuciones, y es "
                    f"{breve(m)}.{extra}")
    for motivo, n in m.items():
        if type(n) is not int:
            raise Fallo(f"motivos[{breve(motivo)}] debe ser un número entero de ejecuciones, y es "
                        f"{breve(n)}.")
    return m


#: Por qué una ejecución acaba en cada motivo, para los mensajes.
POR_QUE = {
    "tope": "«tope» es cuando como es \"tope\", quede como quede la tarea: llegar al tope no es "
            "resolverla, aunque tarea.comprobar diga que sí.",
    "resuelta": "«resuelta» es cuando el agente contestó (como no es \"tope\") y "
                "tarea.comprobar(entorno, final) es verdad, con el entorno de la ejecución y su "
                "texto final.",
    "equivocada": "«equivocada» es cuando el agente contestó y tarea.comprobar(entorno, final) no "
                  "es verdad: contestar no basta.",
    "error": "«error» es cuando el agente, el modelo o la comprobación lanzan una excepción "
             "(Exception): esa ejecución acaba ahí, y la medida sigue.",
}


def cuenta(mundo, r, esperadas, orden=MOTIVOS):
    """Fallo si algún motivo de `orden` no cuenta las ejecuciones esperadas (los que faltan en
    motivos cuentan 0: de eso es otra prueba)."""
    m = motivos_de(r)
    for motivo in orden:
        son = [e for e in esperadas if e.motivo == motivo]
        if m.get(motivo, 0) != len(son):
            raise Fallo(f"motivos[\"{motivo}\"] debía ser {len(son)} y es {m.get(motivo, 0)}. "
                        f"Acaban en «{motivo}» {cuales(mundo, son)}. {POR_QUE[motivo]}")


def numero(x):
    return type(x) in (int, float)


def wilson(k, n, z=Z):
    """El intervalo de Wilson de k éxitos en n, en cuentas: centro (k + z²/2) / (n + z²)."""
    centro = (k + z * z / 2) / (n + z * z)
    margen = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return (max(0.0, centro - margen), min(1.0, centro + margen))


def normal(k, n, z=Z):
    p = k / n
    margen = z * math.sqrt(p * (1 - p) / n)
    return (p - margen, p + margen)


#: Otros intervalos que salen de equivocarse: (nombre, función (k, n) → (bajo, alto), qué decir).
PARECIDOS = [
    ("normal", normal,
     "Es la aproximación normal, p ± z·√(p(1−p)/n); el de Wilson tiene su centro en "
     "(p + z²/2n) / (1 + z²/n) y su margen, z·√(p(1−p)/n + z²/4n²) / (1 + z²/n)."),
    ("normal acotada", lambda k, n: (max(0.0, normal(k, n)[0]), min(1.0, normal(k, n)[1])),
     "Es la aproximación normal, p ± z·√(p(1−p)/n), acotada a [0, 1]; el de Wilson tiene su "
     "centro en (p + z²/2n) / (1 + z²/n) y su margen, z·√(p(1−p)/n + z²/4n²) / (1 + z²/n)."),
    ("otra z", lambda k, n: wilson(k, n, 1.959963984540054),
     "Es el de Wilson con z = 1.959963984540054; aquí, como en la lección, z = 1.96."),
    ("centrado en p", lambda k, n: (max(0.0, k / n - (wilson(k, n)[1] - wilson(k, n)[0]) / 2),
                                    min(1.0, k / n + (wilson(k, n)[1] - wilson(k, n)[0]) / 2)),
     "Tiene el margen de Wilson, pero centrado en la tasa; el centro de Wilson es "
     "(p + z²/2n) / (1 + z²/n), que se aleja de 0 y de 1."),
]


def cerca(a, b):
    return abs(a[0] - b[0]) <= MARGEN and abs(a[1] - b[1]) <= MARGEN


def dos(iv):
    """(bajo, alto) para un mensaje, con todas sus cifras: las diferencias pueden ser pequeñas."""
    return "(" + ", ".join(repr(x) for x in iv) + ")"


def intervalo(r, k, n):
    """Fallo si "intervalo" no es la tupla (bajo, alto) de Wilson de k éxitos en n, en [0, 1]."""
    iv = campo(r, "intervalo")
    if type(iv) is not tuple:
        que = f"una lista, {breve(iv)}" if type(iv) is list else breve(iv)
        raise Fallo(f"\"intervalo\" debe ser una tupla, (bajo, alto), y es {que}.")
    if len(iv) != 2 or not all(numero(x) for x in iv):
        raise Fallo(f"\"intervalo\" debe ser una tupla de dos números, (bajo, alto), y es "
                    f"{breve(iv)}.")
    bajo, alto = iv
    if bajo < 0 or alto > 1:
        cual = "baja de 0" if bajo < 0 else "pasa de 1"
        por_que = ("El redondeo deja la fórmula un pelo fuera (−2.8e-17, 1.0000000000000002): "
                   "acota el intervalo con max(0.0, bajo) y min(1.0, alto)."
                   if k in (0, n) else
                   "El de Wilson no sale de [0, 1]; la aproximación normal, p ± z·√(p(1−p)/n), "
                   "sí.")
        raise Fallo(f"Con {k} éxitos de {n} ejecuciones, el intervalo es {dos(iv)} y {cual}: "
                    f"una proporción está siempre en [0, 1]. {por_que}")
    if bajo > alto:
        raise Fallo(f"Con {k} éxitos de {n} ejecuciones, el intervalo es {dos(iv)}: está al "
                    f"revés, y es (bajo, alto).")
    bien = wilson(k, n)
    if not cerca(iv, bien):
        pista = next((texto for _, f, texto in PARECIDOS if cerca(iv, f(k, n))), "")
        raise Fallo(f"Con {k} éxitos de {n} ejecuciones, el intervalo de Wilson al 95 % (z = "
                    f"1.96) es {dos(bien)}, y medir dio {dos(iv)}. {pista}".rstrip())


def todo(mundo, r, esperadas):
    """Fallo si lo que devolvió medir no es, entero, lo de las ejecuciones `esperadas`."""
    n, k = len(esperadas), sum(1 for e in esperadas if e.motivo == "resuelta")
    ejecuciones = entero(r, "ejecuciones")
    if ejecuciones != n:
        raise Fallo(f"\"ejecuciones\" debía ser {n} ({len(mundo.tareas)} tareas × veces = "
                    f"{mundo.veces}) y es {ejecuciones}: cuenta todas, acaben como acaben.")
    m = motivos_de(r)
    if sorted(m) != sorted(MOTIVOS):
        falta = [x for x in MOTIVOS if x not in m]
        raise Fallo(f"\"motivos\" debe tener los cuatro motivos, {', '.join(MOTIVOS)}, y tiene "
                    f"{', '.join(map(breve, m)) or 'ninguno'}"
                    + (f" (falta {', '.join(falta)}, con 0 si no sale)." if falta else "."))
    cuenta(mundo, r, esperadas)
    exitos = entero(r, "exitos")
    if exitos != k:
        raise Fallo(f"\"exitos\" debía ser {k}, las ejecuciones «resuelta», y es {exitos}.")
    tasa_(r, k, n)
    intervalo(r, k, n)
    cada_una(mundo, r, esperadas)


def la_ejecucion(mundo, clave):
    """«la ejecución 1 de «Apunta ajo…» (tareas[0])», de una clave (t, i)."""
    t, i = clave
    return f"la ejecución {i} de «{mundo.tareas[t].pedido}» (tareas[{t}])"


def cada_una(mundo, r, esperadas):
    """Fallo si "motivo_de" no es {(t, i): motivo} de las ejecuciones `esperadas`."""
    m = campo(r, "motivo_de")
    if type(m) is not dict:
        extra = (" Las pruebas solo leen tipos exactos: si usas defaultdict, devuelve dict(…)."
                 if ajeno(m) else "")
        raise Fallo(f"\"motivo_de\" debe ser un diccionario (dict), (t, i) → motivo, y es "
                    f"{breve(m)}.{extra}")
    rara = next((c for c in m if not (type(c) is tuple and len(c) == 2
                                      and all(type(x) is int for x in c))), None)
    if rara is not None:
        raise Fallo(f"Las claves de \"motivo_de\" son pares (t, i) de dos enteros: el índice "
                    f"de la tarea en tareas y la semilla de la ejecución; y tiene la clave "
                    f"{breve(rara)}.")
    bien = {(e.tarea, e.n): e.motivo for e in esperadas}
    if set(m) != set(bien) and set(m) == {(i, t) for t, i in bien}:
        raise Fallo(f"Las claves de \"motivo_de\" van al revés: con {len(mundo.tareas)} tareas y "
                    f"veces = {mundo.veces}, tiene {sorted(m)[-1]} y le falta {sorted(bien)[-1]}. "
                    f"La clave es (t, i): primero el índice de la tarea, después la semilla.")
    for clave, motivo in sorted(bien.items()):
        if clave not in m:
            raise Fallo(f"A \"motivo_de\" le falta {clave}, {la_ejecucion(mundo, clave)}, que "
                        f"acabó en «{motivo}»: tiene que estar cada ejecución, acabe como acabe.")
        if m[clave] != motivo:
            raise Fallo(f"motivo_de[{clave}] debía ser «{motivo}», como acabó "
                        f"{la_ejecucion(mundo, clave)}, y es {breve(m[clave])}.")
    sobra = next((c for c in sorted(m) if c not in bien), None)
    if sobra is not None:
        raise Fallo(f"\"motivo_de\" tiene la clave {sobra}, y no hay ninguna ejecución así: "
                    f"con {len(mundo.tareas)} tareas y veces = {mundo.veces}, t va de 0 a "
                    f"{len(mundo.tareas) - 1} e i, de 0 a {mundo.veces - 1}.")


def tasa_(r, k, n):
    t = campo(r, "tasa")
    if not numero(t) or abs(t - k / n) > MARGEN:
        pista = (" Es una proporción, de 0 a 1, no un tanto por ciento."
                 if numero(t) and abs(t - 100 * k / n) <= 1e-6 else "")
        raise Fallo(f"\"tasa\" debía ser exitos / ejecuciones = {k}/{n} = {k / n:.6g}, y es "
                    f"{breve(t)}.{pista}")
