"""El entorno como una carpeta de verdad, y las herramientas de un agente que programa.

Se carga después de los demás ficheros del runtime:

    exec(open_url(".../runtime/ficheros.py").read())

y deja en tu espacio de nombres:

- Carpeta(raiz): el entorno sobre una carpeta del disco (en la página, una carpeta del sistema de
  ficheros de Pyodide). Se pasa donde antes iba el diccionario: FUNCIONES_DE_FICHEROS[nombre]
  (carpeta, **entrada) devuelve un texto, o lanza una excepción con un mensaje claro que el
  arnés convierte en la observación. Recuerda qué ficheros has leído (para editar hay que
  haberlo hecho) y, para la pregunta de permisos.py, sabe qué cambiaría una llamada.
- carpeta_de(ficheros): una carpeta temporal nueva con los ficheros {ruta: texto}, ya Carpeta.
- leer_lineas, listar_carpeta, buscar_en, editar, crear_fichero: las herramientas, cada una con
  su contrato en su docstring (la sexta, ejecutar_pruebas, está en pruebas_de_carpeta.py; las
  seis, como las ven el arnés y el modelo, en herramientas_de_ficheros.py).

Toda ruta es relativa a la carpeta y se queda dentro: una ruta absoluta, una con '..', una que
un enlace simbólico lleva fuera o una con el carácter nulo es una excepción que dice por qué.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   pruebas_de_carpeta.py: ficheros_de_pruebas

import os
import re

#: Cuántas líneas devuelve leer_lineas como mucho, y cuántas coincidencias buscar_en.
LINEAS_POR_LECTURA = 100
COINCIDENCIAS_POR_BUSQUEDA = 50
#: Lo que se muestra de una línea muy larga, y cuántas entradas lista listar_carpeta.
ANCHO_DE_LINEA = 300
ENTRADAS_POR_LISTA = 200


class Carpeta:
    """El entorno de un agente sobre la carpeta `raiz`, que tiene que existir.

    .raiz es su ruta real (sin enlaces); .leidos guarda, por ruta, el texto del fichero cuando
    el agente lo leyó (o lo escribió) por última vez; .segundos, el límite de ejecutar_pruebas.
    """

    def __init__(self, raiz, segundos=10):
        if not isinstance(raiz, str) or "\0" in raiz or not os.path.isdir(raiz):
            raise NotADirectoryError(f"{raiz!r} no es una carpeta que exista")
        self.raiz = os.path.realpath(raiz)
        self.leidos = {}
        self.segundos = segundos

    def __repr__(self):
        return f"Carpeta({self.raiz!r})"

    def ficheros(self):
        """{ruta relativa: texto} de cada fichero de texto de la carpeta, en orden (sin
        __pycache__): lo que una traza muestra de la carpeta en cada paso."""
        return dict(_textos(self, self.raiz))

    def __deepcopy__(self, memo):
        """Una copia que no comparte nada: otra carpeta temporal con los mismos ficheros, y lo
        leído. (Así una traza empieza cada ejecución desde la carpeta de partida.)"""
        import copy
        import shutil
        import tempfile

        copia = Carpeta(tempfile.mkdtemp(prefix="carpeta-"), self.segundos)
        shutil.copytree(self.raiz, copia.raiz, symlinks=True, dirs_exist_ok=True)
        copia.leidos = copy.deepcopy(self.leidos, memo)
        return copia

    def que_cambia(self, ll):
        """Lo que la llamada `ll` cambiaría en la carpeta, en las partes que muestra la pregunta
        de permisos.py ({"titulo", "lineas": [[marca, texto], ...]}): el diff de una edición,
        el contenido de un fichero nuevo, por qué la llamada no cambiará nada, o, para
        ejecutar_pruebas, qué ficheros de pruebas correrán. Vacía si la herramienta no cambia la
        carpeta. No toca el disco."""
        entrada = ll.get("input") if isinstance(ll, dict) else None
        if isinstance(ll, dict) and ll.get("name") == "ejecutar_pruebas":
            pruebas = ficheros_de_pruebas(self.raiz)
            return [{"titulo": "Se ejecutarán las pruebas de la carpeta: son código, y corren aquí "
                               f"sin el límite de rutas de las herramientas ({_n_ficheros(len(pruebas))}):",
                     "lineas": [["", ruta] for ruta in pruebas]}]
        if not isinstance(entrada, dict) or ll.get("name") not in ("editar", "crear_fichero"):
            return []
        try:
            if ll["name"] == "editar":
                relativa, _, antes, despues = _edicion(
                    self, entrada.get("ruta"), entrada.get("viejo"), entrada.get("nuevo"))
                return [{"titulo": f"Lo que cambia en {relativa} (- se quita, + se añade):",
                         "lineas": _marcas_del_diff(antes, despues)}]
            relativa, _ = _nuevo(self, entrada.get("ruta"))
            _pide_texto("contenido", entrada.get("contenido"))
            lineas = entrada["contenido"].splitlines()
            return [{"titulo": f"{relativa} no existe: se creará con esto ({_n_lineas(len(lineas))}):",
                     "lineas": [["", linea] for linea in lineas]}]
        except (TypeError, ValueError, OSError) as e:
            return [{"titulo": f"Esta llamada no cambiará nada: {e}", "lineas": []}]


def carpeta_de(ficheros, segundos=10):
    """Una carpeta temporal nueva con los ficheros `ficheros` ({ruta relativa: texto}, las
    subcarpetas se crean), como Carpeta. En la página, la crea en el sistema de ficheros de
    Pyodide, que vive en la memoria de la página."""
    import tempfile

    carpeta = Carpeta(tempfile.mkdtemp(prefix="carpeta-"), segundos)
    for ruta, contenido in ficheros.items():
        _, real = _resuelve(carpeta, ruta)
        os.makedirs(os.path.dirname(real), exist_ok=True)
        _guarda(real, contenido, nuevo=True)
    return carpeta


# ---------------------------------------------------------------- herramientas

def leer_lineas(entorno, ruta, desde=1, hasta=None):
    """Las líneas `desde`..`hasta` (contadas desde 1, ambas incluidas; hasta=None: hasta el final)
    del fichero `ruta`, cada una con su número delante («    12\\ttexto»).

    Devuelve como mucho LINEAS_POR_LECTURA líneas: si corta, acaba con una nota que dice qué
    líneas se ven y cómo pedir las siguientes (desde=…). Si no se ve el fichero entero, la nota
    dice cuántas líneas tiene. Una línea de más de ANCHO_DE_LINEA caracteres se corta con «…».
    `desde` más allá del final, o `hasta` antes de `desde`, son errores. Un fichero vacío lo
    dice. Leer un fichero (cualquier rango) cuenta como haberlo leído para editar.
    """
    relativa, real = _fichero(entorno, ruta)
    desde = _pide_entero("desde", desde)
    if hasta is not None:
        hasta = _pide_entero("hasta", hasta)
        if hasta < desde:
            raise ValueError(f"hasta={hasta} es menor que desde={desde}: pide un rango como "
                             f"desde={desde}, hasta={desde + 9}")
    texto = _lee(real, relativa)
    entorno.leidos[relativa] = texto
    lineas = texto.splitlines()
    total = len(lineas)
    if total == 0:
        return f"{relativa} está vacío (0 líneas)"
    if desde > total:
        raise ValueError(f"{relativa} tiene {_n_lineas(total)}: desde={desde} queda fuera "
                         f"(empieza entre 1 y {total})")
    pedido = total if hasta is None else min(hasta, total)
    fin = min(pedido, desde + LINEAS_POR_LECTURA - 1)
    cuerpo = "\n".join(f"{n:>6}\t{_recorta(lineas[n - 1])}" for n in range(desde, fin + 1))
    if fin < pedido:
        return (cuerpo + f"\n[cortado en {LINEAS_POR_LECTURA} líneas: se ven las {desde}–{fin} "
                f"de {total}; para seguir, pide desde={fin + 1}]")
    if desde > 1 or fin < total:
        return cuerpo + f"\n[líneas {desde}–{fin} de {total}]"
    return cuerpo


def listar_carpeta(entorno, carpeta=""):
    """Lo que hay justo dentro de `carpeta` ("" o "." es la raíz): una entrada por línea, en
    orden; las subcarpetas acaban en "/", y un enlace que lleva fuera lo dice (no se sigue).
    Sin __pycache__. Como mucho ENTRADAS_POR_LISTA entradas, con una nota si hay más."""
    relativa, real = _resuelve(entorno, carpeta, nombre="carpeta", raiz=True)
    if not os.path.isdir(real):
        if os.path.exists(real):
            raise NotADirectoryError(f"'{relativa}' es un fichero, no una carpeta "
                                     f"(para ver su contenido, usa leer_lineas)")
        raise FileNotFoundError(f"no existe la carpeta '{relativa}'")
    entradas = []
    for nombre in sorted(os.listdir(real)):
        ruta = os.path.join(real, nombre)
        if nombre == "__pycache__":
            continue
        if not _bajo(os.path.realpath(ruta), entorno.raiz):
            entradas.append(f"{nombre} (enlace que lleva fuera de la carpeta: no se sigue)")
        else:
            entradas.append(nombre + "/" * os.path.isdir(ruta))
    if not entradas:
        return f"la carpeta '{relativa or '.'}' está vacía"
    if len(entradas) > ENTRADAS_POR_LISTA:
        resto = len(entradas) - ENTRADAS_POR_LISTA
        return "\n".join(entradas[:ENTRADAS_POR_LISTA] + [f"[… y {resto} entradas más]"])
    return "\n".join(entradas)


def buscar_en(entorno, patron, carpeta=""):
    """Las líneas de los ficheros de texto de `carpeta` ("" es toda la carpeta; también vale un
    fichero) en las que la expresión regular `patron` (re.search) encuentra algo, como
    «ruta:línea: texto», por ruta y línea. Sin __pycache__ ni ficheros que no son texto UTF-8,
    y sin seguir enlaces que llevan fuera. Como mucho COINCIDENCIAS_POR_BUSQUEDA, con una nota
    que dice cuántas quedan y cómo afinar. Un patrón vacío o que no es una expresión regular
    válida es un error que dice por qué."""
    _pide_texto("patron", patron)
    if patron == "":
        raise ValueError("el patrón está vacío: di qué buscar")
    try:
        expresion = re.compile(patron)
    except re.error as e:
        raise ValueError(f"el patrón {patron!r} no es una expresión regular válida ({e}); para "
                         f"buscar un signo como ( [ . * + ? tal cual, escápalo con \\") from None
    relativa, real = _resuelve(entorno, carpeta, nombre="carpeta", raiz=True)
    if not os.path.exists(real):
        raise FileNotFoundError(f"no existe '{relativa}'")
    encontradas = []
    for ruta, texto in _textos(entorno, real):
        for n, linea in enumerate(texto.splitlines(), 1):
            if expresion.search(linea):
                encontradas.append(f"{ruta}:{n}: {_recorta(linea)}")
    donde = f" en '{relativa}'" if relativa else ""
    if not encontradas:
        return f"ninguna línea{donde} coincide con {patron!r}"
    if len(encontradas) > COINCIDENCIAS_POR_BUSQUEDA:
        resto = len(encontradas) - COINCIDENCIAS_POR_BUSQUEDA
        return "\n".join(encontradas[:COINCIDENCIAS_POR_BUSQUEDA] + [
            f"[… y {resto} más: se ven las {COINCIDENCIAS_POR_BUSQUEDA} primeras; afina el "
            f"patrón o busca en una carpeta o un fichero con carpeta=…]"])
    return "\n".join(encontradas)


def editar(entorno, ruta, viejo, nuevo):
    """Cambia en el fichero `ruta` el texto `viejo` por `nuevo` y devuelve el diff (el de
    `diff -u`, con las rutas a/… y b/…).

    Se niega, con un error que dice por qué y no toca el fichero, si:
    - `viejo` está vacío (para un fichero nuevo está crear_fichero);
    - el fichero no se ha leído con leer_lineas, o ha cambiado desde entonces (por otra mano:
      lo que escriben editar y crear_fichero cuenta como leído);
    - `viejo` no aparece (el error muestra las líneas más parecidas, con su número);
    - `viejo` aparece más de una vez (el error dice en qué líneas);
    - `viejo` y `nuevo` son iguales.
    """
    relativa, real, antes, despues = _edicion(entorno, ruta, viejo, nuevo)
    _guarda(real, despues)
    entorno.leidos[relativa] = despues
    return _diff(relativa, antes, despues)


def crear_fichero(entorno, ruta, contenido):
    """Crea el fichero nuevo `ruta` con `contenido` (y las carpetas que le falten). Nunca
    sobrescribe: si ya existe algo con esa ruta, es un error que lo dice. Cuenta como leído."""
    relativa, real = _nuevo(entorno, ruta)
    _pide_texto("contenido", contenido)
    os.makedirs(os.path.dirname(real), exist_ok=True)
    _guarda(real, contenido, nuevo=True)
    entorno.leidos[relativa] = contenido
    return f"creado {relativa} ({_n_lineas(len(contenido.splitlines()))})"


# ------------------------------------------------------------ rutas y ficheros

def _resuelve(entorno, ruta, nombre="ruta", raiz=False):
    """(la ruta relativa limpia, su ruta real) si `ruta` se queda dentro de la carpeta; si no,
    una excepción que dice por qué. Con raiz=True, "" y "." son la carpeta misma."""
    if not isinstance(entorno, Carpeta):
        raise TypeError(f"el entorno debe ser una Carpeta y es {type(entorno).__name__}")
    _pide_texto(nombre, ruta)
    if "\0" in ruta:
        raise ValueError(f"la {nombre} {ruta!r} tiene el carácter nulo (\\0): "
                         f"ningún fichero se llama así")
    if ruta.startswith("/") or os.path.isabs(ruta):
        raise ValueError(f"la {nombre} '{ruta}' es absoluta: las rutas son relativas a la "
                         f"carpeta, como 'src/calculo.py'")
    partes = [p for p in ruta.split("/") if p not in ("", ".")]
    if ".." in partes:
        raise ValueError(f"la {nombre} '{ruta}' tiene '..', que sale de la carpeta: las rutas "
                         f"bajan desde ella, como 'src/calculo.py'")
    if not partes and not raiz:
        raise ValueError(f"la {nombre} está vacía: di qué fichero")
    relativa = "/".join(partes)
    real = os.path.realpath(os.path.join(entorno.raiz, *partes))
    if not _bajo(real, entorno.raiz):
        raise PermissionError(f"'{relativa}' pasa por un enlace simbólico que lleva fuera de la "
                              f"carpeta: no se sigue")
    return relativa, real


def _bajo(real, raiz):
    return real == raiz or real.startswith(raiz.rstrip(os.sep) + os.sep)


def _fichero(entorno, ruta):
    """_resuelve, y además la ruta tiene que ser un fichero que existe."""
    relativa, real = _resuelve(entorno, ruta)
    if os.path.isdir(real):
        raise IsADirectoryError(f"'{relativa}' es una carpeta, no un fichero "
                                f"(para ver qué tiene, usa listar_carpeta)")
    if not os.path.exists(real):
        raise FileNotFoundError(f"no existe el fichero '{relativa}'")
    return relativa, real


def _nuevo(entorno, ruta):
    """_resuelve, y además no hay nada con esa ruta (ni un enlace roto)."""
    relativa, real = _resuelve(entorno, ruta)
    if ruta.endswith("/"):
        raise IsADirectoryError(f"'{ruta}' acaba en '/': di el nombre del fichero")
    if os.path.lexists(os.path.join(entorno.raiz, relativa)) or os.path.lexists(real):
        raise FileExistsError(f"'{relativa}' ya existe: crear_fichero nunca sobrescribe "
                              f"(para cambiarlo, léelo con leer_lineas y usa editar)")
    padre = os.path.dirname(real)
    while not os.path.exists(padre):
        padre = os.path.dirname(padre)
    if not os.path.isdir(padre):
        raise NotADirectoryError(f"'{os.path.relpath(padre, entorno.raiz)}' es un fichero: no "
                                 f"puede contener '{relativa}'")
    return relativa, real


def _lee(real, relativa):
    try:
        with open(real, encoding="utf-8", newline="") as f:
            return f.read()
    except UnicodeDecodeError:
        raise ValueError(f"'{relativa}' no es un fichero de texto (UTF-8)") from None


def _guarda(real, contenido, nuevo=False):
    with open(real, "x" if nuevo else "w", encoding="utf-8", newline="") as f:
        f.write(contenido)


def _textos(entorno, real):
    """(ruta relativa, texto) de cada fichero de texto bajo `real` (o de `real`, si es un
    fichero), en orden, sin __pycache__ ni enlaces que llevan fuera."""
    if os.path.isfile(real):
        candidatos = [real]
    else:
        candidatos = []
        for base, carpetas, nombres in os.walk(real):
            carpetas[:] = sorted(c for c in carpetas if c != "__pycache__")
            candidatos += [os.path.join(base, n) for n in sorted(nombres)]
    for ruta in candidatos:
        destino = os.path.realpath(ruta)
        if not _bajo(destino, entorno.raiz) or not os.path.isfile(destino):
            continue
        try:
            with open(destino, encoding="utf-8", newline="") as f:
                texto = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        yield os.path.relpath(ruta, entorno.raiz).replace(os.sep, "/"), texto


# ------------------------------------------------------------------ la edición

def _edicion(entorno, ruta, viejo, nuevo):
    """(ruta relativa, real, texto antes, texto después) de editar, sin escribir nada; o la
    excepción que dice por qué se niega."""
    relativa, real = _fichero(entorno, ruta)
    _pide_texto("viejo", viejo)
    _pide_texto("nuevo", nuevo)
    if viejo == "":
        raise ValueError("'viejo' está vacío: di el texto exacto que hay que cambiar (para un "
                         "fichero nuevo, usa crear_fichero)")
    antes = _lee(real, relativa)
    if relativa not in entorno.leidos:
        raise PermissionError(f"no has leído {relativa}: léelo con leer_lineas antes de "
                              f"editarlo, para cambiar lo que de verdad tiene")
    if entorno.leidos[relativa] != antes:
        raise PermissionError(f"{relativa} ha cambiado desde que lo leíste: vuelve a leerlo con "
                              f"leer_lineas antes de editarlo")
    posiciones = _apariciones(antes, viejo)
    if not posiciones:
        raise ValueError(f"'viejo' no aparece en {relativa}. " + _parecidas(antes, viejo))
    if len(posiciones) > 1:
        lineas = [antes.count("\n", 0, p) + 1 for p in posiciones]
        raise ValueError(f"'viejo' aparece {len(posiciones)} veces en {relativa} (en las líneas "
                         f"{_enumera(lineas)}): añade líneas de alrededor para que aparezca "
                         f"una sola vez")
    if viejo == nuevo:
        raise ValueError("'viejo' y 'nuevo' son iguales: la edición no cambiaría nada")
    p = posiciones[0]
    return relativa, real, antes, antes[:p] + nuevo + antes[p + len(viejo):]


def _apariciones(texto, viejo):
    """Dónde empieza `viejo` en `texto`, también si dos apariciones se solapan."""
    posiciones, p = [], texto.find(viejo)
    while p != -1:
        posiciones.append(p)
        p = texto.find(viejo, p + 1)
    return posiciones


def _parecidas(texto, viejo):
    """«Lo más parecido (líneas a–b): …»: el tramo del fichero, con tantas líneas como `viejo`,
    que más se le parece (difflib), con sus números."""
    import difflib

    lineas = texto.splitlines()
    if not lineas:
        return "El fichero está vacío."
    n = max(1, len(viejo.splitlines()))
    buscado = "\n".join(viejo.splitlines())
    mejor, inicio = -1.0, 0
    for i in range(max(1, len(lineas) - n + 1)):
        tramo = "\n".join(lineas[i:i + n])
        comparador = difflib.SequenceMatcher(None, tramo, buscado)
        if comparador.quick_ratio() > mejor and comparador.ratio() > mejor:
            mejor, inicio = comparador.ratio(), i
    fin = min(len(lineas), inicio + n)
    tramo = "\n".join(f"{k:>6}\t{_recorta(lineas[k - 1])}" for k in range(inicio + 1, fin + 1))
    rango = f"la línea {inicio + 1}" if fin == inicio + 1 else f"las líneas {inicio + 1}–{fin}"
    return (f"Lo más parecido es {rango} (cópialo tal cual, con sus espacios, sin el número):\n"
            + tramo)


def _diff(relativa, antes, despues):
    import difflib

    return "\n".join(difflib.unified_diff(antes.splitlines(), despues.splitlines(),
                                          f"a/{relativa}", f"b/{relativa}", lineterm=""))


def _marcas_del_diff(antes, despues):
    """El diff como líneas [marca, texto] de la pregunta de permisos.py: "-", "+", " ", y "…"
    entre dos tramos."""
    import difflib

    marcas = []
    for linea in list(difflib.unified_diff(antes.splitlines(), despues.splitlines(),
                                           lineterm=""))[2:]:
        if linea.startswith("@@"):
            if marcas:
                marcas.append(["…", ""])
        else:
            marcas.append([linea[:1], linea[1:]])
    return marcas


# ------------------------------------------------------------------- detalles

def _pide_texto(nombre, valor):
    if not isinstance(valor, str):
        raise TypeError(f"'{nombre}' debe ser texto (str) y es {type(valor).__name__}: {valor!r}")


def _pide_entero(nombre, valor):
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise TypeError(f"'{nombre}' debe ser un número entero y es {valor!r}")
    if valor < 1:
        raise ValueError(f"'{nombre}' es {valor}: las líneas se cuentan desde 1")
    return valor


def _recorta(linea):
    if len(linea) <= ANCHO_DE_LINEA:
        return linea
    return linea[:ANCHO_DE_LINEA] + f"… ({len(linea) - ANCHO_DE_LINEA} caracteres más)"


def _n_lineas(n):
    return "1 línea" if n == 1 else f"{n} líneas"


def _n_ficheros(n):
    return "1 fichero" if n == 1 else f"{n} ficheros"


def _enumera(numeros):
    textos = [str(n) for n in numeros]
    return textos[0] if len(textos) == 1 else ", ".join(textos[:-1]) + " y " + textos[-1]
