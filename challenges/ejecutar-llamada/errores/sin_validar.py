# Error: no comprueba la llamada con incumple: ejecuta lo que pida el modelo.
# Cláusula: lanza-el-motivo
# Cláusula: no-ejecuta-si-no-encaja
# Falla: falta un argumento: ValueError sin ejecutar nada
# Mensaje: Con llamada z2 escribir(ruta='lista.txt'), ejecutar llamó a escribir y no debía
# Mensaje: Comprueba con incumple(ll) antes de ejecutar nada.


def ejecutar(ll, entorno):
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
