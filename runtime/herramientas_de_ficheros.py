"""Las seis herramientas del agente que programa, como las ven el arnés y el modelo.

Se carga después de ficheros.py y deja en tu espacio de nombres:

- FUNCIONES_DE_FICHEROS: {nombre: función}, las cinco de ficheros.py y ejecutar_pruebas de
  pruebas_de_carpeta.py, como FUNCIONES de entorno.py: FUNCIONES_DE_FICHEROS[nombre](carpeta,
  **entrada).
- HERRAMIENTAS_DE_FICHEROS: sus definiciones para el modelo (nombre, descripción y esquema de la
  entrada), como HERRAMIENTAS de entorno.py; incumple(ll, HERRAMIENTAS_DE_FICHEROS) comprueba
  una llamada.
"""

# Usa, de los ficheros que se cargan antes (lo comprueba tests/test_disposicion.py):
#   pruebas_de_carpeta.py: ejecutar_pruebas
#   ficheros.py: LINEAS_POR_LECTURA, buscar_en, crear_fichero, editar, leer_lineas, listar_carpeta


FUNCIONES_DE_FICHEROS = {"leer_lineas": leer_lineas, "listar_carpeta": listar_carpeta,
                         "buscar_en": buscar_en, "editar": editar, "crear_fichero": crear_fichero,
                         "ejecutar_pruebas": ejecutar_pruebas}


def _esquema_de(requeridas, **propiedades):
    return {"type": "object", "properties": propiedades, "required": list(requeridas),
            "additionalProperties": False}


def _propiedad(tipo, descripcion):
    return {"type": tipo, "description": descripcion}


HERRAMIENTAS_DE_FICHEROS = [
    {"name": "leer_lineas",
     "description": f"Devuelve las líneas de un fichero de texto con su número delante, como "
                    f"mucho {LINEAS_POR_LECTURA} cada vez; una nota dice cómo pedir más.",
     "input_schema": _esquema_de(
         ["ruta"], ruta=_propiedad("string", "La ruta del fichero, como 'src/calculo.py'."),
         desde=_propiedad("integer", "La primera línea (desde 1). Si no se da, 1."),
         hasta=_propiedad("integer", "La última línea, incluida. Si no se da, hasta el final."))},
    {"name": "listar_carpeta",
     "description": "Lista lo que hay justo dentro de una carpeta, una entrada por línea. Las "
                    "subcarpetas acaban en '/'.",
     "input_schema": _esquema_de(
         [], carpeta=_propiedad("string", "La carpeta, como 'src'; '' (o nada) para la raíz."))},
    {"name": "buscar_en",
     "description": "Busca una expresión regular (de Python) en las líneas de los ficheros; "
                    "devuelve cada línea que coincide como 'ruta:línea: texto'.",
     "input_schema": _esquema_de(
         ["patron"], patron=_propiedad("string", "La expresión regular, como 'def suma'."),
         carpeta=_propiedad("string", "Dónde buscar: una carpeta o un fichero; '' para todo."))},
    {"name": "editar",
     "description": "Cambia en un fichero ya leído un texto que aparece una sola vez por otro, "
                    "y devuelve el diff.",
     "input_schema": _esquema_de(
         ["ruta", "viejo", "nuevo"],
         ruta=_propiedad("string", "La ruta del fichero."),
         viejo=_propiedad("string", "El texto exacto que se cambia, sin números de línea; "
                                    "tiene que aparecer una sola vez."),
         nuevo=_propiedad("string", "El texto que lo sustituye."))},
    {"name": "crear_fichero",
     "description": "Crea un fichero nuevo con su contenido. Nunca sobrescribe uno que existe.",
     "input_schema": _esquema_de(
         ["ruta", "contenido"], ruta=_propiedad("string", "La ruta del fichero nuevo."),
         contenido=_propiedad("string", "El texto completo del fichero."))},
    {"name": "ejecutar_pruebas",
     "description": "Ejecuta las pruebas unittest de la carpeta (test*.py) y devuelve cuántas "
                    "pasan y, de las que fallan, su nombre y su traceback.",
     "input_schema": _esquema_de([])},
]
