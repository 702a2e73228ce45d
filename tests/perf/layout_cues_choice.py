"""Layout cues tried and not shipped (docs/evaluation.md), each judged by the rule fixed before
it was read: leave-one-document-out over the dev documents, the left-out one decided by the
cascade as the engine decides (vs_join_choice.left_out); a weight set would take the cue if the
mean left-out macro-F1 is higher with it. Held-out documents are never read here.

- text alone, `fill` measured in a proportional font's widths (Times-Roman's, pdfminer's metrics;
  a CJK character one em) instead of in characters: "ill" and "mmm" are not one width on a page.
- text alone, `next_label`: the next line is short (under half the usual width), ends without
  punctuation, starts no list item, and text follows it: a label ("Note", "提示") or a heading.
- PDF, `indent`: shipped since it passed this rule, measured from the edge of the block the line
  before starts at (hybrid.block_indent: a wrap inside an indented block, a list item's text, an
  admonition, groff's .RS, reads as no indent). Tried against it: from the column's edge (as
  shipped before), and from the block's edge only while the next line starts at or beyond it
  (a line leaving the block, a bullet after an item's wrapped text, counts from the column).

Not a test: run it by hand (minutes once `prefill-lens eval` has cached the model's evidence).

    .venv/bin/python -m tests.perf.layout_cues_choice [--model PATH]
"""

import argparse

import numpy as np
from pdfminer.fontmetrics import FONT_METRICS

from scorer import hybrid
from scorer.breaks import (CLAUSE_END, SENTENCE_END, SHORT, is_wide, line_pairs, starts_item,
                           text_fills)
from scorer.evaluate import corpus, manpages, typeset
from scorer.evaluate.evidence import prepare
from scorer.model import load_model
from tests.perf.vs_join_choice import left_out

TIMES = FONT_METRICS["Times-Roman"][1]  # glyph widths in thousandths of an em


def font_fill(text, offsets) -> np.ndarray:
    """How full each break's line is in Times-Roman widths (a CJK character one em)."""
    return text_fills(text, line_pairs(text, offsets),
                      lambda line: sum(1000 if is_wide(ch) else TIMES.get(ch, 500) for ch in line))


def next_label(text, offsets) -> np.ndarray:
    pairs = line_pairs(text, offsets)
    next_fill = text_fills(text, [(after, before) for before, after in pairs])
    out = np.zeros(len(pairs))
    for k, (_, after) in enumerate(pairs):
        end = after.rstrip()
        out[k] = float(bool(end) and next_fill[k] < 0.5 and k + 1 < len(pairs)
                       and not end.endswith(SENTENCE_END + CLAUSE_END + tuple(")）"))
                       and not starts_item(after))
    return out


def column_indent(layout) -> np.ndarray:
    return np.clip([f["indent_next"] for f in layout], -2.0, 6.0).astype(np.float64)


def leaving_indent(layout) -> np.ndarray:
    after = column_indent(layout)
    before = np.array([f["indent_before"] for f in layout], dtype=np.float64)
    return np.clip(np.where(after >= before, after - np.maximum(before, 0.0), after), -2.0, 6.0)


def column_fill(layout) -> np.ndarray:
    """How full the line is, measured from the column's edge even where it starts far in."""
    fill = np.array([f["fill"] for f in layout], dtype=np.float64)
    start = np.array([f["start_before"] for f in layout], dtype=np.float64)
    return np.clip(np.where(start > 0.25, fill + start, fill), 0.0, 1.5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    args = parser.parse_args()
    model = load_model(args.model)
    prepared = [prepare(model, d) for d in corpus.debian_documents(("dev",))
                + typeset.documents(("dev",)) + manpages.documents(("dev",))]
    for p in prepared:
        offsets = p.joined.break_at
        fill = np.clip(font_fill(p.doc.text, offsets), 0.0, 1.5)
        p.ev_text.update(font_fill=fill, font_short=(fill < SHORT).astype(np.float64),
                         next_label=next_label(p.doc.text, offsets))
        if p.doc.layout is not None:
            fill = column_fill(p.doc.layout)
            p.ev.update(column_indent=column_indent(p.doc.layout),
                        leaving_indent=leaving_indent(p.doc.layout),
                        column_fill=fill, column_short=(fill < SHORT).astype(np.float64))
    text = list(hybrid.MODEL + hybrid.TEXT_LAYOUT)
    pdf = list(hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT)
    pdfs = [p for p in prepared if p.doc.layout is not None]
    trials = [("text", prepared, False, text, {}),
              ("text", prepared, False, text, {"fill": "font_fill", "short": "font_short"}),
              ("text", prepared, False, text + ["next_label"], {}),
              ("pdf", pdfs, True, pdf, {}),
              ("pdf", pdfs, True, pdf, {"indent": "column_indent"}),
              ("pdf", pdfs, True, pdf, {"indent": "leaving_indent"}),
              ("pdf", pdfs, True, pdf, {"fill": "column_fill", "short": "column_short"}),
              ("pdf", pdfs, True, pdf, {"fill": "column_fill", "short": "column_short",
                                        "indent": "column_indent"})]
    for kind, docs, is_pdf, names, swap in trials:
        names = [swap.get(n, n) for n in names]
        scores = left_out(docs, names, is_pdf)
        tried = sorted(set(names) - set(text if not is_pdf else pdf)) or ["as shipped"]
        print(f"{kind} {', '.join(tried):22} mean left-out macro-F1 {np.mean(scores):.4f}  "
              + " ".join(f"{s:.3f}" for s in scores))


if __name__ == "__main__":
    main()
