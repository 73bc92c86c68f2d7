"""Las ejecuciones del curso como datos de entrenamiento: tareas con su modelo ideal, y la
conversación tal como la lee el modelo de la página.

Se carga después de entorno.py y permisos.py, con las tareas (palabras.py, tareas.py y
escrituras.py) delante:

    exec(open_url("runtime/entorno.py").read())
    exec(open_url("runtime/permisos.py").read())
    exec(open_url("runtime/palabras.py").read())
    exec(open_url("runtime/tareas.py").read())
    exec(open_url("runtime/escrituras.py").read())
    exec(open_url("runtime/entrenamiento.py").read())

y deja en tu espacio de nombres, además de Tarea (de tareas.py):

- TIPOS_DE_TAREA: las clases de tarea, en orden: "leer" (leer un fichero y contestar con lo que
  pone), "listar" (qué hay en una carpeta), "buscar" (en qué fichero sale algo), "apuntar" y
  "quitar" (cambiar una lista, con permiso), "faltan" (lo que falta en la lista para una receta,
  apuntado), "sugerencia" (una ruta equivocada: el error dice dónde mirar), "denegado" (una
  escritura que el usuario no permite), "agenda" (buscar algo en la agenda o en los pendientes)
  y "directo" (se contesta sin herramientas).
- tarea_al_azar(azar, tipo=None, nombres_variados=False, amplio=False): una Tarea nueva (de tareas.py),
  del tipo dado o de uno al azar; azar es un random.Random. Con nombres_variados, los ficheros y
  las carpetas de la casa se llaman de muchas maneras (compra.txt, apuntes-2026.txt, citas.txt…)
  y no siempre lista.txt, notas.txt, agenda.txt: una ruta se acierta copiándola, no recordándola
  (True, o la probabilidad de que una tarea los tenga).
  Con amplio (True, o la probabilidad), más variedad: pedidos que empiezan contando otra cosa
  («Esta tarde voy al súper. …»), notas con líneas que se parecen a la buscada, más listas que
  la de la compra (la maleta, el botiquín…) y respuestas dichas de varias maneras. Sin él, las
  tareas son las de siempre, las mismas para la misma semilla.
- tareas(n, semilla=0, nombres_variados=False, amplio=False): n tareas al azar, las mismas
  siempre para la misma semilla.
- Tarea (de tareas.py): una tarea. .tipo (qué clase de tarea es), .pedido (lo que pide el
  usuario), .entorno (los ficheros, ruta → texto), .respuestas (lo que dirá el usuario si le piden permiso: ["sí"],
  ["no"] o []), .comprobar(entorno_final, texto_final) (¿ha quedado hecha?, mirando el entorno
  final y la respuesta, no cómo se hizo) y .modelo_ideal() (un modelo nuevo que la resuelve).
- ejecuciones(n, agente, semilla=0, nombres_variados=False, amplio=False): las n tareas de
  tareas(n, semilla, nombres_variados, amplio), cada una ejecutada por `agente` (el tuyo,
  agente(modelo, pedido, entorno, preguntar)) con su modelo ideal; comprueba que cada una ha
  quedado hecha y devuelve, por tarea, {"tipo", "pedido", "M", "como", "final"}.
- mensajes_para_el_modelo(peticion): lo que lee el modelo de la página para una petición del
  protocolo de mensajes (la que envía ModeloAPI): el mensaje de sistema con las herramientas y
  el formato de respuesta, y los turnos como texto. Es lo que hace el servidor de la página
  (indicaciones.js), en Python, carácter a carácter.

El modelo ideal no es un arnés: no ejecuta nada. Es un modelo como los de las lecciones,
modelo(M, herramientas) -> bloques, que mira en M lo que le han devuelto sus llamadas y decide
la siguiente, o contesta. Pide una cosa por turno, como el modelo de la página (que escribe un
solo objeto JSON por respuesta), y nunca adivina una ruta que el pedido no da: antes mira qué
hay. Quien lo ejecuta, y le da lo observado, es un agente: el tuyo.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   permisos.py: Respuestas
#   palabras.py: con_contexto
#   tareas.py: tarea_agenda, tarea_buscar, tarea_directo, tarea_leer, tarea_listar
#   escrituras.py: tarea_apuntar, tarea_denegado, tarea_faltan, tarea_quitar, tarea_sugerencia


# --------------------------------------------------------------------- los tipos

TIPOS_DE_TAREA = ("leer", "listar", "buscar", "apuntar", "quitar", "faltan", "sugerencia",
                  "denegado", "agenda", "directo")

#: Cuántas de cada tipo, en proporción: más de las que tienen más pasos (lo que falta para una
#: receta, cambiar una lista), menos de las que se contestan sin herramientas.
_PESOS = (12, 8, 10, 10, 10, 14, 9, 9, 12, 6)


def _con_probabilidad(azar, opcion):
    """¿Se aplica una opción que es True, False o una probabilidad? (Sin tirar el dado si no
    hace falta: sin la opción, las tareas son las de siempre.)"""
    return opcion is True or (bool(opcion) and azar.random() < opcion)


def tarea_al_azar(azar, tipo=None, nombres_variados=False, amplio=False):
    """Una tarea nueva del tipo `tipo` (uno de TIPOS_DE_TAREA; al azar si no se da), sobre un
    entorno nuevo. `azar` es un random.Random: con el mismo estado, la misma tarea. Con
    `nombres_variados` (True, o la probabilidad de que los tenga: 0.5, la mitad de las veces),
    los ficheros y carpetas de la casa tienen nombres al azar. Con `amplio` (igual), la tarea
    tiene más variedad (véase el principio de este fichero)."""
    variados = _con_probabilidad(azar, nombres_variados)
    amplio = _con_probabilidad(azar, amplio)
    if tipo is None:
        tipo = azar.choices(TIPOS_DE_TAREA, _PESOS)[0]
    if tipo not in TIPOS_DE_TAREA:
        raise ValueError(f"no hay tareas de tipo {tipo!r}; las hay: {', '.join(TIPOS_DE_TAREA)}")
    hacer = {"leer": tarea_leer, "listar": tarea_listar, "buscar": tarea_buscar,
             "apuntar": tarea_apuntar, "quitar": tarea_quitar, "faltan": tarea_faltan,
             "sugerencia": tarea_sugerencia, "denegado": tarea_denegado,
             "agenda": tarea_agenda, "directo": tarea_directo}[tipo]
    tarea = hacer(azar, variados=variados, amplio=amplio)
    if amplio:
        tarea.pedido = con_contexto(azar, tarea.pedido)
    return tarea


def tareas(n, semilla=0, nombres_variados=False, amplio=False):
    """`n` tareas al azar, de todos los tipos: las mismas siempre para la misma semilla (y los
    mismos `nombres_variados` y `amplio`)."""
    import random
    azar = random.Random(semilla)
    return [tarea_al_azar(azar, nombres_variados=nombres_variados, amplio=amplio)
            for _ in range(n)]


# ---------------------------------------------------------------------- ejecuciones

def ejecuciones(n, agente, semilla=0, nombres_variados=False, amplio=False):
    """Las tareas de tareas(n, semilla, nombres_variados, amplio), cada una ejecutada por `agente`
    con su modelo ideal y un usuario que responde lo que dice la tarea. Comprueba que cada ejecución
    termina («fin»), que la tarea ha quedado hecha y que al usuario le han preguntado lo previsto;
    si no, lanza AssertionError con el pedido. Devuelve una lista de {"tipo", "pedido", "M", "como",
    "final"}, una por tarea."""
    hechas = []
    for tarea in tareas(n, semilla, nombres_variados, amplio):
        entorno = dict(tarea.entorno)
        usuario = Respuestas(tarea.respuestas)
        como, final, M = agente(tarea.modelo_ideal(), tarea.pedido, entorno, preguntar=usuario)
        if como != "fin":
            _no_ha_salido(tarea, f"ha terminado con {como!r}, no con 'fin'")
        if len(usuario.preguntas) != len(tarea.respuestas):
            _no_ha_salido(tarea, f"al usuario le han preguntado {len(usuario.preguntas)} veces "
                                 f"y la tarea esperaba {len(tarea.respuestas)}")
        if not tarea.comprobar(entorno, final):
            _no_ha_salido(tarea, f"no ha quedado hecha: el texto final es {final!r}")
        hechas.append({"tipo": tarea.tipo, "pedido": tarea.pedido, "M": M, "como": como,
                       "final": final})
    return hechas


def _no_ha_salido(tarea, por_que):
    raise AssertionError(f"la tarea «{tarea.pedido}» ({tarea.tipo}) {por_que}")


# ------------------------------------------- lo que lee el modelo de la página (el servidor)
#
# Lo mismo que widgets/front/modelo/indicaciones.js (mensajesParaElModelo) y esquema.js
# (claveDeTexto), en Python. Sus textos son del servidor y tienen que ser los mismos, carácter a
# carácter: por eso aquí se escribe JSON como JSON.stringify (sin espacios, sin escapar lo que
# no es ASCII, las claves que son números primero) y un valor como lo escribe JavaScript.

_TIPOS_EN_EL_SERVIDOR = {"string": "texto", "integer": "número entero", "number": "número",
                         "boolean": "true o false", "array": "lista", "object": "objeto"}

_NO_ESTA = object()  # lo que en JavaScript es undefined: la clave no está


def mensajes_para_el_modelo(peticion):
    """Los mensajes que lee el modelo de la página para `peticion` (un dict del protocolo de
    mensajes, como el que envía ModeloAPI): [{"role": "system"|"user"|"assistant",
    "content": texto}]. El de sistema junta el system de la petición, las herramientas descritas
    y el formato de respuesta; cada turno del asistente es el JSON que habría escrito el modelo
    (una línea por bloque), y cada resultado, un texto que dice a qué llamada responde."""
    mensajes = [{"role": "system", "content": _sistema_para_el_modelo(peticion)}]
    clave = _clave_de_texto(peticion.get("tools"))
    llamadas = {}  # las llamadas del turno anterior del asistente: id → bloque
    for m in peticion["messages"]:
        if m.get("role") == "assistant":
            mensajes.append({"role": "assistant",
                             "content": _texto_del_asistente(m.get("content"), clave)})
            llamadas = {b.get("id"): b for b in _bloques(m.get("content"))
                        if b.get("type") == "tool_use"}
        else:
            mensajes.append({"role": "user",
                             "content": _texto_del_usuario(m.get("content"), llamadas)})
    return mensajes


def _sistema_para_el_modelo(peticion):
    partes = []
    propio = _texto_de_system(peticion.get("system", _NO_ESTA))
    if propio:
        partes.append(propio)
    tools = peticion.get("tools") or []
    formato = "{" + _json_js(_clave_de_texto(tools)) + ":texto}"
    if tools:
        partes.append("\n".join(["Herramientas, cada una como se llama:"]
                                + [_describe_herramienta(h) for h in tools]))
        partes.append("Responde siempre con un solo objeto JSON: una llamada a una herramienta, "
                      "con sus argumentos (recibirás su resultado), o " + formato
                      + " para contestar al usuario cuando hayas terminado.")
    else:
        partes.append("Responde siempre con un solo objeto JSON: " + formato)
    return "\n\n".join(partes)


def _clave_de_texto(tools):
    """«respuesta», o con tantos «_» delante como haga falta para no ser el nombre de una
    herramienta (claveDeTexto, de esquema.js)."""
    nombres = {h.get("name") for h in tools or []}
    clave = "respuesta"
    while clave in nombres:
        clave = "_" + clave
    return clave


def _texto_de_system(system):
    if system is _NO_ESTA:
        return ""
    if isinstance(system, str):
        return system
    return "\n\n".join(_en_join_js(b.get("text")) for b in system)


def _describe_herramienta(h):
    esquema = h.get("input_schema")
    esquema = esquema if esquema is not None else {}
    propiedades = esquema.get("properties")
    propiedades = propiedades if isinstance(propiedades, dict) else {}
    requeridas = esquema.get("required")
    requeridas = set(requeridas if requeridas is not None else [])
    nombres = _claves_js(propiedades)
    argumentos = ",".join(f"{_json_js(n)}:{_tipo_en_el_servidor(propiedades[n])}"
                          for n in nombres)
    descripcion = h.get("description", _NO_ESTA)
    lineas = ["- {" + _json_js(h.get("name")) + ":{" + argumentos + "}}"
              + (" " + _cadena_js(descripcion) if _verdad_js(descripcion) else "")]
    for n in nombres:
        lineas.append(f"    {n}: {_describe_argumento(propiedades[n], n in requeridas)}")
    return "\n".join(lineas)


def _describe_argumento(esquema, requerido):
    if isinstance(esquema, dict) and isinstance(esquema.get("enum"), list):
        tipo = "uno de " + ", ".join(_json_js(v) for v in esquema["enum"])
    else:
        tipo = _tipo_en_el_servidor(esquema)
    descripcion = esquema.get("description", _NO_ESTA) if isinstance(esquema, dict) else _NO_ESTA
    return (tipo + ("" if requerido else ", opcional") + "."
            + (" " + _cadena_js(descripcion) if _verdad_js(descripcion) else ""))


def _tipo_en_el_servidor(esquema):
    tipo = esquema.get("type", _NO_ESTA) if isinstance(esquema, dict) else _NO_ESTA
    return "valor" if tipo is _NO_ESTA else _TIPOS_EN_EL_SERVIDOR.get(_cadena_js(tipo), "valor")


def _bloques(contenido):
    return [{"type": "text", "text": contenido}] if isinstance(contenido, str) else contenido


def _texto_del_asistente(contenido, clave):
    lineas = []
    for b in _bloques(contenido):
        if b.get("type") == "tool_use":
            lineas.append(_json_js({b.get("name"): b.get("input", _NO_ESTA)}))
        else:
            lineas.append(_json_js({clave: b.get("text", _NO_ESTA)}))
    return "\n".join(lineas)


def _texto_del_usuario(contenido, llamadas):
    if isinstance(contenido, str):
        return contenido
    return "\n\n".join(
        _texto_del_resultado(b, llamadas.get(b.get("tool_use_id")))
        if b.get("type") == "tool_result" else _en_join_js(b.get("text")) for b in contenido)


def _texto_del_resultado(b, ll):
    if ll is not None:
        cual = f"{_cadena_js(ll.get('name', _NO_ESTA))} {_json_js(ll.get('input', _NO_ESTA))}"
    else:
        cual = f"la llamada {_cadena_js(b.get('tool_use_id', _NO_ESTA))}"
    que = "Error de" if _verdad_js(b.get("is_error", _NO_ESTA)) else "Resultado de"
    c = b.get("content", _NO_ESTA)
    if c is _NO_ESTA:
        dentro = ""
    elif isinstance(c, str):
        dentro = c
    else:
        dentro = "\n".join(_en_join_js(x.get("text")) for x in c)
    return f"{que} {cual}:\n{dentro if dentro != '' else '(vacío)'}"


# ------------------------------------------------------ valores escritos como JavaScript

def _json_js(x):
    """JSON.stringify(x): sin espacios, sin escapar lo que no es ASCII, claves en el orden de
    JavaScript. undefined (_NO_ESTA) no se escribe dentro de un objeto; solo, es «undefined»,
    como en una plantilla de JavaScript."""
    import json
    import math
    if x is _NO_ESTA:
        return "undefined"
    if x is None or x is True or x is False:
        return json.dumps(x)
    if isinstance(x, int) and abs(x) < 2 ** 53:
        return str(x)
    if isinstance(x, (int, float)):
        return _numero_js(float(x)) if math.isfinite(x) else "null"
    if isinstance(x, str):
        return _cadena_json(x)
    if isinstance(x, (list, tuple)):
        return "[" + ",".join("null" if v is _NO_ESTA else _json_js(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ",".join(_cadena_json(k) + ":" + _json_js(v) for k, v in _pares_js(x)
                              if v is not _NO_ESTA) + "}"
    raise TypeError(f"{type(x).__name__} no es un valor de JSON")


def _cadena_json(s):
    """Una cadena en JSON como la escribe JavaScript: con sus caracteres, salvo las comillas,
    la barra inversa, los de control y los sustitutos sueltos (\\ud800…), que se escapan."""
    import json
    escrita = json.dumps(s, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in escrita)


def _pares_js(d):
    """Los pares de un objeto en el orden de JavaScript: las claves que son índices (0, 1, 2...)
    primero, de menor a mayor; después las demás, en el orden en que se pusieron."""
    import json
    pares = [(k if isinstance(k, str) else json.loads(json.dumps({k: 0}))
              .popitem()[0], v) for k, v in d.items()]
    indices = [(k, v) for k, v in pares if _es_indice(k)]
    return sorted(indices, key=lambda p: int(p[0])) + [p for p in pares if not _es_indice(p[0])]


def _claves_js(d):
    return [k for k, _ in _pares_js(d)]


def _es_indice(k):
    return k.isdigit() and k.isascii() and (k == "0" or k[0] != "0") and int(k) < 2 ** 32 - 1


def _numero_js(x):
    """Un número como lo escribe JavaScript (Number.prototype.toString): 1 y no 1.0, 0.00001 y
    no 1e-05, 1e+21 a partir de ahí."""
    if x == 0:
        return "0"
    signo, r = ("-", repr(-x)) if x < 0 else ("", repr(x))
    mantisa, _, exponente = r.partition("e")
    entera, _, decimales = mantisa.partition(".")
    cifras = entera + decimales
    ceros = len(cifras) - len(cifras.lstrip("0"))
    cifras = cifras.strip("0")
    n = len(entera) + int(exponente or 0) - ceros  # el valor es 0.cifras × 10^n
    k = len(cifras)
    if k <= n <= 21:
        return signo + cifras + "0" * (n - k)
    if 0 < n <= 21:
        return signo + cifras[:n] + "." + cifras[n:]
    if -6 < n <= 0:
        return signo + "0." + "0" * -n + cifras
    e = n - 1
    return (signo + cifras[0] + ("." + cifras[1:] if k > 1 else "")
            + ("e+" if e >= 0 else "e-") + str(abs(e)))


def _cadena_js(x):
    """String(x) en JavaScript."""
    if x is _NO_ESTA:
        return "undefined"
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return ",".join(_en_join_js(v) for v in x)
    if isinstance(x, dict):
        return "[object Object]"
    return _json_js(x)


def _en_join_js(x):
    """Cómo sale x en un Array.join de JavaScript: null y undefined, vacíos."""
    return "" if x is None or x is _NO_ESTA else _cadena_js(x)


def _verdad_js(x):
    """¿Es x verdadero para JavaScript? Falsos: undefined, null, false, 0, NaN y ""."""
    if x is _NO_ESTA or x is None or x is False or x == "":
        return False
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return x == x and x != 0
    return True
