# Desafío: medir el agente y comparar dos arneses.
#
# Ya está cargado todo el runtime: entorno.py, permisos.py, las tareas (tareas.py: Tarea;
# entrenamiento.py: tareas...), ruidoso.py (ModeloRuidoso) y banco.py
# (tareas_del_banco, modelo_ruidoso, usuario, MOTIVOS...).


def medir(tareas, agente, hacer_modelo, veces):
    """Mide `agente` sobre `tareas` y devuelve un diccionario:

        {"exitos": int, "ejecuciones": int, "tasa": float, "intervalo": (bajo, alto),
         "motivos": {"resuelta": n, "equivocada": n, "tope": n, "error": n},
         "motivo_de": {(t, i): motivo, ...}}

    - Cada tarea se ejecuta `veces` veces. La ejecución i (de 0 a veces - 1) de
      cada tarea usa un modelo nuevo, hacer_modelo(tarea, i).
    - Cada ejecución empieza de cero: un entorno nuevo, dict(tarea.entorno), y el
      usuario de la tarea, usuario(tarea).
    - Una ejecución es agente(modelo, tarea.pedido, entorno, preguntar), que
      devuelve (como, final, M), y acaba en:
        "tope"       si como es "tope";
        "resuelta"   si contestó y tarea.comprobar(entorno, final) es verdad;
        "equivocada" si contestó y no lo es;
        "error"      si el agente, el modelo o la comprobación lanzan una
                     Exception (solo Exception: lo demás sale de medir).
      Tras un error, la medida sigue con la ejecución siguiente.
    - "exitos" cuenta las resueltas; "ejecuciones", todas; "tasa" es
      exitos / ejecuciones; "motivos" tiene los cuatro de MOTIVOS, con 0 los que no
      salen; "motivo_de", cómo acabó cada ejecución: motivo_de[(t, i)] es el motivo
      de la ejecución i de tareas[t].
    - "intervalo" es el de Wilson al 95 % de la tasa p, con n ejecuciones y z = 1.96:
        centro = (p + z²/2n) / (1 + z²/n)
        margen = z·√(p(1 − p)/n + z²/4n²) / (1 + z²/n)
      (centro − margen, centro + margen), que nunca sale de [0, 1].
    - Si no hay tareas, o veces no es un entero de 1 en adelante, lanza ValueError
      con un mensaje que lo diga.
    """
    raise NotImplementedError("escribe aquí medir")


def comparar(antes, despues):
    """Empareja dos medidas de medir con las mismas tareas y las mismas veces (dos
    variantes del arnés) y devuelve un diccionario:

        {"arregla": [(t, i), ...], "rompe": [(t, i), ...], "separados": bool}

    - "arregla": las ejecuciones que despues resuelve y antes no; "rompe": las que
      antes resuelve y despues no. Las dos, listas de pares (t, i) ordenadas de menor
      a mayor. Solo cuenta si una ejecución está resuelta o no: pasar de
      "equivocada" a "tope" no es un cambio.
    - "separados": True si los dos intervalos no se solapan (el alto de uno queda por
      debajo del bajo del otro); False si se solapan o se tocan.
    - Si antes y despues no tienen las mismas ejecuciones (las mismas claves en
      motivo_de), lanza ValueError con un mensaje que lo diga.
    """
    raise NotImplementedError("escribe aquí comparar")
