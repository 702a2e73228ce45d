"""The hybrid decision: a small logistic regression over the model's evidence and the layout.

Does: describe every candidate break by a few numbers (model: P(newline) and its percentile,
how surprised the model is by the next line's first token; layout: how full the line is, how
it ends, how the next line starts, in text alone the room left for the next line's first word,
and for PDFs the vertical gap, the indent (also where the line ends full) and page break), and
turn them into P(join) with weights trained on the development part of the evaluation
(`python -m scorer eval --train` writes hybrid.json; see evaluate.py). Every decision can be
explained: each feature's contribution to the log-odds is its weight times its standardised
value.
The cascade: the model's evidence enters through a feature whose usual range on the dev breaks
is known (`model_range` in hybrid.json: the RANGE percentiles of the dev values). Where no value
in that range can move the log-odds across 0, the layout has decided and the model is not asked
(`asks`); its contribution then counts 0 (its dev mean), on every path alike, so that the page,
which reads the whole text, decides exactly as `merge`, which reads only the asked breaks'
windows.
Does not: run the model, read PDFs, or train on anything but the development set.
"""

import json
import math
from functools import lru_cache
from types import SimpleNamespace
from pathlib import Path

import numpy as np

from .breaks import (CLAUSE_END, SHORT, ends_sentence, line_pairs, starts_item, starts_lower,
                     text_fills, text_room)

WEIGHTS_FILE = Path(__file__).with_name("hybrid.json")
CLIP = -20.0  # log-probabilities below this are all "very unlikely"

# The shipped hybrid reads the model through log P(newline) read from a short window before the
# break alone (WINDOWS tokens): on the development documents it carries between them as
# well as P(newline) from the whole pass (trained on one, tested on the other: `python -m scorer
# eval`'s cross-document table), and it can be read at a few breaks without reading the whole
# text: the cascade. Its scale is the default model's; weights for another GGUF come from
# `eval --train --model`.
MODEL = ("logp_window",)
# Tokens before a break that window is, per weight set (written into hybrid.json with it by
# `eval --train`; chosen on the dev documents, docs/evaluation.md): in a PDF 8 decide as well as
# 12 and better than 16 or 32, with fewer breaks asked and each read cheaper (4 lose); text
# alone loses macro-F1 at 16 (0.006 on dev).
WINDOWS = {"text": 32, "pdf": 8}
ALL_MODEL = ("newline_pct", "logp_newline", "logp_next", "logp_window")
MODEL_EVIDENCE = ALL_MODEL + ("newline_pct_as_is",)  # every feature that needs the model
RANGE = (0.5, 99.5)  # percentiles of the dev breaks that make a model feature's usual range:
# at (5, 95) the cascade already decides every dev document as the model at every break, but
# where it does not ask, P(join) misses what an unusual reading says (dev documents left out in
# turn, pasted: log loss 0.051 at (5, 95), 0.043 here, asking 23 % of the free breaks, not 19 %;
# as PDFs 0.0120 and 0.0124, 11 % not 9 %: tests/perf/ask_range.py, docs/evaluation.md)
TEXT_LAYOUT = ("fill", "short", "sentence_end", "clause_end", "next_lower", "next_item")
# read in text alone: the room for the next word, guessed from its characters; a PDF's fill and
# gap measure what it tells better (tests.perf.layout_cues_choice: its PDF set loses with it)
TEXT_ALONE = ("room",)
PDF_LAYOUT = ("gap", "indent", "indent_full", "page_break", "fits")
# fits: by how much the next line's first word would have fit on the line, measured on the page
# (pdf.layout's room, above 0 only: a long first word that would not fit says nothing a full
# line does not; tests.perf.layout_cues_choice: signed, it lost)


def evidence(doc, as_is=None) -> dict:
    """Every feature of every break of `doc` (a Document, or anything with its text, break_at,
    layout, logp_newline, logp_next, logp_window and percentile): name -> float array, one
    value per break.
    `as_is`: the same text scored in the as-is context (only the evaluation uses it)."""
    pairs = line_pairs(doc.text, doc.break_at)
    n = len(pairs)
    layout = doc.layout
    if layout is not None:
        fill = np.array([f["fill"] for f in layout], dtype=np.float64)
    else:
        fill = text_fills(doc.text, pairs)
    out = {
        "newline_pct": _fill_nan(np.asarray(doc.percentile, dtype=np.float64) / 100, 0.5),
        "logp_newline": _logp(doc.logp_newline),
        "logp_next": _logp(doc.logp_next),
        "logp_window": _logp(doc.logp_window),
        "newline_pct_as_is": (_fill_nan(np.asarray(as_is.percentile) / 100, 0.5)
                              if as_is is not None else np.full(n, 0.5)),
        "fill": np.clip(fill, 0.0, 1.5),
        "short": (fill < SHORT).astype(np.float64),
        "sentence_end": _flags(ends_sentence(b) for b, _ in pairs),
        "clause_end": _flags(b.rstrip().endswith(CLAUSE_END) for b, _ in pairs),
        "next_lower": _flags(starts_lower(a) for _, a in pairs),
        "next_item": _flags(starts_item(a) for _, a in pairs),
    }
    if layout is not None:  # the PDF set reads no TEXT_ALONE feature: not computed
        out.update((name, np.zeros(n)) for name in TEXT_ALONE)
        gaps = np.array([np.nan if f["gap"] is None else f["gap"] for f in layout], dtype=np.float64)
        usual = np.nanmedian(gaps) if np.any(~np.isnan(gaps)) else 0.0
        out["gap"] = np.clip(_fill_nan(gaps - usual, 0.0), -1.0, 3.0)
        out["indent"] = block_indent(layout)
        out["indent_full"] = indent_full(out["indent"], out["fill"])
        out["page_break"] = _flags(f["page_break"] for f in layout)
        out["fits"] = np.clip([f.get("room", 0.0) for f in layout], 0.0, 1.0).astype(np.float64)
    else:
        out["room"] = text_room(doc.text, pairs)
        out.update((name, np.zeros(n)) for name in PDF_LAYOUT)
    return out


def block_indent(layout) -> np.ndarray:
    """The next line's indent in ems from the edge of the block the line before starts at: from
    the column's edge, less the line before's own indent where the next line starts at or
    beyond it; none where the next line hangs from the line before's list marker or tag. A wrap
    inside an indented block (a quotation, groff's .RS) or a list item then reads as no indent,
    and a first-line indent as one. Clipped to [-2, 6]."""
    after = np.array([f["indent_next"] for f in layout], dtype=np.float64)
    before = np.array([f["indent_before"] for f in layout], dtype=np.float64)
    edge = np.clip(before, 0.0, np.maximum(after, 0.0))
    indent = np.where(after > 0, after - edge, after)
    indent[[bool(f["hanging"]) for f in layout]] = 0.0
    return np.clip(indent, -2.0, 6.0)


def indent_full(indent, fill) -> np.ndarray:
    """The next line's indent where the line before ends full (not SHORT), else 0: a paragraph
    that ends on a full line before a first-line indent. There the fill cannot tell and the
    indent must; a linear weight on the indent alone learns little from it, as nearly every
    indent follows a short line."""
    return np.where(np.asarray(fill) >= SHORT, np.maximum(indent, 0.0), 0.0)


def _flags(values) -> np.ndarray:
    return np.array([1.0 if v else 0.0 for v in values], dtype=np.float64)


def _fill_nan(values, fill) -> np.ndarray:
    values = np.array(values, dtype=np.float64)
    values[np.isnan(values)] = fill
    return values


def _logp(values) -> np.ndarray:
    """Log-probabilities clipped to [CLIP, 0]; a missing one (the first line) counts as likely."""
    return np.clip(_fill_nan(values, 0.0), CLIP, 0.0)


# -- the model: standardised features, one weight each, P(join) = sigmoid(sum) ------------------
def matrix(ev: dict, names) -> np.ndarray:
    """(n_breaks, len(names)) float64."""
    return np.column_stack([ev[name] for name in names]) if names else np.zeros((0, 0))


def fit(X, y, l2=1.0, iterations=50, prior=None) -> dict:
    """L2-regularised logistic regression by Newton's method on standardised columns.

    X: (n, d) features, y: (n,) 1 = join (a wrap), 0 = keep. Returns the weights as plain lists.
    `prior`: a weight set on the same features: its standardisation is kept and the weights
    (its intercept too) are pulled towards its own instead of towards 0, by `l2`: a few labels
    move them a little, many labels more (teach.py).
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if prior is None:
        mean, scale = X.mean(axis=0), X.std(axis=0)
        scale[scale == 0] = 1.0
        start = np.zeros(X.shape[1] + 1)
    else:
        mean, scale = np.asarray(prior["mean"], float), np.asarray(prior["scale"], float)
        start = np.array([prior["intercept"], *prior["coef"]], dtype=np.float64)
    Z = np.column_stack([np.ones(len(X)), (X - mean) / scale])
    w = start.copy()
    penalty = np.full(Z.shape[1], l2)
    if prior is None:
        penalty[0] = 0.0  # the intercept is not shrunk towards 0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-Z @ w))
        grad = Z.T @ (p - y) + penalty * (w - start)
        hess = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return {"intercept": float(w[0]), "coef": w[1:].tolist(), "mean": mean.tolist(),
            "scale": scale.tolist()}


def contributions(weights: dict, X) -> np.ndarray:
    """(n, d): each feature's share of the log-odds of joining."""
    X = np.asarray(X, dtype=np.float64)
    return (X - np.asarray(weights["mean"])) / np.asarray(weights["scale"]) * np.asarray(weights["coef"])


def p_join(weights: dict, X) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] == 0:
        return np.zeros(0)
    return 1 / (1 + np.exp(-(weights["intercept"] + contributions(weights, X).sum(axis=1))))


# -- the shipped weights --------------------------------------------------------------------
@lru_cache(maxsize=1)
def shipped() -> dict:
    """hybrid.json: {"about": ..., "sets": {"text": weights, "pdf": weights}}."""
    return json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))


def weights_for(doc) -> dict:
    """The weight set for a document: the PDF one when layout from a PDF is there, from its own
    weights file (doc.weights: a family's, `prefill-lens train`) or the shipped one."""
    return _weights(doc.layout, getattr(doc, "weights", None))


def window_for(layout, weights=None) -> int:
    """Tokens before a break its model evidence is read from, for a text with (a PDF's)
    `layout` or without: the weight set's window (32 where it names none)."""
    return _weights(layout, weights).get("window", 32)


def _weights(layout, weights=None) -> dict:
    return (weights or shipped())["sets"]["pdf" if layout is not None else "text"]


# -- weights files: data from users, checked before use ----------------------------------------
FEATURES = ALL_MODEL + TEXT_LAYOUT + TEXT_ALONE + PDF_LAYOUT  # what a weights file may name
MAX_WEIGHTS_BYTES = 1_000_000


def read_weights(path) -> dict:
    """A weights file (`prefill-lens train -o`, or hybrid.json), checked: BadInput with one
    clear line for anything that is not one."""
    from .errors import BadInput
    from .inputs import load_json, shown

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_WEIGHTS_BYTES + 1)
    except OSError as exc:
        raise BadInput(f"cannot read the weights file {shown(path)}: {exc.strerror}") from None
    if len(data) > MAX_WEIGHTS_BYTES:
        raise BadInput(f"the weights file {shown(path)} is over {MAX_WEIGHTS_BYTES:,} bytes: "
                       "not a weights file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"the weights file {shown(path)} is not UTF-8 JSON") from None
    return checked_weights(load_json(text, f"the weights file {shown(path)}"), shown(path))


def checked_weights(weights, name="the weights") -> dict:
    """`weights` (parsed JSON) when it is a weights file: {"sets": {"text": set, "pdf": set}}
    with each set's features known, one finite number per feature in coef, mean and scale (scale
    > 0), a finite intercept, a window of 1-512 tokens and model ranges of two finite numbers;
    BadInput naming what is wrong otherwise."""
    from .errors import BadInput

    def bad(what):
        raise BadInput(f"{name} is not a weights file: {what}")

    if not isinstance(weights, dict) or not isinstance(weights.get("sets"), dict):
        bad('expected {"sets": {"text": ..., "pdf": ...}}')
    if not isinstance(weights.get("name", ""), str) or len(weights.get("name", "")) > 200:
        bad('"name" must be text of at most 200 characters')
    for kind in ("text", "pdf"):
        one = weights["sets"].get(kind)
        if not isinstance(one, dict):
            bad(f'no "{kind}" weight set')
        names = one.get("features")
        if (not isinstance(names, list) or not names or len(set(map(str, names))) != len(names)
                or any(not isinstance(f, str) or f not in FEATURES for f in names)):
            bad(f'the {kind} set\'s "features" must be distinct names among {", ".join(FEATURES)}')
        for key in ("coef", "mean", "scale"):
            values = one.get(key)
            if not (isinstance(values, list) and len(values) == len(names)
                    and all(_finite(v) for v in values)):
                bad(f'the {kind} set\'s "{key}" must be {len(names)} finite numbers')
        if any(v <= 0 for v in one["scale"]):
            bad(f'the {kind} set\'s "scale" must be positive')
        if not _finite(one.get("intercept")):
            bad(f'the {kind} set\'s "intercept" must be a finite number')
        window = one.get("window", 32)
        if not isinstance(window, int) or isinstance(window, bool) or not 1 <= window <= 512:
            bad(f'the {kind} set\'s "window" must be a whole number of tokens, 1-512')
        ranges = one.get("model_range", {})
        if not isinstance(ranges, dict) or any(
                k not in names or not isinstance(v, list) or len(v) != 2
                or not all(_finite(x) for x in v) for k, v in ranges.items()):
            bad(f'the {kind} set\'s "model_range" must give two finite numbers per model feature')
    return weights


def about(weights) -> dict:
    """What the JSON and the page say of the weights deciding (None: the shipped ones): their
    name and, for fitted ones, what they were trained on."""
    if weights is None:
        return {"name": "shipped"}
    return {"name": weights.get("name") or "a weights file", "trained": weights.get("trained")}


def _finite(value) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:  # an integer too large for a float
        return False


def model_range(ev: dict, names, bounds=RANGE) -> dict:
    """The usual range (the `bounds` percentiles, RANGE) of each model feature among `names`
    over the breaks of `ev` (the dev breaks: eval --train)."""
    return {name: [float(v) for v in np.percentile(ev[name], bounds)]
            for name in names if name in MODEL_EVIDENCE}


def asks(weights: dict, ev: dict) -> np.ndarray:
    """bool per break: could the model's evidence, anywhere in its usual range, change what
    the hybrid decides? `ev` may hold anything for the model features: only the layout's are
    read. Weights without a `model_range` ask everywhere."""
    names = weights["features"]
    model = [k for k, name in enumerate(names) if name in MODEL_EVIDENCE]
    n = len(next(iter(ev.values()))) if ev else 0
    if not model:
        return np.zeros(n, dtype=bool)
    if "model_range" not in weights:
        return np.ones(n, dtype=bool)
    parts = contributions(weights, matrix(ev, names)) if n else np.zeros((0, len(names)))
    rest = weights["intercept"] + np.delete(parts, model, axis=1).sum(axis=1)
    ends = contributions(weights, [[weights["model_range"][name][end] if k in model else 0.0
                                    for k, name in enumerate(names)] for end in (0, 1)])[:, model]
    low, high = ends.min(axis=0).sum(), ends.max(axis=0).sum()
    return (rest + low <= 0) & (rest + high > 0)


def weigh(weights: dict, ev: dict, asked) -> tuple:
    """(P(join), contributions (n, d)) per break: the model's evidence counts only where
    `asked`; elsewhere its contribution is 0 (its dev mean)."""
    names = weights["features"]
    asked = np.asarray(asked, dtype=bool)
    X = matrix(ev, names)
    parts = contributions(weights, X) if len(X) else np.zeros((0, len(names)))
    model = np.array([name in MODEL_EVIDENCE for name in names], dtype=bool)
    parts[np.ix_(~asked, model)] = 0.0
    return 1 / (1 + np.exp(-(weights["intercept"] + parts.sum(axis=1)))), parts


def asked(text, offsets, layout, forced, weights=None) -> np.ndarray:
    """bool per break (at char `offsets`) of a text the model has not read yet: where the
    hybrid (with `weights`, a weights file; None: the shipped) needs the model's evidence
    (`asks`) and the layout forces nothing."""
    none = np.full(len(offsets), np.nan)
    doc = SimpleNamespace(text=text, break_at=offsets, layout=layout, logp_newline=none,
                          logp_next=none, logp_window=none, percentile=none, weights=weights)
    free = np.array([i not in forced for i in offsets], dtype=bool)
    return asks(weights_for(doc), evidence(doc)) & free if len(offsets) else free


def explain(doc) -> tuple:
    """(P(join), Why) per break with the document's weights (weights_for), the model's evidence
    counted where doc.asked."""
    weights = weights_for(doc)
    ev = evidence(doc)
    probs, parts = weigh(weights, ev, doc.asked)
    return probs, Why(weights["features"], matrix(ev, weights["features"]), parts, doc.asked)


class Why:
    """Per break [[feature, value, contribution to the log-odds], ...] (a model feature where the
    model was not asked shows None), kept as two arrays and written out per break on demand:
    as lists, a long text's evidence cost 40 bytes a character."""

    def __init__(self, names, values, parts, asked):
        self.names, self.values, self.parts = list(names), values, parts
        self.asked = np.asarray(asked, dtype=bool)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, k) -> list:
        return [[name, None if name in MODEL_EVIDENCE and not self.asked[k] else round(float(x), 4),
                 round(float(c), 3)] for name, x, c in zip(self.names, self.values[k], self.parts[k])]

    def __iter__(self):
        return (self[k] for k in range(len(self)))
