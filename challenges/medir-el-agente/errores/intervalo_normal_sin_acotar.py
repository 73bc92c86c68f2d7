# Error: usa la aproximación normal, p ± z·√(p(1−p)/n), sin acotar: con pocos éxitos baja de 0.
# Cláusula: wilson
# Cláusula: entre-0-y-1
# Falla: el intervalo de Wilson al 95 %, una tupla (bajo, alto)
# Mensaje: y pasa de 1
# Mensaje: la aproximación normal, p ± z·√(p(1−p)/n), sí

import math


def medir(tareas, agente, hacer_modelo, veces):
    if not tareas:
        raise ValueError("no hay tareas que medir: tareas está vacía")
    if not isinstance(veces, int) or veces < 1:
        raise ValueError(f"veces debe ser un entero de 1 en adelante, y es {veces!r}")
    motivos = {motivo: 0 for motivo in MOTIVOS}
    for tarea in tareas:
        for i in range(veces):
            modelo = hacer_modelo(tarea, i)
            entorno = dict(tarea.entorno)
            try:
                como, final, _ = agente(modelo, tarea.pedido, entorno, usuario(tarea))
                if como == "tope":
                    motivo = "tope"
                elif tarea.comprobar(entorno, final):
                    motivo = "resuelta"
                else:
                    motivo = "equivocada"
            except Exception:
                motivo = "error"
            motivos[motivo] += 1
    exitos = motivos["resuelta"]
    n = len(tareas) * veces
    p = exitos / n
    z = 1.96
    centro = p
    margen = z * math.sqrt(p * (1 - p) / n)
    return {"exitos": exitos, "ejecuciones": n, "tasa": p,
            "intervalo": (centro - margen, centro + margen),
            "motivos": motivos}
