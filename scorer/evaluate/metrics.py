"""Scores of decisions against labels: accuracy, F1 of keep and of join, macro-F1, confusion
counts; pooled over documents; printed as the tables of the README.

Does not: decide or train anything.
"""

from ..align import BREAK, WRAP
from ..teach import f1


def metrics(labels, decisions) -> dict:
    """Accuracy, F1 of keep and of join, macro-F1 and confusion counts on the labelled breaks."""
    pairs = [(lab, dec) for lab, dec in zip(labels, decisions) if lab is not None]
    return from_counts({"wrap_joined": pairs.count((WRAP, "join")),
                        "wrap_kept": pairs.count((WRAP, "keep")),
                        "break_kept": pairs.count((BREAK, "keep")),
                        "break_joined": pairs.count((BREAK, "join"))})


def from_counts(c) -> dict:
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
        ["dev", "cross", "held-out", "samples", "labels"].index(g[0]), g[1]))
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


BASELINES = ("keep-all", "join-all", "rule: sentence end", "rule: short line",
             "2-gram: line-final character", "model joined @34%")
PEERS = ("pdfminer: layout analysis text boxes", "PyMuPDF: text blocks",
         "pymupdf4llm: Markdown paragraphs")
SHORT = {"rule: sentence end": "sentence end", "rule: short line": "short line",
         "2-gram: line-final character": "2-gram", "model joined @34%": "model @34%",
         "pdfminer: layout analysis text boxes": "pdfminer", "PyMuPDF: text blocks": "PyMuPDF",
         "pymupdf4llm: Markdown paragraphs": "pymupdf4llm"}


def per_document(rows, split="held-out", default="DEFAULT: shipped hybrid + forced keeps",
                 pasted="DEFAULT on the text alone (pasted)") -> str:
    """One line per document of `split`: macro-F1 of the default (on the PDF and pasted) and its
    seconds per page (the PDF read and scored), of each baseline and each PDF tool a user might
    pick instead (peers.py), which peer is best, and the peers' seconds per page: the
    README's per-document table."""
    docs = list(dict.fromkeys(r["document"] for r in rows if r["split"] == split))
    f1 = {(r["document"], r["method"]): r["macro_f1"] for r in rows if r["split"] == split}
    spp = {(r["document"], r["method"]): r["seconds_per_page"] for r in rows
           if r["split"] == split and "seconds_per_page" in r}
    n = {r["document"]: r["n"] for r in rows if r["split"] == split and r["method"] == default}
    cols = [b for b in BASELINES if b not in ("keep-all", "join-all")] + list(PEERS)
    out = ["| document | n | default (PDF) | default (pasted) | default s/page | "
           + " | ".join(SHORT[b] for b in cols) + " | best peer | peers' s/page |",
           "|---|---|---|---|---|" + "---|" * len(cols) + "---|---|"]
    for doc in docs:
        peers = {b: f1[(doc, b)] for b in PEERS if (doc, b) in f1}
        best = f"{SHORT[max(peers, key=peers.get)]} {max(peers.values()):.3f}" if peers else ""
        cells = [f"{f1[(doc, b)]:.3f}" if (doc, b) in f1 else "" for b in cols]
        seconds = " / ".join(f"{spp[(doc, b)]:.3f}" for b in PEERS if (doc, b) in spp)
        pdf_f1 = f1.get((doc, default), float("nan"))
        pasted_f1 = f"{f1[(doc, pasted)]:.3f}" if (doc, pasted) in f1 else ""
        ours = f"{spp[(doc, default)]:.2f}" if (doc, default) in spp else ""
        out.append(f"| {doc} | {n.get(doc, 0)} | {pdf_f1:.3f} | {pasted_f1} | {ours} | "
                   + " | ".join(cells) + f" | {best} | {seconds} |")
    return "\n".join(out)
