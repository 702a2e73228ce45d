"""Simple decisions to measure the model against: keep-all, join-all, two layout rules, the
seed's 2-gram statistics, and a peer: pdfminer.six's own layout analysis (its text boxes taken
as paragraphs).

Does: decide join/keep per break between consecutive lines from the lines alone (and how full
each line is); learn the 2-gram table from labelled breaks; find each line of a PDF in
pdfminer's text boxes.
Does not: run the model (the hybrid, which also uses these cues, is hybrid.py).

The 2-gram method of the original experiment: how often does a line ending in character c end
a paragraph? Count, over labelled breaks, (line-final character, break or wrap) pairs; keep a
break when P(break | c), smoothed towards the overall rate, is above one half.
"""

from collections import Counter

from .breaks import SHORT, ends_sentence

SMOOTHING = 2.0  # pseudo-counts of the overall break rate added to every character's counts


def plain(befores, fills) -> dict:
    """Decisions per break from the line before it and how full that line is."""
    n = len(befores)
    return {
        "keep-all": ["keep"] * n,
        "join-all": ["join"] * n,
        "rule: sentence end": ["keep" if ends_sentence(line) else "join"
                               for line in befores],
        "rule: short line": ["keep" if fill < SHORT else "join" for fill in fills],
    }


def last_char(line: str) -> str:
    line = line.rstrip()
    return line[-1] if line else ""


class TwoGram:
    """P(break | line-final character), learned from (line before, is it a break) pairs."""

    def __init__(self, examples):
        self.breaks, self.total = Counter(), Counter()
        for line, is_break in examples:
            c = last_char(line)
            self.total[c] += 1
            self.breaks[c] += bool(is_break)
        n = sum(self.total.values())
        self.prior = sum(self.breaks.values()) / n if n else 0.5

    def p_break(self, line: str) -> float:
        c = last_char(line)
        return (self.breaks[c] + SMOOTHING * self.prior) / (self.total[c] + SMOOTHING)

    def decisions(self, befores) -> list:
        """Per break, from the line before it."""
        return ["keep" if self.p_break(line) > 0.5 else "join" for line in befores]


def pdfminer_boxes(source, first, last, lines) -> list:
    """pdfminer.six's paragraphs: per break between consecutive `lines` ((page, top, bottom, x0,
    x1) of the body lines of pages first..last), "join" when pdfminer's layout analysis
    (default LAParams) put both lines in one text box, else "keep" (also for a line it has not
    found)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextBox, LTTextLine

    found = {}  # page -> [(top, bottom, x0, x1, box id)]
    box_id = 0
    for number, layout in zip(range(first, last + 1),
                              extract_pages(str(source), page_numbers=range(first - 1, last),
                                            laparams=LAParams())):
        height = layout.bbox[3]
        for box in layout:
            if not isinstance(box, LTTextBox):
                continue
            box_id += 1
            for line in box:
                if isinstance(line, LTTextLine):
                    found.setdefault(number, []).append(
                        (height - line.y1, height - line.y0, line.x0, line.x1, box_id))

    return same_box(found, lines)


def same_box(found, lines) -> list:
    """Per break between consecutive `lines` ((page, top, bottom, x0, x1)): "join" when both
    overlap most with one box of `found` (page -> [(top, bottom, x0, x1, box id)]), else
    "keep" (also for a line no box overlaps)."""
    def box_of(page, top, bottom, x0, x1):
        best, where = 0.0, None
        for t, b, a, z, box in found.get(page, []):
            overlap = max(0.0, min(bottom, b) - max(top, t)) * max(0.0, min(x1, z) - max(x0, a))
            if overlap > best:
                best, where = overlap, box
        return where

    boxes = [box_of(*line) for line in lines]
    return ["join" if a is not None and a == b else "keep" for a, b in zip(boxes, boxes[1:])]
