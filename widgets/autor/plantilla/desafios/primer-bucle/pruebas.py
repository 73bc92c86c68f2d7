"""Las pruebas de «primer-bucle». Importan lo que usan: del runtime del curso y, del
calificador, Fallo (una prueba que no pasa, con su mensaje y el turno en que falló)."""

from runtime import ENTORNO, ModeloGuionizado, guion_de, llamada, texto
from calificador import Fallo

#: Lo que escribe el lector: la función y sus argumentos.
A_ESCRIBIR = {"bucle": ("modelo", "inicio", "entorno", "tope")}

PISTA = ("Un for sobre range(tope): llama al modelo, añade su respuesta a M y, si no pide "
         "herramientas, devuelve («fin», su texto, M).")

PREGUNTA = [("usuario", "¿Cuántas palabras tiene saludo.txt?")]
CONTAR = [llamada("c1", "contar", ruta="saludo.txt")]
DOS = [llamada("c1", "contar", ruta="saludo.txt"), llamada("c2", "contar", ruta="notas.txt")]

#: nombre → (respuestas del modelo, tope, lo que debe devolver bucle, llamadas al modelo)
CASOS = {
    "contesta sin herramientas": ([[texto("Hola.")]], 3, ("fin", "Hola."), 1),
    "cuenta y contesta": ([CONTAR, [texto("Tiene 3.")]], 3, ("fin", "Tiene 3."), 2),
    "dos llamadas en una respuesta": ([DOS, [texto("3 y 5.")]], 2, ("fin", "3 y 5."), 2),
    "se para en el tope": ([CONTAR, CONTAR], 2, ("tope", None), 2),
}


def argumentos(nombre):
    """Los argumentos con que la prueba `nombre` llama a bucle (la página los usa para
    enseñar la traza del lector)."""
    respuestas, tope, _, _ = CASOS[nombre]
    return (ModeloGuionizado(guion_de(PREGUNTA, respuestas, ENTORNO)), list(PREGUNTA),
            dict(ENTORNO), tope)


def _prueba(nombre):
    def prueba(envio):
        _, _, esperado, llamadas = CASOS[nombre]
        modelo, inicio, entorno, tope = argumentos(nombre)
        copia = list(inicio)
        devuelto = envio.funcion("bucle")(modelo, inicio, entorno, tope)
        if not isinstance(devuelto, (tuple, list)) or len(devuelto) != 3:
            raise Fallo(f"bucle debe devolver (motivo, texto, M), y devolvió {devuelto!r}")
        if tuple(devuelto[:2]) != esperado:
            raise Fallo(f"bucle devolvió {tuple(devuelto[:2])!r}; esperaba {esperado!r}",
                        modelo.turno)
        if modelo.turno != llamadas:
            raise Fallo(f"bucle llamó al modelo {modelo.turno} veces; esperaba {llamadas}",
                        modelo.turno)
        if inicio != copia:
            raise Fallo("bucle cambió la lista inicio, que es de quien lo llama: M empieza "
                        "como una copia")
    return prueba


PRUEBAS = [(nombre, _prueba(nombre)) for nombre in CASOS]
