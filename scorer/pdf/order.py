"""Reading order: a page's text lines region by region, down each column in turn, a band
that spans the columns where it stands; a note in a margin before the paragraph it stands
beside; a page's footnotes after the next page's text where a sentence runs on to it.

Does not: find the regions (regions.py).
"""

import re
from collections import Counter
from statistics import median

from ..breaks import HYPHENS, ends_sentence, starts_item
from .layout import body_size
from .lines import (CELL_GAP_EMS, UNMAPPED, glyph_words, monospaced_share, page_part,
                    text_lines)
from .regions import in_tables, page_regions, row_gaps

NOTE_EMS = 0.5  # a note in a margin stands this far outside the body's column, or further
SHORT_EMS = 2.0  # a line ending this far before its column's edge falls short: a paragraph's end
MIN_EDGE_LINES = 5  # a page's left edge: where most of its lines of MIN_EDGE_TEXT characters
MIN_EDGE_TEXT = 20  # or more start, five of them at least
HANG_GAP_EMS = 0.5  # a word across a column's edge after a gap this wide or wider (or opening
# its row) opens the column right of the edge: the left column's words are a space apart
NOTE_SHARE = 0.5  # a page's notes are at most this share of its other lines (else they are
# its text, and what stands in its column is a listing's numbers, say)
FOOTNOTE_SIZE = 0.92  # a footnote is set smaller than the body's text by this factor or more
FOOTNOTE_MARK = re.compile(rf"\s*(?:[∗*⋆★†‡§¶‖]|{UNMAPPED.pattern}|\d{{1,3}}(?!\d))")  # "∗This
# file...", "1 aka...", TeX's \star ("⋆This document...": elsarticle's title notes; read
# "(cid:63)" until its glyph's name was read: pdf/glyphs.py)


def reading_order(page, ruled, fixed=frozenset(), tables=()) -> list:
    """[(region, raw text line)] in reading order (`ruled`: the page's ruled_tables; `fixed`:
    its monospaced fonts, lines.monospaced_fonts; `tables`: table_boxes(ruled)), margin notes
    apart (notes_apart). Region
    0: read across; 1, 2...: the columns, left to right, of a part of the page read in columns
    (page_regions: the whole page, or the runs of rows that leave the middle empty when the
    page changes from one column to two)."""
    x0, top, x1, bottom = page.bbox
    out = []
    for lo, hi, cuts in page_regions(page, ruled):
        part = page if (lo, hi) == (top, bottom) else part_of(page, (x0, lo, x1, hi))
        out += _columns(part, cuts) if cuts else [(0, raw) for raw in text_lines(part)]
    return notes_apart(out, fixed, tables)


def notes_apart(rows, fixed=frozenset(), tables=()) -> list:
    """`rows` ([(region, raw text line)], a page's) with a note set in the left margin on a
    body line's own baseline made a line of its own before it: pdfplumber rows glyphs by
    their baseline, and LaTeX package manuals set the macro or option they describe so, left
    of the first line that describes it ("\\faktor" + "Das namensgebende ... Makro ist",
    l3doc's and ltxdoc's margin notes, hyperref's "link (setup key)"): read into the line, the
    note stood inside a sentence where it fell mid-paragraph. A note: the glyphs that end
    NOTE_EMS or more before the page's left edge (where most of its lines read across start)
    before the rest of the line, which starts at that edge or up to SHORT_EMS in and goes on
    in four words or more of prose (half of its glyphs or more in a font not monospaced:
    `fixed`; a listing's "def" left of its indented lines is no note); two letters or more,
    not opening on a digit (a heading's number hung in the margin, a listing's line number),
    nor a list's marker ("a. Convey the object code", a license's items hung in the margin;
    an exam's "b ● ● ●" boxes), nor in a table (`tables`: table_boxes), nor on a line of
    cells (a gap of CELL_GAP_EMS or more inside the note or after it: an unruled table's row,
    "BRE ERE" before its description column, "apt" before "aptitude   apt-get   Installieren
    ..."), on a page where a third of its lines or more start at the edge and such notes are
    at most NOTE_SHARE of its other lines (more are a column beside the body, a CV's sidebar,
    or a table's first cells) and no other line of text starts left of the edge (the edge is
    then a table's column, not the page's margin). place_margin_notes then reads it before
    its paragraph."""
    across = [raw for region, raw in rows if region == 0 and len(raw["text"]) >= MIN_EDGE_TEXT]
    if len(across) < MIN_EDGE_LINES:
        return rows
    starts = Counter(round(raw["x0"]) for raw in across)
    count = max(starts.values())
    edge = max(x for x, n in starts.items() if n == count)  # notes hang left of the body
    if count * 3 < len(across):  # no edge a third of the lines share
        return rows
    split = []
    for region, raw in rows:
        split.append(_note_split(raw, edge, fixed)
                     if region == 0 and not in_tables(raw, tables) else [raw])
    notes = sum(len(parts) > 1 for parts in split)
    if notes > NOTE_SHARE * (len(rows) - notes):  # a column beside the body, or a table's
        return rows
    if any(len(parts) == 1 and region == 0 and len(raw["text"]) >= MIN_EDGE_TEXT
           and raw["x0"] < edge - NOTE_EMS * _size(raw)
           for (region, raw), parts in zip(rows, split)):
        return rows  # a line of text starts left of the edge: a table's first column, no margin
    return [(region, part) for (region, _), parts in zip(rows, split) for part in parts]


def _note_split(raw, edge, fixed) -> list:
    """[raw] as it is, or [its note, the rest] (notes_apart)."""
    glyphs = sorted((ch for ch in raw["chars"] if not ch["text"].isspace()),
                    key=lambda ch: ch["x0"])
    em = _size(raw)
    k = next((k for k, ch in enumerate(glyphs) if ch["x0"] >= edge - 1), None)  # the body's
    if (not k or glyphs[0]["text"][:1].isdigit() or glyphs[k - 1]["x1"] > edge - NOTE_EMS * em
            or glyphs[k]["x0"] > edge + SHORT_EMS * em):
        return [raw]
    need, i = sum(len(ch["text"]) for ch in glyphs[:k]), 0
    text = raw["text"]
    while need > 0 and i < len(text):
        need -= not text[i].isspace()
        i += 1
    note, rest = text[:i].strip(), text[i:].strip()
    if ("".join(note.split()) != "".join(ch["text"] for ch in glyphs[:k])
            or len(rest.split()) < 4 or monospaced_share(glyphs[k:], fixed) >= 0.5
            or sum(map(str.isalpha, note)) < 2 or starts_item(f"{note} {rest}")
            or any(b["x0"] - a["x1"] >= CELL_GAP_EMS * em  # cells in the note or after it
                   for j, (a, b) in enumerate(zip(glyphs, glyphs[1:]), 1) if j != k)):
        return [raw]
    cut = (glyphs[k - 1]["x1"] + glyphs[k]["x0"]) / 2
    return [_raw_part(note, [ch for ch in raw["chars"] if ch["x1"] <= cut]),
            _raw_part(rest, [ch for ch in raw["chars"] if ch["x1"] > cut])]


def _size(raw) -> float:
    """A raw line's usual glyph size."""
    sizes = [ch["size"] for ch in raw["chars"] if not ch["text"].isspace()]
    return median(sizes) if sizes else 10.0


def _raw_part(text, chars) -> dict:
    """A raw text line of `text` and its `chars`."""
    return {"text": text, "chars": chars, "x0": min(ch["x0"] for ch in chars),
            "x1": max(ch["x1"] for ch in chars), "top": min(ch["top"] for ch in chars),
            "bottom": max(ch["bottom"] for ch in chars)}


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
    out, lo = [], top
    edges = [x0] + [_edge(cut) for cut in cuts] + [x1]
    at = _across_edges(page, cuts)
    for k, (b_top, b_bottom, spans) in enumerate(bands):  # crop between the bands' edges, each
        # band from where the one above ends (bands of rows that overlap: none left, not one
        # read twice)
        hi = max(lo, bottom if k == len(bands) - 1 else (b_bottom + bands[k + 1][0]) / 2)
        if spans:
            out += [(0, raw) for raw in text_lines(part_of(page, (x0, lo, x1, hi)))]
        else:
            for column, (left, right) in enumerate(zip(edges, edges[1:]), 1):
                out += [(column, raw)
                        for raw in text_lines(part_of(page, (left, lo, right, hi), at))]
        lo = hi
    return out


def _edge(cut) -> float:
    """Where a page is cut into columns at a gutter (`cut`: its x0, x1): where the next column
    starts, so that a long path running into the gutter stays in its column."""
    return cut[1] - 0.5


def _across_edges(page, cuts) -> dict:
    """id(glyph) -> the x to place it by, for the glyphs of each word that stands across a
    column's edge (_edge), so that the word is read whole in
    one column: NRC's journal guide hangs its macros' names from its right column into the
    gutter, and "\\add" ended a line of the left column, "ress[label1]" opened one of the
    right. The word opens the column right of the edge where it starts in the gutter (`cuts`:
    (x0, x1) each) or up to an em before it, after a gap of HANG_GAP_EMS or more, or nothing,
    on its row; else it goes on the line left of it (a token running into the gutter, a long
    path, stays in its column)."""
    glyphs = [ch for ch in page.chars if not ch["text"].isspace()]
    out, before = {}, None  # before: the word before, on the same baseline or not
    for word in glyph_words(glyphs, range(len(glyphs))):
        w0, _, y, ks = word
        mids = [(glyphs[k]["x0"] + glyphs[k]["x1"]) / 2 for k in ks]
        for g0, g1 in cuts:
            edge = _edge((g0, g1))
            if not min(mids) < edge <= max(mids):
                continue
            em = glyphs[ks[0]]["size"]
            gap = w0 - before[1] if before and before[2] == y else float("inf")
            hangs = w0 >= g0 - em and gap >= HANG_GAP_EMS * em
            out.update((id(glyphs[k]), edge if hangs else edge - 0.01) for k in ks)
        before = word
    return out


def part_of(page, bbox, at=None):
    """The part of `page` inside `bbox` (x0, top, x1, bottom), each glyph wholly in the part its
    middle falls in (or the x `at` gives it: id(glyph) -> x, _across_edges; the part then
    reaches as far as those glyphs do). pdfplumber's crop keeps a glyph that straddles the edge
    in the parts on both sides, each cut to its side: a line of a reference card whose rows
    stand between another column's rows was read twice, once whole and once letter by letter."""
    x0, top, x1, bottom = bbox
    at = at or {}

    def inside(obj) -> bool:
        if obj.get("object_type") != "char":
            return True
        x = at.get(id(obj), (obj["x0"] + obj["x1"]) / 2)
        return x0 <= x < x1 and top <= (obj["top"] + obj["bottom"]) / 2 < bottom

    part = page.filter(inside)
    placed = [ch for ch in part.chars if id(ch) in at] if at else []
    if placed:
        bbox = (min([x0] + [ch["x0"] for ch in placed]), top,
                max([x1] + [ch["x1"] for ch in placed]), bottom)
    return page_part(part, bbox)


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
    between the two halves of the sentence, and both breaks around it were kept. So with a
    column's: a journal sets its first page's notes at the foot of the left column, and its
    sentence runs on at the top of the right one. A page's (or column's: _stretches)
    footnotes: its last lines of text (furniture aside), below the line before them, set
    FOOTNOTE_SIZE of the body's size or smaller, the first opening on a note's mark
    (FOOTNOTE_MARK; without one, the rest of a note deferred from the page before), half the
    page's lines at most. Notes deferred are read after the first line that ends a paragraph
    (a sentence, and SHORT_EMS short of its column) on the pages after, or the first page's
    text that ends a sentence."""
    body = body_size([ln for ln in lines if not ln.repeated])
    stretches = _stretches(lines)
    out, waiting = [], []
    for n, stretch in enumerate(stretches):
        notes = _footnotes([ln for ln in stretch if not ln.repeated], body, bool(waiting))
        moved = {id(ln) for ln in notes}
        text = [ln for ln in stretch if id(ln) not in moved]
        if notes and not FOOTNOTE_MARK.match(notes[0].text):  # the rest of a note deferred
            waiting, notes = waiting + notes, []
        ends = [k for k, ln in enumerate(text) if _ends_paragraph(ln)]
        if waiting and ends:
            text[ends[0] + 1:ends[0] + 1] = waiting
            waiting = []
        last = next((ln for ln in reversed(text) if not ln.repeated), None)
        then = next((ln for ln in (stretches[n + 1] if n + 1 < len(stretches) else [])
                     if not ln.repeated), None)
        if _runs_on(last, then):
            waiting += notes
        else:
            text += waiting + notes
            waiting = []
        out += text
    return out + waiting


def _stretches(lines) -> list:
    """`lines` cut where a page ends and where a column ends with the next column after it
    (what is read across above the columns goes with the first; what is read across under
    them, notes set under both, with the last), in order."""
    out = []
    for line in lines:
        if out and out[-1][-1].page == line.page and not line.region > out[-1][-1].region >= 1:
            out[-1].append(line)
        else:
            out.append([line])
    return out


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
