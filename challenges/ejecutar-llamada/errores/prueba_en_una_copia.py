# Error: corre la herramienta en una copia del entorno para ver si falla, y después otra vez sobre el entorno real.
# Cláusula: una-sola-vez
# Falla: cada llamada corre su herramienta una sola vez
# Mensaje: Con llamada u-1 escribir(ruta='compra/lunes.txt', contenido='pan, sal'), ejecutar corrió escribir 2 veces para una sola llamada.


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        raise ValueError(motivo)
    funcion = FUNCIONES[ll["name"]]
    funcion(dict(entorno), **ll["input"])
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
