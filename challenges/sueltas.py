"""Lo que comparten las pruebas de una llamada suelta (el ejecutar del lector, sin bucle): las de
«ejecutar-llamada», «errores-como-observaciones» y «pedir-permiso».

- OTRO_ENTORNO: un entorno como ENTORNO, pero con otros ficheros.
- cargar(envio), del_lector(envio, error): la función ejecutar del lector, y si una excepción
  la lanzó su código.
- cambiar(espacio, cambios), espiar(espacio), espiado(envio), contadas(espacio): herramientas
  cambiadas en el espacio del lector; una_sola_vez(llamadas, entorno, deja): la prueba de que
  cada llamada corre su herramienta una vez; sale_bien(llamadas, comprueba, ...): la de que
  llamadas que salen bien dan lo esperado; escribir_con_fallo: una herramienta con un fallo de
  programación.
- motivo_de(ll), es_tool_result(...), sin_nada_de_mas(...): piezas de las comprobaciones.
"""

import copy as copia

from runtime import FUNCIONES, incumple, muestra
from calificador import Fallo, opaca
from .comun import breve, entorno_distinto, lanzo

#: El entorno de las pruebas de llamadas sueltas: como ENTORNO, pero con otros ficheros.
OTRO_ENTORNO = {
    "lista.txt": "arroz, aceite, sal",
    "notas.txt": "El martes viene la abuela.\nMenú: lentejas y ensalada.",
    "recetas/lentejas.txt": "Lentejas: lentejas, chorizo, patatas, cebolla.",
    "recetas/ensalada.txt": "Ensalada: lechuga, tomate, cebolla.",
    "compra/martes.txt": "lentejas, chorizo",
}


def cargar(envio):
    """La función ejecutar del lector, en un espacio nuevo (su espacio: ejecutar.espacio)."""
    return envio.funcion("ejecutar")


def del_lector(envio, error):
    """¿Lanzó `error` el código del lector? (Si no, es un veredicto del calificador, como el
    límite de tiempo, y la prueba lo deja pasar.)"""
    return envio.lanzada is not None and envio.lanzada[0] is error


def cambiar(espacio, cambios):
    """Cambia herramientas del espacio del lector, {nombre: nueva}, en FUNCIONES y en los
    nombres sueltos que apuntan a la misma función. Devuelve la función que lo restaura.
    (Las nuevas van opacas: desde ellas, el lector no llega a las pruebas.)"""
    cambios = {nombre: opaca(nueva, nombre) for nombre, nueva in cambios.items()}
    hechos = []
    funciones = espacio.get("FUNCIONES")
    originales = dict(funciones) if isinstance(funciones, dict) else {}
    for nombre, nueva in cambios.items():
        if nombre in originales:
            hechos.append((funciones, nombre, originales[nombre]))
            funciones[nombre] = nueva
            for global_, valor in list(espacio.items()):
                if valor is originales[nombre]:
                    hechos.append((espacio, global_, valor))
                    espacio[global_] = nueva

    def restaurar():
        for dicc, clave, valor in reversed(hechos):
            dicc[clave] = valor
    return restaurar


def espiar(espacio):
    """Cambia todas las herramientas por espías que anotan su nombre y no hacen nada.
    Devuelve (anotadas, restaurar)."""
    anotadas = []

    def espia(nombre):
        def herramienta(*args, **kwargs):
            anotadas.append(nombre)
            return ""
        return herramienta
    return anotadas, cambiar(espacio, {n: espia(n) for n in FUNCIONES})


def espiado(envio):
    """(ejecutar, anotadas, restaurar): la función ejecutar del lector en un espacio nuevo
    cuyas herramientas son espías (véase espiar)."""
    ejecutar = cargar(envio)
    anotadas, restaurar = espiar(ejecutar.espacio)
    return ejecutar, anotadas, restaurar


def contadas(espacio):
    """Cambia todas las herramientas por unas que anotan su nombre cada vez que corren y hacen
    lo de siempre (con la herramienta de las pruebas). Devuelve (corridas, restaurar)."""
    corridas = []

    def contada(nombre):
        herramienta = FUNCIONES[nombre]

        def corre(*args, **kwargs):
            corridas.append(nombre)
            return herramienta(*args, **kwargs)
        return corre
    return corridas, cambiar(espacio, {n: contada(n) for n in FUNCIONES})


def una_sola_vez(llamadas, entorno_inicial, deja=()):
    """La prueba de que ejecutar corre la herramienta de cada llamada una sola vez: ni antes
    para probarla, ni otra vez para reintentar o para enseñar lo que devuelve. Las llamadas
    van en orden sobre el mismo entorno; lo que lance ejecutar de las clases `deja` no cuenta
    (en «Llamar a herramientas», los errores de la herramienta salen tal cual)."""
    def prueba(envio):
        ejecutar = cargar(envio)
        corridas, restaurar = contadas(ejecutar.espacio)
        entorno = dict(entorno_inicial)
        try:
            for ll in llamadas:
                del corridas[:]
                try:
                    ejecutar(copia.deepcopy(ll), entorno)
                except deja:
                    pass
                if corridas != [ll["name"]]:
                    raise Fallo(corrio_mal(ll, list(corridas)))
        finally:
            restaurar()
    return prueba


def sale_bien(llamadas, comprueba, entorno_inicial=OTRO_ENTORNO, *, escapan=(),
              ENTORNO_intacto=False, pista=""):
    """La prueba de llamadas que salen bien, una tras otra sobre el mismo entorno (una copia de
    `entorno_inicial`), con el ejecutar del lector: comprueba(ll, llamar, esperado) calcula lo
    esperado sobre `esperado` (el entorno de un arnés correcto, que cambia como en la
    conversación), llama a ejecutar con llamar() y lanza Fallo si no da lo esperado. Al acabar,
    el entorno que recibió ejecutar debe ser ese.

    Lo que cambia de un desafío a otro: `escapan`, las excepciones que no debían salir de
    ejecutar («Errores como observaciones»: OSError y ValueError); ENTORNO_intacto, si se mira
    que ejecutar no cambió ENTORNO («Llamar a herramientas»); `pista`, lo que sigue al mensaje de
    un entorno final que no es el esperado."""
    def prueba(envio):
        ejecutar = cargar(envio)
        ejemplo = copia.deepcopy(ejecutar.espacio.get("ENTORNO")) if ENTORNO_intacto else None
        entorno = dict(entorno_inicial)
        esperado = dict(entorno_inicial)
        for k, ll in enumerate(llamadas, start=1):
            try:
                comprueba(ll, lambda: ejecutar(copia.deepcopy(ll), entorno), esperado)  # noqa: B023
            except escapan as escapado:
                raise Fallo(f"En la llamada {k} de {len(llamadas)}, que debía salir bien: "
                            f"de ejecutar salió {lanzo(escapado)}.") from None
            except Fallo as f:
                if len(llamadas) > 1:
                    raise Fallo(f"En la llamada {k} de {len(llamadas)}: {f.mensaje}") from None
                raise
        if ENTORNO_intacto and ejecutar.espacio.get("ENTORNO") != ejemplo:
            raise Fallo("ejecutar cambió ENTORNO, los ficheros de ejemplo. Trabaja sobre "
                        "`entorno`, el diccionario que recibe: es el de esta conversación.")
        if entorno != esperado:
            despues = "la llamada" if len(llamadas) == 1 else f"las {len(llamadas)} llamadas"
            raise Fallo(f"Después de {despues}, el entorno que recibió ejecutar no es el "
                        f"esperado: {entorno_distinto(esperado, entorno)}.{pista}")
    return prueba


def corrio_mal(ll, corridas):
    con = f"Con {muestra(ll)}, "
    if not corridas:
        return (f"{con}ejecutar no corrió {ll['name']}: usa la herramienta de "
                f"FUNCIONES[ll[\"name\"]].")
    otras = sorted(set(corridas) - {ll["name"]})
    if otras:
        return (f"{con}ejecutar corrió también {', '.join(otras)}: solo se ejecuta la "
                f"herramienta que pide la llamada.")
    return (f"{con}ejecutar corrió {ll['name']} {len(corridas)} veces para una sola llamada. "
            f"Cada llamada del modelo se ejecuta una vez: probarla antes en una copia, "
            f"reintentarla o volver a llamarla para enseñar lo que devuelve hace dos veces lo "
            f"que el modelo pidió una (y escribir, dos veces, no es lo mismo que una).")


def escribir_con_fallo(entorno, ruta, contenido):
    """escribir con un fallo de programación: suma un texto y un número (TypeError)."""
    entorno[ruta] = contenido
    return "escrito " + ruta + " (" + len(contenido) + " caracteres)"


def motivo_de(ll):
    """Por qué `ll` no encaja con su esquema: la prueba que la usa necesita que no encaje."""
    motivo = incumple(ll)
    if motivo is None:
        raise ValueError(f"la prueba necesita una llamada que no encaje: {muestra(ll)}")
    return motivo


def es_tool_result(ll, devuelto, nada, texto, debe):
    """Fallo si `devuelto` no es un bloque tool_result que responde a la llamada `ll`. Lo que
    cambia de un desafío a otro: nada, qué hacer si devolvió None; texto(devuelto), el mensaje
    si devolvió un texto; debe, lo que ejecutar debe devolver."""
    con = f"Con {muestra(ll)}, "
    if devuelto is None:
        raise Fallo(f"{con}ejecutar no devolvió nada (None): {nada}")
    if isinstance(devuelto, str):
        raise Fallo(con + texto(devuelto))
    if not isinstance(devuelto, dict) or devuelto.get("type") != "tool_result":
        raise Fallo(f"{con}ejecutar devolvió {breve(devuelto)} y debe devolver {debe}.")
    if devuelto.get("tool_use_id") != ll["id"]:
        raise Fallo(f"{con}el tool_result lleva tool_use_id {devuelto.get('tool_use_id')!r} y "
                    f"debía llevar {ll['id']!r}, el id de la llamada: usa ll[\"id\"].")


def sin_nada_de_mas(ll, devuelto, esperado, hazlo):
    """Fallo si el tool_result `devuelto` trae claves o valores que `esperado` no tiene."""
    if {**esperado, **devuelto} != esperado:
        raise Fallo(f"Con {muestra(ll)}, el tool_result debía ser {breve(esperado)} y es "
                    f"{breve(devuelto)}: hazlo con {hazlo}.")
