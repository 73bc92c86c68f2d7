"""Las pruebas de «medir-el-agente» (la lección «Medir el agente»).

El calificador ejecuta este archivo en un espacio de nombres propio, con su propio runtime. El
medir del lector recibe siempre un mundo de aquí (mundo.py): las tareas (vistas con sus datos y
un comprobar opaco), un hacer_modelo y un agente que anotan todo lo que les hace. Lo esperado se
calcula aquí, de los destinos de las tareas de mentira o ejecutando las de verdad con un medir
de las pruebas (comprobaciones.py dice qué se mira de lo que devuelve medir;
comparaciones.py, de lo que devuelve comparar; y tareas_de_prueba.py, cómo acaba cada ejecución).

Hay tres clases de pruebas:

- Las que miran cómo se mide (qué ejecuciones, con qué modelo, entorno, usuario y llamada): las
  anomalías que anotó el mundo, de la clase de la prueba.
- Las que miran lo que devuelve medir, con tareas de mentira cuyas ejecuciones acaban por
  orden (la k-ésima de una tarea, sea cual sea su modelo): motivos, cuentas e intervalo. Cada
  una mira solo lo suyo.
- Las que miran todo el contrato: tareas de mentira con destinos por semilla (modelos
  ruidosos de semillas conocidas), y tareas de tareas(n, semilla) con otra semilla que las de la
  lección, con el agente de «El agente y sus pruebas» y con uno con fallos, con ModeloRuidoso.
- Las de comparar: medidas hechas aquí (con motivo_de e intervalos dados), cada una sobre lo
  suyo; y una que mira todo: las dos medidas de verdad de arriba, hechas con el medir del
  lector, comparadas con su comparar.

Deja A_ESCRIBIR, PISTA y PRUEBAS.
"""

from runtime import MOTIVOS, tareas, usuario
from calificador import Fallo
from ..comun import breve, lanzo
from ..sueltas import del_lector
from .agentes import agente as agente_de_la_leccion, agente_con_fallos
from .comparaciones import (ANTES, DESPUES, INTERVALOS, comparado, de_lista, emparejadas,
                           separados_, una_medida)
from .comprobaciones import (Esperada, cada_una, cuales, cuenta, de_los_destinos, entero,
                             intervalo, motivos_de, tasa_, todo)
from .mundo import CLASES, Mundo
from .tareas_de_prueba import DESTINOS, Real, iguales, mentira

A_ESCRIBIR = {"medir": ("tareas", "agente", "hacer_modelo", "veces"),
              "comparar": ("antes", "despues")}

PISTA = (
    "Empieza con motivos = {m: 0 for m in MOTIVOS}. Para cada tarea y cada i en range(veces): "
    "modelo = hacer_modelo(tarea, i), entorno = dict(tarea.entorno), y dentro de un try la "
    "ejecución, agente(modelo, tarea.pedido, entorno, usuario(tarea)), y su motivo: \"tope\" si "
    "como es \"tope\", si no según tarea.comprobar(entorno, final); en el except Exception, "
    "\"error\". Al final, exitos = motivos[\"resuelta\"], n = len(tareas) * veces, y el "
    "intervalo acotado con max(0.0, …) y min(1.0, …); motivo_de[(t, i)] = motivo en cada "
    "ejecución, con t de enumerate(tareas). En comparar: primero, si set(antes[\"motivo_de\"]) "
    "!= set(despues[\"motivo_de\"]), ValueError; después, para cada clave de "
    "sorted(antes[\"motivo_de\"]), fue = antes[…][clave] == \"resuelta\" y es = despues[…][clave] "
    "== \"resuelta\"; separados si el alto de un intervalo es menor que el bajo del otro."
)

# ------------------------------------------------------------------ la medida y lo esperado


_DEL_MUNDO = object()


def medida(envio, mundo, tareas_=None, veces=_DEL_MUNDO):
    """(lo que devolvió medir, la excepción que salió de él o None), con el mundo (o con otras
    tareas o veces). Lo que sale que no es del lector (el límite de tiempo) sigue su camino."""
    medir = envio.funcion("medir")
    # Una lista nueva: el calificador deja las listas que recibe el lector con tipos exactos.
    lista = list(mundo.vistas) if tareas_ is None else tareas_
    try:
        r = medir(lista, mundo.agente, mundo.hacer_modelo,
                  mundo.veces if veces is _DEL_MUNDO else veces)
    except BaseException as error:
        if not del_lector(envio, error):
            raise
        mundo.cierra()
        return None, error
    mundo.cierra()
    return r, None


def mirada(envio, mundo, clases=()):
    """Mide y comprueba lo que no depende del resultado: una excepción del código del lector
    sigue su camino (es su error); después, la primera anomalía de `clases`; después, una
    excepción de una ejecución que salió de medir. Devuelve lo que devolvió medir."""
    r, escapada = medida(envio, mundo)
    if escapada is not None and mundo.lanzada(escapada) is None:
        raise escapada
    anomalia = mundo.primera(clases)
    if anomalia is not None:
        raise Fallo(anomalia)
    sin_escapar(mundo, escapada)
    return r


def sin_escapar(mundo, escapada):
    if escapada is None:
        return
    lanzada = mundo.lanzada(escapada)
    raise Fallo(f"En {lanzada.ejecucion}, {lanzada.quien} lanzó {lanzo(escapada)} y medir la "
                f"dejó salir: la medida se paró ahí. Una excepción en una ejecución la acaba en "
                f"«error», y medir sigue con la ejecución siguiente.") from None


# ------------------------------------------------------------------ cómo se mide


def cada_tarea_veces(envio):
    mundo = Mundo(iguales("resuelta", 2, 3), 3)
    mirada(envio, mundo, ("veces",))


def semillas(envio):
    mundo = Mundo(iguales("resuelta", 2, 3), 3)
    mirada(envio, mundo, ("semillas",))


def modelo_nuevo(envio):
    mundo = Mundo(iguales("resuelta", 3, 3), 3)
    mirada(envio, mundo, ("modelo",))


def entorno_nuevo(envio):
    mundo = Mundo([mentira(0, ["resuelta", "equivocada", "resuelta"]),
                   mentira(1, ["resuelta"] * 3), mentira(2, ["equivocada_texto"] * 3)], 3)
    mirada(envio, mundo, ("entorno",))


def usuario_de_la_tarea(envio):
    mundo = Mundo([mentira(0, ["resuelta"] * 3, ["sí"]), mentira(1, ["resuelta"] * 3, ["no"]),
                   mentira(2, ["resuelta"] * 3, [])], 3, pregunta=True)
    mirada(envio, mundo, ("usuario",))


def la_llamada(envio):
    mundo = Mundo(iguales("resuelta", 2, 2), 2)
    mirada(envio, mundo, ("llamada",))


# ------------------------------------------------------------------ los motivos


def motivos_de_un_mundo(tareas_, veces, orden):
    def prueba(envio):
        mundo = Mundo(tareas_(), veces)
        r = mirada(envio, mundo)
        cuenta(mundo, r, de_los_destinos(mundo), orden)
    return prueba


def el_tope():
    return [mentira(0, ["tope_hecha"] * 3, mira_el_texto=False), mentira(1, ["tope"] * 3),
            mentira(2, ["resuelta"] * 3)]


def contesta():
    return [mentira(0, ["resuelta"] * 3), mentira(1, ["equivocada_entorno"] * 3),
            mentira(2, ["equivocada_texto"] * 3), mentira(3, ["equivocada"] * 3)]


def errores():
    return [mentira(0, ["resuelta", "resuelta", "error_agente"]),
            mentira(1, ["tope", "resuelta", "error_modelo"]),
            mentira(2, ["resuelta", "resuelta", "error_comprobacion"])]


def errores_por_medio(envio):
    mundo = Mundo([mentira(0, ["resuelta", "error_agente", "resuelta"]),
                   mentira(1, ["error_modelo", "resuelta", "tope"]),
                   mentira(2, ["resuelta", "resuelta", "resuelta"])], 3)
    r = mirada(envio, mundo)
    for i, t in enumerate(mundo.tareas):
        hechas = [e for e in mundo.ejecuciones if e.tarea == i]
        error = next((e for e in hechas if DESTINOS[t.destino(mundo, e)] == "error"), None)
        if len(hechas) < mundo.veces and error is not None:
            raise Fallo(f"{str(error)[0].upper()}{str(error)[1:]} acabó en error, y después medir "
                        f"no ejecutó las siguientes de esa tarea: se ejecutó "
                        f"{len(hechas)} de {mundo.veces} veces. Un error acaba su ejecución, no "
                        f"la tarea ni la medida: cuenta «error» y sigue con la siguiente.")
    cuenta(mundo, r, de_los_destinos(mundo), ("error",))


def solo_exception(envio):
    mundo = Mundo([mentira(0, ["salida", "resuelta"])], 2)
    _r, escapada = medida(envio, mundo)
    if escapada is not None and mundo.lanzada(escapada) is None:
        raise escapada
    if escapada is None:
        primera = mundo.ejecuciones[0] if mundo.ejecuciones else "la primera ejecución"
        raise Fallo(f"En {primera}, agente lanzó SystemExit, y medir la atrapó y siguió: atrapa "
                    f"solo Exception (except Exception:). SystemExit no es un error de la "
                    f"ejecución, sino que algo quiere parar el programa (como el límite de tiempo "
                    f"de las pruebas, que tampoco es una Exception): debe salir de medir.")
    if type(escapada).__name__ != "SystemExit":
        sin_escapar(mundo, escapada)


# ------------------------------------------------------------------ las cuentas y el intervalo


def cuentas(envio):
    mundo = Mundo([mentira(0, ["resuelta"] * 3), mentira(1, ["equivocada"] * 3),
                   mentira(2, ["tope", "resuelta", "error_agente"])], 3)
    r = mirada(envio, mundo)
    esperadas = de_los_destinos(mundo)
    n = len(esperadas)
    resueltas = [e for e in esperadas if e.motivo == "resuelta"]
    ejecuciones = entero(r, "ejecuciones")
    if ejecuciones != n:
        raise Fallo(f"\"ejecuciones\" debía ser {n} (3 tareas × veces = 3) y es {ejecuciones}: "
                    f"cuenta todas, también las que acaban en «equivocada», «tope» o «error».")
    exitos = entero(r, "exitos")
    if exitos != len(resueltas):
        raise Fallo(f"\"exitos\" debía ser {len(resueltas)}, las ejecuciones «resuelta» "
                    f"({cuales(mundo, resueltas)}), y es {exitos}: cuenta solo las resueltas.")
    tasa_(r, len(resueltas), n)


def motivo_de_cada_una(envio):
    # Motivos en los que no se equivoca ningún error de otra cláusula (las equivocadas y los
    # topes con la tarea hecha los miran las pruebas de todo el contrato), y los errores al
    # final de cada tarea; 2 tareas × 3, para que (i, t) no sean las mismas claves que (t, i).
    mundo = Mundo([mentira(0, ["resuelta", "tope", "error_agente"]),
                   mentira(1, ["tope", "resuelta", "error_modelo"])], 3)
    r = mirada(envio, mundo)
    cada_una(mundo, r, de_los_destinos(mundo))


def motivos_con_ceros(envio):
    mundo = Mundo([mentira(0, ["resuelta"] * 2), mentira(1, ["tope"] * 2)], 2)
    r = mirada(envio, mundo)
    m = motivos_de(r)
    if sorted(m) != sorted(MOTIVOS):
        falta = [x for x in MOTIVOS if x not in m]
        sobra = [breve(x) for x in m if x not in MOTIVOS]
        que = (f"le falta {', '.join(falta)}" if falta else f"le sobra {', '.join(sobra)}")
        raise Fallo(f"\"motivos\" debe tener los cuatro motivos de MOTIVOS, {', '.join(MOTIVOS)}, "
                    f"y {que}: los que no salen van con 0 (aquí no hay ninguna equivocada ni "
                    f"ningún error).")
    for motivo in ("equivocada", "error"):
        if m[motivo] != 0:
            raise Fallo(f"motivos[\"{motivo}\"] debía ser 0 (ninguna ejecución acaba así) y es "
                        f"{m[motivo]}.")


def un_intervalo(medidas):
    """Una prueba del intervalo: para cada (tareas, veces), el de Wilson de sus resueltas."""
    def prueba(envio):
        for hacer, veces in medidas:
            mundo = Mundo(hacer(), veces)
            r = mirada(envio, mundo)
            n = len(mundo.tareas) * veces
            intervalo(r, sum(1 for e in de_los_destinos(mundo) if e.motivo == "resuelta"), n)
    return prueba


def pocas():
    return [mentira(0, ["resuelta"] * 3), mentira(1, ["resuelta", "tope", "tope"]),
            mentira(2, ["tope"] * 3)]


def dos_de_dos():
    return [mentira(0, ["resuelta", "resuelta"]), mentira(1, ["tope", "resuelta"])]


# ------------------------------------------------------------------ todo el contrato


def con_semillas():
    """Tareas de mentira cuyos modelos ruidosos acaban cada ejecución según su semilla."""
    return [
        mentira(0, ["resuelta", "equivocada_entorno", "tope_hecha", "error_modelo", "resuelta"],
                mira_el_texto=False),
        mentira(2, ["equivocada", "resuelta", "error_comprobacion", "resuelta", "tope"]),
        mentira(1, ["resuelta", "error_agente", "resuelta", "equivocada_texto", "resuelta"],
                ["no"]),
        mentira(4, ["resuelta", "tope", "resuelta", "resuelta", "equivocada"], []),
    ]


def de_mentira(envio):
    mundo = Mundo(con_semillas(), 5, por_semilla=True, respeta=True)
    r = mirada(envio, mundo, CLASES)
    todo(mundo, r, de_los_destinos(mundo))


#: Las tareas de verdad de las pruebas: otra semilla que la del banco (2027) y la de los datos
#: del modelo del curso (1); y cómo se equivocan sus modelos, más que los de la lección.
SEMILLA, N_TAREAS, VECES = 32, 5, 2
RUIDO = {"herramienta": 0.2, "argumentos": 0.2, "no_para": 0.4}


def de_verdad(agente):
    def prueba(envio):
        mundo = Mundo([Real(t, agente, RUIDO) for t in tareas(N_TAREAS, SEMILLA)], VECES)
        esperadas = medidas_aqui(tareas(N_TAREAS, SEMILLA), agente)
        r = mirada(envio, mundo, CLASES)
        todo(mundo, r, esperadas)
    return prueba


def medidas_aqui(lista, agente):
    """Cómo acaba cada ejecución de las tareas de verdad, medida aquí, con objetos nuevos."""
    esperadas = []
    for i, tarea in enumerate(lista):
        spec = Real(tarea, agente, RUIDO)
        for semilla in range(VECES):
            entorno = dict(tarea.entorno)
            try:
                como, final, _ = agente(spec.modelo(semilla), tarea.pedido, entorno,
                                        usuario(tarea))
                motivo = ("tope" if como == "tope" else
                          "resuelta" if tarea.comprobar(entorno, final) else "equivocada")
            except Exception:  # noqa: BLE001 - el motivo «error»
                motivo = "error"
            esperadas.append(Esperada(i, semilla, motivo))
    return esperadas


def comparadas(envio):
    """Las medidas de verdad de arriba (el agente de la lección y el de los fallos, con las
    mismas tareas y semillas), con el medir del lector, y su comparar de las dos."""
    medidas, esperadas = [], []
    for agente in (agente_de_la_leccion, agente_con_fallos):
        mundo = Mundo([Real(t, agente, RUIDO) for t in tareas(N_TAREAS, SEMILLA)], VECES)
        esperadas.append(medidas_aqui(tareas(N_TAREAS, SEMILLA), agente))
        medidas.append(mirada(envio, mundo, CLASES))
        todo(mundo, medidas[-1], esperadas[-1])
    antes, despues = ({(e.tarea, e.n): e.motivo for e in lista} for lista in esperadas)
    c = comparado(envio, *medidas)
    que = ("el agente de la lección (antes) y uno con fallos (despues), medidos con tu medir "
           "sobre las mismas tareas y semillas")
    emparejadas(c, antes, despues, que)
    separados_(c, medidas[0], medidas[1], que)


# ------------------------------------------------------------------ comparar


def arregla_y_rompe(envio):
    c = comparado(envio, una_medida(ANTES), una_medida(DESPUES))
    emparejadas(c, ANTES, DESPUES, "3 tareas × 3 ejecuciones")


def en_orden(envio):
    # las mismas medidas, con motivo_de en otro orden en cada una
    antes = dict(sorted(ANTES.items(), key=lambda kv: (-kv[0][1], kv[0][0])))
    despues = dict(sorted(DESPUES.items(), key=lambda kv: (kv[0][1], -kv[0][0])))
    c = comparado(envio, una_medida(antes), una_medida(despues))
    emparejadas(c, ANTES, DESPUES, "3 tareas × 3 ejecuciones, con motivo_de desordenado", True)


def separados(envio):
    for n, (a, d) in enumerate(INTERVALOS):
        antes = una_medida(ANTES, a)
        # con tasas distintas, salvo en el primer caso
        despues = una_medida(ANTES if n == 0 else DESPUES if n % 2 else de_lista(
            ["resuelta"] * 8 + ["tope"]), d)
        c = comparado(envio, antes, despues)
        separados_(c, antes, despues, f"antes[\"intervalo\"] = {a} y despues[\"intervalo\"] = {d}")


def otras_ejecuciones(envio):
    dos = {(t, i): "resuelta" for t in range(2) for i in range(2)}
    tres = {(t, i): "resuelta" for t in range(2) for i in range(3)}
    corridas = {(t, i + 1): "resuelta" for t in range(2) for i in range(2)}
    for antes, despues, que in [
            (dos, tres, "antes de 2 tareas × 2 ejecuciones y despues de 2 × 3"),
            (tres, dos, "antes de 2 tareas × 3 ejecuciones y despues de 2 × 2"),
            (dos, corridas, "antes con las semillas 0 y 1 y despues con las semillas 1 y 2")]:
        try:
            c = envio.funcion("comparar")(una_medida(antes), una_medida(despues))
        except ValueError as error:
            if "mismas" not in str(error).lower():
                raise Fallo(f"Con {que}, comparar lanzó ValueError, pero su mensaje, "
                            f"{breve(str(error))}, no dice qué pasa: que no son las mismas "
                            f"ejecuciones (que diga «mismas»).") from None
            continue
        except Exception as error:
            if del_lector(envio, error):
                raise Fallo(f"Con {que}, comparar lanzó {lanzo(error)}, y debía lanzar ValueError "
                            f"con un mensaje que diga que no son las mismas ejecuciones: "
                            f"compruébalo antes de comparar nada.") from None
            raise
        raise Fallo(f"Con {que}, comparar devolvió {breve(c)}: no son las mismas ejecuciones, y "
                    f"compararlas no dice nada del arnés. Lanza ValueError con un mensaje que lo "
                    f"diga.")


# ------------------------------------------------------------------ lo que no se puede medir


def no_mide(envio, mundo, tareas_, veces, que, porque, palabra):
    r, escapada = medida(envio, mundo, tareas_, veces)
    if escapada is None:
        raise Fallo(f"Con {que}, medir devolvió {breve(r)}: {porque}. Lanza ValueError con un "
                    f"mensaje que lo diga.")
    if not isinstance(escapada, ValueError):
        raise Fallo(f"Con {que}, medir lanzó {lanzo(escapada)}, y debía lanzar ValueError con un "
                    f"mensaje que diga que {porque}: compruébalo antes de medir nada.") from None
    if palabra not in str(escapada).lower():
        raise Fallo(f"Con {que}, medir lanzó ValueError, pero su mensaje, {breve(str(escapada))}, "
                    f"no dice qué pasa: que {porque} (que nombre «{palabra}»).") from None


def sin_tareas(envio):
    no_mide(envio, Mundo([], 3), [], 3, "tareas = [] (ninguna tarea)", "no hay tareas que medir",
            "tarea")


def veces_mal(envio):
    for veces in (0, -1, 2.5, "3", None):
        no_mide(envio, Mundo(iguales("resuelta", 2, 1), 1), None, veces, f"veces = {veces!r}",
                "veces debe ser un entero de 1 en adelante", "veces")


PRUEBAS = [
    ("cada tarea se ejecuta veces veces", cada_tarea_veces),
    ("la ejecución i de cada tarea usa hacer_modelo(tarea, i)", semillas),
    ("un modelo nuevo en cada ejecución", modelo_nuevo),
    ("cada ejecución empieza con un entorno nuevo, dict(tarea.entorno)", entorno_nuevo),
    ("cada ejecución pregunta al usuario de su tarea, usuario(tarea)", usuario_de_la_tarea),
    ("una ejecución es agente(modelo, tarea.pedido, entorno, preguntar)", la_llamada),
    ('una ejecución que llega al tope acaba en "tope", aunque la tarea quede hecha',
     motivos_de_un_mundo(el_tope, 3, ("tope", "resuelta", "equivocada", "error"))),
    ('una ejecución que contesta acaba en "resuelta" o "equivocada" según tarea.comprobar',
     motivos_de_un_mundo(contesta, 3, ("resuelta", "equivocada", "tope", "error"))),
    ('una excepción del agente, del modelo o de la comprobación acaba en "error"',
     motivos_de_un_mundo(errores, 3, ("error",))),
    ("tras un error, la medida sigue con la ejecución siguiente", errores_por_medio),
    ("solo se atrapa Exception: SystemExit sale de medir", solo_exception),
    ("exitos, ejecuciones y tasa", cuentas),
    ("motivos: los cuatro, con 0 los que no salen", motivos_con_ceros),
    ("motivo_de: cómo acabó cada ejecución, por (t, i)", motivo_de_cada_una),
    ("el intervalo de Wilson al 95 %, una tupla (bajo, alto)",
     un_intervalo([(dos_de_dos, 2), (pocas, 3)])),
    ("con 0 éxitos, el intervalo no baja de 0",
     un_intervalo([(lambda: iguales("tope", 1, 5), 5), (lambda: iguales("tope", 1, 1), 1)])),
    ("con todos los éxitos, el intervalo no pasa de 1",
     un_intervalo([(lambda: iguales("resuelta", 1, 5), 5),
                   (lambda: iguales("resuelta", 1, 19), 19)])),
    ("una medida con agentes de mentira y modelos de semillas conocidas: 4 tareas × 5",
     de_mentira),
    ("el agente de la lección 5 con ModeloRuidoso: tareas(5, 32) × 2",
     de_verdad(agente_de_la_leccion)),
    ("un agente con fallos con los mismos modelos: errores, equivocadas y topes",
     de_verdad(agente_con_fallos)),
    ("sin tareas: ValueError con un mensaje que lo diga", sin_tareas),
    ("veces que no es un entero de 1 en adelante: ValueError", veces_mal),
    ("comparar: arregla, las que pasan a resueltas, y rompe, las que dejan de estarlo",
     arregla_y_rompe),
    ("comparar: arregla y rompe van ordenadas", en_orden),
    ("comparar: separados, si los intervalos no se solapan ni se tocan", separados),
    ("comparar: solo medidas de las mismas ejecuciones; si no, ValueError", otras_ejecuciones),
    ("comparar dos medidas de tu medir: el agente de la lección y uno con fallos", comparadas),
]
