# «El bucle»: every target does its own set-up from a fresh clone, and a second run reuses it.
#   make serve   build the course and serve it on http://127.0.0.1:$(PORT)/, rebuilt on every save
#   make test    the whole test suite (unit, build, browser in Debian's Chromium, ruff's lint)
#   make html    build only            make bench   benchmarks, printed as a table
#   make mutantes  mutation testing of every challenge's reference (tests/mutantes/)
#   make adaptador  the in-page model's LoRA adapter, trained on the course's runs (about 1 h
#                on the CPU; entrenamiento/, writes widgets/datos/smollm2-135m-adaptador.*)
#   make grabaciones  record the real model in the page again: lesson 6's conversations
#                (runtime/grabacion.py) and lesson 7's bench (lessons/datos/banco-modelo-del-curso.json)
#   make clean   remove what the build made (make distclean also removes .venv and node_modules)

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
OUT := _build/html
CHROMIUM := /usr/bin/chromium
SPHINXOPTS ?=
PYTEST_ARGS ?=
# pytest-xdist processes for `make test` (each test file whole in one); 0: all in one (30 min here
# instead of 20)
PYTEST_WORKERS ?= 2
BENCH_ARGS ?=
LIGHTHOUSE := bench/lighthouse
NATIVO := .venv-nativo
MUTANTES := .venv-mutantes
ENTRENAR := .venv-entrenar
# arguments of `python -m entrenamiento.entrenar` (--ejecuciones N, --semilla S, --prueba…)
ADAPTADOR_ARGS ?=
# arguments of `python -m tests.mutantes` (challenge ids, -j N, --limite S)
MUTANTES_ARGS ?=

# (the grader's and the worker's Python are bundled into the page's worker too)
FRONT_SOURCES := $(shell find widgets/front -type f 2>/dev/null) $(wildcard widgets/calificador/*.py) \
	$(wildcard widgets/trabajador/*.py) widgets/construccion/empaquetar.mjs

.PHONY: serve html test bench mutantes adaptador grabaciones clean distclean setup bundle chromium

# The live preview (widgets/autor/vista.py): builds into _build/vista (without the offline worker),
# serves it, and builds again and reloads the open pages on every save. `make html` then
# `python -m widgets.serve _build/html` serves the site as it is published.
serve: setup
	$(PY) -m widgets servir lessons -c . --salida _build/vista --puerto $(PORT)

html: setup
	$(PY) -m sphinx -W --keep-going -q -b html -c . lessons $(OUT) $(SPHINXOPTS)
	@echo "Built $(OUT)/index.html"

test: setup chromium
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

bench: setup chromium $(LIGHTHOUSE)/node_modules/.stamp $(NATIVO)/.stamp
	$(PY) -m bench $(BENCH_ARGS)

# Native llama.cpp, for the bench only (the in-page model's floor): llama-cpp-python built from
# its pinned source distribution in a venv of its own, so that `make test` never builds it.
$(NATIVO)/.stamp: bench/nativo-requisitos.txt
	$(PYTHON) -m venv $(NATIVO)
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(NATIVO)/bin/pip install --quiet --disable-pip-version-check \
		--require-hashes -r bench/nativo-requisitos.txt
	touch $@

# Mutation testing of every challenge's reference: Cosmic Ray mutates a copy of each solucion.py
# (under _build/mutantes/) and the challenge's grader grades every mutant. Cosmic Ray lives in a
# venv of its own, pinned with hashes, so that `make test` never installs it.
mutantes: setup $(MUTANTES)/.stamp
	$(PY) -m tests.mutantes --cosmic-ray $(MUTANTES)/bin/cosmic-ray $(MUTANTES_ARGS)

$(MUTANTES)/.stamp: tests/mutantes/requisitos.txt
	$(PYTHON) -m venv $(MUTANTES)
	$(MUTANTES)/bin/pip install --quiet --disable-pip-version-check --require-hashes \
		-r tests/mutantes/requisitos.txt
	touch $@

# The in-page model's LoRA adapter (issue #42): SmolLM2-135M-Instruct's pinned GGUF, fetched and
# checked into _build/modelo/ as the build does (modelo_local.asegurar), tuned on the course's own
# runs, on the CPU. torch, transformers and peft live in a venv of their own, pinned with hashes,
# so that `make test` never installs them.
adaptador: setup $(ENTRENAR)/.stamp
	$(PY) -c 'from pathlib import Path; from widgets.construccion.modelo_local import asegurar; asegurar(Path("_build/modelo"))'
	$(ENTRENAR)/bin/python -m entrenamiento.entrenar $(ADAPTADOR_ARGS)

$(ENTRENAR)/.stamp: entrenamiento/requisitos.txt
	$(PYTHON) -m venv $(ENTRENAR)
	$(ENTRENAR)/bin/pip install --quiet --disable-pip-version-check --require-hashes \
		-r entrenamiento/requisitos.txt
	touch $@

# What the lessons show of the real model, recorded in Debian's Chromium on the pinned in-page model
# (bench/grabar.py and grabar_banco.py; a few minutes each on this machine's 2 CPUs).
grabaciones: setup chromium
	$(PY) -m bench.grabar
	$(PY) -m bench.grabar_banco

# Lighthouse, for the bench only: its own pinned package-lock.json, so that `make test`'s npm ci
# does not install it.
$(LIGHTHOUSE)/node_modules/.stamp: $(LIGHTHOUSE)/package.json $(LIGHTHOUSE)/package-lock.json
	cd $(LIGHTHOUSE) && npm ci --no-audit --no-fund
	touch $@

setup: $(VENV)/.stamp node_modules/.stamp widgets/static/.stamp

bundle: widgets/static/.stamp

# The pinned set, then the extension itself (editable: widgets/ as it is in this checkout, so the
# course's conf.py finds it like another author's would, with no sys.path of its own).
$(VENV)/.stamp: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The widgets' front end, bundled with esbuild (see widgets/construccion/empaquetar.mjs).
widgets/static/.stamp: node_modules/.stamp $(FRONT_SOURCES)
	rm -rf widgets/static
	node widgets/construccion/empaquetar.mjs widgets/static
	touch $@

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing Debian's chromium for the browser tests..."; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "The browser tests need Debian's Chromium at $(CHROMIUM): run 'sudo apt-get install -y chromium'." >&2; \
			exit 1; \
		fi; \
	fi

clean:
	rm -rf _build widgets/static tests/.artifacts build *.egg-info

distclean: clean
	rm -rf $(VENV) $(NATIVO) $(MUTANTES) $(ENTRENAR) node_modules $(LIGHTHOUSE)/node_modules
