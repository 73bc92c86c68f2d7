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

y deja en tu espacio de nombres, además de TIPOS_DE_TAREA, tarea_al_azar(azar, tipo=None,
nombres_variados=False, amplio=False) y tareas(n, semilla=0, nombres_variados=False,
amplio=False), de tareas.py:

- Tarea: una tarea. .tipo (qué clase de tarea es), .pedido (lo que pide el usuario), .entorno
  (los ficheros, ruta → texto), .respuestas (lo que dirá el usuario si le piden permiso: ["sí"],
  ["no"] o []), .comprobar(entorno_final, texto_final) (¿ha quedado hecha?, mirando el entorno
  final y la respuesta, no cómo se hizo) y .modelo_ideal() (un modelo nuevo que la resuelve).
- ejecuciones(n, agente, semilla=0, nombres_variados=False, amplio=False): las n tareas de
  tareas(n, semilla, nombres_variados, amplio), cada una ejecutada por `agente` (el tuyo, agente(modelo, pedido, entorno,
  preguntar)) con su modelo ideal; comprueba que cada una ha quedado hecha y devuelve, por
  tarea, {"tipo", "pedido", "M", "como", "final"}.
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


class Tarea:
    """Un pedido sobre un entorno, cómo se comprueba que ha quedado hecho y su modelo ideal.

    Las hace tarea_al_azar. `plan` es una función sin argumentos que da un generador nuevo: pide
    una llamada en cada yield, (nombre, entrada), recibe lo que devolvió, (texto, es_error), y al
    terminar devuelve el texto de la respuesta. `comprueba(inicial, final, texto)` dice si la
    tarea ha quedado hecha (el texto le llega en minúsculas)."""

    def __init__(self, tipo, pedido, entorno, respuestas, plan, comprueba):
        self.tipo = tipo
        self.pedido = pedido
        self.entorno = dict(entorno)
        self.respuestas = list(respuestas)
        self._inicial = dict(entorno)
        self._plan = plan
        self._comprueba = comprueba

    def comprobar(self, entorno_final, texto_final):
        """¿Ha quedado hecha? Mira el entorno final (lo que hay escrito, y que nada más ha
        cambiado) y la respuesta final (que diga lo que se ha encontrado o hecho)."""
        if not isinstance(texto_final, str) or not texto_final.strip():
            return False
        return bool(self._comprueba(self._inicial, dict(entorno_final), texto_final.lower()))

    def modelo_ideal(self):
        """Un modelo nuevo, modelo(M, herramientas) -> bloques, que resuelve esta tarea: cada vez
        que lo llaman, repasa en M sus llamadas y lo que devolvieron, y da el paso siguiente."""
        plan = self._plan

        def modelo(M, herramientas=None):
            hechas = _llamadas_hechas(M)
            politica = plan()
            paso = _avanza(politica, None)
            for n, (ll, observacion) in enumerate(hechas, 1):
                if paso != (ll.get("name"), ll.get("input")):
                    raise ValueError(
                        f"el modelo ideal no reconoce la llamada {n} de M, {muestra(ll)}: "
                        f"esperaba {_describe(paso)}")
                paso = _avanza(politica, observacion)
            if isinstance(paso, str):
                return [texto(paso)]
            nombre, entrada = paso
            return [llamada(f"toolu_{len(hechas) + 1:02d}", nombre, **entrada)]
        return modelo

    def __repr__(self):
        return f"Tarea({self.tipo!r}, {self.pedido!r})"


def _avanza(politica, observacion):
    """El paso siguiente de la política: una llamada (nombre, entrada) o el texto final."""
    try:
        return politica.send(observacion)
    except StopIteration as fin:
        return fin.value


def _describe(paso):
    if isinstance(paso, str):
        return f"contestar {muestra(paso)}"
    nombre, entrada = paso
    return f"{nombre}({', '.join(f'{k}={v!r}' for k, v in entrada.items())})"


def _llamadas_hechas(M):
    """[(llamada, (texto, es_error))]: las llamadas del asistente en M, con su resultado."""
    llamadas, resultados = [], {}
    for mensaje in M:
        rol, contenido = mensaje
        for b in contenido if isinstance(contenido, list) else []:
            if rol == "asistente" and b.get("type") == "tool_use":
                llamadas.append(b)
            elif b.get("type") == "tool_result":
                resultados[b.get("tool_use_id")] = b
    hechas = []
    for ll in llamadas:
        r = resultados.get(ll.get("id"))
        if r is None:
            raise ValueError(f"en M falta el resultado de {muestra(ll)}: el modelo ideal decide "
                             f"mirando lo que devolvió cada llamada")
        contenido = r.get("content")
        if isinstance(contenido, list):
            contenido = "\n".join(b.get("text", "") for b in contenido)
        hechas.append((ll, (contenido or "", bool(r.get("is_error")))))
    return hechas


# ---------------------------------------------------------------------- ejecuciones

def ejecuciones(n, agente, semilla=0, nombres_variados=False, amplio=False):
    """Las tareas de tareas(n, semilla, nombres_variados, amplio), cada una ejecutada por `agente` con su modelo ideal y un
    usuario que responde lo que dice la tarea. Comprueba que cada ejecución termina («fin»), que
    la tarea ha quedado hecha y que al usuario le han preguntado lo previsto; si no, lanza
    AssertionError con el pedido. Devuelve una lista de {"tipo", "pedido", "M", "como",
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
