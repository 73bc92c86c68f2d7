# Desafío: tu primer bucle. El runtime del curso ya está cargado (FUNCIONES, HERRAMIENTAS,
# resultado…).


def bucle(modelo, inicio, entorno, tope):
    """Llama a modelo(M, HERRAMIENTAS), con M empezando como una copia de inicio. Si la
    respuesta pide herramientas, ejecútalas y añade sus resultados a M; si no, devuelve
    ("fin", su texto, M). Como mucho `tope` llamadas al modelo: después, ("tope", None, M)."""
    M = list(inicio)
    return ("tope", None, M)
