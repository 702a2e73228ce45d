"""Labels from a plain-text twin: which newlines of a PDF's lines are wraps and which are breaks.

The twin's paragraphs (blocks between blank lines, list items, headings) say where the real
breaks are. Does: align the PDF's lines to the twin, ignoring whitespace, quotes, dashes and list
markers, and label each newline between two aligned, adjacent lines WRAP (inside a twin
paragraph) or BREAK (at a paragraph, list item or heading boundary); newlines that do not align
stay unlabelled (None). Also labels a hard-wrapped text against its one-paragraph-per-line truth:
exactly (the samples), or aligned the same loose way (an analyst's truth text, labelfile.py).
Does not: fetch documents (evaluate/corpus.py) or score anything. Used by the evaluation and by
an analyst's truth text (labelfile.py), so it sits below both.
"""

import bisect
import re
import unicodedata
from collections import Counter
from typing import NamedTuple

from .breaks import candidates, starts_item

WRAP, BREAK = "wrap", "break"
SEARCH_AHEAD = 4000  # normalised characters a line may be away from the previous one in the twin
ANCHOR = 25  # a line this long (normalised) is distinctive enough to be searched for anywhere
BULLET = re.compile(r"^\s*[*•·●▪‣◦-]\s+")  # list markers differ between a PDF and its twin
UNDERLINE = re.compile(r"^\s*([=\-*~^#+])\1{2,}\s*$")  # a heading's underline in a text rendering
GRID = re.compile(r"^\s*(\||\+-)")  # a table's row or rule drawn with | and +--- in a rendering
FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-"})


def normalise(text: str) -> str:
    """What alignment compares: NFKC, straight quotes and plain dashes, no list marker, no
    whitespace at all."""
    text = BULLET.sub("", unicodedata.normalize("NFKC", text).translate(FOLD))
    return "".join(ch for ch in text if not ch.isspace())


def twin_stream(twin: str) -> tuple:
    """(normalised twin text, set of positions in it where a paragraph, item or heading starts,
    [(start, end)] of its preformatted lines: blocks indented beyond its paragraphs with no list
    marker, such as code, and tables drawn as grids, which the twin sets as they are (a grid's
    line runs across its cells): they say nothing about paragraphs)."""
    out, starts, pre, pos = [], set(), [], 0
    new_block, column, preformatted, in_grid = True, 0, False, False
    base = _usual_indent(twin)
    for line in twin.splitlines():
        if not line.strip() or UNDERLINE.match(line):  # blank, or the underline of a heading
            new_block = True
            continue
        indent = len(line) - len(line.lstrip())
        marker = BULLET.match(line)
        # a paragraph's lines continue at its text column; any other indent starts a block
        grid = bool(GRID.match(line))
        if new_block or indent != column or marker or starts_item(line) or grid != in_grid:
            starts.add(pos)
            preformatted = grid or (indent >= base + 2 and not marker and not starts_item(line))
        in_grid = grid
        column = marker.end() if marker else indent
        norm = normalise(line)
        new_block = False
        out.append(norm)
        if preformatted:
            pre.append((pos, pos + len(norm)))
        pos += len(norm)
    return "".join(out), starts, pre


def _usual_indent(twin: str) -> int:
    """The indent most paragraphs of the twin start at (0, or 4 in some renderings)."""
    indents, after_blank = Counter(), True
    for line in twin.splitlines():
        if not line.strip():
            after_blank = True
            continue
        if after_blank and not BULLET.match(line):
            indents[len(line) - len(line.lstrip())] += 1
        after_blank = False
    return indents.most_common(1)[0][0] if indents else 0


def twin_labels(lines, twin: str) -> list:
    """Per newline between consecutive `lines` (PDF line texts): WRAP, BREAK or None."""
    return align_stream(lines, *twin_stream(twin))


class Order(NamedTuple):
    """A PDF's reading order against its twin (reading_order)."""
    checked: int  # lines of ANCHOR normalised characters or more the twin holds exactly once
    out: int  # of them, the fewest that must move for the rest to follow the twin's order
    prose_checked: int  # the checked lines outside the twin's preformatted blocks
    prose_out: int  # the fewest of those that must move for the rest to follow the twin's order


def reading_order(lines, twin: str) -> Order:
    """How far a PDF's lines follow its twin's order. Checked: each line of ANCHOR normalised
    characters or more that the twin holds exactly once (so its place there is certain). Out of
    order: the fewest of them that must move for the rest to follow the twin's order (those
    outside the longest increasing run of places): a column read across, a block read too early.
    Lines the twin does not hold are not checked. Counted twice: every checked line, and the
    prose alone (lines the twin does not set as a preformatted block): a typesetter floats a
    table to the next page top and sets a footnote at the page foot, where the twin keeps both
    in the source's order; over all lines such a block counts out of order, in the prose only
    what moves with it and the twin sets as prose (a caption) still does."""
    stream, _, pre = twin_stream(twin)
    places, prose = [], []
    for line in lines:
        norm = normalise(line)
        if len(norm) >= ANCHOR and stream.count(norm) == 1:
            at = stream.find(norm)
            places.append(at)
            if not inside(pre, at):
                prose.append(at)
    return Order(len(places), len(places) - longest_increasing(places),
                 len(prose), len(prose) - longest_increasing(prose))


def inside(ranges, at) -> bool:
    """Does position `at` fall in one of `ranges` ([(start, end)], sorted, not overlapping)?"""
    k = bisect.bisect_right(ranges, (at, float("inf"))) - 1
    return k >= 0 and at < ranges[k][1]


def longest_increasing(places) -> int:
    tails = []  # tails[k]: the smallest last place of an increasing run of k + 1 places
    for at in places:
        k = bisect.bisect_left(tails, at)
        tails[k:k + 1] = [at]
    return len(tails)


def paragraph_labels(text: str, truth: str) -> list:
    """Per candidate break of `text`: WRAP, BREAK or None, where `truth` holds its paragraphs
    one per line (blank lines ignored; whitespace, quotes and dashes may differ)."""
    paragraphs = [normalise(line) for line in truth.splitlines() if line.strip()]
    starts, pos = set(), 0
    for para in paragraphs:
        starts.add(pos)
        pos += len(para)
    per_newline = align_stream(text.split("\n"), "".join(paragraphs), starts, [])
    newline_index = {i: k for k, i in enumerate(i for i, ch in enumerate(text) if ch == "\n")}
    return [per_newline[newline_index[i]] for i in candidates(text)]


def align_stream(lines, stream, starts, pre) -> list:
    """Per newline between consecutive `lines`: WRAP, BREAK or None, by finding each line in
    the normalised `stream` in order; `starts`: where its paragraphs start; `pre`: ranges of
    preformatted text, where a break gets no label."""
    def preformatted(at) -> bool:
        return inside(pre, at)

    found = []  # per line: (start, end) in the stream, or None
    cursor = 0
    norms = [normalise(line) for line in lines] + [""]
    for norm, following in zip(norms, norms[1:]):
        at = _find(stream, norm, cursor, following)
        if at < 0 and norm.endswith("-"):  # a word hyphenated by the layout, whole in the twin
            norm = norm[:-1]
            at = _find(stream, norm, cursor, following)
        if at < 0:
            found.append(None)
            continue
        found.append((at, at + len(norm)))
        cursor = at + len(norm)
    labels = []
    for here, after in zip(found, found[1:]):  # only adjacent, contiguous lines get a label
        if here is None or after is None or after[0] != here[1]:
            labels.append(None)
        elif preformatted(here[0]) or preformatted(after[0]):
            labels.append(None)
        else:
            labels.append(BREAK if after[0] in starts else WRAP)
    return labels


def _find(stream, norm, cursor, following="") -> int:
    """Where `norm` continues the alignment: near the cursor, else (if distinctive) anywhere
    after where the `following` line's text comes soon after it too: a line found far ahead
    alone (a URL or a table header the twin also holds later) would carry the cursor past the
    text still to come."""
    if not norm:
        return -1
    at = stream.find(norm, cursor, cursor + SEARCH_AHEAD + len(norm))
    if at >= 0 or len(norm) < ANCHOR:
        return at
    at = stream.find(norm, cursor)
    while at >= 0 and following:
        end = at + len(norm)
        if stream.find(following, end, end + SEARCH_AHEAD + len(following)) >= 0:
            break
        at = stream.find(norm, at + 1)
    return at


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


