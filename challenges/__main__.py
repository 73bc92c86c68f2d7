"""``python -m challenges``: this course's submissions graded, each in its own process.

The extension's command (``python -m widgets calificar``, :mod:`widgets.autor.calificar`: its
usage, output and exit status) over this course's folders, under the course's own name.
"""

import sys

from widgets.autor.calificar import ejecutar

from . import curso

if __name__ == "__main__":
    sys.exit(ejecutar(sys.argv[1:], curso(), "python -m challenges"))
