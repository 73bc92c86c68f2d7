"""Las pruebas de «modelo-api» (la lección «El bucle con un modelo real»).

El calificador ejecuta este archivo en un espacio de nombres propio, con su propio runtime (que
importa). Aquí no hay red ni modelo: cada prueba le da al ModeloAPI del lector un servidor falso
como enviar= (servidor.py), que anota cada petición tal como la leería un servidor (el cuerpo
pasado por JSON) y responde lo que le toca: una respuesta del protocolo, o un error del
servidor. El error es un ErrorDelServidor del espacio del lector, el que su código ve y podría
atrapar: lo lanza un puente (puentes.py: una función que solo guarda el servidor, opaco, y esa
clase). Lo esperado se calcula aquí, a partir de M (los datos, en datos.py; cómo se dice una
diferencia, en diferencias.py).

Cada prueba carga el código del lector en un espacio nuevo, sin la clase del código inicial,
con el enviar y el url_del_modelo del runtime cambiados por unos que anotan quién los usa (el
primero no sale a la red; el segundo hace lo que hace fuera de la página: lanza
ErrorDelServidor). Construir el modelo, cada llamada y cada vistazo a sus atributos corren tras
la muralla, con el límite de tiempo. Lo que la prueba espera que lance el lector lo atrapa; lo
demás es un error del lector, con su línea.

Deja A_ESCRIBIR (vacío: el lector escribe una clase, que se busca aquí), PISTA y PRUEBAS.
"""

import copy as copia

from runtime import HERRAMIENTAS, INICIO_BUCLE, muestra, RESPUESTAS_BUCLE
from calificador import Fallo, plano
from ..comun import breve, Caso, llamadas_de
from .datos import (CABECERAS, como_json, CON_LLAMADAS, CORTADA, DOS_TURNOS, esperada,
                    OTRAS_HERRAMIENTAS, respuesta, SIN_SISTEMA, SOLO_TEXTO, TRES_SISTEMAS, URL,
                    URLS_DEL_CURSO)
from .servidor import exige, Pagina, Prueba, Servidor, una_peticion
from .diferencias import AUSENTE, cuenta, dif, en_otro_orden, enseña


A_ESCRIBIR = {}

PISTA = (
    "En peticion: los contenidos de los mensajes de sistema, unidos con \"\\n\\n\", van en "
    "cuerpo[\"system\"] (sin ninguno, no pongas la clave); los demás, en cuerpo[\"messages\"], "
    "como {\"role\": ROLES[rol], \"content\": contenido}, con el contenido tal cual; "
    "\"tools\" es herramientas. En __call__: url = self.url o url_del_modelo(), respuesta = "
    "self.enviar(url, self.peticion(M, herramientas), self.cabeceras), self.uso = "
    "respuesta[\"usage\"]; si respuesta[\"stop_reason\"] == \"max_tokens\", raise "
    "RespuestaCortada(respuesta[\"content\"], self.uso); si no, return respuesta[\"content\"]. "
    "No atrapes ErrorDelServidor."
)


# ------------------------------------------------------------------ las pruebas


def peticion_de(envio, M, herramientas=HERRAMIENTAS):
    """El cuerpo de la única petición que hace el ModeloAPI del lector con M y herramientas (el
    servidor responde solo texto)."""
    p = Prueba(envio)
    servidor = Servidor(SOLO_TEXTO)
    p.devuelve(p.modelo(servidor), M, herramientas)
    return una_peticion(servidor)


def sistema_en_system(M):
    """Los mensajes de sistema, unidos en orden con "\\n\\n", son cuerpo["system"]."""
    def prueba(envio):
        cuerpo = peticion_de(envio, M)
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
            if hay in ("\n\n".join(s.strip() for s in sistemas), debe.strip()):
                raise Fallo(f"M tiene {n}, y cuerpo[\"system\"] no trae sus textos tal cual: "
                            f"les quitaste los espacios o saltos de línea de los bordes. Cada "
                            f"texto de sistema va entero, sin tocar un carácter; solo se unen "
                            f"con \"\\n\\n\".")
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
    cuerpo = peticion_de(envio, SIN_SISTEMA)
    if "system" in cuerpo:
        raise Fallo(f"M no tiene mensajes de sistema y la petición lleva \"system\": "
                    f"{breve(cuerpo['system'])}. Sin ninguno, no pongas la clave.")


def roles(M):
    """messages: los mensajes que no son de sistema, en orden, con role user o assistant."""
    def prueba(envio):
        cuerpo = peticion_de(envio, M)
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
        for i, (m, d) in enumerate(zip(mensajes, debe, strict=False)):
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
        cuerpo = peticion_de(envio, M)
        exige(cuerpo, "messages")
        debe = esperada(M, HERRAMIENTAS)["messages"]
        mensajes = cuerpo["messages"] if isinstance(cuerpo["messages"], list) else []
        for i, (m, d) in enumerate(zip(mensajes, debe, strict=False)):
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
        i = next(i for i, (a, b) in enumerate(zip(M, aplanar, strict=False)) if a != b)
        raise Fallo(f"Después de la llamada, M[{i}] era {muestra(M[i])} y es "
                    f"{breve(aplanar[i])}: el adaptador lee M, no lo cambia (es la "
                    f"conversación del bucle, que sigue usándola).")
    return prueba


def herramientas_sin_cambiar(herramientas):
    """cuerpo["tools"] es la lista herramientas, tal cual."""
    def prueba(envio):
        cuerpo = peticion_de(envio, DOS_TURNOS, herramientas)
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


def uso_de_la_cortada(envio):
    """Una respuesta cortada también deja su usage en .uso antes de lanzar RespuestaCortada."""
    p = Prueba(envio)
    servidor = Servidor(CORTADA)
    modelo = p.modelo(servidor)
    p.llama(modelo, DOS_TURNOS, HERRAMIENTAS, atrapa=Exception)
    que, uso = p.uso(modelo)
    if que == "hay" and uso != CORTADA["usage"]:
        raise Fallo(f"Con una respuesta cortada (stop_reason \"max_tokens\"), uso quedó en "
                    f"{breve(uso)} y debía ser su usage, {breve(CORTADA['usage'])}: una "
                    f"respuesta cortada también gastó tokens; guarda su usage en self.uso antes "
                    f"de lanzar RespuestaCortada.")


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


def cabeceras_dadas(envio):
    """Con cabeceras=…, cada petición las lleva tal cual: enviar(url, cuerpo, cabeceras)."""
    p = Prueba(envio)
    servidor = Servidor(SOLO_TEXTO, SOLO_TEXTO)
    modelo = p.modelo(servidor, cabeceras=dict(CABECERAS))
    for n in (1, 2):
        p.devuelve(modelo, SIN_SISTEMA, HERRAMIENTAS)
        una_peticion(servidor, n)
        hay = servidor.peticiones[-1]["cabeceras"]
        if hay == CABECERAS:
            continue
        con = f"Con cabeceras={CABECERAS!r}, " if n == 1 else (
            f"Con cabeceras={CABECERAS!r}, en la {n}.ª llamada, ")
        if not hay:
            raise Fallo(f"{con}la petición llegó sin cabeceras: pásaselas a enviar en cada "
                        f"petición, self.enviar(url, cuerpo, self.cabeceras). Un servidor que "
                        f"pide una clave no responde sin ella.")
        raise Fallo(f"{con}la petición llevó {breve(hay)}: pasa a enviar las que te dan, tal "
                    f"cual.")


def conversacion(envio):
    """La conversación de «El bucle», turno a turno, con un servidor que responde lo del
    guion: cada petición entera, lo devuelto y el uso."""
    p = Prueba(envio)
    caso = Caso("la conversación del bucle", INICIO_BUCLE, RESPUESTAS_BUCLE, 10)
    dadas = [respuesta(r, "tool_use" if llamadas_de(r) else "end_turn", 100 + 50 * i, 10 + i)
             for i, r in enumerate(caso.respuestas)]
    servidor = Servidor(*dadas)
    modelo = p.modelo(servidor, nombre="smollm2-135m", max_tokens=512)
    for turno, (largo, dada) in enumerate(zip(caso.largos, dadas, strict=True), 1):
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
    ("una respuesta cortada también deja su uso", uso_de_la_cortada),
    ("con url=…, envía a esa dirección", url_dada),
    ("con url=None, la dirección se pide al llamar", url_al_llamar),
    ("con cabeceras=…, van en cada petición", cabeceras_dadas),
    ("la conversación del bucle, turno a turno", conversacion),
]
