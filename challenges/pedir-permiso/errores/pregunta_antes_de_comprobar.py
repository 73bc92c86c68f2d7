# Error: pregunta antes de comprobar el esquema: molesta al usuario por una llamada que no vale.
# Cláusula: no-encaja-no-pregunta
# Falla: una escritura que no encaja no pregunta ni se ejecuta
# Mensaje: ejecutar preguntó al usuario por una llamada que no encaja con su esquema (a escribir le falta el argumento 'contenido')


def ejecutar(ll, entorno, preguntar):
    if not necesita_permiso(ll):
        return ejecutar_sin_permiso(ll, entorno)
    respuesta = preguntar(ll)
    if respuesta is False:
        return denegado(ll)
    if respuesta is not True:
        raise TypeError(f"preguntar respondió {respuesta!r}, y solo valen True y False")
    return ejecutar_sin_permiso(ll, entorno)
