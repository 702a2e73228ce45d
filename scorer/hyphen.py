"""Line-end hyphens: is "docu-" + "mentation" one word set with a hyphen by the layout
("documentation"), or a compound that keeps it ("well-" + "known")? The model decides: it reads
the text before the word once, and the word with its hyphen and without after it (two
sequences sharing the text before in one KV cache, every candidate of a document in as few
decodes as fit); the hyphen goes only where the model clearly prefers the word without it
(MARGIN).

Does: find the candidates (a letter, a hyphen at the line end, a lower-case letter starting the
next line), score both readings, decide; a hyphen set after an address's "/" or "." where a
URL or path is cut goes without asking, and so does the model's question about a word the text
itself writes whole on one line elsewhere (with its hyphen: it stays; without: it goes).
Does not: merge (breaks.merge drops the hyphen of a joined break where told) or decide
join/keep (decide.py).
"""

import re

from .breaks import HYPHENS, cut_address, cut_name, cuts_word, line_pairs
from .prefill import readings_steps

CONTEXT_CHARS = 24  # text before the word, whole words, that the model reads (tests/perf/hyphen_choice.py)
MARGIN = 7.5  # nats the reading without the hyphen must win by (chosen with CONTEXT_CHARS)
LETTERS = re.compile(r"[^\W\d_]+$")
WORD_START = re.compile(r"[^\W\d_]+")
PART_WORD = re.compile(r"^\S+")  # what a cut inside a word leaves of it
WHOLE_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")  # on one line: "well-known", "docu"


def candidates(text, offsets) -> list:
    """Indices k of the breaks whose line ends in a letter and a hyphen and whose next line
    starts with a lower-case letter."""
    return [k for k, (before, after) in enumerate(line_pairs(text, offsets))
            if cuts_word(before) and after[:1].isalpha() and after[:1].islower()]


def address_cuts(text, offsets) -> list:
    """Indices k of the breaks where a typesetter cut a URL or a path after its punctuation and
    set a hyphen there ("www.debian.org/-" + "doc/"), or a name after its underscore
    (breaks.cut_name): no model is asked, the hyphen is none of the address's or the name's."""
    return [k for k, (before, after) in enumerate(line_pairs(text, offsets))
            if (len(before) > 2 and before[-1] in HYPHENS and before[-2] in "/._~"
                and cut_address(before[:-1], after)) or cut_name(before, after)]


def split_word(text, i) -> tuple:
    """(where the word starts, its part before the hyphen, the hyphen, its part after, where it
    ends) around the hyphen that ends the line before the newline at `i`."""
    line = text[text.rfind("\n", 0, i) + 1:i]  # the line the hyphen ends
    left = LETTERS.search(line[:-1])
    in_line = left.start() if left else len(line) - 1
    right = WORD_START.match(text, i + 1)
    end = right.end() if right else i + 1
    return i - len(line) + in_line, line[in_line:-1], line[-1], text[i + 1:end], end


def readings(text, i, chars=None) -> tuple:
    """(context, the word with its hyphen, the word without) around the hyphen that ends the
    line before the newline at `i`: the whole words among the `chars` (CONTEXT_CHARS)
    characters before the word (no tail of a word cut), whitespace as single spaces, and each
    spelling with the space before it, so the word is tokenized as the model saw words in
    training (" documentation", not " " + "documentation")."""
    start, left, hyphen, right, _ = split_word(text, i)
    cut = max(0, start - (CONTEXT_CHARS if chars is None else chars))
    before = text[cut:start]
    if cut and not text[cut - 1].isspace():  # cut inside a word: from the next whole one
        before = PART_WORD.sub("", before)
    context = " ".join(before.split())
    space = " " if context and before[-1:].isspace() else ""
    return context, space + left + hyphen + right, space + left + right


def reading_item(model, text, i, chars=None) -> tuple:
    """(context tokens, [tokens with the hyphen, tokens without]) for the hyphen that ends the
    line before the newline at `i`: what prefill.readings_steps reads (`readings`)."""
    context, with_hyphen, without = readings(text, i, chars)
    prefix = model.tokenize_exact([context])[0] if context else []
    return prefix, [model.tokenize_exact([with_hyphen])[0], model.tokenize_exact([without])[0]]


def written(text, offsets, found) -> dict:
    """{k: does the hyphen go} for the candidates `found` whose word the text writes whole on
    one line elsewhere: with a hyphen ("well-known": it stays, whatever else it writes), else
    without it ("documentation": it goes). The model is asked about the others."""
    words = {w.lower() for w in WHOLE_WORD.findall(text)}
    out = {}
    for k in found:
        _, left, _, right, _ = split_word(text, offsets[k])
        if f"{left}-{right}".lower() in words:
            out[k] = False
        elif (left + right).lower() in words:
            out[k] = True
    return out


def decide_steps(model, text, offsets):
    """Per break: True where the hyphen at its line end should go when joined. A generator of
    steps that yields (candidates read, candidates in all): all of them read together, as
    many a llama.cpp decode as fit (prefill.readings_steps: each context once, both
    spellings after it); returns the list. A word the text writes whole elsewhere is not asked
    (written); a candidate too long to read keeps its hyphen."""
    out = [False] * len(offsets)
    for k in address_cuts(text, offsets):
        out[k] = True
    found = candidates(text, offsets)
    known = written(text, offsets, found)
    for k, goes in known.items():
        out[k] = goes
    found = [k for k in found if k not in known]
    items = [reading_item(model, text, offsets[k]) for k in found]
    if items:
        read = yield from readings_steps(model, items)
        for k, logps in zip(found, read):
            out[k] = logps is not None and logps[1] - logps[0] > MARGIN
    return out
