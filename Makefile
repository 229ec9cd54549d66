# Two commands matter: `make run` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q

.PHONY: run test lint typecheck bench bench-ai bench-e2e bench-scale clean install dev i18n-extract i18n-update i18n-check

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip setuptools wheel

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PIP) install -e '.[dev]'
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
dev: $(VENV)/.installed-dev

run: $(VENV)/.installed
	$(PY) -m bot

lint: dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: dev
	$(PY) -m mypy

# The suite runs in TEST_WORKERS processes (pytest-xdist; 0: in this one). Much of it waits
# on the simulator's real rate-limit windows, the bot's redelivery and subprocesses, so two
# workers shorten it even on two cores; each test keeps its own simulator, SQLite file and
# PostgreSQL database, so workers share nothing.
TEST_WORKERS ?= 2

test: dev lint typecheck
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal

# Message catalogues (docs/i18n.md): extract the ids the code names into
# i18n/locales/leafbot.pot; update merges them into every language's .po; check lists
# what is missing, stale, empty or fuzzy (the tests run the same check).
i18n-extract: dev
	$(PY) -m i18n extract

i18n-update: dev
	$(PY) -m i18n update

i18n-check: dev
	$(PY) -m i18n check

bench: dev
	$(PY) -m bench

bench-ai: dev
	$(PY) -m bench.ai --record bench-ai.jsonl $(ARGS)

bench-e2e: dev
	$(PY) -m bench.e2e $(ARGS)
	$(PY) -m bench.budget

bench-scale: dev
	$(PY) -m bench.scale $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build *.egg-info
