# `make run` and `make test` work from a clean clone: they create .venv and install
# the pinned versions from constraints.txt first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test bench lint screenshot clean

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=23"
	PIP_CONSTRAINT=$(CURDIR)/constraints.txt $(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: install
	$(VENV)/bin/tensor-lab $(ARGS)

test: install
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

screenshot: install
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/tensor-lab --screenshot resources/screenshots/main.png

clean:
	rm -rf $(VENV) build *.egg-info
