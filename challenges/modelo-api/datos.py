"""Los datos de las pruebas de «modelo-api»: las direcciones, las conversaciones M que se le
dan al adaptador, las herramientas y las respuestas del servidor falso, y el cuerpo que debe
enviar un adaptador correcto."""

import json

from runtime import llamada, resultado, SISTEMA_BUCLE, texto

#: Las direcciones de las pruebas: la que se le da al modelo, y las que da url_del_modelo().
URL = "http://servidor.de.prueba:8080/v1/messages"
URLS_DEL_CURSO = ["http://curso.de.prueba/modelo/v1/messages",
                  "http://curso.de.prueba/otra/v1/messages"]
ROLES = {"usuario": "user", "asistente": "assistant"}
#: Las cabeceras de una prueba: una clave, como la que pediría el servidor del lector.
CABECERAS = {"x-api-key": "clave-de-prueba"}

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


#: Con un salto de línea al final, como llega un texto leído de un fichero: va tal cual.
SISTEMA_CORTO = "Contesta en castellano y en una sola frase.\n"
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
