# Desafío: el bucle con tope.
#
# Ya está cargado todo lo que deja entorno.py (HERRAMIENTAS, FUNCIONES, texto,
# llamada, resultado, muestra...) y guionizado.py (ModeloGuionizado).


def ejecutar(ll, entorno):
    """Ejecuta la llamada `ll` (un bloque tool_use) sobre `entorno` y devuelve
    su tool_result."""
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))


def bucle(modelo, inicio, entorno, tope):
    """Llama al modelo, ejecuta lo que pide y le devuelve lo observado.

    - M empieza como una copia de `inicio`, que es de quien llama: no lo toques.
    - Cada turno llama a modelo(M, HERRAMIENTAS) y añade la respuesta entera a M
      como ("asistente", respuesta).
    - Una respuesta sin bloques tool_use acaba el bucle: devuelve ("fin", texto, M),
      con el texto de sus bloques text unidos por un espacio.
    - Una respuesta con llamadas añade a M un solo ("usuario", [...]) con lo que
      devuelve ejecutar para cada llamada, en el orden de las llamadas, y sigue.
    - Como mucho `tope` llamadas al modelo. Si la última respuesta permitida aún
      pide llamadas, se ejecutan, se añaden sus observaciones y devuelve
      ("tope", None, M).
    """
    M = list(inicio)
    # Escribe aquí el bucle.
