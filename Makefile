# Two commands matter: `make run` and `make test`. Both build .venv from nothing.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
# The locked versions, with their hashes (docs/install.md): the build tools, the bot's
# dependencies, and those plus the dev tools. `make lock` writes them from pyproject.toml.
LOCK_BUILD := requirements/build.txt
LOCK_RUN   := requirements/run.txt
LOCK_DEV   := requirements/dev.txt
UV_COMPILE := $(PY) -m uv pip compile --quiet --generate-hashes --universal --python-version 3.11 --custom-compile-command "make lock"

# The web table's page (web/frontend, TypeScript): npm ci installs exactly package-lock.json,
# tsc checks the types, esbuild bundles web/static/app.js (not committed; Node 20+).
WEB_BUNDLE := web/static/app.js
WEB_SOURCES := $(wildcard web/frontend/src/*.ts) web/frontend/package-lock.json web/frontend/tsconfig.json

.PHONY: run test lint web typecheck bench bench-ai bench-e2e bench-scale clean install dev lock i18n-extract i18n-update i18n-check update-discord-spec

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --require-hashes -r $(LOCK_BUILD)

# Exactly the locked versions (every file checked against its hash), then the project itself
# on top without resolving anything again (--no-deps) and built with the locked setuptools.
$(VENV)/.installed: pyproject.toml $(LOCK_RUN) | $(PY)
	$(PIP) install --require-hashes -r $(LOCK_RUN)
	$(PIP) install --no-deps --no-build-isolation -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml $(LOCK_DEV) | $(PY)
	$(PIP) install --require-hashes -r $(LOCK_DEV)
	$(PIP) install --no-deps --no-build-isolation -e .
	@touch $@ $(VENV)/.installed

install: $(VENV)/.installed
dev: $(VENV)/.installed-dev

$(WEB_BUNDLE): $(WEB_SOURCES)
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || { echo "the web table needs Node 20 or newer (node --version)"; exit 1; }
	cd web/frontend && npm ci --no-audit --no-fund --loglevel=error && npm run --silent check && npm run --silent build
	@touch $@

web: $(WEB_BUNDLE)

run: $(VENV)/.installed $(WEB_BUNDLE)
	$(PY) -m bot

# Re-resolve the locks from pyproject.toml (and requirements/build.in) to the newest versions
# its ranges allow, for every platform and Python 3.11+; tests/test_lock.py checks they match.
lock: dev
	$(UV_COMPILE) requirements/build.in -o $(LOCK_BUILD)
	$(UV_COMPILE) pyproject.toml -o $(LOCK_RUN)
	$(UV_COMPILE) pyproject.toml --extra dev -o $(LOCK_DEV)

lint: dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: dev
	$(PY) -m mypy

# The suite runs in TEST_WORKERS processes (pytest-xdist; 0: in this one). Most of it waits
# on the simulator's real rate-limit windows, the bot's redelivery and subprocesses (the
# tests of tests/bot kept two workers on two cores busy a quarter of the time), so four
# workers shorten it on two cores (a third less wall time, measured on 2026-11-30); each
# test keeps its own simulator, SQLite file and PostgreSQL database, so workers share nothing.
TEST_WORKERS ?= 4

test: dev lint typecheck $(WEB_BUNDLE)
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

# Discord's OpenAPI description, pinned in discord_sim/discord-openapi.json.gz (its
# commit in discord-openapi.source.json): the simulator holds every request to it. This
# refreshes the copy from discord/discord-api-spec (DISCORD_SPEC_REF: a branch or tag;
# DISCORD_SPEC_REPOSITORY: another clone); then run the suite. The tests never fetch it.
DISCORD_SPEC_REPOSITORY ?= https://github.com/discord/discord-api-spec
DISCORD_SPEC_REF ?=
update-discord-spec: dev
	$(PY) -m discord_sim.update_spec --repository $(DISCORD_SPEC_REPOSITORY) $(if $(DISCORD_SPEC_REF),--ref $(DISCORD_SPEC_REF))

bench: dev
	$(PY) -m bench

# The strength ladder (docs/benchmarks/ai.md): the round robin of the levels, the frozen
# reference and the random player, 200 games a pairing, resumable from bench-ladder.jsonl
# (days at full strength on two cores: ARGS="lefe --games 20 --scale 0.1" for a look);
# then the Leiff bot seats against random seats (seconds).
bench-ai: dev
	$(PY) -m bench.ladder --record bench-ladder.jsonl $(ARGS)
	$(PY) -m bench.ai leiff

bench-e2e: dev
	$(PY) -m bench.e2e $(ARGS)
	$(PY) -m bench.budget

bench-scale: dev
	$(PY) -m bench.scale $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build *.egg-info
