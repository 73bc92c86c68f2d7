# Desafío: ejecutar una llamada.
#
# Ya está cargado todo lo que deja entorno.py (ENTORNO, HERRAMIENTAS, FUNCIONES,
# incumple, texto, llamada, resultado, muestra...).


def ejecutar(ll, entorno):
    """Ejecuta la llamada `ll` (un bloque tool_use) sobre `entorno` y devuelve su
    tool_result.

    - Si incumple(ll) da un motivo, lanza ValueError con ese motivo y no ejecuta
      nada.
    - Si no, llama una vez a la herramienta de FUNCIONES con el entorno y los
      argumentos de la llamada, por nombre.
    - Devuelve un tool_result (usa resultado) con el id de la llamada y lo que
      devolvió la herramienta.

    Si la herramienta lanza un error (un fichero que no existe...), no lo atrapes:
    que salga de ejecutar tal cual. Y no cambies `ll`: es parte de la respuesta del
    modelo.
    """
    raise NotImplementedError("escribe aquí ejecutar")
