# Two commands do all the setup: `make play` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit bench strength clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/rummy simulate --rules basic --players 2 --games 20 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q -n 2 --cov --cov-report=term --cov-fail-under=90

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/solver.py

# Long: bot-vs-bot duplicate-deal tournaments (see benchmarks/strength.py --help).
strength: $(STAMP)
	$(BIN)/python benchmarks/strength.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .coverage
