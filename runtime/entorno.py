"""El entorno de las lecciones: unos pocos ficheros de texto y cuatro herramientas.

Se carga en una celda con una sola línea:

    exec(open_url(".../runtime/entorno.py").read())

y deja en tu espacio de nombres:

- ENTORNO: los ficheros, un diccionario ruta → texto. Trabaja siempre sobre una
  copia, dict(ENTORNO), para que cada prueba empiece desde el mismo sitio.
- listar, leer, escribir, buscar: las herramientas. Cada una se llama como
  f(entorno, **entrada) y devuelve un texto, o lanza una excepción con un
  mensaje claro si algo no cuadra.
- FUNCIONES (nombre → función) y HERRAMIENTAS (las definiciones que ve el modelo).
- incumple(ll): por qué una llamada no encaja con su herramienta, o None.
- texto, llamada, resultado: para construir bloques; muestra: una línea legible
  para un bloque, un mensaje o una lista de ellos.

Un mensaje es una tupla (rol, contenido): rol es "sistema", "usuario" o
"asistente"; contenido es un texto o una lista de bloques.
"""

# Usa, de los ficheros que se cargan antes: nada (lo comprueba tests/test_disposicion.py).


ENTORNO = {
    "lista.txt": "pan, leche, patatas",
    "notas.txt": "El sábado cenan los vecinos.\nMenú: gazpacho y tortilla.",
    "recetas/gazpacho.txt": "Gazpacho: tomates, pepino, pimiento, ajo.",
    "recetas/tortilla.txt": "Tortilla: huevos, patatas, cebolla.",
}


# ---------------------------------------------------------------- herramientas

def listar(entorno, carpeta):
    """Lo que hay justo dentro de una carpeta: una entrada por línea, en orden.

    "" (o ".") es la carpeta raíz. Las subcarpetas llevan "/" al final.
    """
    _exige_texto("carpeta", carpeta)
    carpeta = carpeta.rstrip("/")
    if carpeta == ".":
        carpeta = ""
    if carpeta in entorno:
        raise NotADirectoryError(
            f"'{carpeta}' es un fichero, no una carpeta (para ver su contenido, usa leer)")
    prefijo = carpeta + "/" if carpeta else ""
    entradas = set()
    for ruta in entorno:
        if ruta.startswith(prefijo):
            nombre, barra, _ = ruta[len(prefijo):].partition("/")
            entradas.add(nombre + barra)
    if carpeta and not entradas:
        raise FileNotFoundError(f"no existe la carpeta '{carpeta}'")
    return "\n".join(sorted(entradas))


def leer(entorno, ruta):
    """El contenido del fichero `ruta`."""
    _exige_ruta(ruta)
    if ruta in entorno:
        return entorno[ruta]
    if _es_carpeta(entorno, ruta):
        raise IsADirectoryError(
            f"'{ruta}' es una carpeta, no un fichero (para ver qué tiene, usa listar)")
    raise FileNotFoundError(f"no existe el fichero '{ruta}'" + _sugerencia(entorno, ruta))


def escribir(entorno, ruta, contenido):
    """Escribe el fichero `ruta` entero: si ya existía, reemplaza su contenido."""
    _exige_ruta(ruta)
    _exige_texto("contenido", contenido)
    if ruta.endswith("/") or _es_carpeta(entorno, ruta):
        raise IsADirectoryError(f"'{ruta}' es una carpeta: no se puede escribir en ella")
    partes = ruta.split("/")
    for n in range(1, len(partes)):
        padre = "/".join(partes[:n])
        if padre in entorno:
            raise NotADirectoryError(f"'{padre}' es un fichero: no puede contener '{ruta}'")
    entorno[ruta] = contenido
    return f"escrito {ruta} ({_caracteres(len(contenido))})"


def buscar(entorno, patron):
    """Las líneas que contienen `patron` tal cual, como «ruta: línea», por ruta.

    La búsqueda es literal y distingue mayúsculas de minúsculas.
    """
    _exige_texto("patron", patron)
    if patron == "":
        raise ValueError("el patrón está vacío: di qué texto buscar")
    encontradas = []
    for ruta in sorted(entorno):
        for linea in entorno[ruta].splitlines():
            if patron in linea:
                encontradas.append(f"{ruta}: {linea}")
    if not encontradas:
        return f"ninguna línea contiene '{patron}'"
    return "\n".join(encontradas)


def _exige_texto(nombre, valor):
    if not isinstance(valor, str):
        raise TypeError(f"'{nombre}' debe ser texto (str) y es {type(valor).__name__}: {valor!r}")


def _exige_ruta(ruta):
    _exige_texto("ruta", ruta)
    if ruta.strip() == "":
        raise ValueError("la ruta está vacía: di qué fichero")
    if ruta.startswith("/"):
        raise ValueError(
            f"la ruta '{ruta}' empieza por '/': las rutas son relativas, como 'lista.txt'")


def _es_carpeta(entorno, ruta):
    """¿Es `ruta` una carpeta? Lo es si algún fichero está dentro de ella."""
    carpeta = ruta.rstrip("/")
    return any(r.startswith(carpeta + "/") for r in entorno)


def _sugerencia(entorno, ruta):
    """«(¿querías decir ...?)» si hay un fichero con el mismo nombre en otra carpeta."""
    nombre = ruta.rsplit("/", 1)[-1]
    parecidas = [r for r in sorted(entorno) if r.rsplit("/", 1)[-1] == nombre]
    if not parecidas:
        return ""
    return " (¿querías decir " + " o ".join(f"'{r}'" for r in parecidas) + "?)"


def _caracteres(n):
    return "1 carácter" if n == 1 else f"{n} caracteres"


FUNCIONES = {"listar": listar, "leer": leer, "escribir": escribir, "buscar": buscar}


def _texto_descrito(descripcion):
    return {"type": "string", "description": descripcion}


def _esquema(**propiedades):
    return {
        "type": "object",
        "properties": propiedades,
        "required": list(propiedades),
        "additionalProperties": False,
    }


HERRAMIENTAS = [
    {
        "name": "listar",
        "description": "Lista lo que hay justo dentro de una carpeta, una entrada por línea. "
                       "Las subcarpetas acaban en '/'. La carpeta raíz es ''.",
        "input_schema": _esquema(
            carpeta=_texto_descrito("La carpeta, por ejemplo 'recetas'; '' para la raíz.")),
    },
    {
        "name": "leer",
        "description": "Devuelve el contenido de un fichero de texto.",
        "input_schema": _esquema(
            ruta=_texto_descrito("La ruta del fichero, por ejemplo 'recetas/gazpacho.txt'.")),
    },
    {
        "name": "escribir",
        "description": "Escribe un fichero de texto entero. Si ya existe, reemplaza todo "
                       "su contenido.",
        "input_schema": _esquema(
            ruta=_texto_descrito("La ruta del fichero, por ejemplo 'lista.txt'."),
            contenido=_texto_descrito("El texto completo que tendrá el fichero.")),
    },
    {
        "name": "buscar",
        "description": "Busca un texto literal (distingue mayúsculas) en todos los ficheros. "
                       "Devuelve cada línea que lo contiene como 'ruta: línea'.",
        "input_schema": _esquema(
            patron=_texto_descrito("El texto que hay que buscar, tal cual.")),
    },
]


# ---------------------------------------------------- comprobar una llamada

# Tipo de JSON Schema → (tipo de Python, cómo se dice en castellano).
_TIPOS = {
    "string": (str, "texto"),
    "integer": (int, "un número entero"),
    "number": ((int, float), "un número"),
    "boolean": (bool, "verdadero o falso"),
    "array": (list, "una lista"),
    "object": (dict, "un objeto (dict)"),
}


def incumple(ll, herramientas=None):
    """None si el bloque `ll` es un tool_use que encaja con el esquema de su
    herramienta; si no, un texto corto que dice por qué no encaja.

    Las herramientas son HERRAMIENTAS, salvo que pases otra lista.
    """
    if herramientas is None:
        herramientas = HERRAMIENTAS
    if not isinstance(ll, dict):
        return f"no es una llamada: se esperaba un bloque tool_use (dict) y es {type(ll).__name__}"
    if ll.get("type") != "tool_use":
        return f"no es una llamada: es un bloque de tipo {ll.get('type')!r}, no 'tool_use'"
    nombre = ll.get("name")
    esquemas = {h["name"]: h["input_schema"] for h in herramientas}
    if nombre not in esquemas:
        return f"no existe la herramienta {nombre!r}; las hay: {', '.join(esquemas)}"
    entrada = ll.get("input")
    if not isinstance(entrada, dict):
        return (f"la entrada (input) de {nombre} debe ser un objeto (dict) "
                f"y es {type(entrada).__name__}")
    return _incumple_esquema(nombre, entrada, esquemas[nombre])


def _incumple_esquema(nombre, entrada, esquema):
    propiedades = esquema.get("properties", {})
    faltan = [p for p in esquema.get("required", []) if p not in entrada]
    sobran = [p for p in entrada if p not in propiedades]
    problemas = []
    if faltan:
        problemas.append(f"a {nombre} le {_falta_n(faltan)}")
    if sobran and esquema.get("additionalProperties") is False:
        problemas.append(f"{nombre} no tiene {_argumentos(sobran)}")
    for p, valor in entrada.items():
        tipo = propiedades.get(p, {}).get("type")
        if tipo in _TIPOS and not isinstance(valor, _TIPOS[tipo][0]):
            problemas.append(f"el argumento '{p}' de {nombre} debe ser {_TIPOS[tipo][1]} "
                             f"y es {valor!r} ({type(valor).__name__})")
    return "; ".join(problemas) or None


def _falta_n(nombres):
    return ("falta " if len(nombres) == 1 else "faltan ") + _argumentos(nombres)


def _argumentos(nombres):
    citados = [f"'{n}'" for n in nombres]
    if len(citados) == 1:
        return "el argumento " + citados[0]
    return "los argumentos " + ", ".join(citados[:-1]) + " y " + citados[-1]


# ------------------------------------------------------------------ bloques

def texto(t):
    """Un bloque de texto."""
    return {"type": "text", "text": t}


def llamada(id, nombre, **input):
    """Un bloque tool_use: el modelo pide llamar a la herramienta `nombre`."""
    return {"type": "tool_use", "id": id, "name": nombre, "input": input}


def resultado(id, contenido, es_error=False):
    """Un bloque tool_result: lo que devolvió la llamada `id`."""
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": es_error}


def muestra(x):
    """Una línea legible para un bloque, un mensaje (rol, contenido), un texto o una lista.

    >>> muestra(llamada("t1", "leer", ruta="lista.txt"))
    "llamada t1 leer(ruta='lista.txt')"
    >>> muestra(("usuario", [resultado("t1", "pan, leche, patatas")]))
    'usuario: [resultado t1: «pan, leche, patatas»]'
    """
    if _parece_mensaje(x):
        rol, contenido = x
        return f"{rol}: {muestra(contenido)}"
    if isinstance(x, dict):
        return _muestra_bloque(x)
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(muestra(e) for e in x) + "]"
    if isinstance(x, str):
        return f"«{_corta(x, 50)}»"
    return _corta(repr(x), 50)


def _parece_mensaje(x):
    # Un mensaje es un par (rol, contenido); una lista de bloques nunca empieza por un texto.
    return isinstance(x, (tuple, list)) and len(x) == 2 and isinstance(x[0], str)


def _muestra_bloque(b):
    tipo = b.get("type")
    if tipo == "text":
        return f"texto: {muestra(b.get('text'))}"
    if tipo == "tool_use":
        entrada = b.get("input")
        if isinstance(entrada, dict):
            argumentos = ", ".join(f"{k}={_corta(repr(v), 40)}" for k, v in entrada.items())
        else:
            argumentos = _corta(repr(entrada), 40)
        return f"llamada {b.get('id')} {b.get('name')}({argumentos})"
    if tipo == "tool_result":
        error = " (error)" if b.get("is_error") else ""
        return f"resultado {b.get('tool_use_id')}{error}: {muestra(b.get('content'))}"
    return _corta(repr(b), 60)


def _corta(s, ancho):
    """`s` en una línea (los saltos se ven como ⏎) y como mucho `ancho` caracteres."""
    s = s.replace("\n", "⏎")
    return s if len(s) <= ancho else s[:ancho - 1] + "…"
