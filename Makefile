# Two commands do all the setup: `make play` and `make test`.
# `make check` is the fast tier a developer runs before each commit (lint, types and the
# tests not marked `slow`, `web_slow` or `peers`: about a minute on 2 cores); `make test`
# is the full suite CI runs, slow tests included (docs/architecture.md, "Tests").
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The pure core, whose branch coverage must stay at 95% or more.
CORE := */rummykit/cards.py,*/rummykit/rules.py,*/rummykit/melds.py,*/rummykit/table.py,*/rummykit/moves.py,*/rummykit/state.py,*/rummykit/knock.py,*/rummykit/variants/*.py,*/rummykit/game.py,*/rummykit/phase.py,*/rummykit/player_view.py,*/rummykit/scoring.py,*/rummykit/view.py,*/rummykit/notation.py,*/rummykit/serialize.py,*/rummykit/solver.py,*/rummykit/errors.py,*/rummykit/position.py,*/rummykit/invariants.py
BENCH := .venv-bench
BENCH_STAMP := $(BENCH)/.installed

.PHONY: play check test lint typecheck unit browser bench peers strength strength-hard clean

# `make play` installs what playing needs and nothing else; `make test` adds the dev set
# (linters, browsers' driver, PostgreSQL's driver, Ray).
RUN_STAMP := $(VENV)/.runtime

$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

play: $(RUN_STAMP)
	$(BIN)/rummy play

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Debian's Chromium for the web tests (never `playwright install`); PostgreSQL's server
# binaries for the storage and crash tests; HAProxy for the deployment test, which runs
# its own instance in the foreground (tests/support/web_helpers.py haproxy).
browser:
	test -x /usr/bin/chromium || (apt-get update -qq && apt-get install -y -qq chromium)
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		(apt-get update -qq && apt-get install -y -qq postgresql)
	test -x /usr/sbin/haproxy || (apt-get update -qq && apt-get install -y -qq haproxy)

unit: $(STAMP) browser
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -n 2 -m "not peers" --cov --cov-report=term --cov-fail-under=90
	$(BIN)/coverage report --fail-under=95 --include="$(CORE)" > /dev/null \
		|| (echo "branch coverage of the core is under 95%"; exit 1)

test: lint typecheck unit

# The fast tier: no browser, PostgreSQL, HAProxy, server subprocess, Ray, whole-game or
# long property test, nothing over a second (those carry the `slow` or `web_slow`
# marker: pyproject.toml, tests/conftest.py).
check: lint typecheck
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -n 2 -m "not web_slow and not slow and not peers"

# The peers (open-spiel, rlcard) live only in this separate benchmark environment.
$(BENCH_STAMP): pyproject.toml
	test -x $(BENCH)/bin/python || $(PY) -m venv $(BENCH)
	$(BENCH)/bin/python -m pip install -q --upgrade pip
	$(BENCH)/bin/python -m pip install -q -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(STAMP) $(BENCH_STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/solver.py
	$(BENCH)/bin/python benchmarks/peers.py
	$(BENCH)/bin/python benchmarks/gin_crosscheck.py --hands 2000 --json benchmarks/results/gin_crosscheck.json
	$(BIN)/python benchmarks/legality.py

# Cross-engine tests against OpenSpiel and RLCard (not part of `make test`).
peers: $(BENCH_STAMP)
	$(BENCH)/bin/pytest -q -m peers -o addopts= tests/env/test_peers.py tests/env/test_openspiel.py

# Long: bot-vs-bot duplicate-deal tournaments (see benchmarks/strength.py --help).
strength: $(STAMP)
	$(BIN)/python benchmarks/strength.py
	$(BIN)/python benchmarks/contract_play.py --matches 24

# Longer still: hard (1 CPU-second per move) against medium on 1,000 single-round
# duplicate deals of each preset, one process per preset.  Journaled: run it again to
# resume; `benchmarks/strength.py --report --out hard1cpu` tabulates what is done.
HARD_RUN := --only ismcts-expert --deals-per-match 1 --ismcts-deals 1000 --ismcts 1cpu \
	--workers 1 --journal --out hard1cpu
strength-hard: $(STAMP)
	$(BIN)/python benchmarks/strength.py $(HARD_RUN) --presets basic & \
	$(BIN)/python benchmarks/strength.py $(HARD_RUN) --presets rami51 & wait

clean:
	rm -rf $(VENV) $(BENCH) .mypy_cache .ruff_cache .coverage
