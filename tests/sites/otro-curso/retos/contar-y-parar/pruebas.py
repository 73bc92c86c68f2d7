"""Las pruebas de «contar-y-parar».

Importan lo que usan: del runtime de este curso (mundo.py) y, del calificador, Fallo.
"""

from runtime import ENTORNO, ModeloGuionizado, guion_de, llamada, texto
from calificador import Fallo

A_ESCRIBIR = {"bucle": ("modelo", "inicio", "entorno", "tope")}

PISTA = ("Un for sobre range(tope): llama al modelo, añade su respuesta a M y, si no pide "
         "herramientas, devuelve («fin», su texto, M).")

INICIO = [("usuario", "¿Cuántas palabras tiene saludo.txt?")]
CONTAR = [llamada("c1", "contar", ruta="saludo.txt")]

#: nombre → (respuestas del modelo, tope, (motivo, texto) esperados, llamadas al modelo)
CASOS = {
    "responde sin herramientas": ([[texto("Hola.")]], 3, ("fin", "Hola."), 1),
    "cuenta con su herramienta": ([CONTAR, [texto("Tiene 3.")]], 3, ("fin", "Tiene 3."), 2),
    "se para en el tope": ([CONTAR], 1, ("tope", None), 1),
}


def caso(nombre):
    respuestas, tope, (motivo, texto_), llamadas = CASOS[nombre]
    return {"guion": guion_de(INICIO, respuestas, ENTORNO), "inicio": INICIO,
            "entorno": dict(ENTORNO), "tope": tope, "motivo": motivo, "texto": texto_,
            "llamadas": llamadas}


def argumentos(nombre):
    c = caso(nombre)
    return (ModeloGuionizado(c["guion"]), list(c["inicio"]), dict(c["entorno"]), c["tope"])


def _prueba(nombre):
    def prueba(envio):
        c = caso(nombre)
        modelo, inicio, entorno, tope = argumentos(nombre)
        devuelto = envio.funcion("bucle")(modelo, inicio, entorno, tope)
        if not isinstance(devuelto, (tuple, list)) or len(devuelto) != 3:
            raise Fallo(f"bucle debe devolver (motivo, texto, M), y devolvió {devuelto!r}")
        esperado = (c["motivo"], c["texto"])
        if tuple(devuelto[:2]) != esperado:
            raise Fallo(f"bucle devolvió {tuple(devuelto[:2])!r}; esperaba {esperado!r}",
                        modelo.turno)
        if modelo.turno != c["llamadas"]:
            raise Fallo(f"bucle llamó al modelo {modelo.turno} veces; esperaba {c['llamadas']}",
                        modelo.turno)
    return prueba


PRUEBAS = [(nombre, _prueba(nombre)) for nombre in CASOS]
