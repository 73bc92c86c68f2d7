"""The build steps that are not directives: each page's assets, the reading time, the strict-CSP
pass, the theme in Spanish, the offline site, the in-page model, the pinned wheels (and
``fijados.py``, the one reader of every pin and the one SHA-256 of a file), the
JupyterLite notebooks, what is copied into the site; and the two Node scripts the build runs
(``empaquetar.mjs``, the bundle; ``manifiesto.mjs``, the service worker's list)."""
