"""El banco de «Medir el agente»: un conjunto fijo de tareas, el usuario de cada una y un modelo
ruidoso nuevo para cada ejecución.

Se carga después de los módulos de las tareas y del modelo ruidoso:

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/permisos.py").read())
    exec(open_url("runtime/palabras.py").read())
    exec(open_url("runtime/tareas.py").read())
    exec(open_url("runtime/escrituras.py").read())
    exec(open_url("runtime/entrenamiento.py").read())
    exec(open_url("runtime/ruidoso.py").read())
    exec(open_url("runtime/banco.py").read())

y deja en tu espacio de nombres:

- SEMILLA_DEL_BANCO: la semilla de las tareas del banco (otra que la de los datos con que se
  entrenó el modelo del curso, que es 1).
- tareas_del_banco(): una lista nueva de veinte tareas (Tarea, de entrenamiento.py), dos de cada
  tipo de TIPOS_DE_TAREA, siempre las mismas. Cada llamada da objetos nuevos: lo que una medida les haga
  no llega a la siguiente.
- RUIDO: cómo se equivoca el modelo ruidoso de la lección, las probabilidades de ModeloRuidoso.
- modelo_ruidoso(tarea, semilla): un ModeloRuidoso nuevo sobre el modelo ideal de `tarea`, con
  RUIDO y esa semilla (junto con el pedido: dos tareas no se equivocan a la par). Es un
  hacer_modelo: con la misma tarea y la misma semilla, el mismo modelo.
- usuario(tarea): un preguntar(ll) -> bool que contesta siempre lo que dice la tarea: sí si
  tarea.respuestas es ["sí"], no en cualquier otro caso (nunca se queda sin respuestas).
- MOTIVOS: cómo puede acabar una ejecución, en este orden: "resuelta" (contestó y la tarea ha
  quedado hecha), "equivocada" (contestó y no ha quedado hecha), "tope" (se acabaron los turnos)
  y "error" (el agente, el modelo o la comprobación lanzaron una excepción).
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   entrenamiento.py: TIPOS_DE_TAREA, tarea_al_azar
#   ruidoso.py: ModeloRuidoso


SEMILLA_DEL_BANCO = 2027

RUIDO = {"herramienta": 0.1, "argumentos": 0.15, "no_para": 0.3}

MOTIVOS = ("resuelta", "equivocada", "tope", "error")


def tareas_del_banco():
    """Dos tareas de cada tipo, sacadas con SEMILLA_DEL_BANCO: objetos nuevos en cada llamada."""
    import random

    azar = random.Random(SEMILLA_DEL_BANCO)
    return [tarea_al_azar(azar, tipo) for _ in range(2) for tipo in TIPOS_DE_TAREA]


def modelo_ruidoso(tarea, semilla):
    """Un ModeloRuidoso nuevo sobre el modelo ideal de `tarea`, con RUIDO y `semilla`. Su azar
    sale de la semilla y del pedido: con la misma semilla, dos tareas no se equivocan a la par."""
    return ModeloRuidoso(tarea.modelo_ideal(), semilla=f"{semilla}:{tarea.pedido}",
                         **RUIDO)


def usuario(tarea):
    """Un usuario que contesta siempre lo que dice la tarea (sí o no), cada vez que le pregunten."""
    permite = [str(r).strip().lower() for r in tarea.respuestas] == ["sí"]

    def preguntar(ll):
        return permite
    preguntar.__name__ = "permitir" if permite else "denegar"
    return preguntar
