"""Line-end hyphens: is "docu-" + "mentation" one word set with a hyphen by the layout
("documentation"), or a compound that keeps it ("well-" + "known")? The model decides: it reads
the text before the word once, then the word with its hyphen and without, each after it (the
text before stays in the KV cache); the hyphen goes only where the model clearly prefers the
word without it (MARGIN).

Does: find the candidates (a letter, a hyphen at the line end, a lower-case letter starting the
next line), score both readings, decide; a hyphen set after an address's "/" or "." where a
URL or path is cut goes without asking. Does not: merge (breaks.merge drops the hyphen of a
joined break where told) or decide join/keep (decide.py).
"""

import re

import numpy as np

from .breaks import HYPHENS, cut_address, line_pairs
from .prefill import branch_steps

CONTEXT_CHARS = 120  # text before the word that the model reads first
MARGIN = 4.0  # nats the reading without the hyphen must win by (set on dev cases only)
LETTERS = re.compile(r"[^\W\d_]+$")
WORD_START = re.compile(r"[^\W\d_]+")


def candidates(text, offsets) -> list:
    """Indices k of the breaks whose line ends in a letter and a hyphen and whose next line
    starts with a lower-case letter."""
    return [k for k, (before, after) in enumerate(line_pairs(text, offsets))
            if len(before) > 1 and before[-1] in HYPHENS and before[-2].isalpha()
            and after[:1].isalpha() and after[:1].islower()]


def address_cuts(text, offsets) -> list:
    """Indices k of the breaks where a typesetter cut a URL or a path after its punctuation and
    set a hyphen there ("www.debian.org/-" + "doc/"): no model is asked, the hyphen is none of
    the address's."""
    return [k for k, (before, after) in enumerate(line_pairs(text, offsets))
            if len(before) > 2 and before[-1] in HYPHENS and before[-2] in "/._~"
            and cut_address(before[:-1], after)]


def readings(text, i) -> tuple:
    """(context, the word with its hyphen, the word without) around the hyphen that ends the
    line before the newline at `i`; each reading ends with what follows the word."""
    line = text[text.rfind("\n", 0, i) + 1:i]  # the line the hyphen ends
    left = LETTERS.search(line[:-1])
    in_line = left.start() if left else len(line) - 1
    start = i - len(line) + in_line  # where the word starts in the text
    right = WORD_START.match(text, i + 1)
    end = right.end() if right else i + 1
    word_left, word_right, tail = line[in_line:-1], text[i + 1:end], text[end:end + 1]
    context = " ".join(text[max(0, start - CONTEXT_CHARS):start].split())
    if context:
        context += " "
    hyphen = line[-1]
    return context, word_left + hyphen + word_right + tail, word_left + word_right + tail


def readings_logp_steps(model, context, readings, ctx=None):
    """[log P(reading | context) for each reading], as a generator of steps: the context is
    read once for all of them (prefill.branch_steps)."""
    prefix = model.tokenize_exact([context])[0] if context else []
    return (yield from branch_steps(model, prefix, [model.tokenize_exact([r])[0] for r in readings],
                                    ctx))


def decide_steps(model, text, offsets, ctx=None):
    """Per break: True where the hyphen at its line end should go when joined. A generator of
    steps (the context once, then each reading) that yields (candidates read, candidates in
    all); returns the list."""
    out = [False] * len(offsets)
    for k in address_cuts(text, offsets):
        out[k] = True
    found = candidates(text, offsets)
    for n, k in enumerate(found):
        context, with_hyphen, without = readings(text, offsets[k])
        lp_with, lp_without = yield from _as_progress(
            readings_logp_steps(model, context, [with_hyphen, without], ctx), n, len(found))
        out[k] = lp_without - lp_with > MARGIN
    if found:
        yield len(found), len(found)
    return out


def _as_progress(steps, done, total):
    """Run a short pass's steps, reporting (done, total) of the candidates instead."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value
        yield done, total
