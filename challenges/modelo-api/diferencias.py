"""Cómo dicen los mensajes de «modelo-api» lo que es distinto: la primera diferencia entre dos
valores JSON, en una frase."""

import json

from runtime import muestra
from ..comun import breve

class Dicho:
    """Un valor que los mensajes dicen con palabras: la clave que no está, el largo de una
    lista."""

    def __init__(self, texto):
        self.texto = texto

    def __repr__(self):
        return self.texto


AUSENTE = Dicho("nada (la clave no está)")


def diferencia(esperado, hay, partes=()):
    """(partes de la ruta, esperado, hay) de la primera diferencia entre dos valores JSON; o
    None si son iguales."""
    numeros = (int, float)
    if type(esperado) is not type(hay) and not (
            type(esperado) in numeros and type(hay) in numeros):
        return partes, esperado, hay
    if isinstance(esperado, dict):
        for clave in list(esperado) + [k for k in hay if k not in esperado]:
            if clave not in hay:
                return partes + (clave,), esperado[clave], AUSENTE
            if clave not in esperado:
                return partes + (clave,), AUSENTE, hay[clave]
            d = diferencia(esperado[clave], hay[clave], partes + (clave,))
            if d:
                return d
        return None
    if isinstance(esperado, list):
        for i, (e, h) in enumerate(zip(esperado, hay, strict=False)):
            d = diferencia(e, h, partes + (i,))
            if d:
                return d
        if len(esperado) != len(hay):
            return (partes, Dicho(f"una lista de {len(esperado)}"),
                    Dicho(f"una lista de {len(hay)}"))
        return None
    return None if esperado == hay else (partes, esperado, hay)


def dif(esperado, hay, raiz="cuerpo"):
    """La primera diferencia, en una frase: «cuerpo["messages"][1]["content"] debía ser … y es
    …»; None si no hay ninguna."""
    d = diferencia(esperado, hay)
    if d is None:
        return None
    partes, e, h = d
    ruta = raiz + "".join(f"[{p!r}]".replace("'", '"') if isinstance(p, str) else f"[{p}]"
                          for p in partes)
    return f"{ruta} debía ser {enseña(e)} y es {enseña(h)}"


def en_otro_orden(hay, debe):
    """¿Son `hay` y `debe` los mismos bloques, en otro orden?"""
    try:
        return sorted(map(json.dumps, hay)) == sorted(map(json.dumps, debe))
    except (TypeError, ValueError):
        return False


def enseña(x):
    """x en una línea: una lista de bloques con muestra; lo demás, con breve."""
    if isinstance(x, list) and x and all(isinstance(b, dict) and b.get("type") in
                                         ("text", "tool_use", "tool_result") for b in x):
        return muestra(x)
    return breve(x)


def cuenta(n, una, varias):
    return f"1 {una}" if n == 1 else f"{n} {varias}"
