"""One module per directive: its node, its directive class and its ``setup_<nombre>(app)``
(with, beside a directive, the pure logic only it uses: ``predice`` for ``traza``,
``preguntas_validacion`` for ``pregunta``). A directive imports only shared modules
(``widgets.base``, ``widgets.ajustes``, the grader, a build step's data), never another
directive."""
