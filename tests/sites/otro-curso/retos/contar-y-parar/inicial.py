# Desafío: contar y parar. Ya está cargado mundo.py (FUNCIONES, HERRAMIENTAS,
# resultado...).


def bucle(modelo, inicio, entorno, tope):
    """Llama al modelo con M y HERRAMIENTAS; si pide herramientas, ejecútalas y
    añade sus resultados a M; si no, devuelve ("fin", su texto, M). Como mucho
    `tope` llamadas al modelo: después, ("tope", None, M)."""
    M = list(inicio)
    return ("tope", None, M)
