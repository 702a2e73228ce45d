"""Every decision method on a labelled document: the baselines, the percentile, the trained
variants of the ablation, and the default (the shipped hybrid plus the forced keeps, exactly as
the engine decides: decide.py); cross-document transfer and the paired comparison.

Does not: fit weights (training.py) or label (labels.py).
"""

import time

import numpy as np

from .. import decide, hybrid
from ..baseline import TwoGram, plain
from . import peers
from .evidence import Prepared, prepare
from ..align import BREAK, WRAP
from .metrics import metrics
from .training import PDF_HYBRID, VARIANTS, train, without_spacing

def lr_decisions(weights, ev) -> list:
    """What a set of hybrid weights decides, with nothing forced."""
    return [decide.by_hybrid(q) for q in hybrid.p_join(weights, hybrid.matrix(ev, weights["features"]))]


DEFAULT = "DEFAULT: shipped hybrid + forced keeps"
PASTED = "DEFAULT on the text alone (pasted)"
FULL = "shipped hybrid + forced keeps, the model at every break (no cascade)"
STRESS = " [PDF without paragraph spacing]"


def engine_run(model, p: Prepared, layout=True) -> tuple:
    """(decisions, seconds per page) of the engine itself, as `merge` runs it: the PDF's pages
    read again (timed) and the text scored with the cascade (decide.detail_for), uncached;
    `layout=False`: the same text pasted. Seconds per page only for a PDF."""
    from ..document import score
    from ..pdf import read_pdf

    started = time.perf_counter()
    if p.doc.pdf is not None and layout:
        path, first, last, _ = p.doc.pdf
        read_pdf(path, max_pages=10_000, pages=(first, last))
    doc = score(model, p.doc.text, detail=decide.detail_for(decide.Policy()),
                layout=p.doc.layout if layout else None)
    seconds = time.perf_counter() - started
    pages = None if p.doc.pdf is None else p.doc.pdf[2] - p.doc.pdf[1] + 1
    return decide.of(doc), (seconds / pages if pages and layout else None)


def methods(p: Prepared, two_gram, trained, shipped, seconds=None, model=None) -> dict:
    """Every method's decisions on one document: name -> list of 'join'/'keep' per break;
    the peers' and the default's seconds per page go into `seconds` (name -> s). Without a
    model the default is left out (it is the engine's own run)."""
    pdf = p.doc.layout is not None
    offsets = p.joined.break_at
    forced = decide.forced_keeps(p.doc.text, offsets, p.doc.layout)

    def engine(ev, weights, pol=decide.Policy()):  # exactly what the engine decides
        probs = (hybrid.p_join(weights, hybrid.matrix(ev, weights["features"])) if weights
                 else np.zeros(len(offsets)))
        return decide.decisions(offsets, p.joined.percentile, probs, forced, pol)

    out = plain(p.befores, p.ev["fill"])
    if p.doc.pdf is not None:
        for name, (decisions, per_page) in peers.run(*p.doc.pdf, p.doc.text.split("\n")).items():
            out[name] = decisions
            if seconds is not None:
                seconds[name] = per_page
    if two_gram is not None:
        out["2-gram: line-final character"] = two_gram.decisions(p.befores)
    out["model as-is @34%"] = [decide.by_percentile(q) for q in p.as_is.percentile]
    out["model joined @34%"] = [decide.by_percentile(q) for q in p.joined.percentile]
    out["percentile mode (joined @34% + forced keeps)"] = engine(
        p.ev, None, decide.Policy("percentile"))
    for variant, weights in trained.items():
        if VARIANTS[variant][1] and not pdf:
            continue  # reads PDF layout: nothing to read in a text
        out[variant] = lr_decisions(weights, p.ev if VARIANTS[variant][1] else p.ev_text)
    if model is not None:
        out[DEFAULT], per_page = engine_run(model, p)
        if per_page is not None and seconds is not None:
            seconds[DEFAULT] = per_page
    out[FULL] = engine(p.ev, shipped["pdf" if pdf else "text"])
    if pdf:  # the same PDF, pasted as plain text; and as if it did not space its paragraphs
        if model is not None:
            out[PASTED] = engine_run(model, p, layout=False)[0]
        stressed = without_spacing(p.ev)
        out[DEFAULT + STRESS] = engine(stressed, shipped["pdf"])
        for variant in ("layout only: PDF + text cues", PDF_HYBRID):
            if variant in trained:
                out[variant + STRESS] = lr_decisions(trained[variant], stressed)
    return out


def cross_document(prepared) -> list:
    """The ablation once more, trained on one development document and tested on the other
    (English -> Chinese and back): how well each kind of evidence carries to a new document."""
    dev = [p for p in prepared if p.doc.split == "dev"]
    rows = []
    for train_on in dev:
        for test_on in dev:
            if test_on is train_on:
                continue
            for variant in VARIANTS:
                weights = train([train_on], variant)
                ev = test_on.ev if VARIANTS[variant][1] else test_on.ev_text
                rows.append({"document": f"{train_on.doc.lang} -> {test_on.doc.lang}",
                             "split": "cross", "lang": test_on.doc.lang, "method": variant,
                             **metrics(test_on.doc.labels, lr_decisions(weights, ev))})
    return rows


def paired(prepared, trained, a="layout only: PDF + text cues", b=PDF_HYBRID) -> list:
    """Break by break, per split and language: how many labelled breaks only `a` gets right and
    how many only `b` does (the model's contribution over the layout, without pooling noise)."""
    if a not in trained or b not in trained:
        return []
    out = {}
    for p in prepared:
        if p.doc.layout is None:
            continue
        acc = out.setdefault((p.doc.split, p.doc.lang), [0, 0])
        for label, x, y in zip(p.doc.labels, lr_decisions(trained[a], p.ev),
                               lr_decisions(trained[b], p.ev)):
            if label is not None and x != y:
                acc[(x == "join") != (label == WRAP)] += 1
    return [{"split": split, "lang": lang, "only_right": {a: n_a, b: n_b}}
            for (split, lang), (n_a, n_b) in out.items()]


def evaluate(model, docs) -> tuple:
    """(rows per document and method, the variants trained on the dev documents or {},
    the paired comparison of layout only and the hybrid)."""
    prepared = [prepare(model, doc) for doc in docs]
    has_dev = any(p.doc.split == "dev" for p in prepared)
    two_gram, trained = None, {}
    if has_dev:
        two_gram = TwoGram((b, lab == BREAK) for p in prepared if p.doc.split == "dev"
                           for b, lab in zip(p.befores, p.doc.labels) if lab is not None)
        trained = {v: train(prepared, v) for v in VARIANTS}
        rows = cross_document(prepared)
    else:
        rows = []
    shipped = hybrid.shipped()["sets"]
    for p in prepared:
        seconds = {}
        for method, decisions in methods(p, two_gram, trained, shipped, seconds, model).items():
            rows.append({"document": p.doc.name, "lang": p.doc.lang, "split": p.doc.split,
                         "method": method, **metrics(p.doc.labels, decisions)})
            if method in seconds:
                rows[-1]["seconds_per_page"] = round(seconds[method], 4)
    return rows, trained, paired(prepared, trained)
