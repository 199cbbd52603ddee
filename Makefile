# Two commands for a new user: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-core test-gui install dev clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# A regular (non-editable) install: the tests run against the installed
# package, not the checkout.
install: $(PY)
	$(PY) -m pip install --quiet ".[test]"
	@touch $(STAMP)

run: install
	$(VENV)/bin/tsume-studio --sample

test: install
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

test-core: install
	$(PY) -m pytest -m "not gui" $(PYTEST_ARGS)

bench: install
	$(VENV)/bin/tsume bench tests/data/mate.tsv

dev: $(PY)
	$(PY) -m pip install --quiet -e ".[test]"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
