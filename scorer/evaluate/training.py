"""Training: the hybrid's variants fitted on the labelled breaks of the development documents
only, and the shipped weights (scorer/hybrid.json) written from them by `eval --train`.

Does not: look at the held-out documents.
"""

import json

import numpy as np

from .. import decide, hybrid
from ..atomic import write_atomic
from .corpus import SPLITS
from .manpages import PAGES as MAN_PAGES
from .typeset import SOURCES as TYPESET_SOURCES, STYLES
from ..align import WRAP

# Trained variants (on the development documents, in the same run): which evidence each uses and
# whether it reads the PDF's layout. The hybrid's two shipped weight sets are "hybrid: text cues
# + model" (for text) and "hybrid: PDF + text cues + model" (for PDFs).
TEXT_HYBRID, PDF_HYBRID = "hybrid: text cues + model", "hybrid: PDF + text cues + model"
VARIANTS = {  # name -> (features, uses the PDF layout)
    "model only: percentile": (("newline_pct",), False),
    "model only: raw log P(newline)": (("logp_newline",), False),
    f"model only: log P(newline) from the {hybrid.WINDOWS['text']} tokens before": (
        ("logp_window",), False),
    "model only: all its evidence (percentile, raw, next-line surprise, window)": (
        hybrid.ALL_MODEL, False),
    "layout only: text cues": (hybrid.TEXT_LAYOUT + hybrid.TEXT_ALONE, False),
    TEXT_HYBRID: (hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.TEXT_ALONE, False),
    "layout only: PDF + text cues": (hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
    PDF_HYBRID: (hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
    "hybrid: PDF + text cues + all model evidence + as-is P(newline)": (
        hybrid.ALL_MODEL + ("newline_pct_as_is",) + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
}


def without_spacing(ev: dict) -> dict:
    """The evidence of a PDF that puts no extra space between paragraphs (every gap usual)."""
    return {**ev, "gap": np.zeros_like(ev["gap"])}


def train(prepared, variant) -> dict:
    """Fit one variant on the labelled breaks of the development documents. A variant that
    reads the PDF layout also sees each document once more without paragraph spacing, so
    that it does not take "no extra gap" for "a wrap" in PDFs that never space paragraphs.
    The model features' usual range on those breaks goes along (the cascade: hybrid.asks).
    With two dev documents or more, its P(join) is calibrated (`calibrated`)."""
    names, pdf = VARIANTS[variant]
    dev = [p for p in prepared if p.doc.split == "dev"]
    weights = fit_on(dev, names, pdf)
    if len(dev) < 2:
        return weights
    return calibrated(weights, temperature(*left_out_log_odds(dev, names, pdf)))


def fit_on(prepared, names, pdf) -> dict:
    """The hybrid on the features `names` fitted on the labelled breaks of `prepared`: with a
    PDF's layout and once more without its paragraph spacing when `pdf`, else as text alone."""
    X, y = [], []
    for p in prepared:
        views = [p.ev, without_spacing(p.ev)] if pdf and p.doc.layout is not None else [p.ev_text]
        for ev in views:
            for row, label in zip(hybrid.matrix(ev, names), p.doc.labels):
                if label is not None:
                    X.append(row)
                    y.append(1.0 if label == WRAP else 0.0)
    X = np.array(X)
    return {"features": list(names), **hybrid.fit(X, np.array(y)),
            "model_range": hybrid.model_range(dict(zip(names, X.T)), names)}


def weighed(p, weights, pdf) -> tuple:
    """Prepared document `p` weighed as the engine weighs it, as a PDF (its layout) or pasted:
    (forced keeps, free: bool per break the layout does not force, asked: where the cascade
    asks the model, P(join), each feature's contribution)."""
    layout, ev = (p.doc.layout, p.ev) if pdf else (None, p.ev_text)
    forced = decide.forced_keeps(p.doc.text, p.joined.break_at, layout)
    free = np.array([i not in forced for i in p.joined.break_at], dtype=bool)
    asked = hybrid.asks(weights, ev) & free
    return (forced, free, asked, *hybrid.weigh(weights, ev, asked))


def engine_log_odds(p, weights, pdf) -> tuple:
    """(log-odds of joining, truth: 1 = a wrap) at the labelled breaks of prepared document `p`
    the layout does not force, weighed as the engine weighs them (weighed)."""
    _, free, _, _, parts = weighed(p, weights, pdf)
    keep = [k for k, label in enumerate(p.doc.labels) if label is not None and free[k]]
    truth = np.array([1.0 if p.doc.labels[k] == WRAP else 0.0 for k in keep])
    return weights["intercept"] + parts[keep].sum(axis=1), truth


def left_out_log_odds(prepared, names, pdf) -> tuple:
    """engine_log_odds of every document of `prepared` (those with a PDF's layout when `pdf`)
    with weights fitted on the others: how the hybrid meets a document it was not fitted on."""
    pairs = [engine_log_odds(p, fit_on(prepared[:k] + prepared[k + 1:], names, pdf), pdf)
             for k, p in enumerate(prepared) if not pdf or p.doc.layout is not None]
    return np.concatenate([z for z, _ in pairs]), np.concatenate([y for _, y in pairs])


TEMPERATURES = np.exp(np.linspace(np.log(0.25), np.log(8.0), 401))


def temperature(z, y) -> float:
    """The T by which dividing the log-odds `z` gives the least log loss against `y`: above 1
    when the fit is over-confident on documents it did not see (one scale for every break:
    decisions at P(join) 0.5 stay as they are)."""
    z, y = np.asarray(z, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if not len(z):
        return 1.0
    q = z[None, :] / TEMPERATURES[:, None]
    loss = np.logaddexp(0, q) - y * q  # -log P(truth), stable for any q
    return float(TEMPERATURES[np.argmin(loss.mean(axis=1))])


def calibrated(weights, t) -> dict:
    """`weights` with the log-odds divided by `t` (intercept and every weight: what the page
    shows as each feature's share stays the sum it explains); `t` is kept as "temperature"."""
    return {**weights, "intercept": weights["intercept"] / t,
            "coef": [c / t for c in weights["coef"]], "temperature": t}


def trained_file(trained, model) -> dict:
    """What `eval --train` writes to scorer/hybrid.json: the two weight sets of the full hybrid."""
    best = {"text": {**trained[TEXT_HYBRID], "window": hybrid.WINDOWS["text"]},
            "pdf": {**trained[PDF_HYBRID], "window": hybrid.WINDOWS["pdf"]}}
    return {"about": "logistic regression, trained by `python -m scorer eval --train` on the "
                     "labelled breaks of the development documents only: "
                     + ", ".join(f"{pkg} pages {a}-{b}" for pkg, a, b in SPLITS["dev"])
                     + "; and their text typeset here: "
                     + ", ".join(f"{pkg} ({', '.join(STYLES[lang])})"
                                 for pkg, _, lang in TYPESET_SOURCES["dev"])
                     + "; and man pages set by groff: " + ", ".join(MAN_PAGES["dev"]),
            "model": model.info["file"], "sets": best}


def save(trained, model) -> None:
    """Write the shipped weights and forget the ones loaded before."""
    write_atomic(hybrid.WEIGHTS_FILE, json.dumps(trained_file(trained, model), indent=1))
    hybrid.shipped.cache_clear()
