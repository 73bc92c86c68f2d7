# Error: el mensaje lleva delante el nombre de la clase de la excepción.
# Cláusula: str-del-error
# Falla: la conversación de la lección
# Mensaje: En el turno 2 el modelo recibió 4 mensajes, tantos como esperaba, pero no son los esperados.
# Mensaje: Primer mensaje distinto: M[3]
# Mensaje: recibido: usuario: [resultado e1 (error): «FileNotFoundError: no existe el fichero 'gazpacho…»]
# Mensaje: Pista: el contenido del error de e1 es el mensaje tal cual: str(error), o el motivo de incumple. Al tuyo le sobra «FileNotFoundError: » delante.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except (OSError, ValueError) as error:
        return resultado(ll["id"], f"{type(error).__name__}: {error}", es_error=True)
    return resultado(ll["id"], salida)
