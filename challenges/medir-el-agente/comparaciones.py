"""Lo que se comprueba del comparar del lector, en las pruebas de «medir-el-agente»: medidas
hechas aquí con un motivo_de y un intervalo dados (una_medida, de_lista, ANTES y DESPUES, los
INTERVALOS de las pruebas de "separados"), lo que devuelve comparar (comparado), y si "arregla",
"rompe" y "separados" son lo que deben (emparejadas, separados_). Cada comprobación lanza Fallo
con un mensaje que dice qué está mal y con qué medidas.
"""

from runtime import MOTIVOS
from calificador import Fallo
from ..comun import breve
from .comprobaciones import wilson
from .tareas_de_prueba import nuevo


def una_medida(motivo_de, intervalo_=None):
    """Una medida como las de medir, con este motivo_de (en su orden) y, si se da, este
    intervalo en lugar del de Wilson."""
    n = len(motivo_de)
    k = sum(1 for m in motivo_de.values() if m == "resuelta")
    return {"exitos": k, "ejecuciones": n, "tasa": k / n,
            "intervalo": wilson(k, n) if intervalo_ is None else tuple(intervalo_),
            "motivos": {m: sum(1 for x in motivo_de.values() if x == m) for m in MOTIVOS},
            # textos nuevos, como los que salen de medir: comparar con `is` falla aquí
            "motivo_de": {clave: nuevo(m) for clave, m in motivo_de.items()}}


def de_lista(motivos, veces=3):
    """{(t, i): motivo} de una lista de motivos, tarea a tarea."""
    return {(j // veces, j % veces): m for j, m in enumerate(motivos)}


#: Dos medidas de 3 tareas × 3: cambian en los dos sentidos, desde y hacia cada motivo, y dos
#: ejecuciones cambian de motivo sin dejar de estar sin resolver.
ANTES = de_lista(["resuelta", "tope", "resuelta", "equivocada", "resuelta", "error",
                  "tope", "equivocada", "resuelta"])
DESPUES = de_lista(["resuelta", "resuelta", "tope", "tope", "resuelta", "resuelta",
                    "equivocada", "resuelta", "error"])


def comparado(envio, antes, despues):
    """Lo que devuelve el comparar del lector, con lo que no lleva dentro."""
    c = envio.funcion("comparar")(antes, despues)
    if type(c) is not dict or any(k not in c for k in ("arregla", "rompe", "separados")):
        raise Fallo(f"comparar debe devolver un diccionario con \"arregla\", \"rompe\" y "
                    f"\"separados\", y devolvió {breve(c)}.")
    return c


def lista_de_pares(c, clave):
    x = c[clave]
    if type(x) is not list:
        raise Fallo(f"\"{clave}\" debe ser una lista de pares (t, i), y es {breve(x)}.")
    rara = next((p for p in x if not (type(p) is tuple and len(p) == 2)), None)
    if rara is not None:
        raise Fallo(f"\"{clave}\" debe ser una lista de pares (t, i), tuplas, y tiene "
                    f"{breve(rara)}: usa las claves de motivo_de tal cual.")
    return x


def emparejadas(c, antes, despues, que, orden=False):
    """Fallo si "arregla" y "rompe" no son las ejecuciones que cambiaron de `antes` a
    `despues` ({(t, i): motivo}), en orden (con `orden`, se dice que el fallo es el orden)."""
    claves = sorted(antes)
    for clave, bien in (("arregla", [k for k in claves if despues[k] == "resuelta" != antes[k]]),
                        ("rompe", [k for k in claves if antes[k] == "resuelta" != despues[k]])):
        hay = lista_de_pares(c, clave)
        if hay == bien:
            continue
        if sorted(hay) == bien:
            raise Fallo(f"Con {que}, \"{clave}\" tiene las ejecuciones que debe, pero en el orden "
                        f"{breve(hay)}: van ordenadas, {breve(bien)}, sea cual sea el orden en que "
                        f"vengan en motivo_de.")
        cual = ("despues resuelve y antes no" if clave == "arregla"
                else "antes resuelve y despues no")
        sobran = [k for k in hay if k not in bien]
        por_que = ""
        if sobran and sobran[0] not in antes:
            por_que = f" {breve(sobran[0])} no es ninguna ejecución de las dos medidas."
        elif sobran:
            k = sobran[0]
            por_que = (f" {k} pasa de «{antes[k]}» a «{despues[k]}»: "
                       + ("solo cuenta si está resuelta o no, y no lo está en ninguna de las dos."
                          if "resuelta" not in (antes[k], despues[k]) else
                          "va en la otra lista."))
        raise Fallo(f"Con {que}, \"{clave}\" debía ser {breve(bien)}, las ejecuciones que {cual}, "
                    f"y es {breve(hay)}.{por_que}")


def separados_(c, antes, despues, que):
    bien = antes["intervalo"][1] < despues["intervalo"][0] or despues["intervalo"][1] < antes["intervalo"][0]
    hay = c["separados"]
    if type(hay) is not bool:
        raise Fallo(f"\"separados\" debe ser True o False, y es {breve(hay)}.")
    if hay != bien:
        a, d = antes["intervalo"], despues["intervalo"]
        por_que = ("se tocan, y dos intervalos que se tocan se solapan" if a[1] == d[0] or d[1] == a[0]
                   else "uno queda entero por debajo del otro" if bien
                   else "se solapan")
        raise Fallo(f"Con {que}, los intervalos son {a} (antes) y {d} (despues): {por_que}; "
                    f"\"separados\" debía ser {bien} y es {hay}.")


#: (antes, despues): motivo_de con tasas distintas o iguales, e intervalos dados.
INTERVALOS = [
    ((0.1, 0.3), (0.5, 0.8)),   # separados: despues por encima
    ((0.5, 0.8), (0.1, 0.3)),   # separados: despues por debajo
    ((0.1, 0.5), (0.4, 0.8)),   # se solapan
    ((0.1, 0.5), (0.5, 0.8)),   # se tocan
    ((0.5, 0.8), (0.1, 0.5)),   # se tocan, al revés
    ((0.1, 0.9), (0.3, 0.5)),   # uno dentro del otro
]
