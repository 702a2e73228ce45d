"""Evaluation: labelled line breaks of real PDFs, every decision method on them, and training.

Debian's documentation packages ship the same document as a PDF and as plain text. The twin's
paragraphs (blocks between blank lines, list items, headings) say where the real breaks are.
Does: align the PDF's lines to the twin, ignoring whitespace, and label each newline between
two aligned, adjacent lines WRAP (inside a twin paragraph) or BREAK (at a paragraph, list item
or heading boundary); newlines that do not align, and those in code or tables (the twin has no
paragraphs there), stay unlabelled (None). Then score each document in both context modes
(cached), train the 2-gram baseline and the hybrid's variants on the development documents
only, and report every method on every document, pooled per split and language.
Does not: tune anything on the held-out documents.
"""

import gzip
import hashlib
import os
import re
import subprocess
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from . import hybrid
from .baseline import TwoGram, plain
from .breaks import candidates, decide, line_pairs, percentiles, starts_item

WRAP, BREAK = "wrap", "break"
SEARCH_AHEAD = 4000  # normalised characters a line may be away from the previous one in the twin
ANCHOR = 25  # a line this long (normalised) is distinctive enough to be searched for anywhere
BULLET = re.compile(r"^\s*[*•·●▪‣◦-]\s+")  # list markers differ between a PDF and its twin
UNDERLINE = re.compile(r"^\s*([=\-*~^#+])\1{2,}\s*$")  # a heading's underline in a text rendering
FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-"})


def normalise(text: str) -> str:
    """What alignment compares: NFKC, straight quotes and plain dashes, no list marker, no
    whitespace at all."""
    text = BULLET.sub("", unicodedata.normalize("NFKC", text).translate(FOLD))
    return "".join(ch for ch in text if not ch.isspace())


def twin_stream(twin: str) -> tuple:
    """(normalised twin text, set of positions in it where a paragraph, item or heading starts)."""
    out, starts, pos = [], set(), 0
    new_block, column = True, 0
    for line in twin.splitlines():
        if not line.strip() or UNDERLINE.match(line):  # blank, or the underline of a heading
            new_block = True
            continue
        indent = len(line) - len(line.lstrip())
        marker = BULLET.match(line)
        # a paragraph's lines continue at its text column; any other indent starts a block
        if new_block or indent != column or marker or starts_item(line):
            starts.add(pos)
        column = marker.end() if marker else indent
        norm = normalise(line)
        new_block = False
        out.append(norm)
        pos += len(norm)
    return "".join(out), starts


def twin_labels(lines, twin: str) -> list:
    """Per newline between consecutive `lines` (PDF line texts): WRAP, BREAK or None."""
    stream, starts = twin_stream(twin)
    found = []  # per line: (start, end) in the stream, or None
    cursor = 0
    for line in lines:
        norm = normalise(line)
        at = _find(stream, norm, cursor)
        if at < 0 and norm.endswith("-"):  # a word hyphenated by the layout, whole in the twin
            norm = norm[:-1]
            at = _find(stream, norm, cursor)
        if at < 0:
            found.append(None)
            continue
        found.append((at, at + len(norm)))
        cursor = at + len(norm)
    labels = []
    for here, after in zip(found, found[1:]):  # only adjacent, contiguous lines get a label
        if here is None or after is None or after[0] != here[1]:
            labels.append(None)
        else:
            labels.append(BREAK if after[0] in starts else WRAP)
    return labels


def _find(stream, norm, cursor) -> int:
    """Where `norm` continues the alignment: near the cursor, else (if distinctive) anywhere after."""
    if not norm:
        return -1
    at = stream.find(norm, cursor, cursor + SEARCH_AHEAD + len(norm))
    if at < 0 and len(norm) >= ANCHOR:
        at = stream.find(norm, cursor)
    return at


# -- real documents: Debian documentation packages, fetched from Debian's archive ---------------
CACHE = Path(os.environ.get("PREFILL_LENS_CACHE", Path.home() / ".cache" / "prefill-lens")) / "debian"
DOCS = {  # package: (language, PDF, plain-text twin) inside it
    "developers-reference": ("en", "usr/share/developers-reference/developers-reference.pdf",
                             "usr/share/developers-reference/developers-reference.txt.gz"),
    "debian-reference-zh-cn": ("zh", "usr/share/debian-reference/debian-reference.zh-cn.pdf",
                               "usr/share/debian-reference/debian-reference.zh-cn.txt.gz"),
    "debian-reference-en": ("en", "usr/share/debian-reference/debian-reference.en.pdf",
                            "usr/share/debian-reference/debian-reference.en.txt.gz"),
    "maint-guide": ("en", "usr/share/doc/maint-guide/maint-guide.en.pdf",
                    "usr/share/doc/maint-guide/maint-guide.en.txt.gz"),
    "maint-guide-zh-cn": ("zh", "usr/share/doc/maint-guide-zh-cn/maint-guide.zh-cn.pdf",
                          "usr/share/doc/maint-guide-zh-cn/maint-guide.zh-cn.txt.gz"),
}


def fetch_debian_doc(package: str) -> tuple:
    """(pdf path, twin text) of a Debian documentation package, downloading it once."""
    _, pdf_rel, txt_rel = DOCS[package]
    root = CACHE / package
    pdf, txt = root / pdf_rel, root / txt_rel
    if not (pdf.is_file() and txt.is_file()):
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)  # apt's sandbox user must be able to write there
            got = subprocess.run(["apt-get", "download", package], cwd=tmp,
                                 capture_output=True, timeout=600)
            if got.returncode != 0:  # a fresh machine may have no package lists yet
                subprocess.run(["apt-get", "update"], check=True, capture_output=True, timeout=600)
                subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                               capture_output=True, timeout=600)
            deb = next(Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True, timeout=600)
    with gzip.open(txt, "rt", encoding="utf-8") as fh:
        return pdf, fh.read()


# -- labels from a twin that has one paragraph per line (the samples) -------------------------
def joined_twin_labels(wrapped: str, truth: str) -> list:
    """Per candidate newline of `wrapped`: WRAP or BREAK, where `truth` is `wrapped` with its
    wraps replaced by nothing (CJK) or one space (Latin)."""
    per_newline, pos = [], 0
    for ch in wrapped:
        if ch == "\n":
            is_break = pos < len(truth) and truth[pos] == "\n"
            per_newline.append(BREAK if is_break else WRAP)
            pos += 1 if is_break or (pos < len(truth) and truth[pos] == " ") else 0
        else:
            pos += 1
    newline_index = {i: k for k, i in enumerate(i for i, ch in enumerate(wrapped) if ch == "\n")}
    return [per_newline[newline_index[i]] for i in candidates(wrapped)]


# -- the labelled documents and how they are split -------------------------------------------
# Development: what the hybrid's weights and the 2-gram table are trained on. Held out: other
# pages of the same documents and three documents never used for any tuning. (The first pages
# are title, contents and front matter; debian-reference-zh-cn's pages 61-100 are nearly all
# tables and code, hence 101-180.)
SPLITS = {
    "dev": [("developers-reference", 21, 60), ("debian-reference-zh-cn", 21, 60)],
    "held-out": [("developers-reference", 61, 100), ("debian-reference-zh-cn", 101, 180),
                 ("debian-reference-en", 21, 60), ("maint-guide", 21, 63),
                 ("maint-guide-zh-cn", 21, 63)],
}


@dataclass
class Labelled:
    name: str
    lang: str  # "en" | "zh"
    split: str  # "dev" | "held-out" | "samples"
    text: str  # what is scored: a PDF's body lines joined by newlines, or a sample text
    labels: list  # per candidate break: WRAP, BREAK or None
    layout: list = None  # per break: pdf.break_features, for PDFs


def debian_documents(splits=("dev", "held-out")) -> list:
    from .pdf import break_features, read_pdf

    out = []
    for split in splits:
        for package, first, last in SPLITS[split]:
            pdf_path, twin = fetch_debian_doc(package)
            body = read_pdf(pdf_path, max_pages=10_000, pages=(first, last)).body
            lines = [ln.text for ln in body]
            layout = [break_features(a, b) for a, b in zip(body, body[1:])]
            # the twin renders code and tables as blocks without paragraphs: no labels there
            labels = [None if f["code"] or f["table"] else label
                      for label, f in zip(twin_labels(lines, twin), layout)]
            out.append(Labelled(f"{package} p{first}-{last}", DOCS[package][0], split,
                                "\n".join(lines), labels, layout))
    return out


def sample_documents(samples_dir) -> list:
    """Each sample that has its true paragraphs in samples/expected/."""
    out = []
    for path in sorted(Path(samples_dir).glob("*.txt")):
        truth = Path(samples_dir) / "expected" / path.name
        if truth.is_file():
            text = path.read_text(encoding="utf-8")
            out.append(Labelled(path.name, path.name[:2], "samples", text,
                                joined_twin_labels(text, truth.read_text(encoding="utf-8"))))
    return out


# -- the model's evidence, cached per text, model and context mode ----------------------------
def scored(model, text, mode, cache=CACHE.parent / "eval"):
    """What the hybrid needs of a scored text (break offsets, P(newline), P(next), percentiles)."""
    from . import __version__
    from .document import score

    key = hashlib.sha256("\0".join([__version__, model.info["file"], str(model.info.get("size")),
                                    str(model.window), mode, text]).encode()).hexdigest()[:24]
    path = cache / f"{key}.npz"
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
                           logp_next=logp_next, percentile=percentiles(logp_newline), layout=None)


# -- methods ------------------------------------------------------------------------------------
# Trained variants (on the development documents, in the same run): which evidence each uses and
# whether it reads the PDF's layout. The hybrid's two shipped weight sets are "hybrid: text cues
# + model" (for text) and "hybrid: PDF + text cues + model" (for PDFs).
TEXT_HYBRID, PDF_HYBRID = "hybrid: text cues + model", "hybrid: PDF + text cues + model"
VARIANTS = {  # name -> (features, uses the PDF layout)
    "model only: percentile": (("newline_pct",), False),
    "model only: raw log P(newline)": (("logp_newline",), False),
    "model only: percentile + raw + next-line surprise": (hybrid.ALL_MODEL, False),
    "layout only: text cues": (hybrid.TEXT_LAYOUT, False),
    TEXT_HYBRID: (hybrid.MODEL + hybrid.TEXT_LAYOUT, False),
    "layout only: PDF + text cues": (hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
    PDF_HYBRID: (hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
    "hybrid: PDF + text cues + all model evidence + as-is P(newline)": (
        hybrid.ALL_MODEL + ("newline_pct_as_is",) + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT, True),
}


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
    joined_pdf = SimpleNamespace(**{**vars(joined), "layout": doc.layout})
    ev = hybrid.evidence(joined_pdf, as_is) if doc.layout is not None else ev_text
    befores = [b for b, _ in line_pairs(doc.text, joined.break_at)]
    return Prepared(doc, ev, ev_text, befores, joined, as_is)


def without_spacing(ev: dict) -> dict:
    """The evidence of a PDF that puts no extra space between paragraphs (every gap usual)."""
    return {**ev, "gap": np.zeros_like(ev["gap"])}


def train(prepared, variant) -> dict:
    """Fit one variant on the labelled breaks of the development documents. A variant that
    reads the PDF layout also sees each document once more without paragraph spacing, so
    that it does not take "no extra gap" for "a wrap" in PDFs that never space paragraphs."""
    names, pdf = VARIANTS[variant]
    X, y = [], []
    for p in prepared:
        if p.doc.split != "dev":
            continue
        views = [p.ev, without_spacing(p.ev)] if pdf and p.doc.layout is not None else [p.ev_text]
        for ev in views:
            for row, label in zip(hybrid.matrix(ev, names), p.doc.labels):
                if label is not None:
                    X.append(row)
                    y.append(1.0 if label == WRAP else 0.0)
    return {"features": list(names), **hybrid.fit(np.array(X), np.array(y))}


def forced_keeps_of(p: Prepared) -> np.ndarray:
    """Per break: does the engine keep it whatever the evidence (document.forced_keeps)?"""
    from .document import forced_keeps

    keeps = forced_keeps(p.doc.text, p.joined.break_at, p.doc.layout)
    return np.array([i in keeps for i in p.joined.break_at], dtype=bool)


def lr_decisions(weights, ev) -> list:
    probs = hybrid.p_join(weights, hybrid.matrix(ev, weights["features"]))
    return ["join" if q > 0.5 else "keep" for q in probs]


DEFAULT = "DEFAULT: shipped hybrid + forced keeps"
STRESS = " [PDF without paragraph spacing]"


def methods(p: Prepared, two_gram, trained, shipped) -> dict:
    """Every method's decisions on one document: name -> list of 'join'/'keep' per break."""
    pdf = p.doc.layout is not None
    out = plain(p.befores, p.ev["fill"])
    if two_gram is not None:
        out["2-gram: line-final character"] = two_gram.decisions(p.befores)
    out["model as-is @34%"] = [decide(q) for q in p.as_is.percentile]
    out["model joined @34%"] = [decide(q) for q in p.joined.percentile]
    forced = forced_keeps_of(p)
    out["percentile mode (joined @34% + forced keeps)"] = [
        "keep" if f else decide(q) for f, q in zip(forced, p.joined.percentile)]
    for variant, weights in trained.items():
        if VARIANTS[variant][1] and not pdf:
            continue  # reads PDF layout: nothing to read in a text
        out[variant] = lr_decisions(weights, p.ev if VARIANTS[variant][1] else p.ev_text)
    def default(ev, weights):
        return ["keep" if f else d for f, d in zip(forced, lr_decisions(weights, ev))]
    out[DEFAULT] = default(p.ev, shipped["pdf" if pdf else "text"])
    if pdf:  # the same PDF, pasted as plain text; and as if it did not space its paragraphs
        out["DEFAULT on the text alone (pasted)"] = default(p.ev_text, shipped["text"])
        stressed = without_spacing(p.ev)
        out[DEFAULT + STRESS] = default(stressed, shipped["pdf"])
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
        for method, decisions in methods(p, two_gram, trained, shipped).items():
            rows.append({"document": p.doc.name, "lang": p.doc.lang, "split": p.doc.split,
                         "method": method, **metrics(p.doc.labels, decisions)})
    return rows, trained, paired(prepared, trained)


def metrics(labels, decisions) -> dict:
    """Accuracy, F1 of keep and of join, macro-F1 and confusion counts on the labelled breaks."""
    pairs = [(lab, dec) for lab, dec in zip(labels, decisions) if lab is not None]
    return from_counts({"wrap_joined": pairs.count((WRAP, "join")),
                        "wrap_kept": pairs.count((WRAP, "keep")),
                        "break_kept": pairs.count((BREAK, "keep")),
                        "break_joined": pairs.count((BREAK, "join"))})


def from_counts(c) -> dict:
    def f1(tp, fp, fn):
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    n = sum(c.values())
    f_keep = f1(c["break_kept"], c["wrap_kept"], c["break_joined"])
    f_join = f1(c["wrap_joined"], c["break_joined"], c["wrap_kept"])
    return {"n": n, "accuracy": (c["wrap_joined"] + c["break_kept"]) / n if n else float("nan"),
            "f1_keep": f_keep, "f1_join": f_join, "macro_f1": (f_keep + f_join) / 2, **c}


COUNTS = ("wrap_joined", "wrap_kept", "break_kept", "break_joined")


def pooled(rows) -> list:
    """Rows summed over the documents of each (split, language, method)."""
    groups = {}
    for r in rows:
        key = (r["split"], r["lang"], r["method"])
        acc = groups.setdefault(key, dict.fromkeys(COUNTS, 0))
        for c in COUNTS:
            acc[c] += r[c]
    return [{"document": f"{split} {lang}", "split": split, "lang": lang, "method": method,
             **from_counts(c)} for (split, lang, method), c in groups.items()]


def report(rows) -> str:
    head = (f"{'documents':34} {'method':46} {'n':>5} {'acc':>6} {'F1keep':>6} {'F1join':>6} "
            f"{'macroF1':>7}  confusion (wrap->join/keep, break->keep/join)")
    out = [head]
    for r in rows:
        out.append(f"{r['document'][:34]:34} {r['method'][:46]:46} {r['n']:5d} {r['accuracy']:6.3f} "
                   f"{r['f1_keep']:6.3f} {r['f1_join']:6.3f} {r['macro_f1']:7.3f}  "
                   f"{r['wrap_joined']}/{r['wrap_kept']}, {r['break_kept']}/{r['break_joined']}")
    return "\n".join(out)


def summary(rows) -> str:
    """One line per method, macro-F1 per (split, language) group: the table of the README."""
    pool = pooled(rows)
    groups = sorted({(r["split"], r["lang"]) for r in pool}, key=lambda g: (
        ["dev", "cross", "held-out", "samples"].index(g[0]), g[1]))
    methods = list(dict.fromkeys(r["method"] for r in pool))
    f1 = {(r["split"], r["lang"], r["method"]): r for r in pool}
    n = {(r["split"], r["lang"]): r["n"] for r in pool}
    cols = [f"{s} {lang} (n={n[(s, lang)]})" for s, lang in groups]
    out = ["macro-F1 | " + " | ".join(cols), f"{'method':46} " + " ".join(f"{c:>22}" for c in cols)]
    for m in methods:
        cells = [f"{f1[(s, lang, m)]['macro_f1']:22.3f}" if (s, lang, m) in f1 else f"{'-':>22}"
                 for s, lang in groups]
        out.append(f"{m[:46]:46} " + " ".join(cells))
    return "\n".join(out)


def trained_file(trained, model) -> dict:
    """What `eval --train` writes to scorer/hybrid.json: the two weight sets of the full hybrid."""
    best = {"text": trained[TEXT_HYBRID], "pdf": trained[PDF_HYBRID]}
    return {"about": "logistic regression, trained by `python -m scorer eval --train` on the "
                     "labelled breaks of the development documents only: "
                     + ", ".join(f"{pkg} pages {a}-{b}" for pkg, a, b in SPLITS["dev"]),
            "model": model.info["file"], "sets": best}
