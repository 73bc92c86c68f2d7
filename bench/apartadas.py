"""The tasks the course's model is measured on (``make bench``), kept apart from its training data.

Two sets, written here by hand and never by the training generator (``runtime/entrenamiento.py``;
bench/test_apartadas.py checks that it produces none of these requests):

- ``LECCIONES``: the lessons' own environment (runtime's ``ENTORNO``) and requests of the kinds
  the lessons make: read, list, look for, add to the list, what a recipe needs that the list
  lacks, a write the user denies. Target: 80 % solved.
- ``APARTADAS``: three other environments (a pantry and dishes, an agenda with a to-do list, a
  trip) and requests phrased unlike any template of the generator's: informal, indirect, with
  the file only hinted at. Target: 60 % solved.

A task is solved when its check holds over the *final environment* and the final text, never
over the model's words alone: a list must hold exactly the right items, an answer must name
what the files say. ``permite``: what the user answers when asked for a write.

Plain Python: it runs in the bench's venv and in ``.venv-nativo`` (bench/evaluar.py).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

#: The lessons' files (runtime/entorno.py's ENTORNO, copied: this module imports no runtime).
ENTORNO_LECCIONES = {
    "lista.txt": "pan, leche, patatas",
    "notas.txt": "El sábado cenan los vecinos.\nMenú: gazpacho y tortilla.",
    "recetas/gazpacho.txt": "Gazpacho: tomates, pepino, pimiento, ajo.",
    "recetas/tortilla.txt": "Tortilla: huevos, patatas, cebolla.",
}

DESPENSA = {
    "despensa.txt": "arroz, aceite, sal, pollo",
    "platos/paella.txt": "Paella: arroz, pollo, judías verdes, azafrán.",
    "platos/crema.txt": "Crema de calabaza: calabaza, cebolla, nata.",
    "platos/ensalada.txt": "Ensalada: lechuga, tomate, aceite.",
}

AGENDA = {
    "agenda/lunes.txt": "10:00 dentista\n17:30 clase de inglés",
    "agenda/martes.txt": "9:00 reunión con Marta\n13:00 comida con Andrés",
    "pendientes.txt": "llamar al fontanero\npagar la luz",
}

VIAJE = {
    "viaje/equipaje.txt": "pasaporte, cargador, toalla",
    "viaje/itinerario.txt": "Día 1: Lisboa\nDía 2: Oporto\nDía 3: Coímbra",
    "contactos.txt": "Lucía: 600 111 222\nPablo: 600 333 444",
}


def plano(texto: str) -> str:
    """Lowercase, without accents: what an answer is compared on."""
    sin = unicodedata.normalize("NFKD", texto or "")
    return "".join(c for c in sin if not unicodedata.combining(c)).lower()


def elementos(texto: str | None) -> list[str]:
    """A list file's items: split on commas and line breaks, trimmed, lowercase, no accents."""
    return sorted(x.strip() for x in plano(texto or "").replace("\n", ",").split(",") if x.strip())


def dice(*palabras: str) -> Callable[[dict, dict, str], bool]:
    """The answer names every one of ``palabras`` (and the files are as they were)."""
    return lambda antes, despues, final: despues == antes and all(plano(p) in plano(final) for p in palabras)


def lista(ruta: str, *esperados: str) -> Callable[[dict, dict, str], bool]:
    """``ruta`` holds exactly ``esperados`` (in any order), and nothing else changed."""
    def comprobar(antes, despues, final):
        otros = {k: v for k, v in despues.items() if k != ruta}
        return (otros == {k: v for k, v in antes.items() if k != ruta}
                and elementos(despues.get(ruta)) == sorted(plano(e) for e in esperados))
    return comprobar


def lineas(ruta: str, *esperadas: str) -> Callable[[dict, dict, str], bool]:
    """``ruta`` holds exactly these lines (in any order, blank ones aside), nothing else changed."""
    def comprobar(antes, despues, final):
        otros = {k: v for k, v in despues.items() if k != ruta}
        hechas = sorted(plano(x).strip() for x in (despues.get(ruta) or "").splitlines() if x.strip())
        return (otros == {k: v for k, v in antes.items() if k != ruta}
                and hechas == sorted(plano(e) for e in esperadas))
    return comprobar


def alguna(*opciones: str) -> Callable[[dict, dict, str], bool]:
    """The answer names at least one of ``opciones`` (and the files are as they were)."""
    return lambda antes, despues, final: despues == antes and any(plano(o) in plano(final) for o in opciones)


#: Words with which an answer says that it could not write (after a denial).
NEGACIONES = ("no he", "no se ha", "no pude", "no puedo", "no lo he", "no has", "permiso", "no me has")


def denegada(antes, despues, final) -> bool:
    """Nothing changed, and the answer says so."""
    return despues == antes and any(n in plano(final) for n in NEGACIONES)


@dataclass(frozen=True)
class Apartada:
    tipo: str
    entorno: dict
    pedido: str
    comprobar: Callable[[dict, dict, str], bool] = field(repr=False)
    permite: bool = True  # what the user answers when asked for a write


LECCIONES = [
    Apartada("falta-para-receta", ENTORNO_LECCIONES, "Apunta en lista.txt lo que falta para la tortilla.",
             lista("lista.txt", "pan", "leche", "patatas", "huevos", "cebolla")),
    Apartada("falta-para-receta", ENTORNO_LECCIONES, "Añade a lista.txt lo que falta para el gazpacho.",
             lista("lista.txt", "pan", "leche", "patatas", "tomates", "pepino", "pimiento", "ajo")),
    Apartada("listar", ENTORNO_LECCIONES, "¿Qué recetas hay en la carpeta recetas?",
             dice("gazpacho", "tortilla")),
    Apartada("leer", ENTORNO_LECCIONES, "¿Qué ingredientes lleva el gazpacho?",
             dice("tomates", "pepino", "pimiento", "ajo")),
    Apartada("leer", ENTORNO_LECCIONES, "Lee notas.txt y dime qué menú hay para el sábado.",
             dice("gazpacho", "tortilla")),
    Apartada("buscar", ENTORNO_LECCIONES, "¿Qué receta lleva cebolla?", dice("tortilla")),
    Apartada("leer", ENTORNO_LECCIONES, "¿Qué hay ahora mismo en lista.txt?",
             dice("pan", "leche", "patatas")),
    Apartada("añadir", ENTORNO_LECCIONES, "Añade arroz a lista.txt.",
             lista("lista.txt", "pan", "leche", "patatas", "arroz")),
    Apartada("denegada", ENTORNO_LECCIONES, "Apunta en lista.txt lo que falta para la tortilla.",
             denegada, permite=False),
    Apartada("sugerencia", ENTORNO_LECCIONES, "Lee el fichero tortilla.txt.",
             dice("huevos", "patatas", "cebolla")),
    # ten more (2026-12-06, night): with ten, one task is ten points of the rate
    Apartada("quitar", ENTORNO_LECCIONES, "Quita la leche de lista.txt.",
             lista("lista.txt", "pan", "patatas")),
    Apartada("leer", ENTORNO_LECCIONES, "¿Qué lleva la tortilla?", dice("huevos", "patatas", "cebolla")),
    Apartada("leer", ENTORNO_LECCIONES, "¿Quién viene a cenar el sábado?", dice("vecinos")),
    Apartada("listar", ENTORNO_LECCIONES, "¿Qué ficheros tengo?", dice("lista.txt", "notas.txt", "recetas")),
    Apartada("buscar", ENTORNO_LECCIONES, "¿En qué fichero sale el pepino?", dice("gazpacho")),
    Apartada("añadir", ENTORNO_LECCIONES, "Añade huevos y cebolla a lista.txt.",
             lista("lista.txt", "pan", "leche", "patatas", "huevos", "cebolla")),
    Apartada("quitar", ENTORNO_LECCIONES, "Borra las patatas de la lista.",
             lista("lista.txt", "pan", "leche")),
    Apartada("denegada", ENTORNO_LECCIONES, "Añade arroz a lista.txt.", denegada, permite=False),
    Apartada("sugerencia", ENTORNO_LECCIONES, "Lee gazpacho.txt.",
             dice("tomates", "pepino", "pimiento", "ajo")),
    Apartada("leer", ENTORNO_LECCIONES, "¿Qué pone en notas.txt?", dice("vecinos", "gazpacho", "tortilla")),
]

APARTADAS = [
    Apartada("leer", DESPENSA, "oye, ¿qué me queda en la despensa?", dice("arroz", "aceite", "sal", "pollo")),
    Apartada("buscar", DESPENSA, "Tengo una calabaza muerta de risa, ¿en qué plato la uso?", dice("crema")),
    Apartada("listar", DESPENSA, "enséñame los platos que tengo guardados", dice("paella", "crema", "ensalada")),
    Apartada("falta-para-receta", DESPENSA,
             "quiero hacer paella esta noche: mete en despensa.txt lo que me falte",
             lista("despensa.txt", "arroz", "aceite", "sal", "pollo", "judías verdes", "azafrán")),
    Apartada("añadir", DESPENSA, "Acabo de comprar limones, apúntalos en la despensa",
             lista("despensa.txt", "arroz", "aceite", "sal", "pollo", "limones")),
    Apartada("leer", AGENDA, "¿a qué hora era lo del dentista?", dice("10:00")),
    Apartada("buscar", AGENDA, "¿Cuándo como con Andrés?", dice("martes", "13:00")),
    Apartada("leer", AGENDA, "Recuérdame qué cosas tenía pendientes", dice("fontanero", "luz")),
    Apartada("añadir", AGENDA, "no te olvides: tengo que renovar el DNI, déjalo en pendientes",
             lineas("pendientes.txt", "llamar al fontanero", "pagar la luz", "renovar el DNI")),
    Apartada("denegada", AGENDA, "Borra lo de pagar la luz de mis pendientes, ya está hecho.",
             denegada, permite=False),
    Apartada("listar", AGENDA, "¿De qué días tengo agenda?", dice("lunes", "martes")),
    Apartada("leer", VIAJE, "¿Cuál es el móvil de Pablo?", dice("600 333 444")),
    Apartada("leer", VIAJE, "¿dónde dormimos la segunda noche del viaje?", dice("oporto")),
    Apartada("añadir", VIAJE, "Se me olvidaba el protector solar: ponlo con el resto del equipaje",
             lista("viaje/equipaje.txt", "pasaporte", "cargador", "toalla", "protector solar")),
    Apartada("buscar", VIAJE, "¿En qué fichero apunté lo de Coímbra?", dice("itinerario")),
    Apartada("sugerencia", VIAJE, "Abre itinerario.txt y dime la primera parada",
             dice("lisboa")),
    # sixteen more (2026-12-06, night), over the same three homes
    Apartada("leer", DESPENSA, "la crema de calabaza, ¿qué necesitaba?", dice("calabaza", "cebolla", "nata")),
    Apartada("quitar", DESPENSA, "he gastado la sal, sácala de la despensa",
             lista("despensa.txt", "arroz", "aceite", "pollo")),
    Apartada("listar", DESPENSA, "¿cuántas recetas guardo?", alguna("3", "tres")),
    Apartada("buscar", DESPENSA, "¿hay algún plato con tomate?", dice("ensalada")),
    Apartada("denegada", DESPENSA, "el pollo ya no está, bórralo de la despensa", denegada, permite=False),
    Apartada("leer", AGENDA, "¿tengo algo el lunes por la tarde?", dice("ingles")),
    Apartada("leer", AGENDA, "¿con quién me reúno el martes?", dice("marta")),
    Apartada("quitar", AGENDA, "ya llamé al fontanero, quítalo de lo que tengo por hacer",
             lineas("pendientes.txt", "pagar la luz")),
    Apartada("añadir", AGENDA, "que no se me olvide pedir cita en el banco, anótalo con lo pendiente",
             lineas("pendientes.txt", "llamar al fontanero", "pagar la luz", "pedir cita en el banco")),
    Apartada("leer", AGENDA, "¿Qué tengo que pagar?", dice("luz")),
    Apartada("leer", VIAJE, "¿qué día llegamos a Coímbra?", dice("3")),
    Apartada("leer", VIAJE, "dame el teléfono de Lucía", dice("600 111 222")),
    Apartada("quitar", VIAJE, "al final no me llevo la toalla, quítala del equipaje",
             lista("viaje/equipaje.txt", "pasaporte", "cargador")),
    Apartada("leer", VIAJE, "¿qué ciudades vemos en el viaje?", dice("lisboa", "oporto", "coimbra")),
    Apartada("leer", VIAJE, "¿Qué llevo en el equipaje?", dice("pasaporte", "cargador", "toalla")),
    Apartada("denegada", VIAJE, "cambia el cargador por un adaptador en el equipaje", denegada, permite=False),
]

CONJUNTOS = {"lecciones": LECCIONES, "apartadas": APARTADAS}
