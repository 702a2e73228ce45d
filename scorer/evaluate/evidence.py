"""The model's evidence for the evaluation: each text scored once per model and context mode,
kept in a cache on disk (scoring five documents in both modes takes minutes; reading it back,
a moment).

The cache key holds the model's content hash (not its file name: two GGUFs of one name must not
share scores), its window, the engine version, the mode and the text.
Then every feature of every break (hybrid.evidence), with and without the PDF's geometry.
Does not: label, train or decide.
"""

import hashlib
import os
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from .. import __version__, hybrid
from ..breaks import candidates, line_pairs, percentiles
from .corpus import CACHE, Labelled

EVIDENCE_CACHE = CACHE.parent / "eval"


def cache_key(model, mode, text) -> str:
    """Which cached scores belong to (model content, window, engine, mode, text)."""
    parts = [__version__, model.info["sha256"], str(model.window), mode, text]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:24]


def scored(model, text, mode, cache=EVIDENCE_CACHE):
    """What the hybrid needs of a scored text (break offsets, P(newline), P(next), percentiles,
    P(newline) from the short window the text's weights read: hybrid.WINDOWS)."""
    from ..document import score

    path = cache / f"{cache_key(model, mode, text)}.npz"
    if path.is_file():
        got = np.load(path)
        logp_newline, logp_next = got["logp_newline"], got["logp_next"]
    else:
        doc = score(model, text, mode=mode, detail="breaks")
        logp_newline, logp_next = doc.logp_newline, doc.logp_next
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, logp_newline=logp_newline, logp_next=logp_next)
        os.replace(tmp, path)
    return SimpleNamespace(text=text, break_at=candidates(text), logp_newline=logp_newline,
                           logp_next=logp_next,
                           logp_window=(windowed(model, text, mode, hybrid.WINDOWS["text"], cache)
                                        if mode == "joined"
                                        else np.full(len(logp_newline), np.nan)),
                           percentile=percentiles(logp_newline), layout=None)


def windowed(model, text, mode, window, cache=EVIDENCE_CACHE) -> np.ndarray:
    """P(newline) read from the `window` tokens before every break (document.window_logps),
    cached as the whole pass is."""
    from ..document import window_logps

    path = cache / f"{cache_key(model, f'{mode} window {window}', text)}.npz"
    if path.is_file():
        return np.load(path)["logp_window"]
    with model.lock:
        logp_window = window_logps(model, text, window, mode)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, logp_window=logp_window)
    os.replace(tmp, path)
    return logp_window


@dataclass
class Prepared:
    doc: Labelled
    ev: dict  # feature name -> per-break values (with the PDF layout when there is one)
    ev_text: dict  # the same without the PDF layout (as if the text had been pasted)
    befores: list  # the line before each break
    joined: SimpleNamespace
    as_is: SimpleNamespace


def prepare(model, doc: Labelled) -> Prepared:
    joined, as_is = scored(model, doc.text, "joined"), scored(model, doc.text, "as-is")
    ev_text = hybrid.evidence(joined, as_is)
    ev = ev_text
    if doc.layout is not None:  # the PDF's weights read their own window
        ev = hybrid.evidence(SimpleNamespace(**{
            **vars(joined), "layout": doc.layout,
            "logp_window": windowed(model, doc.text, "joined", hybrid.WINDOWS["pdf"])}), as_is)
    befores = [b for b, _ in line_pairs(doc.text, joined.break_at)]
    return Prepared(doc, ev, ev_text, befores, joined, as_is)
