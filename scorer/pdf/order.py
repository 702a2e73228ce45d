"""Reading order: a page's text lines region by region, down each column in turn, a band
that spans the columns where it stands; a note in a margin before the paragraph it stands
beside; a page's footnotes after the next page's text where a sentence runs on to it.

Does not: find the regions (regions.py).
"""

import re
from statistics import median

from ..breaks import HYPHENS, ends_sentence
from .layout import body_size
from .lines import text_lines
from .regions import page_regions, row_gaps

NOTE_EMS = 0.5  # a note in a margin stands this far outside the body's column, or further
SHORT_EMS = 2.0  # a line ending this far before its column's edge falls short: a paragraph's end
NOTE_SHARE = 0.5  # a page's notes are at most this share of its other lines (else they are
# its text, and what stands in its column is a listing's numbers, say)
FOOTNOTE_SIZE = 0.92  # a footnote is set smaller than the body's text by this factor or more
FOOTNOTE_MARK = re.compile(r"\s*(?:[∗*†‡§¶‖]|\d{1,3}(?!\d))")  # "∗This file...", "1 aka..."


def reading_order(page, ruled) -> list:
    """[(region, raw text line)] in reading order (`ruled`: the page's ruled_tables). Region
    0: read across; 1, 2...: the columns, left to right, of a part of the page read in columns
    (page_regions: the whole page, or the runs of rows that leave the middle empty when the
    page changes from one column to two)."""
    x0, top, x1, bottom = page.bbox
    out = []
    for lo, hi, cuts in page_regions(page, ruled):
        part = page if (lo, hi) == (top, bottom) else part_of(page, (x0, lo, x1, hi))
        out += _columns(part, cuts) if cuts else [(0, raw) for raw in text_lines(part)]
    return out


def _columns(page, cuts) -> list:
    """A page (or part of one) of two or more columns in reading order: each band of rows
    between full-width lines is read down each column in turn, left to right. The columns are
    cut where each starts (a gutter's right edge), so a line running into a gutter (a long
    path) stays in its column; a row is full width only when its words run across a gutter,
    none of them starts the column after it, and no line of that column stands beside it (a
    reference card sets its columns' rows at heights of their own)."""
    x0, top, x1, bottom = page.bbox
    rows = {}  # row -> [top, bottom, spans a gutter?]
    for g0, g1 in cuts:
        found = row_gaps(page, g0, g1)
        right = [(r_top, r_bottom) for r_top, r_bottom, _, _, right_only in found if right_only]
        for r_top, r_bottom, gap, starts_right, _ in found:
            row = rows.setdefault(round(r_top), [r_top, r_bottom, False])
            row[2] = row[2] or (gap < (g1 - g0) / 2 and not starts_right
                                and not any(t < r_bottom and b > r_top for t, b in right))
    bands = []  # [top, bottom, spans a gutter?], top down
    for r_top, r_bottom, spans in sorted(rows.values()):
        if bands and bands[-1][2] == spans:
            bands[-1][1] = max(bands[-1][1], r_bottom)
        else:
            bands.append([r_top, r_bottom, spans])
    out = []
    edges = [x0] + [g1 - 0.5 for _, g1 in cuts] + [x1]
    for k, (b_top, b_bottom, spans) in enumerate(bands):  # crop between the bands' edges
        lo = top if k == 0 else (bands[k - 1][1] + b_top) / 2
        hi = bottom if k == len(bands) - 1 else (b_bottom + bands[k + 1][0]) / 2
        if spans:
            out += [(0, raw) for raw in text_lines(part_of(page, (x0, lo, x1, hi)))]
            continue
        for column, (left, right) in enumerate(zip(edges, edges[1:]), 1):
            out += [(column, raw) for raw in text_lines(part_of(page, (left, lo, right, hi)))]
    return out


def part_of(page, bbox):
    """The part of `page` inside `bbox` (x0, top, x1, bottom), each glyph wholly in the part its
    middle falls in. pdfplumber's crop keeps a glyph that straddles the edge in the parts on
    both sides, each cut to its side: a line of a reference card whose rows stand between
    another column's rows was read twice, once whole and once letter by letter."""
    x0, top, x1, bottom = bbox

    def inside(obj) -> bool:
        return obj.get("object_type") != "char" or (x0 <= (obj["x0"] + obj["x1"]) / 2 < x1 and
                                                     top <= (obj["top"] + obj["bottom"]) / 2 < bottom)

    return page.filter(inside).crop(bbox)


def place_margin_notes(lines) -> list:
    """`lines` (a PDF's, their columns marked: layout.mark_columns) with each note in a margin
    placed before the paragraph it stands beside. A note: a line of a page read across (no
    columns), wholly outside the body's column by NOTE_EMS or more and beside a line of prose
    in it (their heights overlap), not furniture (a line number), a figure's label or a
    table's row, the page's notes at most NOTE_SHARE of its other lines: a LaTeX package
    manual's macro names (ltxdoc's \\DescribeMacro), a \\marginpar, a book's glosses. Read by
    height, a note stood between two lines of a sentence, and the breaks on both sides of it
    were kept (lni's guide, l3doc manuals, mwe's marginpars). The paragraph starts at the
    first line up from the one beside the note that is a page's first, follows a wider gap
    than the page's lines leave, a line falling SHORT_EMS short of the column, a code line or
    a change of size, or is indented with the next line back at the edge."""
    return [line for page_lines in _by_page(lines).values() for line in _placed(page_lines)]


def _by_page(lines) -> dict:
    """page number -> its lines, in order."""
    pages = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line)
    return pages


def _placed(page_lines) -> list:
    if any(ln.region for ln in page_lines):
        return page_lines
    body = [ln for ln in page_lines if not (ln.repeated or ln.figure or ln.table)]
    outside = {id(ln) for ln in body if _in_margin(ln)}
    text = [ln for ln in body if id(ln) not in outside]
    hosts = {}  # id of a note -> the index of the text line it stands beside
    for note in (ln for ln in body if id(ln) in outside):
        k = max(range(len(text)), key=lambda j: _overlap(note, text[j]), default=None)
        if k is not None and _overlap(note, text[k]) > 0 and _prose(text[k]):
            hosts[id(note)] = k
    notes = [ln for ln in body if id(ln) in hosts]
    if not notes or len(notes) > NOTE_SHARE * len(text):
        return page_lines
    gaps = [b.top - a.bottom for a, b in zip(text, text[1:])]
    usual = median(gaps)
    before = {}  # id of the line a paragraph starts at -> the notes placed before it
    for note in notes:
        k = hosts[id(note)]
        while k > 0 and not _starts(text, k, gaps[k - 1] - usual):
            k -= 1
        before.setdefault(id(text[k]), []).append(note)
    moved = {id(ln) for ln in notes}
    return [placed for ln in page_lines if id(ln) not in moved
            for placed in before.get(id(ln), []) + [ln]]


def _in_margin(line) -> bool:
    room = NOTE_EMS * (line.size or 10.0)
    return line.x1 <= line.column_x0 - room or line.x0 >= line.column_x1 + room


def _overlap(a, b) -> float:
    return min(a.bottom, b.bottom) - max(a.top, b.top)


def _prose(line) -> bool:
    """Is `line` a line of prose: not code, with a letter (not a listing's number)?"""
    return not line.code and any(ch.isalpha() for ch in line.text)


def _starts(text, k, wider) -> bool:
    """Does text[k] start a paragraph (place_margin_notes), `wider` its gap above beyond the
    page's usual one?"""
    line, prev = text[k], text[k - 1]
    em = line.size or 10.0
    after = text[k + 1] if k + 1 < len(text) else None
    indented = (line.x0 - line.column_x0 >= NOTE_EMS * em
                and after is not None and after.x0 <= line.x0 - NOTE_EMS * em)
    return (wider > NOTE_EMS * em or _short(prev) or prev.code
            or line.code or prev.size != line.size or indented)


def defer_footnotes(lines) -> list:
    """`lines` (a PDF's, in reading order) with a page's footnotes read after the paragraph that
    runs on to the next page where a sentence does (_runs_on): read in place, a note stood
    between the two halves of the sentence, and both breaks around it were kept. A page's
    footnotes: its last lines of text (furniture aside), below the line before them, set
    FOOTNOTE_SIZE of the body's size or smaller, the first opening on a note's mark
    (FOOTNOTE_MARK; without one, the rest of a note deferred from the page before), half the
    page's lines at most. Notes deferred are read after the first line that ends a paragraph
    (a sentence, and SHORT_EMS short of its column) on the pages after, or the first page's
    text that ends a sentence."""
    body = body_size([ln for ln in lines if not ln.repeated])
    pages = _by_page(lines)
    out, waiting = [], []
    for number, page_lines in pages.items():
        notes = _footnotes([ln for ln in page_lines if not ln.repeated], body, bool(waiting))
        moved = {id(ln) for ln in notes}
        text = [ln for ln in page_lines if id(ln) not in moved]
        if notes and not FOOTNOTE_MARK.match(notes[0].text):  # the rest of a note deferred
            waiting, notes = waiting + notes, []
        ends = [k for k, ln in enumerate(text) if _ends_paragraph(ln)]
        if waiting and ends:
            text[ends[0] + 1:ends[0] + 1] = waiting
            waiting = []
        last = next((ln for ln in reversed(text) if not ln.repeated), None)
        then = next((ln for ln in pages.get(number + 1, []) if not ln.repeated), None)
        if _runs_on(last, then):
            waiting += notes
        else:
            text += waiting + notes
            waiting = []
        out += text
    return out + waiting


def _runs_on(last, then) -> bool:
    """Does a sentence run on from a page's `last` line of text to the next page's first,
    `then`: the last ends no sentence (nor is code, a table's row or a figure's label) and the
    next goes on lowercase (in any script), or the last ends on a comma or a hyphen?"""
    return (last is not None and then is not None and not ends_sentence(last.text)
            and not _set_apart(last) and (then.text.lstrip()[:1].islower()
                                          or last.text.rstrip().endswith((",", *HYPHENS))))


def _footnotes(text, body_size, continued) -> list:
    """A page's footnotes (defer_footnotes) among its `text` lines in reading order, or []; the
    first opening on no mark where a note is `continued` from the page before."""
    k = len(text)
    while (k > 0 and text[k - 1].size and text[k - 1].size <= FOOTNOTE_SIZE * body_size
           and not _set_apart(text[k - 1])):
        k -= 1
    notes = text[k:]
    if (not notes or k == 0 or 2 * len(notes) > len(text) or notes[0].top < text[k - 1].bottom
            or not (continued or FOOTNOTE_MARK.match(notes[0].text))):
        return []
    return notes


def _set_apart(line) -> bool:
    """Is `line` code, a table's row or a figure's label (no sentence's, no note's)?"""
    return bool(line.code or line.table or line.figure)


def _ends_paragraph(line) -> bool:
    return not (line.repeated or line.code) and ends_sentence(line.text) and _short(line)


def _short(line) -> bool:
    """Does `line` end SHORT_EMS (of its own size) short of its column's edge?"""
    return line.x1 < line.column_x1 - SHORT_EMS * (line.size or 10.0)
