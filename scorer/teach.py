"""Labels that teach: the hybrid refitted on an analyst's labelled breaks, for the documents of
one family (a publisher's layout, a language, a scanner's text layer), never worse than the
weights it starts from on those labels.

    prefill-lens train one.pdf one.labels.jsonl two.pdf two.truth.txt -o family.json
    prefill-lens merge three.pdf --weights family.json

Does: read every labelled break's features (the model's window evidence at every break, not
only where the cascade asks); fit the weight set of the documents' kind (PDF or text) with
hybrid.fit, starting from the current weights as the prior, its strength chosen by
cross-validation; compare fitted and current weights by cross-validated macro-F1 on the same
labels (folds by document when there are several, else folds of breaks) and keep the current
ones unless the fit is clearly better (fit_set); record in the weights file what it was
trained on.
Does not: read files (the CLI and the web do) or decide anything (decide.py).
"""

import copy
import datetime
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from . import __version__, hybrid
from .document import window_logps
from .errors import BadInput

MIN_EACH = 5  # labels of each kind (join, keep) a fit needs
STRENGTHS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0)  # the prior's pull, chosen by cross-validation
FOLDS = 5  # folds of breaks when the labels are on one document


@dataclass
class Labelled:
    """One document's labelled breaks: its name, whether it is a PDF, every feature of every
    break (hybrid.evidence), which breaks are labelled (not those the layout forces: no
    weights change them) with their labels (1 join, 0 keep), and the model's window evidence
    at every break."""
    name: str
    pdf: bool
    evidence: dict
    rows: np.ndarray
    y: np.ndarray
    logp_window: np.ndarray


def labelled(model, doc, labels, name="the document") -> Labelled:
    """`doc` (a scored Document) with `labels` ({char offset: "join"/"keep"}): the model reads
    its window evidence at every break (it takes model.lock)."""
    window = hybrid.window_for(doc.layout, doc.weights)
    with model.lock:
        logp_window = window_logps(model, doc.text, window, doc.mode)
    view = SimpleNamespace(text=doc.text, break_at=doc.break_at, layout=doc.layout,
                           logp_newline=doc.logp_newline, logp_next=doc.logp_next,
                           percentile=doc.percentile, logp_window=logp_window)
    rows = [k for k, i in enumerate(doc.break_at) if i in labels and i not in doc.forced]
    y = np.array([1.0 if labels[doc.break_at[k]] == "join" else 0.0 for k in rows])
    return Labelled(name, doc.layout is not None, hybrid.evidence(view),
                    np.array(rows, dtype=np.int64), y, logp_window)


def redecided(doc, weights, item):
    """A copy of `doc` decided by `weights` (a weights file), as `merge --weights` decides it:
    the model's window evidence (read at every break for `item`, its Labelled) counted where
    those weights ask for it, P(join) and the explanations anew."""
    new = copy.copy(doc)
    new.weights = weights
    new.asked = hybrid.asked(doc.text, doc.break_at, doc.layout, doc.forced, weights)
    new.logp_window = np.where(new.asked, item.logp_window, np.nan)
    new.explain()
    return new


def f1(tp, fp, fn) -> float:
    """F1 from counts (0 with no true positive): the evaluation's too (evaluate/metrics.py)."""
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def macro_f1(y, join) -> float:
    """Mean of the F1 of joining and of keeping: labels `y` (1 join) against decisions."""
    y, join = np.asarray(y, dtype=bool), np.asarray(join, dtype=bool)
    f_join = f1(np.sum(y & join), np.sum(~y & join), np.sum(y & ~join))
    f_keep = f1(np.sum(~y & ~join), np.sum(y & ~join), np.sum(~y & join))
    return (f_join + f_keep) / 2


def folds_of(docs) -> list:
    """Per labelled break (all documents in order) its fold: its document when there are
    several, else one of FOLDS, each with joins and keeps alike."""
    if len(docs) > 1:
        return np.concatenate([np.full(len(d.y), k) for k, d in enumerate(docs)])
    order = np.argsort(docs[0].y, kind="stable")
    fold = np.empty(len(order), dtype=np.int64)
    fold[order] = np.arange(len(order)) % FOLDS
    return fold


def cross_validated(X, y, fold, weights_of) -> np.ndarray:
    """Per labelled break, is it joined by the weights `weights_of(X, y)` fitted on the other
    folds than its own?"""
    join = np.zeros(len(y), dtype=bool)
    for k in np.unique(fold):
        out = fold == k
        join[out] = hybrid.p_join(weights_of(X[~out], y[~out]), X[out]) > 0.5
    return join


def fit_set(docs, current) -> tuple:
    """(weight set, what happened) for labelled documents of one kind, from the `current` set:
    the fit at the strength cross-validation likes best where it beats `current`, else
    `current` itself. Beating it means a higher cross-validated macro-F1, and more breaks
    put right than put wrong by at least twice the noise of such counts (2 sqrt(right +
    wrong)): labels that contradict each other, or too few to tell, keep `current`.
    BadInput when there are too few labels of one kind."""
    names = current["features"]
    X = np.concatenate([hybrid.matrix(d.evidence, names)[d.rows] for d in docs])
    y = np.concatenate([d.y for d in docs])
    joins, keeps = int(y.sum()), int(len(y) - y.sum())
    if min(joins, keeps) < MIN_EACH:
        raise BadInput(f"too few labels to learn from: {joins} join and {keeps} keep on breaks "
                       f"the layout does not force; label at least {MIN_EACH} of each")
    fold, truth = folds_of(docs), y > 0.5
    before = cross_validated(X, y, fold, lambda *_: current)
    tried = {l2: cross_validated(X, y, fold, lambda Xt, yt, l2=l2: {
                 **current, **hybrid.fit(Xt, yt, l2, prior=current)})
             for l2 in STRENGTHS}
    f1_before = macro_f1(truth, before)
    l2 = max(tried, key=lambda s: (macro_f1(truth, tried[s]), s))  # ties: nearer the prior
    f1_fitted = macro_f1(truth, tried[l2])
    right = int(np.sum((tried[l2] == truth) & (before != truth)))
    wrong = int(np.sum((tried[l2] != truth) & (before == truth)))
    better = f1_fitted > f1_before and right - wrong >= 2 * np.sqrt(right + wrong)
    # refitted on the labels, the prior's calibration (its "temperature") no longer describes it
    fitted = ({**{k: v for k, v in current.items() if k != "temperature"},
               **hybrid.fit(X, y, l2, prior=current)} if better else current)
    return fitted, {"documents": [d.name for d in docs], "join": joins, "keep": keeps,
                    "folds": "by document" if len(docs) > 1 else f"{FOLDS} folds of breaks",
                    "macro_f1_before": round(f1_before, 4), "macro_f1_fitted": round(f1_fitted, 4),
                    "put_right": right, "put_wrong": wrong, "strength": l2,
                    "kept": "fitted" if better else "before"}


def train(docs, model_info, current=None, name=None) -> dict:
    """The weights file for labelled documents (Labelled): each kind among them (PDF, text)
    refitted from `current` (a weights file; None: the shipped one), the other kind as it was,
    with what it was trained on and the cross-validated figures under "trained"; `name`: what
    pages and JSON call these weights."""
    current = current or hybrid.shipped()
    sets, report = dict(current["sets"]), {}
    for kind in ("text", "pdf"):
        group = [d for d in docs if d.pdf == (kind == "pdf")]
        if group:
            sets[kind], report[kind] = fit_set(group, current["sets"][kind])
    if not report:
        raise BadInput("no labelled documents to learn from")
    return {"name": name or "fitted to labels", "about": "the hybrid's weights refitted on an analyst's labels by "
                     "`prefill-lens train` (teach.py)",
            "model": model_info["file"], "sets": sets,
            "trained": {"date": datetime.date.today().isoformat(), "version": __version__,
                        "started_from": "a weights file" if current is not hybrid.shipped()
                        else "the shipped weights",
                        "sets": report}}


def summary(weights) -> str:
    """What `train` did, a line per kind: labels, cross-validated macro-F1 before and fitted,
    and which weights it kept."""
    lines = []
    for kind, r in weights["trained"]["sets"].items():
        verdict = ("the fitted weights are kept" if r["kept"] == "fitted" else
                   "the fit is not better: the weights it started from are kept")
        lines.append(f"{kind}: {len(r['documents'])} document(s), {r['join']} join and "
                     f"{r['keep']} keep labels; cross-validated macro-F1 ({r['folds']}) "
                     f"{r['macro_f1_before']:.3f} before, {r['macro_f1_fitted']:.3f} fitted "
                     f"({r['put_right']} breaks put right, {r['put_wrong']} put wrong; strength "
                     f"{r['strength']:g}): {verdict}")
    return "\n".join(lines)
