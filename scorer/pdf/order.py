"""Reading order: a page's text lines region by region, down each column in turn, a band
that spans the columns where it stands.

Does not: find the regions (regions.py).
"""

from .lines import text_lines
from .regions import page_regions, row_gaps


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
