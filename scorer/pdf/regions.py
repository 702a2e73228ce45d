"""Regions of a page: where its text stands in two, three or four columns (gutter(),
gutters(): empty bands no prose crosses), which parts of a page change from one column to two
or to an index's three (page_regions), and which of pdfplumber's tables are grids of text
(ruled_tables, table_boxes).

Does not: order lines (order.py) or decide anything.
"""

from collections import Counter
from itertools import combinations
from statistics import median
from typing import NamedTuple

import numpy as np

from ..breaks import ends_entry
from .lines import (X_TOLERANCE_RATIO, baseline_y, monospaced_fonts, page_glyphs, page_part,
                    unmapped)


TEXT_GLYPHS = 5  # a row of glyphs this long, on one side of a gutter, is a line of text there
BASELINE_PT = 1.0  # glyphs whose baselines are this close stand on one row
INDENT_EMS = 1.5  # a column's lines start at one x, or this far in (a first-line indent, an
# index's sub-entry), or at a second x at most HANG_EMS from it (a description list)
HANG_EMS = 4.0
LIST_SHARE = 1 / 3  # a side whose rows open on one mark this often is a list set in a column
MARK_GAP_EMS = 0.2  # a list's mark stands this far or more before the item's first word
EDGE_PT = 2.0  # gutters(): a column's rows start at its edge when this close to it
SIDEBAR_EMS = 3.0  # a sidebar stands this far or more from the body beside it
PAIRED_SHARE = 0.5  # at most this share of a sidebar's lines stand on a row of the body's
ONE_TEXT_SHARE = 0.5  # a side whose lines of text read alike this often is no column
PAGE_NUMBER_GLYPHS = 4  # a contents entry's page number, at its row's end, is this long at most
INDEX_SHARE = 0.2  # an index: this share of its columns' rows or more end on page numbers
BLANK_EMS = 1.5  # a blank this high across the page ends its part in columns (_before_blank)
ONE_SIDE = 1e8  # row_gaps(): a row's gap this wide has text on one side of the middle only
WORD_GAP_EMS = 1.2  # a gap between glyphs of a row this wide or wider is more than a word gap
FULL_GLYPHS = 20  # a full row of a justified column: this many glyphs or more from its edge to
FULL_SHARE = 0.2  # its right end; this share of a side's lines or more (gutter())


class Ruled(NamedTuple):
    """A table pdfplumber finds on a page (its rules and rectangles): its bounding box, the
    cells that hold text with their glyphs, and whether it is a grid (_grid)."""
    bbox: tuple
    held: dict  # cell (x0, top, x1, bottom) -> its glyphs
    fixed: set  # the page's monospaced fonts
    grid: bool


def ruled_tables(page) -> list:
    """[Ruled] per table pdfplumber finds on the page: found once per page (the costliest
    step), read by table_boxes and side_by_side_boxes."""
    found = page.find_tables()
    glyphs = page_glyphs(page) if found else []
    if not glyphs:
        return []
    mid_x = np.array([(ch["x0"] + ch["x1"]) / 2 for ch in glyphs])
    mid_y = np.array([(ch["top"] + ch["bottom"]) / 2 for ch in glyphs])
    fixed = monospaced_fonts(glyphs)
    out = []
    for table in found:
        held = {}
        for x0, top, x1, bottom in table.cells:
            inside = np.flatnonzero((mid_x >= x0) & (mid_x <= x1)
                                    & (mid_y >= top) & (mid_y <= bottom))
            if len(inside):
                held[(x0, top, x1, bottom)] = [glyphs[k] for k in inside]
        out.append(Ruled(table.bbox, held, fixed, _grid(held, fixed) and not _cuts_words(held)))
    return out


def _cuts_words(held) -> bool:
    """Do the cells (`held`: cell -> its glyphs) cut words: a quarter of them or more hold a
    word's glyphs on one side of an edge and the same word's next glyph on the other (no
    word gap between them, X_TOLERANCE_RATIO)? Squared paper drawn under a page's text (an
    exam's answer grid, in light grey: 14-pt squares) is no table: pdfplumber found 1,984
    cells, the whole page a grid whose every line was kept as a table's row."""
    placed = [(ch, cell) for cell, glyphs in held.items() for ch in glyphs]
    rows = {}
    for row, (ch, cell) in zip(_baseline_rows([ch for ch, _ in placed]), placed):
        rows.setdefault(row, []).append((ch["x0"], ch["x1"], ch["size"], cell))
    cuts = 0
    for row in rows.values():
        row.sort(key=lambda glyph: glyph[0])
        cuts += sum(b[3] != a[3] and b[0] - a[1] <= X_TOLERANCE_RATIO * b[2]
                    for a, b in zip(row, row[1:]))
    return cuts >= len(held) / 4


def table_boxes(ruled) -> list:
    """Bounding boxes of the page's tables (`ruled`: ruled_tables) that are grids (_grid):
    cells with text in two rows or more, two of them apart across (side by side, or a label's
    row above its entries' row), and no cell holding prose (_prose_cell: a cell of many wrapped
    lines is a layout's box, a sidebar's or a body's) unless cells stand side by side in
    several rows. A frame around the text, a shaded box, a one-column layout table or boxes
    nested in boxes (a browser prints a page's borders and backgrounds as rectangles, a
    documentation theme's body in a box in a box) is none: what they hold is prose, decided
    as prose."""
    return [r.bbox for r in ruled if r.grid]


def in_tables(raw, tables) -> bool:
    """Does a raw text line's middle fall in one of `tables` (table_boxes)?"""
    mid_x, mid_y = (raw["x0"] + raw["x1"]) / 2, (raw["top"] + raw["bottom"]) / 2
    return any(x0 <= mid_x <= x1 and top <= mid_y <= bottom for x0, top, x1, bottom in tables)


def table_cells(ruled) -> list:
    """[(cell, text)] of the page's grid tables (`ruled`: ruled_tables): each cell that holds
    text, (x0, top, x1, bottom), and the box its glyphs fill, the same for every line in it."""
    return [(cell, (min(ch["x0"] for ch in glyphs), min(ch["top"] for ch in glyphs),
                    max(ch["x1"] for ch in glyphs), max(ch["bottom"] for ch in glyphs)))
            for r in ruled if r.grid for cell, glyphs in r.held.items()]


def side_by_side_boxes(ruled) -> list:
    """[(top, bottom, gutter)] of a ruled layout (`ruled`: ruled_tables) that is no grid where,
    in one row, two boxes with text stand side by side, one of them holding prose (navigation
    beside the body, a note beside its text): that row is read box by box (gutter: from where
    the left box's text ends to where the right one's starts)."""
    out = []
    for r in ruled:
        if r.grid:
            continue
        pairs = [(a, b) for a, b in combinations(sorted(r.held), 2) if _beside(a, b)]
        if len({round(max(a[1], b[1])) for a, b in pairs}) != 1:
            continue  # boxes side by side in one row: a layout
        a, b = pairs[0]
        if not (_prose_cell(a, r.held[a], r.fixed) or _prose_cell(b, r.held[b], r.fixed)):
            continue  # no body beside another box: a coarse table's columns
        g0, g1 = max(ch["x1"] for ch in r.held[a]), min(ch["x0"] for ch in r.held[b])
        if g1 > g0:
            out.append((max(a[1], b[1]), min(a[3], b[3]), (g0, g1)))
    return out


def _grid(held, fixed) -> bool:
    """Cells with text in two rows or more, two of them apart across, and no cell holding prose
    unless cells stand side by side in two rows or more (a table's wrapped cells, groff's
    boxed tables: several rows of several cells; a layout's boxes stand side by side in one
    row at most)."""
    cells = sorted(held)
    apart = any(b[0] >= a[2] - 1 for a, b in combinations(cells, 2))
    if not apart or len({round(top) for _, top, _, _ in cells}) < 2:
        return False
    rows = {round(max(a[1], b[1])) for a, b in combinations(cells, 2) if _beside(a, b)}
    return len(rows) >= 2 or not any(_prose_cell(cell, g, fixed) for cell, g in held.items())


def _beside(a, b) -> bool:
    """Cells (x0, top, x1, bottom) apart across (within a point), overlapping down by half the
    lower one or more."""
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    return b[0] >= a[2] - 1 and overlap >= 0.5 * min(a[3] - a[1], b[3] - b[1])


def _prose_cell(cell, glyphs, fixed) -> bool:
    """Does a cell hold prose: four rows of text or more, the median one filling 70 % of the
    cell's width or more (wrapped lines; a table's cells hold short entries), at most a fifth
    of them with a gap wider than a word gap (a row of an invoice's items spans its box too,
    its entries apart), set mostly in proportional fonts (not in `fixed`: commands or code
    listed in a cell are entries)?"""
    x0, _, x1, _ = cell
    if sum(ch.get("fontname", "") in fixed for ch in glyphs) >= 0.5 * len(glyphs):
        return False
    rows = {}
    for ch in glyphs:
        rows.setdefault(round(ch["top"]), []).append((ch["x0"], ch["x1"]))
    if len(rows) < 4:
        return False
    size = median(ch["size"] for ch in glyphs)
    fill = median((max(b for _, b in spans) - min(a for a, _ in spans)) / max(1.0, x1 - x0)
                  for spans in rows.values())
    gapped = sum(_widest_gap(spans) > WORD_GAP_EMS * size for spans in rows.values())
    return fill >= 0.7 and gapped <= 0.2 * len(rows)


def page_regions(page, ruled, min_rows=8) -> list:
    """[(top, bottom, gutters or None)] down the page (gutters: a list of (x0, x1), one for two
    columns): the whole page with its gutter (or None) when it is read one way, or with its
    gutters when gutters() cuts it into three or more columns set as prose; else each run of
    `min_rows` rows or more that leave the middle of the text empty is a region of its own,
    two columns where gutter() finds them in it (with `min_rows` on each side, set as prose:
    not code, no table; its gap may be under an em, as LaTeX's 10 pt between glyphs with
    margins of their own; the run ends before a blank with only a heading's rows after it:
    _before_blank), and so is each run of `min_rows` rows or more that leave two bands
    empty (_banded_runs) where gutters() cuts it into columns that read as an index (_index:
    an index under the paragraph that opens it); what lies between such runs is read across.
    A sidebar beside the body (sidebar()) is read as a column of its own. A ruled layout with
    boxes side by side in one row (side_by_side_boxes of `ruled`, the page's ruled_tables) is
    read box by box in that row."""
    x0, top, x1, bottom = page.bbox
    profile = _profile(page)  # what both gutter() and gutters() read
    if profile is None:
        return [(top, bottom, None)]
    cut = gutter(page, profile=profile)
    if cut is not None and not _table_in_cut(page, [cut], ruled):
        return [(top, bottom, [cut])]
    cuts = gutters(page, profile=profile)
    if cuts and set_as_prose(page, cuts, ruled):
        return [(top, bottom, cuts)]
    cut = sidebar(page, profile=profile)
    if cut is not None and set_as_prose(page, [cut], ruled):
        return [(top, bottom, [cut])]
    boxes = side_by_side_boxes(ruled)
    if boxes:
        return _around(top, bottom, [(lo_y, hi_y, [cut]) for lo_y, hi_y, cut in sorted(boxes)])
    lo, hi, size, _, _, _ = profile
    centre = (lo + hi) / 2
    rows = sorted((t, b, gap >= max(4.0, size / 2), starts, gap > ONE_SIDE)
                  for t, b, gap, starts, _ in row_gaps(page, centre, centre))
    runs, start = [], None
    for k, (_, _, empty_middle, _, _) in enumerate(rows + [(0, 0, False, False, False)]):
        if empty_middle and start is None:
            start = k
        elif not empty_middle and start is not None:
            if k - start >= min_rows:
                runs.append((start, k - 1))
            start = None
    parts = []
    for first, last in runs:
        last = _before_blank(rows, first, last, size, min_rows)
        if last - first + 1 < min_rows:
            continue
        lo_y = top if first == 0 else max(top, (rows[first - 1][1] + rows[first][0]) / 2)
        hi_y = bottom if last == len(rows) - 1 else min(bottom, (rows[last][1] + rows[last + 1][0]) / 2)
        part = page_part(page, (x0, lo_y, x1, hi_y)) if hi_y > lo_y else None
        cut = gutter(part, min_rows=min_rows) if part is not None else None
        if cut is not None and set_as_prose(part, [cut], ruled):
            parts.append((lo_y, hi_y, [cut]))
    for lo_y, hi_y in _banded_runs(profile, min_rows):
        lo_y, hi_y = max(top, lo_y), min(bottom, hi_y)  # glyphs may stand off the page
        held = _profile(None, [ch for ch in profile[-1] if lo_y <= ch["top"] <= hi_y])
        cuts = held and gutters(None, min_rows=min_rows, profile=held)  # not cropped: faster
        part = page_part(page, (x0, lo_y, x1, hi_y)) if cuts else None
        if cuts and _index(part, cuts) and not _table_in_cut(part, cuts, ruled):
            parts.append((lo_y, hi_y, cuts))
    return _around(top, bottom, sorted(parts))


def _before_blank(rows, first, last, size, min_rows) -> int:
    """The last of `rows` (top, bottom, middle empty, starts, text on one side only) from
    `first` in the run that ends at `last`: the one before a blank of BLANK_EMS or more after
    which fewer than `min_rows` rows end the run, each on one side of the middle (a heading
    after two columns end: the index's after a change history; a footnote set in the two
    columns goes on them), else `last`."""
    reach = rows[first][1]
    for k in range(first + 1, last + 1):
        if (rows[k][0] - reach >= BLANK_EMS * size and last - k + 1 < min_rows
                and all(row[4] for row in rows[k:last + 1])):
            return k - 1
        reach = max(reach, rows[k][1])
    return last


def _banded_runs(profile, min_rows) -> list:
    """[(top, bottom)] of each run of `min_rows` rows or more that leave two bands or more
    empty all down the run (each half a font size wide or more, inside the text): where part
    of a page may stand in three columns or more (an index under its heading and the
    paragraph that opens it). page_regions() asks gutters() whether they are columns."""
    lo, hi, size, _, _, glyphs = profile
    row_of = np.array(_baseline_rows(glyphs))
    n, width = row_of.max() + 1, int(hi - lo) + 2
    top = np.full(n, np.inf)
    bottom = np.full(n, -np.inf)
    np.minimum.at(top, row_of, [ch["top"] for ch in glyphs])
    np.maximum.at(bottom, row_of, [ch["bottom"] for ch in glyphs])
    ends = np.zeros((n, width + 1), np.int16)  # +1 where a glyph starts, -1 after it ends
    np.add.at(ends, (row_of, [int(ch["x0"] - lo) for ch in glyphs]), 1)
    np.add.at(ends, (row_of, [int(ch["x1"] - lo) + 1 for ch in glyphs]), -1)
    covered = np.cumsum(ends, axis=1, dtype=np.int16)[:, :width] > 0  # small: rows x points
    rows = sorted(zip(top, bottom, covered), key=lambda r: r[0])
    wide, runs, run, empty = max(4.0, size / 2), [], [], None
    for r in [*rows, None]:
        if r is not None and run and _bands(empty & ~r[2], wide) >= 2:
            run, empty = [*run, r], empty & ~r[2]
            continue
        back = []  # the rows before `r` that leave two bands empty with it go on with it
        if r is not None:
            empty = ~r[2]
            for before in reversed(run):
                if _bands(empty & ~before[2], wide) < 2:
                    break
                empty, back = empty & ~before[2], [before, *back]
        done = run[:len(run) - len(back)]
        if len(done) >= min_rows:
            runs.append((done[0][0] - 1, done[-1][1] + 1))
        run = [*back, r] if r is not None else []
    return runs


def _bands(empty, width) -> int:
    """How many runs of True in `empty` (a row's x, from the text's left end) are `width` long
    or more, neither at an end."""
    return sum(b - a >= width for a, b in _inner_runs(empty))


def _around(top, bottom, parts) -> list:
    """Regions read in columns (top down, apart), with what lies above, between and below them
    read across."""
    out, y = [], top
    for lo_y, hi_y, cuts in parts:
        if lo_y < y:
            continue  # overlaps the part above it
        if lo_y > y:
            out.append((y, lo_y, None))
        out.append((lo_y, hi_y, cuts))
        y = hi_y
    if y < bottom:
        out.append((y, bottom, None))
    return out or [(top, bottom, None)]


def set_as_prose(page, cuts, ruled) -> bool:
    """Is `page` (or a part of one) cut at `cuts` ([(x0, x1)]) columns of prose: set mostly in
    proportional fonts (code's aligned columns are no page columns) or an index's columns
    (_index: a package's commands, monospaced, beside their page numbers), with no table in a
    cut (_table_in_cut)?"""
    glyphs = page_glyphs(page)
    fixed = monospaced_fonts(glyphs)
    mono = sum(ch.get("fontname", "") in fixed for ch in glyphs) / max(1, len(glyphs))
    return (mono < 0.5 or _index(page, cuts)) and not _table_in_cut(page, cuts, ruled)


def _index(page, cuts) -> bool:
    """Do INDEX_SHARE or more of the rows of `page`'s columns (cut at `cuts`) end on page
    numbers after dot leaders (breaks.ends_entry): an index, or contents, set in columns?"""
    x0, top, x1, bottom = page.bbox
    edges = [x0, *((g0 + g1) / 2 for g0, g1 in sorted(cuts)), x1]
    rows = [row for a, b in zip(edges, edges[1:])
            for row in page_part(page, (a, top, b, bottom)).extract_text(x_tolerance=1)
            .splitlines()]
    return sum(map(ends_entry, rows)) >= INDEX_SHARE * max(1, len(rows))


def _table_in_cut(page, cuts, ruled) -> bool:
    """Does anything pdfplumber takes for a table (`ruled`: the page's ruled_tables) reach into
    one of `cuts`, within `page` (or the part of one: here even a frame or rules says: not
    sure)? pdfplumber may find a table's middle column alone, and the empty band beside it was
    taken for a gutter (a German reference's table of regular expressions). A table inside one
    column, as a journal sets one, is no reason to read its page across."""
    _, top, _, bottom = page.bbox
    return any(t_x0 < g1 and t_x1 > g0 and t_top < bottom and t_bottom > top
               for t_x0, t_top, t_x1, t_bottom in (r.bbox for r in ruled) for g0, g1 in cuts)


def row_gaps(page, g0, g1) -> list:
    """[(top, bottom, gap, starts right, right only)] per row of glyphs (same top, within
    1 pt): gap is the empty width around the gutter's middle between its glyphs on either side
    (infinite when one side has none); starts right: a word of the row begins where the right
    column does (within 1 pt of g1, after a space wider than half the font size: more than a
    word gap); right only: all its glyphs stand right of the gutter's middle."""
    mid = (g0 + g1) / 2
    rows = {}
    for ch in sorted(page_glyphs(page), key=lambda c: c["x0"]):
        r = rows.setdefault(round(ch["top"]), [ch["top"], ch["bottom"], -1e9, 1e9, False, -1e9])
        r[1] = max(r[1], ch["bottom"])
        if (ch["x0"] + ch["x1"]) / 2 < mid:
            r[2] = max(r[2], ch["x1"])  # where the left side ends
        else:
            r[3] = min(r[3], ch["x0"])  # where the right side starts
        if abs(ch["x0"] - g1) <= 1.0 and ch["x0"] - r[5] > 0.5 * ch["size"]:
            r[4] = True
        r[5] = max(r[5], ch["x1"])  # where the row's glyphs so far end
    return [(t, b, right - left, starts, left == -1e9)
            for t, b, left, right, starts, _ in rows.values()]


def gutter(page, min_rows=5, profile=None):
    """(x0, x1) of the empty band between two columns of text, or None for a page read across.

    Two columns: a vertical band in the middle third of the text, at least half a font size
    wide, that at most a tenth of the rows cross (a title may span both columns), with text
    on each side in at least `min_rows` rows and 15 % of all, and both sides set as prose,
    not as a table's cells: the right column's rows start at one x (or within a first-line
    indent of it: INDENT_EMS; or at two, a description list's: _started), the columns are of
    about one width, the median row of each fills 60 % of its width or more (ragged-right
    prose does; a table's short cells do not) unless both sides are lists (_listed: a
    glossary of short items set in two columns), and at most a fifth of the rows have a gap
    wider than a word gap (a table's cells are apart; a contents entry's gap before its page
    number is none: _widest_gap), and fewer than half the right side's lines read alike (a tag
    set flush right beside each line is no column: _one_text). Where both sides hold full
    lines of justified prose (_full_rows: FULL_SHARE of their lines or more), they are columns
    whatever else stands in them, and the checks for a table's cells are not made: a
    journal's displayed formulas (centred, their numbers far to the right), its algorithms'
    short lines and a table set in a column start and end where prose does not (elsarticle's
    and revtex's sample papers were read across). Those checks read a side's lines of text:
    its rows of TEXT_GLYPHS glyphs or more. A superscript, a footnote mark, a
    figure's tick label or a formula's index, each a row of its own, said nothing of the
    columns and outnumbered their lines on a journal's page of figures and formulas (the page
    was then read across, a line of each column in turn)."""
    profile = profile or _profile(page)
    if profile is None:
        return None
    lo, hi, size, rows, crossing, glyphs = profile
    allowed = len(rows) // 10
    best, run = None, None
    for x in range(int((hi - lo) / 3), int(2 * (hi - lo) / 3) + 1):
        if crossing[x] <= allowed:
            run = (run[0], x) if run else (x, x)
            if best is None or run[1] - run[0] > best[1] - best[0]:
                best = run
        else:
            run = None
    if best is None or best[1] - best[0] + 1 < max(4.0, size / 2):
        return None
    g0, g1 = lo + best[0], lo + best[1] + 1
    text_rows = [spans for spans in rows.values() if len(spans) >= TEXT_GLYPHS]
    left_rows = _lines_of_text(rows, lambda a, b: b <= g0)
    right_rows = _lines_of_text(rows, lambda a, b: a >= g1)
    if min(len(left_rows), len(right_rows)) < max(min_rows, 0.15 * len(text_rows)):
        return None  # text on both sides of the band, in many rows (an article's last page
        # may end its right column a quarter of the way down)
    if not 0.75 <= (g0 - lo) / max(1.0, hi - g1) <= 1.33:  # columns of about one width
        return None
    if _one_text(glyphs, g1):
        return None
    digits = {(ch["x0"], ch["x1"]) for ch in glyphs if ch["text"].isdigit()}
    if all(_full_rows(side, size, digits) >= max(min_rows, FULL_SHARE * len(side))
           for side in (left_rows, right_rows)):
        return g0, g1  # justified prose on both sides: columns, whatever else stands in them
    starts = Counter(round(min(a for a, b in spans)) for spans in right_rows)
    if _started(starts, size) < 0.7 * len(right_rows):
        return None  # a column starts at one x; a table's cells do not
    left_fill = median((max(b for a, b in spans) - lo) / (g0 - lo) for spans in left_rows)
    right_fill = median((max(b for a, b in spans) - g1) / max(1.0, hi - g1) for spans in right_rows)
    if left_fill < 0.6 or right_fill < 0.6:
        marks = _marks(glyphs, rows, size)
        if not (_listed(left_rows, marks) and _listed(right_rows, marks)):
            return None
    # prose: a row's words are a word gap apart; a table row's cells are further apart
    gapped = [_widest_gap(spans, digits) > WORD_GAP_EMS * size for spans in left_rows + right_rows]
    if sum(gapped) > 0.2 * len(gapped):
        return None
    return g0, g1


def _full_rows(side_rows, size, digits) -> int:
    """How many of a side's lines of text (their glyph spans) are full lines of justified
    prose: FULL_GLYPHS glyphs or more a word gap apart (WORD_GAP_EMS), from the x most of its
    lines start at (or a first-line indent in: INDENT_EMS) to the x most end at (within
    EDGE_PT)."""
    starts = Counter(round(min(a for a, _ in spans)) for spans in side_rows)
    ends = Counter(round(max(b for _, b in spans)) for spans in side_rows)
    (start, _), (end, _) = starts.most_common(1)[0], ends.most_common(1)[0]
    return sum(len(spans) >= FULL_GLYPHS and -EDGE_PT <= min(spans)[0] - start <= INDENT_EMS * size
               and abs(max(b for _, b in spans) - end) <= EDGE_PT
               and _widest_gap(spans, digits) <= WORD_GAP_EMS * size for spans in side_rows)


def _one_text(glyphs, x) -> bool:
    """Do ONE_TEXT_SHARE or more of the lines of text (TEXT_GLYPHS or more) right of `x` read
    alike? A column of text does not say one thing down the page; a tag set flush right beside
    each line of a list does (Texinfo's "[Method on DiagArray<T>]" beside each signature)."""
    right = [ch for ch in glyphs if ch["x0"] >= x]
    rows = {}
    for row, ch in zip(_baseline_rows(right), right):
        rows.setdefault(row, []).append(ch)
    texts = Counter("".join(ch["text"] for ch in sorted(chars, key=lambda ch: ch["x0"]))
                    for chars in rows.values() if len(chars) >= TEXT_GLYPHS)
    lines = sum(texts.values())
    return bool(lines) and texts.most_common(1)[0][1] >= ONE_TEXT_SHARE * lines


def sidebar(page, min_rows=5, profile=None):
    """(x0, x1) of the empty band between a sidebar and the body beside it (a CV's panel of
    contacts and skills beside its record), or None. The widest band across the text, its
    edges aside, that at most a tenth of the rows cross, SIDEBAR_EMS wide or more (a margin
    note stands nearer), with lines of text (TEXT_GLYPHS or more) on each side in `min_rows`
    rows and 15 % of all, on baselines of their own: at most PAIRED_SHARE of the side with
    fewer lines share a row with a line of the other (a description list's terms, a table's
    cells and two columns of one text stand on the rows beside them). The sides may be of
    any width, as gutter()'s two columns may not: a sidebar's lines were read between the
    body's, one of each in turn."""
    profile = profile or _profile(page)
    if profile is None:
        return None
    _, _, size, rows, _, _ = profile
    g0, g1 = max(_empty_bands(profile), key=lambda band: band[1] - band[0], default=(0, 0))
    if g1 - g0 < SIDEBAR_EMS * size:
        return None
    left = {row for row, spans in rows.items()
            if sum(b <= g0 for _, b in spans) >= TEXT_GLYPHS}
    right = {row for row, spans in rows.items()
             if sum(a >= g1 for a, _ in spans) >= TEXT_GLYPHS}
    fewer = min(len(left), len(right))
    text_rows = sum(len(spans) >= TEXT_GLYPHS for spans in rows.values())
    if fewer < max(min_rows, 0.15 * text_rows) or len(left & right) > PAIRED_SHARE * fewer:
        return None
    return g0, g1


def _empty_bands(profile) -> list:
    """[(x0, x1)], left to right, of the bands across a page's text (`profile`: _profile), its
    edges aside, that at most a tenth of the rows cross: where gutters and sidebars may be."""
    lo, _, _, rows, crossing, _ = profile
    return [(lo + a, lo + b) for a, b in _inner_runs(np.array(crossing) <= len(rows) // 10)]


def _inner_runs(flags) -> list:
    """[(start, end)] of each run of True in `flags` (end: after its last), neither at an end."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], flags.astype(np.int8), [0]))))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])
            if a > 0 and b < len(flags)]


def _started(starts, size, near=None) -> int:
    """How many rows (`starts`: Counter of their first x) start at a column's edge: within
    `near` points (INDENT_EMS of the size unless given) of the x most start at, or of the next
    most common, where that one is further than `near` from it and within HANG_EMS (a
    description list's terms at the edge and their text set in, a journal's guide of
    commands, an index's entries and their wrapped page numbers)."""
    near = INDENT_EMS * size if near is None else near
    common = [x for x, _ in starts.most_common(2)]
    edges = common[:1] + [x for x in common[1:] if near < abs(x - common[0]) <= HANG_EMS * size]
    return sum(n for x, n in starts.items() if any(abs(x - e) <= near for e in edges))


def _listed(side_rows, marks) -> bool:
    """Do LIST_SHARE or more of a side's rows (their glyph spans) open on one mark (`marks`:
    _marks)?"""
    opening = Counter(marks.get(min(spans)) for spans in side_rows)
    opening.pop(None, None)
    return bool(opening) and opening.most_common(1)[0][1] >= LIST_SHARE * len(side_rows)


def _lines_of_text(rows, side) -> list:
    """Of each row's glyph spans ((x0, x1) each), those on one `side` of a band (side(x0, x1)),
    where they are TEXT_GLYPHS or more: that side's lines of text."""
    kept = ([(a, b) for a, b in spans if side(a, b)] for spans in rows.values())
    return [spans for spans in kept if len(spans) >= TEXT_GLYPHS]


def _profile(page, glyphs=None):
    """(lo, hi, size, rows, crossing, glyphs) of a page's glyphs (or `glyphs`, part of them;
    None under 100: too few to have columns): their left and right ends, their median size,
    {row: [(x0, x1), ...]}, per point of x from lo how many rows have a glyph there, and the
    glyphs themselves. gutter() and gutters() take it made, or make it. A row: the glyphs on
    one baseline (_baseline_rows)."""
    glyphs = page_glyphs(page) if glyphs is None else glyphs
    if len(glyphs) < 100:
        return None
    lo, hi = min(ch["x0"] for ch in glyphs), max(ch["x1"] for ch in glyphs)
    size = median(ch["size"] for ch in glyphs)
    rows = {}
    for row, ch in zip(_baseline_rows(glyphs), glyphs):
        rows.setdefault(row, []).append((ch["x0"], ch["x1"]))
    crossing = [0] * (int(hi - lo) + 2)
    for spans in rows.values():
        covered = set()
        for a, b in spans:
            covered.update(range(int(a - lo), int(b - lo) + 1))
        for x in covered:
            crossing[x] += 1
    return lo, hi, size, rows, crossing, glyphs


def _marks(glyphs, rows, size) -> dict:
    """{(x0, x1): text} of the glyphs that may mark a list item: no letter or digit, set
    MARK_GAP_EMS or more before the next glyph of their row ("•", "-", an old TeX font's
    bullet that pdfplumber reads as "(cid:15)"). `rows`: _profile's."""
    by_x, marks = {(ch["x0"], ch["x1"]): ch.get("text", "") for ch in glyphs}, {}
    for spans in rows.values():
        spans = sorted(spans)
        for (a, b), (after, _) in zip(spans, spans[1:]):
            text = by_x[a, b]
            mark = unmapped(text) or not any(map(str.isalnum, text))
            if after - b >= MARK_GAP_EMS * size and mark:
                marks[a, b] = text
    return marks


def _baseline_rows(glyphs) -> list:
    """Per glyph, the row it stands on: its baseline (lines.baseline_y), those within
    BASELINE_PT of the one above counted as one. A word in another font (TeX's \\texttt
    inline) has a box of another height, and rowed by its top it made a row of its own, with a
    wide gap where the rest of its line stood (the line looked like a table's cells)."""
    ys = [baseline_y(ch) for ch in glyphs]
    lines = sorted(set(ys))
    row_of, row = {}, 0
    for before, y in zip([None, *lines], lines):
        row += before is not None and y - before > BASELINE_PT
        row_of[y] = row
    return [row_of[y] for y in ys]


def gutters(page, min_rows=5, most=3, profile=None):
    """[(x0, x1), ...]: the two or more (at most `most`) empty bands that cut a page into three
    or more columns of text (a reference card, a newsletter), or None. Where gutter() finds
    two columns, it decides. A band: at least half a font size wide, crossed by at most a tenth
    of the rows, with text on both sides. The columns between the bands chosen: of about one
    width (the widest at most 1.5 times the narrowest, none under half its share of the
    text's width), each with text in `min_rows` rows and in 60 % of its share of the rows or
    more (_column), each after a band starting half its rows or more at one x (or three
    quarters at two, an index's), and each with its median row filling half its width or
    more (a table's short cells do not; a card's entries, a key and its description, do). Of
    several ways, the most columns, then the most even widths."""
    profile = profile or _profile(page)
    if profile is None:
        return None
    lo, hi, size, rows, _, _ = profile
    bands = [(a, b) for a, b in _empty_bands(profile) if b - a >= max(4.0, size / 2)]
    bands = sorted(sorted(bands, key=lambda b: b[0] - b[1])[:12])  # the 12 widest, left to right
    best = None
    for k in range(min(most, len(bands)), 1, -1):
        for chosen in combinations(bands, k):
            edges = [lo] + [x for band in chosen for x in band] + [hi]
            spans = list(zip(edges[::2], edges[1::2]))  # each column's (x0, x1)
            widths = [b - a for a, b in spans]
            if min(widths) < 0.5 * (hi - lo) / (k + 1) or max(widths) > 1.5 * min(widths):
                continue
            if all(_column(rows, a, b, a == lo, max(min_rows, 0.6 * len(rows) / (k + 1)), size)
                   for a, b in spans):
                spread = max(widths) - min(widths)
                if best is None or spread < best[0]:
                    best = (spread, list(chosen))
        if best:
            return best[1]
    return None


def _column(rows, x0, x1, first, min_rows, size) -> bool:
    """Is [x0, x1] a column of text for gutters(): in `min_rows` rows or more, half of its
    rows or more starting at one x (within EDGE_PT), or three quarters at that one and a
    second within HANG_EMS of it (_started: nostarch's index of three columns was read across;
    a table of symbols whose cells start where they may falls short), unless it is the first
    (a page's margin notes and hanging indents; a card's wrapped descriptions start further
    in); its median row filling half its width or more?"""
    inside = [[(a, b) for a, b in spans if a >= x0 - 0.5 and b <= x1 + 0.5]
              for spans in rows.values()]
    inside = [spans for spans in inside if spans]
    if len(inside) < min_rows:
        return False
    starts = Counter(round(min(a for a, _ in spans)) for spans in inside)
    edge = starts.most_common(1)[0][0]
    at_one = sum(n for x, n in starts.items() if abs(x - edge) <= EDGE_PT)
    if (not first and at_one < 0.5 * len(inside)
            and _started(starts, size, near=EDGE_PT) < 0.75 * len(inside)):
        return False
    return median((max(b for _, b in spans) - x0) / max(1.0, x1 - x0) for spans in inside) >= 0.5


def _widest_gap(spans, digits=frozenset()) -> float:
    """The widest empty stretch between glyphs of one row ((x0, x1) each); 0 for one glyph.
    Not counted: a gap before a number of PAGE_NUMBER_GLYPHS glyphs or fewer (digits, the last
    glyph maybe not: their spans in `digits`) that ends the row, after a longer text (a
    contents entry's page number set flush right after its title, with no dot leaders; a
    line's number in the margin beside it, "7R" in reledpar's right-hand column; not a
    table's "2pt"), and one after a number of digits only that opens it (a line's number in
    the margin before it)."""
    spans = sorted(spans)
    end, widest = spans[0][1] if spans else 0.0, 0.0
    n = len(spans)
    for k, (a, b) in enumerate(spans[1:], start=1):  # k glyphs before the gap, n - k after it
        number_after = (n - k <= PAGE_NUMBER_GLYPHS < k and spans[k] in digits
                        and all(span in digits for span in spans[k:-1]))
        number_before = k <= PAGE_NUMBER_GLYPHS < n - k and all(
            span in digits for span in spans[:k])
        if not (number_after or number_before):
            widest = max(widest, a - end)
        end = max(end, b)
    return widest
