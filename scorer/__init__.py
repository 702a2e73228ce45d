"""Prefill Lens engine: one prefill pass of a small GGUF model -> where a line break is a layout wrap.

The package is a pure library (it never imports Flask). The pieces, one concern per file:
  model.py     find and load a GGUF model, one lock per model
  prefill.py   one prefill pass in windows; per-token log-probabilities, memory bounded
  chars.py     byte-level tokens <-> whole characters (cells)
  breaks.py    newline candidates, joiners, percentiles, decisions, merging
  hybrid.py    the default decider: logistic regression over model and layout evidence
  baseline.py  keep-all, join-all, layout rules, the 2-gram statistics (for comparison)
  document.py  text -> Document (tokens, cells, breaks) and its JSON form
  service.py   a loaded model + a bounded cache of scored documents (what servers call)
  pdf.py       PDF -> lines with layout, running headers/footers, tables, break features
  batch.py     many files -> merged text + scores, atomic and resumable, worker processes
  bench.py     our prefill next to bare llama.cpp on the same tokens
  atomic.py    write a file atomically
  evaluate.py  labelled breaks (Debian PDFs + their plain-text twins), every method, training
  cli.py       `python -m scorer ...`
"""

__version__ = "0.1.0"


class ScorerError(Exception):
    """An error whose message is safe and useful to show to a user (no traceback needed)."""


class ModelUnavailable(ScorerError):
    """The model could not be found or loaded (a server answers 503, not 400)."""
