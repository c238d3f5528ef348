# `make run` and `make test` work from a clean clone: they create .venv and install
# the pinned versions from constraints.txt first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench screenshot clean translations

# Translations: resources/i18n/tensor_lab_<lang>.ts are the sources. The compiled .qm
# files are committed beside them, so a wheel builds without make; tests/test_i18n.py
# checks that each .qm is what lrelease makes of its .ts today.
I18N_TS := $(wildcard resources/i18n/*.ts)
I18N_SOURCES = $(sort $(shell find app widgets kernel protocol -name '*.py'))
LUPDATE_FLAGS := -tr-function-alias tr+=_tr -locations none -no-obsolete -source-language en

install: $(STAMP)

# Re-extract every UI text into the .ts files (translations already there are kept),
# then rebuild the .qm files.
translations: $(STAMP)
	$(VENV)/bin/pyside6-lupdate $(LUPDATE_FLAGS) $(I18N_SOURCES) -ts $(I18N_TS)
	for ts in $(I18N_TS); do $(VENV)/bin/pyside6-lrelease -silent $$ts -qm $${ts%.ts}.qm; done

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=23"
	PIP_CONSTRAINT=$(CURDIR)/constraints.txt $(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: install
	$(VENV)/bin/tensor-lab $(ARGS)

# The import contracts in pyproject.toml (the window, app and widgets, never imports torch or
# kernel; kernel never imports the window; protocol imports neither; no cycles; the core
# never imports Qt; the layers) and ruff.
lint: install
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .

test: lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# A benchmark, not a test: prints one table, writes bench.json (see tools/bench.py).
bench: install
	QT_QPA_PLATFORM=offscreen $(PY) tools/bench.py $(BENCH_ARGS)

screenshot: install
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/tensor-lab --screenshot resources/screenshots/main.png

clean:
	rm -rf $(VENV) build *.egg-info
