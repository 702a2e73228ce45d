"""Layout cues tried, shipped or not (docs/evaluation.md), each judged by the rule fixed before
it was read: leave-one-document-out over the dev documents, the left-out one decided by the
cascade as the engine decides (lodo.left_out); a weight set would take the cue if the
mean left-out macro-F1 is higher with it. Held-out documents are never read here.

- text alone, `fill` measured in a proportional font's widths (Times-Roman's, pdfminer's metrics;
  a CJK character one em) instead of in characters: "ill" and "mmm" are not one width on a page.
- text alone, `next_label`: the next line is short (under half the usual width), ends without
  punctuation, starts no list item, and text follows it: a label ("Note", "提示") or a heading.
- text alone, `room` (shipped; breaks.text_room): what a full line would have left after the
  line and the next line's first word, in glyph widths; tried against text without it, against
  the room counted in characters (display widths), and in the PDF set.
- PDF, `fits` (shipped): by how much the next line's first word (its glyphs' width and a space's:
  pdf.layout.first_word) would have fit on the line, in shares of the column, measured on the
  page (the text's `room` guesses it from characters; it lost in the PDF set); tried against
  no such cue and against the room signed (below 0 too).
- PDF: the shipped cues against what they replaced. `indent` counts from the edge of the block
  the line before starts at, and a line that hangs from the line before's list marker or tag
  reads none (hybrid.block_indent); `indent_full` is that indent where the line before ends full
  (hybrid.indent_full); `fill` measures a line that starts beyond a quarter of the column from
  its own start (pdf.break_features). Tried against them: without `indent_full`; the block's
  edge without the hanging lines; the indent from the column's edge (as shipped before); the fill
  from the column's edge.

Not a test: run it by hand (minutes once `prefill-lens eval` has cached the model's evidence).

    .venv/bin/python -m tests.perf.layout_cues_choice [--model PATH] [--only LABEL]
"""

import argparse

import numpy as np

from scorer import hybrid
from scorer.breaks import (CLAUSE_END, SENTENCE_END, SHORT, display_width, glyph_width,
                           line_pairs, starts_item, text_fills, text_room)
from scorer.model import load_model
from scorer.pdf import FAR_IN
from tests.perf.lodo import dev_documents, left_out


def font_fill(text, offsets) -> np.ndarray:
    """How full each break's line is in Times-Roman widths (a CJK character one em)."""
    return text_fills(text, line_pairs(text, offsets), glyph_width)


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


def column_fill(layout) -> np.ndarray:
    """How full the line is, measured from the column's edge even where it starts far in."""
    fill = np.array([f["fill"] for f in layout], dtype=np.float64)
    start = np.array([f["start_before"] for f in layout], dtype=np.float64)
    return np.clip(np.where(start > FAR_IN, fill + start, fill), 0.0, 1.5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--only", help="run only the trials whose label holds this")
    args = parser.parse_args()
    model = load_model(args.model)
    prepared = dev_documents(model)
    for p in prepared:
        offsets = p.joined.break_at
        fill = np.clip(font_fill(p.doc.text, offsets), 0.0, 1.5)
        p.ev_text.update(font_fill=fill, font_short=(fill < SHORT).astype(np.float64),
                         next_label=next_label(p.doc.text, offsets),
                         char_room=text_room(p.doc.text, line_pairs(p.doc.text, offsets),
                                             display_width))
        layout = p.doc.layout
        if layout is not None:
            fill, ev = column_fill(layout), p.ev
            ev["room"] = p.ev_text["room"]  # the engine reads it in text alone only
            ev["page_room"] = np.clip([f["room"] for f in layout], -0.5, 1.0)
            unhung = hybrid.block_indent([{**f, "hanging": False} for f in layout])
            ev.update(column_fill=fill, column_short=(fill < SHORT).astype(np.float64),
                      unhung=unhung, unhung_full=hybrid.indent_full(unhung, ev["fill"]),
                      column_indent=column_indent(layout),
                      column_full=hybrid.indent_full(column_indent(layout), ev["fill"]),
                      fill_full=hybrid.indent_full(ev["indent"], fill))
    text = list(hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.TEXT_ALONE)
    pdf = list(hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT)
    pdfs = [p for p in prepared if p.doc.layout is not None]
    trials = [("text as shipped", prepared, False, text, {}),
              ("text, fill in glyph widths", prepared, False, text,
               {"fill": "font_fill", "short": "font_short"}),
              ("text, with next_label", prepared, False, text + ["next_label"], {}),
              ("text without room", prepared, False, [n for n in text if n != "room"], {}),
              ("text, room in characters", prepared, False, text, {"room": "char_room"}),
              ("PDF, with room", pdfs, True, pdf + ["room"], {}),
              ("PDF as shipped", pdfs, True, pdf, {}),
              ("PDF without fits", pdfs, True, [n for n in pdf if n != "fits"], {}),
              ("PDF, room on the page signed", pdfs, True, pdf, {"fits": "page_room"}),
              ("PDF without indent_full", pdfs, True, [n for n in pdf if n != "indent_full"], {}),
              ("PDF, no hanging lines", pdfs, True, pdf,
               {"indent": "unhung", "indent_full": "unhung_full"}),
              ("PDF, indent from the column", pdfs, True, pdf,
               {"indent": "column_indent", "indent_full": "column_full"}),
              ("PDF, fill from the column", pdfs, True, pdf,
               {"fill": "column_fill", "short": "column_short", "indent_full": "fill_full"})]
    for label, docs, is_pdf, names, swap in trials:
        if args.only and args.only not in label:
            continue
        scores = left_out(docs, [swap.get(n, n) for n in names], is_pdf)
        print(f"{label:28} mean left-out macro-F1 {np.mean(scores):.4f}  "
              + " ".join(f"{s:.3f}" for s in scores))


if __name__ == "__main__":
    main()
