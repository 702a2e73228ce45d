"""Page furniture: running headers and footers, page numbers and line numbers in a margin, marked
(`repeated`) so that the text leaves them out and the JSON keeps them.

Does not: read pages (reader.py).
"""

import re
from collections import Counter
from statistics import median

from .layout import THREE_LETTERS

LINE_NUMBER = re.compile(r"^\s*\d{1,5}\s*$")
MARGIN_EMS = 0.3  # a line number ends (starts) this far before (after) the page's text, or more
STRAY = 0.2  # at most this share of a margin's numbers may break their count (_counting)
PAGE_NUMBER = re.compile(r"^\s*(?:[-–—]\s*\d+\s*[-–—]|\d+\s*/\s*\d+|第\s*\d+\s*页(?:\s*共\s*\d+\s*页)?"
                         r"|page\s+\d+(?:\s+of\s+\d+)?|\d+)\s*$", re.IGNORECASE)
ROMAN = re.compile(r"^\s*([ivxlc]{1,7}|[IVXLC]{1,7})\s*$")  # a front matter's page number
ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def mark_repeated(lines, pages) -> None:
    """Running headers/footers: the same text (digits ignored) at the same height on at least
    half of the pages (and at least 2); a running head that changes with the chapter (or with
    the man page, in man pages set one after another): a page's first line, set apart from
    the text below it, whose text recurs at its height on another page, where half of the
    pages have their first line; page numbers alone on a line at a page's top or bottom, in
    roman numerals where another page's has the same offset from its index at that height (a
    front matter's "iii", "iv" counting with the pages; an index's letter "C" alone stays)."""
    def key(line):
        return (round(line.top / 4), re.sub(r"\d+", "#", line.text))

    counts = Counter(key(line) for line in {(ln.page, key(ln)): ln for ln in lines}.values())
    need = max(2, (pages + 1) // 2)
    by_page = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    folio = _folio_offset(by_page)
    heads = Counter(key(page_lines[0])[0] for page_lines in by_page.values())  # their heights
    # a title with the page number ("2.3 Duties 7") is furniture where such lines usually sit:
    # a chapter's first line ("Chapter 1" on page 1) sits elsewhere and stays
    folio_at = Counter(round(ln.top / 4) for number, page_lines in by_page.items()
                       for ln in {page_lines[0].top: page_lines[0], page_lines[-1].top: page_lines[-1]}.values()
                       if folio is not None and folio in _edge_numbers(ln, number))
    romans = Counter((round(ln.top / 4), _roman(ln.text) - number)  # at a height, an offset
                     for number, page_lines in by_page.items()
                     for ln in _edge_lines(page_lines) if _roman(ln.text))
    for number, page_lines in by_page.items():
        edges = {id(ln) for ln in _edge_lines(page_lines)}
        for line in page_lines:
            at = key(line)
            if pages >= 2 and counts[at] >= need:
                line.repeated = True
            elif (line is page_lines[0] and counts[at] >= 2 and heads[at[0]] >= need
                  and _set_apart(page_lines)):
                line.repeated = True
            elif id(line) in edges and (
                    PAGE_NUMBER.match(line.text)
                    or (_roman(line.text)
                        and romans[round(line.top / 4), _roman(line.text) - number] >= 2)
                    or (folio is not None and folio in _edge_numbers(line, number)
                        and folio_at[round(line.top / 4)] >= 2)):
                line.repeated = True
    amid = [line for page_lines in by_page.values() for line in page_lines
            if line.repeated and _amid(line, page_lines)]
    for line in amid:
        line.repeated = False
    if all(line.repeated for line in lines):  # nothing else on the pages: that is the text
        for line in lines:
            line.repeated = False


def _amid(line, page_lines) -> bool:
    """Does the page's text stand both above and below `line`, in its width, and has it a word
    of three letters or more? Then it is the text's, however often it recurs at its height (a
    template filled twice, a sample's dummy text, an edition's repeated note): a running head
    or foot stands at the page's top or foot, a line's number or a tab beside the text, and a
    letter or a number alone is a mark (an answer sheet's boxes)."""
    def across(other):
        return not other.repeated and other.x0 < line.x1 and line.x0 < other.x1

    above = any(across(o) and o.bottom <= line.top for o in page_lines)
    below = any(across(o) and o.top >= line.bottom for o in page_lines)
    return above and below and bool(THREE_LETTERS.search(line.text))


def _edge_lines(page_lines) -> list:
    """A page's first line and its last, once each."""
    return page_lines[:1] + page_lines[1:][-1:]


def _roman(text: str) -> int:
    """The value of a number in roman numerals alone on a line ("iv", "XII"); 0: none."""
    found = ROMAN.match(text)
    if not found:
        return 0
    values = [ROMAN_VALUES[ch] for ch in found.group(1).lower()]
    return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0]))


def _set_apart(page_lines) -> bool:
    """Is a page's first line further from the next than its lines usually are (a head)?"""
    gaps = [b.top - a.bottom for a, b in zip(page_lines, page_lines[1:])]
    return len(gaps) >= 2 and gaps[0] > max(2 * median(gaps[1:]), page_lines[0].size)


def _edge_numbers(line, page):
    """Offsets (printed number - page index) of integers at the start or end of a line."""
    found = re.findall(r"^\s*(\d{1,4})\b|\b(\d{1,4})\s*$", line.text)
    return {int(a or b) - page for a, b in found}


def _folio_offset(by_page):
    """A running header/footer with a section title and the page number ("2.3 Duties 7"): the
    printed number minus the page index is the same on many pages' first or last lines."""
    offsets = Counter()
    for number, page_lines in by_page.items():
        for off in _edge_numbers(page_lines[0], number) | _edge_numbers(page_lines[-1], number):
            offsets[off] += 1
    if not offsets:
        return None
    off, seen = offsets.most_common(1)[0]
    return off if seen >= max(3, len(by_page) // 5) else None


def mark_line_numbers(lines) -> None:
    """Line numbers in a margin (lineno's, a legal text's, a critical edition's every fifth
    line): lines that are a number alone, wholly left of where most of the page's other lines
    start (or right of where they reach), by MARGIN_EMS or more, or left of the line they stand
    beside (_beside) in a smaller font; three or more on that side of a page, counting down it
    (_counting). Set at offset heights beside the lines they count, each was read as a line of
    its own between two of the body's, and every break around one was kept (lineno's manual:
    367 wraps kept, pymupdf4llm's 2). Beside its line, a number counts where the page's lines
    start further left than the prose (lineno's code lines, their own numbers read into them)."""
    by_page = {}
    for line in lines:
        if not line.repeated:
            by_page.setdefault(line.page, []).append(line)
    for page_lines in by_page.values():
        numbers, text = [], []
        for line in page_lines:
            (numbers if LINE_NUMBER.match(line.text) else text).append(line)
        if not numbers or not text:
            continue
        em = median(ln.size or 10.0 for ln in text)
        start = Counter(round(ln.x0) for ln in text).most_common(1)[0][0]
        end = max(ln.x1 for ln in text)

        def left(number):
            line = _beside(number, text)
            edge = max(start, line.x0) if line is not None and number.size < line.size else start
            return number.x1 <= edge - MARGIN_EMS * em

        for side in ([ln for ln in numbers if left(ln)],
                     [ln for ln in numbers if ln.x0 >= end + MARGIN_EMS * em]):
            side.sort(key=lambda ln: ln.top)
            if len(side) >= 3 and _counting([int(ln.text) for ln in side]):
                for line in side:
                    line.repeated = True


def _beside(number, text):
    """The line of `text` that a number stands beside: the one whose height holds its middle."""
    middle = (number.top + number.bottom) / 2
    return next((ln for ln in text if ln.top <= middle <= ln.bottom), None)


def _counting(values) -> bool:
    """Do `values`, a margin's numbers down a page, count its lines: does each step but at most
    STRAY of them go up? A count may start again (lineno's manual numbers its code lines and its
    prose lines apart: "83" to "93", then "1"), and a number may be misread (lineno's "18" read
    as "1" where the heading beside it took its "8")."""
    steps = [b > a for a, b in zip(values, values[1:])]
    return len(values) >= 3 and sum(steps) >= (1 - STRAY) * len(steps)
