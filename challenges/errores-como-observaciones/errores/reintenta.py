# Error: si la herramienta falla, la reintenta una vez antes de devolver el error.
# Cláusula: una-sola-vez
# Falla: cada llamada corre su herramienta una sola vez
# Mensaje: Con llamada u2 leer(ruta='postres/flan.txt'), ejecutar corrió leer 2 veces para una sola llamada.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return resultado(ll["id"], motivo, es_error=True)
    for intento in range(2):
        try:
            return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
        except (OSError, ValueError) as error:
            fallo = error
    return resultado(ll["id"], str(fallo), es_error=True)
