"""Timing and choice scripts, each run as `python -m tests.perf.NAME` (not tests)."""

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def with_model(add=lambda parser: None) -> tuple:
    """(args, model): a script's command line, --model (a GGUF; default the packaged Gemma 3
    270M) and what `add(parser)` adds, then that model loaded."""
    from scorer.model import load_model

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    add(parser)
    args = parser.parse_args()
    return args, load_model(args.model)
