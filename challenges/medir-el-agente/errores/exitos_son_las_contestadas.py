# Error: cuenta como éxitos todas las ejecuciones que contestan, resueltas y equivocadas.
# Cláusula: cuentas
# Falla: exitos, ejecuciones y tasa
# Mensaje: "exitos" debía ser 4
# Mensaje: y es 7: cuenta solo las resueltas

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
    centro = (p + z * z / (2 * n)) / (1 + z * z / n)
    margen = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"exitos": motivos["resuelta"] + motivos["equivocada"], "ejecuciones": n, "tasa": p,
            "intervalo": (max(0.0, centro - margen), min(1.0, centro + margen)),
            "motivos": motivos}
