"""Las pruebas de «modelo-api» (la lección «El bucle con un modelo real»).

El calificador ejecuta este archivo en un espacio de nombres propio que ya tiene el runtime
(api.py, entorno.py, guionizado.py, escenarios.py, permisos.py), Fallo, opaca, murada y plano.
Aquí no hay red ni modelo: cada prueba le da al ModeloAPI del lector un servidor falso como
enviar=, que anota cada petición tal como la leería un servidor (el cuerpo pasado por JSON) y
responde lo que le toca: una respuesta del protocolo, o un error del servidor. El error es un
ErrorDelServidor del espacio del lector, el que su código ve y podría atrapar: lo lanza un
puente (una función definida en un espacio que solo tiene el servidor, opaco, y esa clase).
Lo esperado se calcula aquí, a partir de M.

Cada prueba carga el código del lector en un espacio nuevo, sin la clase del código inicial,
con el enviar y el url_del_modelo del runtime cambiados por unos que anotan quién los usa (el
primero no sale a la red; el segundo hace lo que hace fuera de la página: lanza
ErrorDelServidor). Construir el modelo, cada llamada y cada vistazo a sus atributos corren tras
la muralla, con el límite de tiempo. Lo que la prueba espera que lance el lector lo atrapa; lo
demás es un error del lector, con su línea.

Deja A_ESCRIBIR (vacío: el lector escribe una clase, que se busca aquí), PISTA y PRUEBAS.
"""

import copy as copia
import json

from runtime import (HERRAMIENTAS, INICIO_BUCLE, llamada, muestra, RESPUESTAS_BUCLE, resultado,
    SISTEMA_BUCLE, texto)
from calificador import Fallo, opaca, plano
from ..comun import breve, Caso, llamadas_de


A_ESCRIBIR = {}

PISTA = (
    "En peticion: los contenidos de los mensajes de sistema, unidos con \"\\n\\n\", van en "
    "cuerpo[\"system\"] (sin ninguno, no pongas la clave); los demás, en cuerpo[\"messages\"], "
    "como {\"role\": ROLES[rol], \"content\": contenido}, con el contenido tal cual; "
    "\"tools\" es herramientas. En __call__: url = self.url o url_del_modelo(), respuesta = "
    "self.enviar(url, self.peticion(M, herramientas)), self.uso = respuesta[\"usage\"]; si "
    "respuesta[\"stop_reason\"] == \"max_tokens\", raise RespuestaCortada(respuesta[\"content\"], "
    "self.uso); si no, return respuesta[\"content\"]. No atrapes ErrorDelServidor."
)

#: Las direcciones de las pruebas: la que se le da al modelo, y las que da url_del_modelo().
URL = "http://servidor.de.prueba:8080/v1/messages"
URLS_DEL_CURSO = ["http://curso.de.prueba/modelo/v1/messages",
                  "http://curso.de.prueba/otra/v1/messages"]
ROLES = {"usuario": "user", "asistente": "assistant"}
FIRMA = "ModeloAPI(nombre=\"smollm2-135m\", max_tokens=256, url=None, enviar=enviar)"
FALTA = ("Tu código no define la clase ModeloAPI: escribe class ModeloAPI: … con "
         "__init__(self, nombre=\"smollm2-135m\", max_tokens=256, url=None, enviar=enviar), "
         "peticion(self, M, herramientas) y __call__(self, M, herramientas).")


# ------------------------------------------------------------------ los datos


def como_json(x):
    """`x` como lo lee quien recibe el JSON (las tuplas, listas)."""
    return json.loads(json.dumps(x, ensure_ascii=False))


def respuesta(contenido, stop_reason="end_turn", entrada=120, salida=18):
    """Una respuesta del protocolo de mensajes."""
    return {"id": "msg_prueba", "type": "message", "role": "assistant", "model": "de-prueba",
            "content": contenido, "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": entrada, "output_tokens": salida,
                      "cache_read_input_tokens": 0}}


def esperada(M, herramientas, nombre="smollm2-135m", max_tokens=256):
    """El cuerpo que debe enviar un adaptador correcto, como lo lee el servidor."""
    sistema = [contenido for rol, contenido in M if rol == "sistema"]
    cuerpo = {"model": nombre, "max_tokens": max_tokens}
    if sistema:
        cuerpo["system"] = "\n\n".join(sistema)
    cuerpo["messages"] = [{"role": ROLES[rol], "content": contenido}
                          for rol, contenido in M if rol != "sistema"]
    cuerpo["tools"] = herramientas
    return como_json(cuerpo)


SISTEMA_CORTO = "Contesta en castellano y en una sola frase."
SISTEMA_CON_SALTOS = "Reglas de la casa:\n- no escribas sin permiso\n- no inventes ficheros"

#: Dos turnos de una conversación: textos, llamadas y resultados (uno con is_error).
DOS_TURNOS = [
    ("sistema", SISTEMA_BUCLE),
    ("usuario", "¿Qué hay para cenar el martes?"),
    ("asistente", [texto("Miro las notas."), llamada("t1", "leer", ruta="notas.txt"),
                   llamada("t2", "leer", ruta="notas/martes.txt")]),
    ("usuario", [resultado("t1", "El martes viene la abuela.\nMenú: lentejas y ensalada."),
                 resultado("t2", "no existe el fichero 'notas/martes.txt'", es_error=True)]),
]

#: Tres mensajes de sistema, uno con saltos de línea: se unen en orden con "\n\n".
TRES_SISTEMAS = [
    ("sistema", SISTEMA_BUCLE),
    ("sistema", SISTEMA_CON_SALTOS),
    ("sistema", SISTEMA_CORTO),
    ("usuario", "Apunta sal en lista.txt."),
    ("asistente", [llamada("e1", "escribir", ruta="lista.txt", contenido="arroz, sal")]),
    ("usuario", [resultado("e1", "escrito lista.txt (10 caracteres)")]),
]

SIN_SISTEMA = [
    ("usuario", "Hola."),
    ("asistente", [texto("Hola. ¿Qué necesitas?")]),
    ("usuario", "Nada, gracias."),
]

#: Herramientas que no son las del curso, con algo más que nombre, descripción y esquema.
OTRAS_HERRAMIENTAS = [
    {"name": "sumar", "description": "Suma dos números.",
     "input_schema": {"type": "object",
                      "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                      "required": ["a", "b"], "additionalProperties": False}},
    {"name": "hora", "description": "La hora de ahora, como «17:05».",
     "input_schema": {"type": "object", "properties": {}}, "cache_control": {"type": "ephemeral"}},
]

#: Respuestas que el adaptador devuelve tal cual: llamadas (con texto delante y detrás), y texto.
CON_LLAMADAS = respuesta([
    texto("Leo las dos recetas."),
    llamada("toolu_01", "leer", ruta="recetas/lentejas.txt"),
    llamada("toolu_02", "leer", ruta="recetas/ensalada.txt"),
    {"type": "text", "text": "Y luego te digo.", "citations": None},
], stop_reason="tool_use")
SOLO_TEXTO = respuesta([texto("El martes hay lentejas y ensalada.")], entrada=300, salida=9)
CORTADA = respuesta([texto("Voy a escribir la lista"),
                     llamada("toolu_09", "escribir", ruta="lista.txt")],
                    stop_reason="max_tokens", entrada=200, salida=16)


# ------------------------------------------------------------------ el servidor falso


class Servidor:
    """El servidor de una prueba: responde `respuestas` en orden (un dict, la respuesta; una
    tupla (estado, motivo), un error del servidor) y anota cada petición: {url, cuerpo,
    cabeceras}, el cuerpo como lo leería un servidor (JSON)."""

    def __init__(self, *respuestas):
        self.respuestas = list(respuestas)
        self.peticiones = []

    def __call__(self, url, cuerpo, cabeceras=None, espera=120):
        try:
            leido = json.loads(json.dumps(plano(cuerpo), ensure_ascii=False))
        except (TypeError, ValueError) as error:
            return ("json", f"el cuerpo de la petición no se puede enviar como JSON: {error}")
        self.peticiones.append({"url": plano(url), "cuerpo": leido,
                                "cabeceras": plano(cabeceras)})
        n = len(self.peticiones)
        if n > len(self.respuestas):
            return ("servidor", None, "el servidor de la prueba no esperaba otra petición")
        dada = self.respuestas[n - 1]
        if isinstance(dada, tuple):
            return ("servidor",) + dada
        return ("ok", dada)


class Pagina:
    """url_del_modelo() de una prueba: da `urls` en orden; sin ellas (o acabadas), lanza
    ErrorDelServidor como fuera de la página. Anota cuántas veces se la llamó."""

    def __init__(self, *urls):
        self.urls = list(urls)
        self.veces = 0

    def __call__(self):
        self.veces += 1
        if self.veces > len(self.urls):
            return ("servidor", None, "fuera de la página no hay modelo del curso: pasa url=…")
        return ("ok", self.urls[self.veces - 1])


#: Los puentes: funciones que el lector recibe, definidas en un espacio que solo tiene la
#: función opaca de aquí y la clase ErrorDelServidor del lector (desde sus __globals__ no se
#: llega a estas pruebas). Lanzan en el código del lector lo que el servidor de aquí diga.
_PUENTES = '''
def enviar(url, cuerpo, cabeceras=None, espera=120):
    que, *datos = _servidor(url, cuerpo, cabeceras, espera)
    if que == "ok":
        return datos[0]
    if que == "json":
        raise TypeError(datos[0])
    raise ErrorDelServidor(*datos)


def url_del_modelo():
    que, *datos = _pagina()
    if que == "ok":
        return datos[0]
    raise ErrorDelServidor(*datos)
'''


def puente(nombre, falso, ns):
    """La función `nombre` (enviar o url_del_modelo) que el lector recibe, sobre `falso`."""
    espacio = {"_servidor" if nombre == "enviar" else "_pagina": opaca(falso, nombre),
               "ErrorDelServidor": ns["ErrorDelServidor"]}
    exec(_PUENTES, espacio)
    return espacio[nombre]


class Prueba:
    """El código del lector cargado para una prueba: su espacio (ns), su clase, y lo que
    anotan el enviar y el url_del_modelo del runtime (self.red, self.pagina), por si los usa
    en vez de lo que recibe."""

    def __init__(self, envio, pagina=None):
        self.envio = envio
        hecho = envio.vigilar(lambda: envio.espacio({"ModeloAPI": None}), "Tu código")
        if hecho.error is not None:
            raise hecho.error
        self.ns = ns = hecho.valor
        self.clase = ns.get("ModeloAPI")
        if not isinstance(self.clase, type):
            raise Fallo(FALTA)
        self.Error = ns.get("ErrorDelServidor")
        self.Cortada = ns.get("RespuestaCortada")
        self.red = Servidor()
        self.pagina = pagina or Pagina()
        ns["enviar"] = puente("enviar", self.red, ns)
        ns["url_del_modelo"] = puente("url_del_modelo", self.pagina, ns)

    def vigila(self, accion, quien="ModeloAPI"):
        hecho = self.envio.vigilar(accion, quien)
        if hecho.error is not None:
            raise hecho.error
        return hecho.valor

    def modelo(self, servidor, **argumentos):
        """ModeloAPI(**argumentos, enviar=<servidor>), con url=URL salvo que se diga otra."""
        argumentos.setdefault("url", URL)
        enviar = puente("enviar", servidor, self.ns)
        clase = self.clase

        def crea():
            try:
                return ("hecho", clase(**argumentos, enviar=enviar))
            except TypeError as error:
                return ("firma", str(error))
            except self.Error as error:
                return ("error", str(error))
        que, valor = self.vigila(crea)
        dados = ", ".join(f"{k}={v!r}" for k, v in argumentos.items())
        if que == "firma":
            raise Fallo(f"ModeloAPI({dados}, enviar=…) lanzó TypeError («{valor}»): la clase "
                        f"se crea así: {FIRMA}.")
        if que == "error":
            raise Fallo(f"ModeloAPI({dados}, enviar=…) lanzó ErrorDelServidor al crearse "
                        f"(«{valor}»): crear el modelo no pregunta nada a nadie; la dirección "
                        f"se busca al llamarlo.")
        return valor

    def llama(self, modelo, M, herramientas, atrapa=()):
        """("devolvió", lo devuelto) o ("lanzó", datos de la excepción) de modelo(M,
        herramientas) (M y herramientas, copias). Solo se atrapan las de `atrapa`."""
        M, herramientas = copia.deepcopy(M), copia.deepcopy(herramientas)
        Error, Cortada = self.Error, self.Cortada

        def una():
            try:
                return ("devolvió", plano(modelo(M, herramientas)))
            except atrapa as e:
                return ("lanzó", {"clase": type(e).__name__, "texto": str(e),
                                  "servidor": isinstance(e, Error),
                                  "cortada": isinstance(e, Cortada),
                                  "estado": plano(getattr(e, "estado", None)),
                                  "motivo": plano(getattr(e, "motivo", None)),
                                  "contenido": plano(getattr(e, "contenido", None)),
                                  "uso": plano(getattr(e, "uso", None))})
        hecho = self.envio.vigilar(una, "ModeloAPI")
        if self.red.peticiones:
            raise Fallo("ModeloAPI usó el enviar del runtime, y no el que recibe: guarda el "
                        "enviar que le dan al crearlo (self.enviar = enviar) y envía con él.")
        if hecho.error is not None:
            raise hecho.error
        return hecho.valor

    def devuelve(self, modelo, M, herramientas):
        """Lo que devuelve modelo(M, herramientas); si lanza, el error del lector."""
        return self.llama(modelo, M, herramientas)[1]

    def uso(self, modelo):
        """("hay", modelo.uso) o ("falta", None)."""
        def mira():
            if not hasattr(modelo, "uso"):
                return ("falta", None)
            return ("hay", plano(modelo.uso))
        return self.vigila(mira)

    def peticion(self, modelo, M, herramientas):
        def pide():
            return plano(modelo.peticion(copia.deepcopy(M), copia.deepcopy(herramientas)))
        return self.vigila(pide, "peticion")


def una_peticion(servidor, llamada_n=None):
    """El cuerpo de la única petición que debía hacer una llamada (la `llamada_n`-ésima)."""
    cual = "" if llamada_n is None else f"En la {llamada_n}.ª llamada, "
    esperadas = llamada_n or 1
    if len(servidor.peticiones) < esperadas:
        raise Fallo(f"{cual}ModeloAPI no envió ninguna petición: llama a self.enviar(url, "
                    f"self.peticion(M, herramientas)).")
    if len(servidor.peticiones) > esperadas:
        raise Fallo(f"{cual}ModeloAPI envió {len(servidor.peticiones) - esperadas + 1} "
                    f"peticiones; cada llamada al modelo es una petición.")
    cuerpo = servidor.peticiones[-1]["cuerpo"]
    if not isinstance(cuerpo, dict):
        quien = f"{cual}el cuerpo" if cual else "El cuerpo"
        raise Fallo(f"{quien} de la petición es {breve(cuerpo)}: debe ser un dict, "
                    f"{{\"model\": …, \"max_tokens\": …, \"messages\": […], \"tools\": […]}}.")
    return cuerpo


def exige(cuerpo, clave):
    """Fallo si la petición no tiene `clave`."""
    if not isinstance(cuerpo, dict) or clave not in cuerpo:
        raise Fallo(f"La petición no tiene la clave \"{clave}\": lleva model, max_tokens, "
                    f"system (si hay mensajes de sistema), messages y tools.")


class Dicho:
    """Un valor que los mensajes dicen con palabras: la clave que no está, el largo de una
    lista."""

    def __init__(self, texto):
        self.texto = texto

    def __repr__(self):
        return self.texto


AUSENTE = Dicho("nada (la clave no está)")


def diferencia(esperado, hay, partes=()):
    """(partes de la ruta, esperado, hay) de la primera diferencia entre dos valores JSON; o
    None si son iguales."""
    numeros = (int, float)
    if type(esperado) is not type(hay) and not (
            type(esperado) in numeros and type(hay) in numeros):
        return partes, esperado, hay
    if isinstance(esperado, dict):
        for clave in list(esperado) + [k for k in hay if k not in esperado]:
            if clave not in hay:
                return partes + (clave,), esperado[clave], AUSENTE
            if clave not in esperado:
                return partes + (clave,), AUSENTE, hay[clave]
            d = diferencia(esperado[clave], hay[clave], partes + (clave,))
            if d:
                return d
        return None
    if isinstance(esperado, list):
        for i, (e, h) in enumerate(zip(esperado, hay)):
            d = diferencia(e, h, partes + (i,))
            if d:
                return d
        if len(esperado) != len(hay):
            return (partes, Dicho(f"una lista de {len(esperado)}"),
                    Dicho(f"una lista de {len(hay)}"))
        return None
    return None if esperado == hay else (partes, esperado, hay)


def dif(esperado, hay, raiz="cuerpo"):
    """La primera diferencia, en una frase: «cuerpo["messages"][1]["content"] debía ser … y es
    …»; None si no hay ninguna."""
    d = diferencia(esperado, hay)
    if d is None:
        return None
    partes, e, h = d
    ruta = raiz + "".join(f"[{p!r}]".replace("'", '"') if isinstance(p, str) else f"[{p}]"
                          for p in partes)
    return f"{ruta} debía ser {enseña(e)} y es {enseña(h)}"


def en_otro_orden(hay, debe):
    """¿Son `hay` y `debe` los mismos bloques, en otro orden?"""
    try:
        return sorted(map(json.dumps, hay)) == sorted(map(json.dumps, debe))
    except (TypeError, ValueError):
        return False


def enseña(x):
    """x en una línea: una lista de bloques con muestra; lo demás, con breve."""
    if isinstance(x, list) and x and all(isinstance(b, dict) and b.get("type") in
                                         ("text", "tool_use", "tool_result") for b in x):
        return muestra(x)
    return breve(x)


def cuenta(n, una, varias):
    return f"1 {una}" if n == 1 else f"{n} {varias}"


# ------------------------------------------------------------------ las pruebas


def sistema_en_system(M):
    """Los mensajes de sistema, unidos en orden con "\\n\\n", son cuerpo["system"]."""
    def prueba(envio):
        p = Prueba(envio)
        servidor = Servidor(SOLO_TEXTO)
        p.devuelve(p.modelo(servidor), M, HERRAMIENTAS)
        cuerpo = una_peticion(servidor)
        sistemas = [c for r, c in M if r == "sistema"]
        debe = "\n\n".join(sistemas)
        n = cuenta(len(sistemas), "mensaje de sistema", "mensajes de sistema")
        if "system" not in cuerpo:
            raise Fallo(f"M tiene {n} y la petición no tiene la clave \"system\": los "
                        f"contenidos de los mensajes de sistema, unidos con \"\\n\\n\", van en "
                        f"cuerpo[\"system\"], no en messages.")
        hay = cuerpo["system"]
        if hay == debe:
            return
        if isinstance(hay, str):
            if hay == "\n".join(sistemas) or hay == "".join(sistemas) or hay == " ".join(sistemas):
                raise Fallo(f"M tiene {n}, y cuerpo[\"system\"] los une con otro separador: "
                            f"van unidos con una línea en blanco entre uno y otro, "
                            f"\"\\n\\n\".join(…).")
            faltan = [i for i, s in enumerate(M) if s[0] == "sistema" and s[1] not in hay]
            if faltan:
                raise Fallo(f"M tiene {n}, y cuerpo[\"system\"] no trae el de M[{faltan[0]}], "
                            f"{breve(M[faltan[0]][1])}: van todos, en orden, unidos con "
                            f"\"\\n\\n\".")
        raise Fallo(f"M tiene {n}: cuerpo[\"system\"] debía ser {breve(debe)} y es "
                    f"{breve(hay)}: sus contenidos, en orden, unidos con \"\\n\\n\".")
    return prueba


def sin_system(envio):
    """Sin mensajes de sistema en M, la petición no tiene la clave system."""
    p = Prueba(envio)
    servidor = Servidor(SOLO_TEXTO)
    p.devuelve(p.modelo(servidor), SIN_SISTEMA, HERRAMIENTAS)
    cuerpo = una_peticion(servidor)
    if "system" in cuerpo:
        raise Fallo(f"M no tiene mensajes de sistema y la petición lleva \"system\": "
                    f"{breve(cuerpo['system'])}. Sin ninguno, no pongas la clave.")


def roles(M):
    """messages: los mensajes que no son de sistema, en orden, con role user o assistant."""
    def prueba(envio):
        p = Prueba(envio)
        servidor = Servidor(SOLO_TEXTO)
        p.devuelve(p.modelo(servidor), M, HERRAMIENTAS)
        cuerpo = una_peticion(servidor)
        exige(cuerpo, "messages")
        mensajes = cuerpo["messages"]
        debe = esperada(M, HERRAMIENTAS)["messages"]
        if not isinstance(mensajes, list):
            raise Fallo(f"cuerpo[\"messages\"] debe ser una lista y es {breve(mensajes)}.")
        if len(mensajes) != len(debe):
            sistema = sum(1 for r, _ in M if r == "sistema")
            raise Fallo(f"M tiene {len(M)} mensajes, {sistema} de sistema, y "
                        f"cuerpo[\"messages\"] tiene {len(mensajes)}: debía tener "
                        f"{len(debe)}, los que no son de sistema (esos van en \"system\").")
        for i, (m, d) in enumerate(zip(mensajes, debe)):
            rol = m.get("role", AUSENTE) if isinstance(m, dict) else None
            if rol is None:
                raise Fallo(f"cuerpo[\"messages\"][{i}] debía ser un dict, {{\"role\": …, "
                            f"\"content\": …}}, y es {breve(m)}.")
            if rol != d["role"]:
                de_m = [x for x in M if x[0] != "sistema"][i][0]
                raise Fallo(f"cuerpo[\"messages\"][{i}][\"role\"] debía ser \"{d['role']}\" "
                            f"(en M, \"{de_m}\") y es {breve(rol)}: el protocolo dice user y "
                            f"assistant.")
    return prueba


def contenido_tal_cual(M):
    """El contenido de cada mensaje, tal cual: textos y listas de bloques."""
    def prueba(envio):
        p = Prueba(envio)
        servidor = Servidor(SOLO_TEXTO)
        p.devuelve(p.modelo(servidor), M, HERRAMIENTAS)
        cuerpo = una_peticion(servidor)
        exige(cuerpo, "messages")
        debe = esperada(M, HERRAMIENTAS)["messages"]
        mensajes = cuerpo["messages"] if isinstance(cuerpo["messages"], list) else []
        for i, (m, d) in enumerate(zip(mensajes, debe)):
            hay = m.get("content", AUSENTE) if isinstance(m, dict) else m
            problema = dif(d["content"], hay, f'cuerpo["messages"][{i}]["content"]')
            if problema:
                raise Fallo(f"En la petición, {problema}: "
                            f"el contenido de cada mensaje pasa tal cual, un texto o la lista "
                            f"de bloques entera, sin cambiar nada.")
        if len(mensajes) != len(debe):
            raise Fallo(f"cuerpo[\"messages\"] debía tener {len(debe)} mensajes y tiene "
                        f"{len(mensajes)}.")
    return prueba


def M_sin_tocar(M):
    """Después de la llamada, M es como era: el adaptador lee M, no lo cambia."""
    def prueba(envio):
        p = Prueba(envio)
        servidor = Servidor(SOLO_TEXTO)
        recibido, herramientas = copia.deepcopy(M), copia.deepcopy(HERRAMIENTAS)
        modelo = p.modelo(servidor)
        p.vigila(lambda: modelo(recibido, herramientas))
        aplanar = plano(recibido)
        if aplanar == M:
            if plano(herramientas) != HERRAMIENTAS:
                raise Fallo("Después de la llamada, herramientas no es como era: el adaptador "
                            "la envía, no la cambia.")
            return
        if len(aplanar) != len(M):
            raise Fallo(f"M tenía {len(M)} mensajes y, después de la llamada, tiene "
                        f"{len(aplanar)}: el adaptador lee M, no lo cambia (es la "
                        f"conversación del bucle, que sigue usándola).")
        i = next(i for i, (a, b) in enumerate(zip(M, aplanar)) if a != b)
        raise Fallo(f"Después de la llamada, M[{i}] era {muestra(M[i])} y es "
                    f"{breve(aplanar[i])}: el adaptador lee M, no lo cambia (es la "
                    f"conversación del bucle, que sigue usándola).")
    return prueba


def herramientas_sin_cambiar(herramientas):
    """cuerpo["tools"] es la lista herramientas, tal cual."""
    def prueba(envio):
        p = Prueba(envio)
        servidor = Servidor(SOLO_TEXTO)
        p.devuelve(p.modelo(servidor), DOS_TURNOS, herramientas)
        cuerpo = una_peticion(servidor)
        exige(cuerpo, "tools")
        problema = dif(como_json(herramientas), cuerpo["tools"], 'cuerpo["tools"]')
        if problema:
            nombres = ", ".join(h["name"] for h in herramientas)
            raise Fallo(f"Con {cuenta(len(herramientas), 'herramienta', 'herramientas')} "
                        f"({nombres}), {problema}: "
                        f"tools es la lista herramientas tal cual; el servidor ya sabe leerla.")
    return prueba


def modelo_y_max_tokens(envio):
    """model y max_tokens: los que se dan al crear el modelo; si no, smollm2-135m y 256."""
    p = Prueba(envio)
    for argumentos, nombre, maximo in [({}, "smollm2-135m", 256),
                                       ({"nombre": "otro-modelo", "max_tokens": 77},
                                        "otro-modelo", 77)]:
        servidor = Servidor(SOLO_TEXTO)
        p.devuelve(p.modelo(servidor, **argumentos), SIN_SISTEMA, HERRAMIENTAS)
        cuerpo = una_peticion(servidor)
        dados = ", ".join(f"{k}={v!r}" for k, v in argumentos.items())
        como = f"ModeloAPI({dados})" if dados else "ModeloAPI() (sin nombre ni max_tokens)"
        for clave, debe in (("model", nombre), ("max_tokens", maximo)):
            hay = cuerpo.get(clave, AUSENTE)
            if hay != debe:
                raise Fallo(f"Con {como}, cuerpo[\"{clave}\"] debía ser {debe!r} y es "
                            f"{breve(hay)}: el modelo pide lo que le dicen al crearlo (nombre y "
                            f"max_tokens; sin ellos, \"smollm2-135m\" y 256).")


def devuelve_content(envio):
    """Devuelve el content de la respuesta tal como llega: los mismos bloques, en su orden."""
    p = Prueba(envio)
    for dada in (CON_LLAMADAS, SOLO_TEXTO):
        servidor = Servidor(dada)
        devuelto = p.devuelve(p.modelo(servidor), DOS_TURNOS, HERRAMIENTAS)
        debe = dada["content"]
        if devuelto == debe:
            continue
        con = f"Con una respuesta de {cuenta(len(debe), 'bloque', 'bloques')} ({dada['stop_reason']}), "
        if isinstance(devuelto, dict) and "content" in devuelto:
            raise Fallo(f"{con}ModeloAPI devolvió la respuesta entera, un dict con "
                        f"{', '.join(devuelto)}: el bucle espera la lista de bloques, "
                        f"respuesta[\"content\"].")
        if not isinstance(devuelto, list):
            raise Fallo(f"{con}ModeloAPI devolvió {breve(devuelto)}: devuelve la lista de "
                        f"bloques, respuesta[\"content\"].")
        if en_otro_orden(devuelto, debe):
            raise Fallo(f"{con}ModeloAPI devolvió los mismos bloques en otro orden: "
                        f"{muestra(devuelto)}. El orden es parte de la respuesta: devuélvela "
                        f"tal como llega.")
        problema = dif(debe, devuelto, "lo devuelto")
        raise Fallo(f"{con}lo que devolvió ModeloAPI no es su content: {problema}. Devuelve "
                    f"respuesta[\"content\"] tal como llega.")


def cortada_lanza(envio):
    """stop_reason "max_tokens": lanza RespuestaCortada con lo que llegó y el uso."""
    p = Prueba(envio)
    servidor = Servidor(CORTADA)
    que, valor = p.llama(p.modelo(servidor), DOS_TURNOS, HERRAMIENTAS, atrapa=Exception)
    con = "Con una respuesta cortada (stop_reason \"max_tokens\"), "
    if que == "devolvió":
        raise Fallo(f"{con}ModeloAPI devolvió {enseña(valor)}: una respuesta cortada no se "
                    f"le da al bucle (su última llamada está a medias, sin todos sus "
                    f"argumentos); lanza RespuestaCortada(respuesta[\"content\"], uso).")
    if not valor["cortada"]:
        texto_ = f" («{valor['texto']}»)" if valor["texto"] else ""
        raise Fallo(f"{con}ModeloAPI lanzó {valor['clase']}{texto_}: lanza RespuestaCortada, "
                    f"la del runtime, con lo que llegó: RespuestaCortada(respuesta[\"content\"], "
                    f"uso).")
    if valor["contenido"] != CORTADA["content"]:
        raise Fallo(f"{con}la RespuestaCortada lleva contenido {enseña(valor['contenido'])}: "
                    f"debía llevar los bloques que llegaron, respuesta[\"content\"].")
    if valor["uso"] != CORTADA["usage"]:
        raise Fallo(f"{con}la RespuestaCortada lleva uso {breve(valor['uso'])}: debía llevar "
                    f"el de la respuesta, respuesta[\"usage\"].")


ERRORES = [(400, "max_tokens: debe ser un entero mayor que 0"),
           (404, "no existe la ruta /v1/mesages"),
           (None, "[Errno 111] Connection refused")]


def error_sale(envio):
    """Un error del servidor (un 400, un 404, nadie responde) sale de ModeloAPI tal cual."""
    p = Prueba(envio)
    for estado, motivo in ERRORES:
        servidor = Servidor((estado, motivo))
        que, valor = p.llama(p.modelo(servidor), DOS_TURNOS, HERRAMIENTAS, atrapa=Exception)
        cual = f"un {estado} del servidor" if estado else "un servidor que no responde"
        con = f"Con {cual} («{motivo}»), "
        if que == "devolvió":
            raise Fallo(f"{con}ModeloAPI devolvió {enseña(valor)}: un error del servidor no es "
                        f"una respuesta del modelo. Deja que el ErrorDelServidor de enviar "
                        f"salga tal cual (no lo atrapes): quien llama al bucle decide qué hacer.")
        if not valor["servidor"]:
            texto_ = f" («{valor['texto']}»)" if valor["texto"] else ""
            raise Fallo(f"{con}ModeloAPI lanzó {valor['clase']}{texto_}: deja que el "
                        f"ErrorDelServidor de enviar salga tal cual, con su estado y su motivo.")
        if (valor["estado"], valor["motivo"]) != (estado, motivo):
            raise Fallo(f"{con}el ErrorDelServidor que salió lleva estado "
                        f"{valor['estado']!r} y motivo {breve(valor['motivo'])}: deja salir el "
                        f"de enviar tal cual.")


def sin_memoria(envio):
    """Dos llamadas no se acuerdan de nada: la petición de la segunda es la que haría un
    ModeloAPI nuevo con el mismo M."""
    p = Prueba(envio)
    servidor = Servidor(CON_LLAMADAS, SOLO_TEXTO)
    modelo = p.modelo(servidor)
    p.devuelve(modelo, DOS_TURNOS, HERRAMIENTAS)
    una_peticion(servidor, 1)
    p.devuelve(modelo, SIN_SISTEMA, HERRAMIENTAS)
    segunda = una_peticion(servidor, 2)
    nuevo = Servidor(SOLO_TEXTO)
    p.devuelve(p.modelo(nuevo), SIN_SISTEMA, HERRAMIENTAS)
    debe = una_peticion(nuevo)
    problema = dif(debe, segunda)
    if problema is None:
        return
    antes, ahora = len(DOS_TURNOS), len(SIN_SISTEMA)
    raise Fallo(f"Tras una llamada con un M de {antes} mensajes, la 2.ª, con otro M de "
                f"{ahora}, no envía lo que envía un ModeloAPI nuevo con ese M: {problema}. "
                f"ModeloAPI no se acuerda de nada entre llamadas (la conversación entera ya "
                f"viene en M): cada petición se hace solo con el M que recibe.")


def uso_de_la_ultima(envio):
    """.uso: None antes de llamar; después, el usage de la última respuesta."""
    p = Prueba(envio)
    servidor = Servidor(CON_LLAMADAS, SOLO_TEXTO)
    modelo = p.modelo(servidor)
    que, uso = p.uso(modelo)
    if que == "falta":
        raise Fallo("ModeloAPI no tiene el atributo uso: ponlo a None al crearlo, y guarda en "
                    "él el usage de cada respuesta.")
    if uso is not None:
        raise Fallo(f"Antes de la primera llamada, uso debía ser None y es {breve(uso)}.")
    for n, dada in enumerate((CON_LLAMADAS, SOLO_TEXTO), 1):
        p.devuelve(modelo, DOS_TURNOS, HERRAMIENTAS)
        que, uso = p.uso(modelo)
        if uso != dada["usage"]:
            raise Fallo(f"Después de la {n}.ª llamada, uso debía ser el usage de esa respuesta, "
                        f"{breve(dada['usage'])}, y es {breve(uso)}: guarda el de la última, "
                        f"tal cual (ni sumado ni el de la primera).")


def url_dada(envio):
    """Con url=…, cada petición va a esa dirección."""
    p = Prueba(envio, Pagina(*URLS_DEL_CURSO))
    servidor = Servidor(SOLO_TEXTO)
    p.devuelve(p.modelo(servidor, url=URL), SIN_SISTEMA, HERRAMIENTAS)
    una_peticion(servidor)
    if servidor.peticiones[0]["url"] != URL:
        raise Fallo(f"Con url={URL!r}, la petición fue a {breve(servidor.peticiones[0]['url'])}: "
                    f"si te dan una dirección, envía a esa.")


def url_al_llamar(envio):
    """Con url=None, la dirección la da url_del_modelo() en cada llamada, no al crearlo."""
    pagina = Pagina()
    p = Prueba(envio, pagina)
    servidor = Servidor(SOLO_TEXTO, SOLO_TEXTO)
    modelo = p.modelo(servidor, url=None)  # url_del_modelo() aún lanza, como fuera de la página
    pagina.urls[:] = [None] * pagina.veces + URLS_DEL_CURSO
    for n, url in enumerate(URLS_DEL_CURSO, 1):
        p.devuelve(modelo, SIN_SISTEMA, HERRAMIENTAS)
        una_peticion(servidor, n)
        hay = servidor.peticiones[-1]["url"]
        if hay != url:
            raise Fallo(f"Con url=None, en la {n}.ª llamada url_del_modelo() daba {url!r} y la "
                        f"petición fue a {breve(hay)}: pregunta la dirección en cada llamada "
                        f"(en la página, el servidor del modelo puede cambiar, o no estar aún).")


def conversacion(envio):
    """La conversación de «El bucle», turno a turno, con un servidor que responde lo del
    guion: cada petición entera, lo devuelto y el uso."""
    p = Prueba(envio)
    caso = Caso("la conversación del bucle", INICIO_BUCLE, RESPUESTAS_BUCLE, 10)
    dadas = [respuesta(r, "tool_use" if llamadas_de(r) else "end_turn", 100 + 50 * i, 10 + i)
             for i, r in enumerate(caso.respuestas)]
    servidor = Servidor(*dadas)
    modelo = p.modelo(servidor, nombre="smollm2-135m", max_tokens=512)
    for turno, (largo, dada) in enumerate(zip(caso.largos, dadas), 1):
        M = caso.M[:largo]
        devuelto = p.devuelve(modelo, M, HERRAMIENTAS)
        cuerpo = una_peticion(servidor, turno)
        problema = dif(esperada(M, HERRAMIENTAS, max_tokens=512), cuerpo)
        if problema:
            raise Fallo(f"En el turno {turno} (M de {len(M)} mensajes), la petición no es la "
                        f"esperada: {problema}.", turno)
        if devuelto != dada["content"]:
            raise Fallo(f"En el turno {turno}, ModeloAPI devolvió {enseña(devuelto)} y el "
                        f"content de la respuesta era {muestra(dada['content'])}.", turno)
        if p.uso(modelo)[1] != dada["usage"]:
            raise Fallo(f"En el turno {turno}, uso no es el usage de la respuesta.", turno)
    peticion = p.peticion(modelo, caso.M[:caso.largos[-1]], HERRAMIENTAS)
    if como_json(peticion) != servidor.peticiones[-1]["cuerpo"]:
        raise Fallo("peticion(M, herramientas) no devuelve el cuerpo que se envía: "
                    f"{dif(servidor.peticiones[-1]['cuerpo'], como_json(peticion))}.")


PRUEBAS = [
    ("los mensajes de sistema, unidos en orden en system", sistema_en_system(TRES_SISTEMAS)),
    ("sin mensajes de sistema, no hay system", sin_system),
    ("los roles, user y assistant, sin los de sistema", roles(TRES_SISTEMAS)),
    ("el contenido de cada mensaje, tal cual", contenido_tal_cual(DOS_TURNOS)),
    ("M queda como estaba", M_sin_tocar(TRES_SISTEMAS)),
    ("las herramientas del curso, sin cambiar", herramientas_sin_cambiar(HERRAMIENTAS)),
    ("otras herramientas, sin cambiar", herramientas_sin_cambiar(OTRAS_HERRAMIENTAS)),
    ("el modelo y max_tokens", modelo_y_max_tokens),
    ("devuelve el content tal como llega", devuelve_content),
    ("una respuesta cortada lanza RespuestaCortada", cortada_lanza),
    ("un error del servidor sale tal cual: 400, 404, nadie responde", error_sale),
    ("dos llamadas no se acuerdan de nada", sin_memoria),
    ("uso es el de la última respuesta", uso_de_la_ultima),
    ("con url=…, envía a esa dirección", url_dada),
    ("con url=None, la dirección se pide al llamar", url_al_llamar),
    ("la conversación del bucle, turno a turno", conversacion),
]
