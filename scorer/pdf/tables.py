"""Tables set without rules (booktabs' three horizontal lines, a tabular with no frame, a
font table): three or more lines in a row, each with a wide gap (CELL_GAP_EMS) between two of
its glyphs, that leave the same two or more strips of the page empty between their cells, or
one strip between short keys and what each means (a reference card, a glossary). A ruled table
is pdfplumber's to find (regions.py).

Does not: read pages (reader.py) or decide anything: the lines are marked `table`, and the
breaks around them are kept as a ruled table's rows are (decide.forced_keeps).
"""

from ..breaks import ends_entry
from .layout import JUSTIFIED_SHARE, at_edge
from .lines import CELL_GAP_EMS, unmapped

MIN_ROWS = 3
MIN_GUTTERS = 2  # three columns or more, or two that read as keys and what they mean (_keyed)
KEY_SHARE = 1 / 3  # a key column's cells: at most this share of the table's width, in the median
SAME_SIZE = 1.1  # a key table's rows' font sizes differ by this factor at most
MIN_GUTTER_EMS = 0.5  # the strip empty in every row is at least this wide
SLACK_EMS = 0.25  # a cell's wrapped text may start this far into the gutter before its column


def mark_unruled_tables(lines) -> None:
    """Mark `table` on each run of MIN_ROWS or more rows (lines with a cell gap: cell_gaps) of
    one page's region, not code, a figure's labels or furniture, whose cells leave MIN_GUTTERS
    strips empty down the run (_strips; one, where its columns read as keys beside what each
    means: _keyed), each column holding a cell in half the rows or more (a grouped table's
    first column fewer: _grouped), and no more wrapped lines than rows (else it is prose with a
    margin's numbers or notes beside some of its lines), and fewer than half its lines ending
    contents entries (breaks.ends_entry: a contents list set with gaps after its numbers and
    before its pages). A row that would close one of the strips starts a run of its own (a
    definition list after a table). A line between two rows that starts after the run's first
    column and crosses none of its strips (but a centred header's: _under_header) is a cell's text
    wrapped: in the table, and in that cell (`in_cell`, `cell`: the column's box down the
    table), as the row before it is when it ends in that column: the break between them is
    weighed as a ruled table's cell's is."""
    run, covered = [], []  # the run's lines; the x spans its rows' cells cover, merged
    for line in [*lines, None]:
        grown = _grown(run, covered, line) if line is not None and run else None
        if grown is not None:
            run.append(line)
            covered = grown
            continue
        _mark(run, covered)
        fresh = line is not None and bool(line.gaps) and _free(line)
        run, covered = ([line], _cover([], line)) if fresh else ([], [])


def _free(line) -> bool:
    return not (line.code or line.repeated or line.table or line.figure)


def _grown(run, covered, line):
    """What the run's rows cover with `line` (`covered` itself for a wrapped cell), or None
    where the line does not go on the `run`: it must be on its page and region and be a row
    that leaves as many of the run's strips (up to MIN_GUTTERS) empty, or a cell's wrapped
    text starting a cell gap or more right of the run's first row, across none of them (but
    _under_header)."""
    first = run[0]
    if (line.page, line.region) != (first.page, first.region) or not _free(line):
        return None
    gutters = _strips(covered, first)
    if line.gaps:
        grown = _cover(covered, line)
        return grown if len(_strips(grown, first)) >= min(MIN_GUTTERS, len(gutters)) else None
    slack = SLACK_EMS * (first.size or 10.0)  # a bracket's glyph may stand a little out
    if line.x0 - first.x0 < CELL_GAP_EMS * (first.size or 10.0):
        return None
    if not any(line.x0 < g1 - slack and line.x1 > g0 + slack for g0, g1 in gutters):
        return covered
    return _under_header(run, covered, line, gutters, slack)


def _under_header(run, covered, line, gutters, slack):
    """A header centred above its column (a browser's) leaves strips wider than the column
    below it: a cell's text may run across an edge of a strip that the first row's cells set,
    never one that a later row's did, and leave the strips as many (MIN_GUTTERS at least).
    What the run covers with the line, or None."""
    edges = [g for strip in gutters for g in strip if line.x0 + slack < g < line.x1 - slack]
    rows = [x for row in run[1:] if row.gaps for cell in _cells(row) for x in cell]
    if not edges or any(abs(g - x) <= slack for g in edges for x in rows):
        return None
    grown = _cover(covered, line)
    return grown if len(_strips(grown, run[0])) >= max(len(gutters), MIN_GUTTERS) else None


def _mark(run, covered) -> None:
    rows = [line for line in run if line.gaps]
    wrapped = len(run) - len(rows)
    while run and not run[-1].gaps:  # a wrapped cell ends at a row
        run = run[:-1]
    if (len(rows) < MIN_ROWS or len(run) > 2 * len(rows)
            or 2 * sum(ends_entry(line.text) for line in run) >= len(run)):
        return  # too short, prose with notes beside it, or a contents list (its entries' ends
        # are kept and their wraps joined: decide.forced_keeps)
    gutters = _strips(covered, run[0])
    if len(gutters) < MIN_GUTTERS and not (gutters and _keyed(rows, wrapped, covered)):
        return
    edges = [covered[0][0], *(x for g in gutters for x in g),
             max(covered[-1][1], *(line.x1 for line in run))]
    columns = list(zip(edges[::2], edges[1::2]))  # (start, end) of each column
    held = [sum(any(a <= x < b for x, _ in _cells(row)) for row in rows) for a, b in columns]
    if any(2 * n < len(rows) for n in held[1:]) or (2 * held[0] < len(rows)
                                                     and not _grouped(rows, columns)):
        return
    top, bottom = run[0].top, run[-1].bottom
    for line in run:
        line.table = True
        x0, x1 = next(((a, b) for a, b in columns if a <= line.x1 - 0.1 <= b), columns[-1])
        line.cell = (x0, top, x1, bottom)
        line.in_cell = not line.gaps


def _grouped(rows, columns) -> bool:
    """Is a sparse first column a grouped table's: a group's name in it on two rows or more,
    each with its next cell where the group's other rows start, all at one x ("ISO | fixmath",
    then "isomath", "kpfonts | slantedGreeks")? A numbered heading's title after its number
    starts elsewhere."""
    lead = [row for row in rows if row.x0 < columns[0][1]]
    rest = [row for row in rows if row.x0 >= columns[0][1]]
    if len(columns) < 3 or len(lead) < 2 or not rest:
        return False
    slack = SLACK_EMS * (rows[0].size or 10.0)
    start = min(row.x0 for row in rest)
    return (all(row.x0 - start <= slack for row in rest)
            and all(abs(_cells(row)[1][0] - start) <= slack for row in lead))


def _keyed(rows, wrapped, covered) -> bool:
    """Do two columns read as a reference card's or a glossary's: short keys (KEY_SHARE of the
    table's width, in the median; words, not a margin's line numbers) beside what each means,
    one line each in the main (`wrapped` lines, one for every two rows at most), the right ends
    of the rows between the first and the last ragged, all set in one size? A definition list
    whose descriptions run on for lines is prose, and so are justified lines with names in the
    margin beside them (a numbered heading above them has a cell gap too), or a page's two
    columns read across."""
    width = covered[-1][1] - covered[0][0]
    keys = sorted(row.gaps[0][0] - row.x0 for row in rows)
    worded = sum(_worded(row.text.split()[0]) for row in rows)
    inner = rows[1:-1]  # not a header's row, nor a paragraph's last line
    flush = sum(at_edge(row, covered[-1][1]) for row in inner)
    sizes = [row.size or 10.0 for row in rows]
    return (2 * wrapped <= len(rows) and 2 * worded >= len(rows)
            and keys[len(keys) // 2] <= KEY_SHARE * width and flush < JUSTIFIED_SHARE * len(inner)
            and max(sizes) <= SAME_SIZE * min(sizes))


def _worded(key: str) -> bool:
    """A key has a letter; a margin's line number has none, nor a list's bullet that pdfplumber
    reads as "(cid:136)"."""
    return not unmapped(key) and any(c.isalpha() for c in key)


def _cover(covered, row) -> list:
    """`covered` ((x0, x1) spans, sorted, apart) with the row's cells added, merged."""
    out = []
    for x0, x1 in sorted([*covered, *_cells(row)]):
        if out and x0 <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], x1))
        else:
            out.append((x0, x1))
    return out


def _strips(covered, first) -> list:
    """(x0, x1) of each strip between the `covered` spans at least MIN_GUTTER_EMS (of the
    run's `first` line's size) wide: the gaps between a table's columns, empty in every row."""
    em = first.size or 10.0
    return [(a[1], b[0]) for a, b in zip(covered, covered[1:])
            if b[0] - a[1] >= MIN_GUTTER_EMS * em]


def _cells(row) -> list:
    """(x0, x1) of each of a row's cells, left to right."""
    return list(zip([row.x0, *(after for _, after in row.gaps)],
                    [*(before for before, _ in row.gaps), row.x1]))
