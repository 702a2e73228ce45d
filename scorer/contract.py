"""The data contract: a scored Document as JSON, written in pieces. Its one home.

The CLI, the batch and the web app all send what `iter_json` yields; the page's JSDoc typedef
(static/render.js) mirrors the shapes below.

  head     engine, model, mode, detail, settings, timings, stats, source (a PDF's: pages,
           empty_pages, unreadable_pages with their warnings: text left out, and the removed
           lines), text, sha256 (of the text: its key in a labels file, labelfile.py),
           scored_text, n_tokens, and the policy that decided: decider, cutoff, threshold,
           overrides
  Token    id; text (its bytes as text, or <0xNN> for bytes that are not whole UTF-8); hex (its
           exact bytes); logprob = log P(token | everything before it) (null for a first token
           without BOS); context (how many tokens that prediction saw); top (top-k
           alternatives as [text, logprob])
  Cell     one character ch; t = [first, last] token covering its bytes ([] when the model did
           not read it: a break in joined mode); logprob = the sum of those tokens' logprobs
           (a split character: the product of its byte tokens' probabilities); shared (a token
           that also covers a neighbouring character)
  Break    i (char offset of the newline); token (the row its evidence came from); logp = log
           P(newline here | text before), p, its percentile in the document (null with detail
           "cascade": no pass over the whole text); logp_next = log
           P(first token of the next line | text before); joiner; p_join and hybrid (the hybrid's
           P(join) and its decision); asked (the hybrid asked the model here: hybrid.asks) and
           logp_window (what it read then: log P(newline | the few tokens before it, read
           alone: stats.reading_window of them); null where not asked); evidence ([feature,
           value or null where not asked, contribution to the log-odds of joining]); forced
           ("keep" or "join" as the layout imposes, or null); layout (a PDF's features, or
           null); unhyphen (joined, the hyphen ending its line goes too: hyphen.py); decision
           and reason (by the policy in the head); context (the mode)

Streamed: tokens, cells and breaks one at a time, so a 100,000-character document is never held
twice in memory, and nothing is parsed back before it is sent.
Does not: compute or decide anything (document.py, decide.py).
"""

import json

import numpy as np

from . import __version__
from . import decide, hybrid
from .chars import label
from .inputs import text_hash


def iter_json(doc, pol=decide.Policy(), vocab=None, extra=None):
    """Yield `doc` as JSON text in pieces. vocab: token id -> bytes, to name the top-k
    alternatives (none without it); extra: more fields for the head (the batch's stamp)."""
    head = {
        "engine": {"name": "prefill-lens", "version": __version__},
        "model": doc.model_info,
        "mode": doc.mode,
        "detail": doc.detail,
        "settings": doc.settings,
        "timings": doc.timings,
        "stats": doc.stats,
        "decider": pol.by,
        "cutoff": pol.cutoff,
        "threshold": decide.THRESHOLD,
        "weights": hybrid.about(doc.weights),
        "overrides": {str(i): d for i, d in pol.overrides.items()},
        "source": doc.source,
        "text": doc.text,
        "sha256": text_hash(doc.text),
        "scored_text": doc.scored_text,
        "n_tokens": len(doc.ids),
        **(extra or {}),
    }
    yield json.dumps(head, ensure_ascii=False)[:-1]
    yield ', "tokens": ['
    for t in range(len(doc.ids)):
        yield ("," if t else "") + json.dumps(_token(doc, t, vocab), ensure_ascii=False)
    yield '], "cells": ['
    for i in range(len(doc.text)):
        yield ("," if i else "") + json.dumps(_cell(doc, i), ensure_ascii=False)
    yield '], "breaks": ['
    for k, decision in enumerate(decide.of(doc, pol)):
        yield ("," if k else "") + json.dumps(_break(doc, k, pol, decision), ensure_ascii=False)
    yield "]}"


def to_dict(doc, pol=decide.Policy(), vocab=None) -> dict:
    """The same as a dict (tests and small documents)."""
    return json.loads("".join(iter_json(doc, pol, vocab)))


def _token(doc, t, vocab):
    piece = doc.pieces[t]
    top = []
    if vocab is not None:
        top = [[label(vocab[int(i)]), _num(lp)]
               for i, lp in zip(doc.top_ids[t], doc.top_logprob[t]) if not np.isnan(lp)]
    ctx = int(doc.context[t])
    return {"id": int(doc.ids[t]), "text": label(piece), "hex": piece.hex(),
            "logprob": _num(doc.logprob[t]), "context": ctx if ctx >= 0 else None, "top": top}


def _cell(doc, i):
    first, last, lp, shared = doc.cells
    return {"ch": doc.text[i],
            "t": [int(first[i]), int(last[i])] if first[i] >= 0 else [],
            "logprob": _num(lp[i]),
            "shared": bool(shared[i])}


def _break(doc, k, pol, decision):
    i = doc.break_at[k]
    lp, pct, q = doc.logp_newline[k], doc.percentile[k], doc.p_join[k]
    return {"i": i, "token": doc.break_token[k],
            "logp": _num(lp), "p": _num(np.exp(lp)), "logp_next": _num(doc.logp_next[k]),
            "percentile": _num(pct, None), "joiner": doc.joins[k], "decision": decision,
            "reason": decide.reason(pol, decision, i, lp, pct, q, doc.forced, doc.evidence[k],
                                    bool(doc.asked[k])),
            "context": doc.mode,
            "forced": doc.forced.get(i, (None,))[0],
            "layout": doc.layout[k] if doc.layout is not None else None,
            "p_join": _num(q, None), "hybrid": decide.by_hybrid(q),
            "asked": bool(doc.asked[k]), "logp_window": _num(doc.logp_window[k]),
            "unhyphen": bool(doc.unhyphen and doc.unhyphen[k]),
            "evidence": doc.evidence[k]}


def _num(x, digits=5):
    """A float for JSON: None for NaN, +-1e30 for infinities, rounded unless digits is None
    (numbers the page compares with a cutoff or threshold go exact, so that it decides alike)."""
    x = float(x)
    if np.isnan(x):
        return None
    if np.isinf(x):
        return -1e30 if x < 0 else 1e30
    return x if digits is None else round(x, digits)
