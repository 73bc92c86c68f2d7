# La configuración de Sphinx de «__TITULO__»: las lecciones son los .md de esta carpeta.
#
#   make html    construye el sitio en _build/html (instala antes los paquetes de npm)
#   make serve   lo sirve en http://127.0.0.1:8000/ y lo vuelve a construir al guardar
#   make test    comprueba los desafíos y construye sin avisos
#
# Toda ruta de los ajustes «bucle_…» es relativa a esta carpeta.

project = "__TITULO__"
author = "Quien escribe el curso"
language = "es"
extensions = ["myst_parser", "widgets"]
myst_enable_extensions = ["colon_fence"]
root_doc = "index"
exclude_patterns = ["README.md"]

bucle_curso = "__CLAVE__"          # la clave del curso en el navegador del lector
bucle_runtime_dir = "runtime"      # el Python que carga el lector: se publica en runtime/
bucle_desafios_dir = "desafios"    # una carpeta por desafío
bucle_referencia = "primer-bucle"  # el desafío cuya solución ejecutan las trazas
