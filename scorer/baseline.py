"""Simple decisions to measure the model against: keep-all, join-all, two layout rules and the
seed's 2-gram statistics.

Does: decide join/keep per break between consecutive lines from the lines alone (and how full
each line is); learn the 2-gram table from labelled breaks.
Does not: run the model (the hybrid, which also uses these cues, is hybrid.py).

The 2-gram method of the original experiment: how often does a line ending in character c end
a paragraph? Count, over labelled breaks, (line-final character, break or wrap) pairs; keep a
break when P(break | c), smoothed towards the overall rate, is above one half.
"""

from collections import Counter

from .hybrid import SENTENCE_END, SHORT

SMOOTHING = 2.0  # pseudo-counts of the overall break rate added to every character's counts


def plain(befores, fills) -> dict:
    """Decisions per break from the line before it and how full that line is."""
    n = len(befores)
    return {
        "keep-all": ["keep"] * n,
        "join-all": ["join"] * n,
        "rule: sentence end": ["keep" if line.rstrip().endswith(SENTENCE_END) else "join"
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
