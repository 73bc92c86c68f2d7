"""Las pruebas de «bucle-con-tope».

El calificador ejecuta este archivo en un espacio de nombres propio, antes de que corra el código
del lector: sus propias referencias (ModeloGuionizado, HERRAMIENTAS, FUNCIONES...) las importa
de su runtime, un módulo nuevo que el código del lector, que vive en otro espacio, no puede
cambiar; Fallo, del calificador. Las piezas que comparte con las pruebas de los otros desafíos
(Caso, registro, AlAzar, breve...) están en comun.py, y las importa de ahí.

Deja:
- A_ESCRIBIR: {nombre: parámetros} de lo que escribe el lector (se quita del código inicial).
- PISTA: la pista que la página muestra tras varios intentos fallidos.
- PRUEBAS: [(nombre, prueba)]; prueba(envio) llama al código del lector con
  envio.llamar("bucle", ...) y lanza Fallo(mensaje, turno) si no cumple el contrato.
- caso(nombre): los datos de una prueba (guion, inicio, entorno, tope y lo esperado).
- argumentos(nombre): (modelo, inicio, entorno, tope) nuevos para repetir una prueba, por
  ejemplo con el trazador (widgets/calificador/trazas.py).

Cada prueba es un guion: un modelo guionizado dentro de un registro que cuenta, turno a turno,
cuántos mensajes recibe y los compara con los que el guion espera; después se comprueban el
número de llamadas al modelo, la tupla devuelta, el entorno, M e `inicio`.
"""

import copy as copia

from runtime import (_mensajes, _normaliza, GuionRoto, HERRAMIENTAS, INICIO_BUCLE, llamada,
    ModeloGuionizado, muestra, RESPUESTAS_BUCLE, texto)
from calificador import Fallo
from ..comun import (AlAzar, breve, Caso, entorno_distinto, ESCRITAS, FINALES, FRASES, llamadas_de,
                     PETICIONES, registro, VACIO)


A_ESCRIBIR = {"bucle": ("modelo", "inicio", "entorno", "tope")}

PISTA = (
    "Cada vuelta del bucle: llama al modelo con M y HERRAMIENTAS y añade su respuesta a M. "
    "Si la respuesta no trae bloques tool_use, junta sus textos y devuelve «fin». Si trae "
    "llamadas, ejecútalas todas en orden y añade sus resultados en un solo mensaje del usuario. "
    "Cuenta las llamadas al modelo: con un for sobre range(tope) nunca pasas del tope."
)


# ------------------------------------------------------------------ los casos


def nunca_para(n):
    """Un modelo que siempre pide algo más: n respuestas, todas con llamadas."""
    patrones = ["patatas", "tomates", "huevos", "ajo", "pan", "cebolla", "pepino"]
    return [[texto("Busco un poco más.")] * (k % 2)
            + [llamada(f"s{k}", "buscar", patron=patrones[k % len(patrones)])]
            for k in range(1, n + 1)]


TEXTO_Y_LLAMADAS = [
    [texto("Miro la nota."), llamada("n1", "leer", ruta="notas.txt"),
     texto("Y después, la lista.")],
    [llamada("n2", "leer", ruta="lista.txt")],
    [texto("El sábado hay gazpacho y tortilla; en la lista aún no está lo de las recetas.")],
]

VARIAS_LLAMADAS = [
    [llamada("v1", "leer", ruta="lista.txt"),
     llamada("v2", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, huevos"),
     llamada("v3", "leer", ruta="lista.txt"),
     llamada("v4", "listar", carpeta="")],
    [texto("He añadido huevos a lista.txt.")],
]

TEXTO_EN_BLOQUES = [
    [llamada("b1", "listar", carpeta="recetas")],
    [texto("Hay dos recetas:"), texto("gazpacho y tortilla.")],
]

#: Un modelo que, tras una llamada, responde sin nada: ni texto ni llamadas.
SIN_BLOQUES = [
    [llamada("c1", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, ajo")],
    [],
]


# ---------------------------------------------- conversaciones que la lección no muestra



def conversacion(semilla, turnos, charla_previa=False, solo_peticion=False, entorno=None):
    """(inicio, respuestas) de una conversación generada: turnos - 1 respuestas con 1 a 3
    llamadas (y a veces un texto en cualquier sitio) y una final con 1 o 2 textos. Con
    `solo_peticion`, `inicio` es un solo mensaje, la petición; con `entorno` (uno de comun.py al
    borde), las llamadas salen bien sobre él, y a veces escriben ficheros vacíos."""
    al_azar = AlAzar(semilla, FRASES["bucle-con-tope"], ESCRITAS["bucle-con-tope"], entorno,
                     vacios=entorno is not None)
    rng = al_azar.rng
    inicio = [("sistema", "Eres un asistente de la compra. Usa las herramientas.")]
    if solo_peticion:
        inicio = []
    if charla_previa:
        inicio += [("usuario", "Hola."), ("asistente", [texto("Hola, ¿en qué te ayudo?")])]
    inicio.append(("usuario", rng.choice(PETICIONES["bucle-con-tope"])))
    respuestas = [al_azar.respuesta([None] * rng.randint(1, 3)) for _ in range(turnos - 1)]
    respuestas.append([texto(f) for f in rng.sample(FINALES, rng.randint(1, 2))])
    return inicio, respuestas


def generado(semilla, turnos, tope, nombre=None, entorno=None, ligero=False, **como):
    inicio, respuestas = conversacion(semilla, turnos, entorno=entorno, **como)
    caso = Caso("", inicio, respuestas, tope, entorno, ligero=ligero)
    n = sum(len(llamadas_de(r)) for r in caso.respuestas)
    caso.nombre = nombre or f"otra conversación: {caso.llamadas} turnos y {n} llamadas"
    return caso


CASOS = [
    Caso("la conversación de la lección", INICIO_BUCLE, RESPUESTAS_BUCLE, 10),
    Caso("un tope justo: tantas llamadas como respuestas", INICIO_BUCLE, RESPUESTAS_BUCLE, 4),
    Caso("se detiene en el tope", INICIO_BUCLE, RESPUESTAS_BUCLE, 3),
    Caso("un tope de 1", INICIO_BUCLE, RESPUESTAS_BUCLE, 1),
    Caso("un modelo que nunca para", INICIO_BUCLE, nunca_para(20), 5),
    Caso("una respuesta con texto y llamadas", INICIO_BUCLE, TEXTO_Y_LLAMADAS, 6),
    Caso("varias llamadas en una respuesta", INICIO_BUCLE, VARIAS_LLAMADAS, 3),
    Caso("el texto final en varios bloques", INICIO_BUCLE, TEXTO_EN_BLOQUES, 3),
    Caso("una respuesta sin ningún bloque termina el bucle", INICIO_BUCLE, SIN_BLOQUES, 4),
    generado(7, 6, 12),
    generado(3, 1, 2, nombre="otra conversación: responde sin llamar a nada"),
    generado(5, 4, 9, charla_previa=True, nombre="otra conversación: inicio con 4 mensajes"),
    generado(6, 3, 5, solo_peticion=True, nombre="otra conversación: inicio con un solo mensaje"),
    generado(2, 6, 8, entorno=VACIO, nombre="otra conversación: empieza con el entorno vacío"),
    generado(17, 36, 40, ligero=True, nombre="otra conversación muy larga: 36 turnos"),
    generado(11, 9, 4, nombre="otra conversación: se agota un tope de 4"),
]


def caso(nombre):
    """Los datos del caso `nombre`."""
    return caso_llamado(nombre).datos()


def argumentos(nombre):
    """(modelo, inicio, entorno, tope) nuevos para repetir la prueba `nombre`: el modelo es un
    ModeloGuionizado con su guion."""
    c = caso_llamado(nombre)
    return ModeloGuionizado(c.guion), copia.deepcopy(c.inicio), dict(c.entorno), c.tope


def caso_llamado(nombre):
    for c in CASOS:
        if c.nombre == nombre:
            return c
    raise KeyError(nombre)


# ------------------------------------------------------------------ el registro


def registro_de(caso):
    """(modelo, notas): el registro de comun.py con el guion del caso; antes que el modelo
    guionizado, mira el tope, cuántos mensajes llegan y las herramientas."""
    herramientas = copia.deepcopy(HERRAMIENTAS)

    def antes(turno, M, recibidas):
        if turno > caso.tope:
            return excede(caso, turno)
        if isinstance(M, (list, tuple)):
            largo = caso.largos[turno - 1] if turno <= caso.llamadas else None
            if largo is not None and len(M) != largo:
                return str(GuionRoto(turno, caso.M[:largo], list(M)))
        if recibidas is None:
            return (f"En el turno {turno} el modelo no recibió las herramientas: "
                    f"llámalo como modelo(M, HERRAMIENTAS).")
        if isinstance(recibidas, (list, tuple)) and list(recibidas) != herramientas:
            return (f"En el turno {turno} el modelo recibió otras herramientas: pásale "
                    f"HERRAMIENTAS, la lista que dejó entorno.py, tal cual.")
        return None

    def explica(error, turno):
        if isinstance(error, (GuionRoto, RuntimeError)):  # ya dicen el turno
            return str(error)
        return f"En el turno {turno}: {error}"  # M o las herramientas no son listas

    return registro(caso.guionizado(), antes, explica)


# ------------------------------------------------------------------ las pruebas


def prueba_de(caso):
    def prueba(envio):
        modelo, notas = registro_de(caso)
        inicio = copia.deepcopy(caso.inicio)
        entorno = dict(caso.entorno)
        hecho = envio.llamar("bucle", modelo, inicio, entorno, caso.tope)
        if notas["fallo"] is not None:
            raise Fallo(notas["fallo"], notas["turno"])
        comprueba(caso, hecho.resultado(), notas, inicio, entorno)
    return prueba


def comprueba(caso, devuelto, notas, inicio, entorno):
    n = notas["respuestas"]
    if n != caso.llamadas:
        raise Fallo(pocas(caso, n), n + 1)
    if not (isinstance(devuelto, tuple) and len(devuelto) == 3):
        cual = f"una de {len(devuelto)}: " if isinstance(devuelto, tuple) else ""
        raise Fallo(f"bucle debe devolver una tupla de tres, (motivo, texto, M), y devolvió "
                    f"{cual}{breve(devuelto)}.")
    motivo, dicho, M = devuelto
    if motivo != caso.motivo:
        raise Fallo(motivo_mal(caso, motivo))
    if dicho != caso.texto:
        raise Fallo(texto_mal(caso, dicho))
    if not isinstance(M, list):
        raise Fallo(f"El tercer valor que devuelve bucle debe ser M, la lista de mensajes, "
                    f"y es {breve(M)}.")
    if entorno != caso.entorno_final:
        raise Fallo(entorno_mal(caso, entorno))
    if _normaliza(M) != _normaliza(caso.M):
        raise Fallo(M_mal(caso, M))
    if _normaliza(inicio) != _normaliza(caso.inicio):
        raise Fallo(f"bucle cambió `inicio`, la lista de quien llama: tenía "
                    f"{_mensajes(len(caso.inicio))} y ahora tiene {_mensajes(len(inicio))}. "
                    f"Empieza con una copia: M = list(inicio).")


# ------------------------------------------------------------------ los mensajes


def veces(n):
    return "1 vez" if n == 1 else f"{n} veces"


def excede(caso, turno):
    mensaje = (f"El tope era {caso.tope} y llamaste al modelo una {turno}.ª vez: con "
               f"tope={caso.tope}, el modelo responde como mucho {veces(caso.tope)}.")
    if llamadas_de(caso.respuestas[-1]):
        mensaje += ("\nPista: al agotar el tope, ejecuta las llamadas de la última respuesta, "
                    "añade sus resultados a M y devuelve (\"tope\", None, M).")
    return mensaje


def pocas(caso, n):
    mensaje = f"Llamaste al modelo {veces(n)} y debían ser {caso.llamadas}."
    if n == 0:
        return mensaje + "\nPista: cada turno empieza con respuesta = modelo(M, HERRAMIENTAS)."
    ultima = caso.respuestas[n - 1]
    if llamadas_de(ultima):
        aun = " (que también traiga texto no la hace final)" if any(
            b["type"] == "text" for b in ultima) else ""
        mensaje += (f"\nPista: la respuesta {n} aún pedía herramientas{aun} y el tope era "
                    f"{caso.tope}: quedaban llamadas, así que el bucle debía ejecutarlas y "
                    f"volver a llamar al modelo.")
    return mensaje


def motivo_mal(caso, motivo):
    if caso.motivo == "fin":
        porque = f"la respuesta {caso.llamadas} no pedía herramientas"
    else:
        porque = f"se agotó el tope de {caso.tope} y la última respuesta aún pedía herramientas"
    return f"bucle devolvió el motivo {breve(motivo)} y debía ser \"{caso.motivo}\": {porque}."


def texto_mal(caso, dicho):
    if caso.motivo == "tope":
        return (f"Al agotar el tope, bucle devuelve (\"tope\", None, M): el texto es None, "
                f"y devolviste {breve(dicho)}.")
    mensaje = f"El texto final debía ser «{caso.texto}» y es {breve(dicho)}."
    textos = [b["text"] for b in caso.respuestas[-1] if b["type"] == "text"]
    if isinstance(dicho, str) and len(textos) > 1 and dicho == "".join(textos):
        mensaje += "\nPista: junta los textos de los bloques text con un espacio: \" \".join(...)."
    elif isinstance(dicho, str) and len(dicho) > len(caso.texto) and caso.texto in dicho:
        mensaje += "\nPista: solo cuentan los bloques text de la última respuesta."
    return mensaje


def entorno_mal(caso, entorno):
    if not isinstance(entorno, dict):
        return "bucle cambió el entorno por otra cosa: trabaja sobre el dict que recibes."
    detalle = entorno_distinto(caso.entorno_final, entorno, muestra)
    mensaje = f"Después del bucle, el entorno no es el esperado: {detalle}."
    if caso.motivo == "tope":
        mensaje += "\nPista: ¿ejecutaste también las llamadas de la última respuesta?"
    return mensaje


def M_mal(caso, M):
    error = GuionRoto(caso.llamadas, caso.M, list(M))
    if len(M) != len(caso.M):
        primera = f"El M que devolviste tiene {_mensajes(len(M))}; esperaba {len(caso.M)}."
    else:
        primera = (f"El M que devolviste tiene {_mensajes(len(M))}, tantos como esperaba, pero "
                   f"no son los esperados.")
    return "\n".join([primera] + str(error).split("\n")[1:])


PRUEBAS = [(c.nombre, prueba_de(c)) for c in CASOS]
