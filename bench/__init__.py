"""``make bench``: the course measured side by side with a bare Pyodide page, in one run.

    python -m bench [--runs 5] [--builds 5] [--lighthouse 5] [--sitio DIR]

``--lighthouse 0`` leaves Lighthouse out; ``--sitio`` measures a site already built (no build
times).

Builds the course (timing the build), serves it on 127.0.0.1 (:func:`widgets.serve.servir`, with
and without cross-origin isolation) next to a bare Pyodide page made here (:mod:`.desnuda`),
drives Debian's Chromium through Playwright (:mod:`.navegador`, with a proxy recorder like the
browser tests': every request that left 127.0.0.1 is printed, and there must be none), runs
Lighthouse (:mod:`.faro`) and prints one table (:mod:`.tabla`) of medians and ranges. Numbers
are printed, never asserted. BENCHMARKS.md says what each figure means.

Nothing here is a test: no file is named ``test_*.py``, so pytest (testpaths = tests) collects
nothing from this folder.
"""
