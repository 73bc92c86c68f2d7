"""Las conversaciones que la lección no muestra, para las pruebas de los desafíos.

- AlAzar, FINALES, PALABRAS, y PETICIONES, FRASES y ESCRITAS de cada desafío: conversaciones
  generadas, siempre las mismas para una semilla;
- VACIO y CON_VACIOS, entornos al borde (ninguno lo enseña la lección) donde pueden empezar.
"""

import random as azar

from runtime import ENTORNO, llamada, texto
from .comun import salida_de

#: Entornos al borde: ninguno sale en la lección. Uno vacío, y otro con ficheros vacíos.
VACIO = {}
CON_VACIOS = {
    "lista.txt": "",
    "notas.txt": "Nada por ahora.",
    "recetas/pendiente.txt": "",
}

FINALES = ["Hecho.", "Ya está todo apuntado.", "Te lo he dejado en tus ficheros.",
           "Avísame si falta algo."]
PALABRAS = ["patatas", "huevos", "sábado", "ajo", "leche", "menta"]

#: Lo que piden, lo que dicen entre llamadas y lo que escriben las conversaciones generadas de
#: cada desafío, {desafío: lista}: cada uno tiene las suyas (cambiarlas cambia sus casos).
PETICIONES = {
    "bucle-con-tope": ["¿Qué falta para el gazpacho?", "Apunta lo que hay que comprar el sábado.",
                       "Busca dónde salen las patatas.", "Ordena mis notas de la compra."],
    "errores-como-observaciones": [
        "¿Qué falta para las lentejas?", "Apunta lo que hay que comprar el sábado.",
        "Busca dónde salen las patatas.", "Ordena mis notas de la compra."],
    "pedir-permiso": ["Prepara la compra del sábado.", "Apunta lo que falta para las lentejas.",
                      "Ordena mis listas de la compra."],
}
FRASES = {
    "bucle-con-tope": ["Voy a mirar.", "Un momento.", "Compruebo otra cosa.", "Sigo."],
    "errores-como-observaciones": ["Voy a mirar.", "Pruebo de otra forma.", "Compruebo otra cosa.",
                                   "Sigo."],
    "pedir-permiso": ["Voy a mirar.", "Lo apunto.", "Dejo una copia.", "Sigo."],
}
ESCRITAS = {
    "bucle-con-tope": ["lista.txt", "compra/sabado.txt", "notas.txt", "compra/martes.txt"],
    "errores-como-observaciones": ["lista.txt", "compra/sabado.txt"],
    "pedir-permiso": ["lista.txt", "compra/sabado.txt", "notas.txt"],
}


class AlAzar:
    """Las respuestas de una conversación generada con la semilla `semilla`: sus llamadas
    salen bien sobre un mundo que empieza como `entorno` (por omisión, ENTORNO) y cambia como
    en la conversación. `frases`: los textos que a veces acompañan a las llamadas; `escritas`:
    las rutas que puede escribir. Con `vacios`, a veces escribe un fichero vacío."""

    def __init__(self, semilla, frases, escritas, entorno=None, vacios=False):
        self.rng = azar.Random(semilla)
        self.semilla, self.frases, self.escritas = semilla, frases, escritas
        self.mundo = dict(ENTORNO if entorno is None else entorno)
        self.vacios = vacios
        self.n = 0

    def respuesta(self, pedidas):
        """Una llamada por pedida: None es una que sale bien; si no, pedida(id) la hace. A
        veces, un texto en cualquier sitio."""
        bloques = []
        for pedida in pedidas:
            self.n += 1
            ident = f"g{self.semilla}_{self.n}"
            bloques.append(self.posible(ident) if pedida is None else pedida(ident))
        if self.rng.random() < 0.5:
            bloques.insert(self.rng.randrange(len(bloques) + 1), texto(self.rng.choice(self.frases)))
        return bloques

    def posible(self, ident):
        """Una llamada que sale bien sobre el mundo (que se actualiza)."""
        rng, mundo = self.rng, self.mundo
        carpetas = sorted({r.rsplit("/", 1)[0] for r in mundo if "/" in r})

        def contenido():
            if self.vacios and rng.random() < 0.4:
                return ""
            return ", ".join(rng.sample(PALABRAS, 3))
        opciones = [
            lambda: llamada(ident, "listar", carpeta=rng.choice([""] + carpetas)),
            lambda: llamada(ident, "leer", ruta=rng.choice(sorted(mundo))),
            lambda: llamada(ident, "buscar", patron=rng.choice(PALABRAS)),
            lambda: llamada(ident, "escribir", ruta=rng.choice(self.escritas),
                            contenido=contenido()),
        ]
        if not mundo:  # nada que leer todavía
            del opciones[1]
        ll = rng.choice(opciones)()
        salida_de(ll, mundo)
        return ll
