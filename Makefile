# Two entry points; each does all its own set-up on a fresh machine.
#   make run   — create .venv, install, run the main job (`loveformal verify`)
#   make test  — create/update .venv with the test extras, then ruff, mypy --strict, pytest
#                (on two worker processes, pytest-xdist)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,ray,pettingzoo,plot,openspiel]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP)

run: venv
	$(BIN)/loveformal verify

test: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict -p loveformal
	$(BIN)/mypy --strict tests bench
	$(BIN)/python -m pytest -q -n 2

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache .hypothesis
