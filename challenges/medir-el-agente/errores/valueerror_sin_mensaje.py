# Error: lanza ValueError sin mensaje: no dice qué pasa.
# Cláusula: valueerror
# Falla: sin tareas: ValueError con un mensaje que lo diga
# Mensaje: medir lanzó ValueError, pero su mensaje, «», no dice qué pasa

import math


def medir(tareas, agente, hacer_modelo, veces):
    if not tareas:
        raise ValueError
    if not isinstance(veces, int) or veces < 1:
        raise ValueError
    motivos = {motivo: 0 for motivo in MOTIVOS}
    motivo_de = {}
    for t, tarea in enumerate(tareas):
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
            motivo_de[(t, i)] = motivo
    exitos = motivos["resuelta"]
    n = len(tareas) * veces
    p = exitos / n
    z = 1.96
    centro = (p + z * z / (2 * n)) / (1 + z * z / n)
    margen = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"exitos": exitos, "ejecuciones": n, "tasa": p,
            "intervalo": (max(0.0, centro - margen), min(1.0, centro + margen)),
            "motivos": motivos, "motivo_de": motivo_de}


def comparar(antes, despues):
    """Empareja dos medidas de las mismas ejecuciones: las que `despues` resuelve y `antes` no
    (arregla), las que `antes` resuelve y `despues` no (rompe), y si sus intervalos se separan."""
    if set(antes["motivo_de"]) != set(despues["motivo_de"]):
        raise ValueError("antes y despues no son las mismas ejecuciones: compara dos medidas "
                         "de las mismas tareas, con las mismas veces")
    arregla, rompe = [], []
    for clave in sorted(antes["motivo_de"]):
        fue = antes["motivo_de"][clave] == "resuelta"
        es = despues["motivo_de"][clave] == "resuelta"
        if es and not fue:
            arregla.append(clave)
        if fue and not es:
            rompe.append(clave)
    (a_bajo, a_alto), (d_bajo, d_alto) = antes["intervalo"], despues["intervalo"]
    return {"arregla": arregla, "rompe": rompe, "separados": a_alto < d_bajo or d_alto < a_bajo}
