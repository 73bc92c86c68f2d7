"""The in-page model's LoRA adapter, trained by a pinned script (issue #42): ``make adaptador``.

SmolLM2-135M-Instruct (the pinned Q4_1 GGUF of ``widgets/datos/modelo-fijado.txt``, its weights
dequantized) tuned with LoRA on the course's own runs: the reference agent of «El agente y sus
pruebas» over the generator's tasks, each request rendered as the page renders it for the model
(``runtime/entrenamiento.py``'s port of ``widgets/front/modelo/indicaciones.js``, then the GGUF's
ChatML template). It writes ``widgets/datos/smollm2-135m-adaptador.npz`` (the adapter) and
``.json`` (its manifest), which a later build step merges into the published GGUF.

- ``requisitos.txt``: torch (the CPU build on this machine's disk), transformers, peft, gguf,
  pinned with hashes; ``make adaptador`` installs them into ``.venv-entrenar``, never ``make test``.
- ``entrenar.py``: the command (``python -m entrenamiento.entrenar``).

This course's program, not the extension's: nothing in ``widgets/`` imports it (Sphinx and the
grader never load torch). It reads the pins and hashes files with
``widgets.construccion.fijados`` and loads the challenges' files with the grader's importer.
"""
