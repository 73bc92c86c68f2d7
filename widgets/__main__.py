"""``python -m widgets <orden>``: what an author of a course runs.

    python -m widgets nuevo <carpeta> [--titulo "…"]   un curso nuevo que se construye tal cual
    python -m widgets comprobar [carpeta]               los desafíos, como los comprueba la construcción
    python -m widgets calificar [--curso carpeta] <desafío> <archivos…> [--json | --csv]
    python -m widgets calificar [--curso carpeta] --progreso <progresos…> [--json | --csv]
                                                        califica envíos, cada uno en su proceso
    python -m widgets servir [fuente] [-c conf] [--salida …] [--puerto 8000]
                                                        vista previa: se reconstruye al guardar
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def argumentos(argv=None):
    p = argparse.ArgumentParser(prog="python -m widgets",
                                description="Las órdenes de quien escribe un curso con la extensión.")
    ordenes = p.add_subparsers(dest="orden", required=True, metavar="orden")
    nuevo = ordenes.add_parser("nuevo", help="escribe un curso nuevo, listo para construir")
    nuevo.add_argument("carpeta", type=Path, help="dónde (una carpeta que no existe, o vacía)")
    nuevo.add_argument("--titulo", help="el título del curso (por defecto, el de la carpeta)")
    comprobar = ordenes.add_parser("comprobar", help="comprueba los desafíos del curso")
    comprobar.add_argument("carpeta", type=Path, nargs="?", default=Path("."),
                           help="la carpeta de su conf.py (por defecto, esta)")
    # Listed here for the help; main() hands «calificar» its arguments before argparse reads them.
    ordenes.add_parser("calificar", help="califica envíos de los lectores, cada uno en su proceso")
    servir = ordenes.add_parser("servir", help="vista previa que se reconstruye al guardar")
    servir.add_argument("fuente", type=Path, nargs="?", default=Path("."),
                        help="la carpeta de las lecciones (por defecto, esta)")
    servir.add_argument("-c", dest="conf", type=Path, default=None,
                        help="la carpeta de conf.py (por defecto, la de las lecciones)")
    servir.add_argument("--salida", type=Path, default=None,
                        help="dónde construye (por defecto, _build/vista junto a conf.py)")
    servir.add_argument("--puerto", type=int, default=8000)
    return p.parse_args(argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["calificar"]:  # its own options (argparse's REMAINDER cannot take «--help»)
        from .autor.calificar import ejecutar
        return ejecutar(argv[1:])
    a = argumentos(argv)
    if a.orden == "nuevo":
        from .autor.nuevo import CarpetaOcupada, crear
        try:
            escritos = crear(a.carpeta, a.titulo)
        except CarpetaOcupada:
            print(f"{a.carpeta} ya existe y no está vacía: elige otra carpeta (no se ha escrito "
                  f"nada).", file=sys.stderr)
            return 2
        print(f"Curso nuevo en {a.carpeta}: {len(escritos)} archivos.\n\n"
              f"    cd {a.carpeta}\n    make serve    # vista previa en http://127.0.0.1:8000/\n")
        return 0
    if a.orden == "comprobar":
        from .autor.comprobar import comprobar
        if not (a.carpeta / "conf.py").is_file():
            print(f"No hay conf.py en {a.carpeta}: di la carpeta del curso.", file=sys.stderr)
            return 2
        return 1 if comprobar(a.carpeta) else 0
    from .autor.vista import principal
    conf = a.conf or a.fuente
    if not (conf / "conf.py").is_file():
        print(f"No hay conf.py en {conf}: di la carpeta del curso (o -c la de su conf.py).",
              file=sys.stderr)
        return 2
    return principal(a.fuente, a.conf, a.salida, a.puerto)


if __name__ == "__main__":
    sys.exit(main())
