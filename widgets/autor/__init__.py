"""What an author runs, as ``python -m widgets <orden>`` (:mod:`widgets.__main__`).

- :mod:`.nuevo`: ``nuevo <carpeta>`` writes a new course from :file:`plantilla/` (real files: a
  conf.py, an index, a lesson with a cell, a trace, a question and a challenge, a runtime, the
  pinned npm manifest and lockfile, a Makefile and a README), refusing a folder that is not empty;
- :mod:`.comprobar`: ``comprobar [carpeta]`` grades every challenge's reference (it passes),
  starter (it fails) and known-wrong solutions (each fails its named test), as the build does;
- :mod:`.vista`: ``servir [carpeta]`` builds, serves with the site's headers and, on every save,
  builds again and reloads the open pages (the live preview).
"""
