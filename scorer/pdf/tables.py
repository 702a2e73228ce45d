"""Tables set without rules (booktabs' three horizontal lines, a tabular with no frame, a
font table): three or more lines in a row, each with a wide gap (CELL_GAP_EMS) between two of
its glyphs, that leave the same two or more strips of the page empty between their cells. A
ruled table is pdfplumber's to find (regions.py).

Does not: read pages (reader.py) or decide anything: the lines are marked `table`, and the
breaks around them are kept as a ruled table's rows are (decide.forced_keeps).
"""

CELL_GAP_EMS = 1.0  # a gap this wide or wider between two glyphs of a line ends a cell: a
# justified line's word space stays under half of that
MIN_ROWS = 3
MIN_GUTTERS = 2  # three columns or more: two cells side by side may be a tag and its
# description (a definition list, a reference card), whose next lines go on the description
MIN_GUTTER_EMS = 0.5  # the strip empty in every row is at least this wide
SLACK_EMS = 0.25  # a cell's wrapped text may start this far into the gutter before its column


def cell_gaps(glyphs, size) -> tuple:
    """((x1, x0) of the glyphs before and after it) for each gap of CELL_GAP_EMS or more
    between a line's glyphs (`glyphs`, left to right, spaces left out)."""
    em = size or 10.0
    return tuple((float(before["x1"]), float(ch["x0"])) for before, ch in zip(glyphs, glyphs[1:])
                 if ch["x0"] - before["x1"] >= CELL_GAP_EMS * em)


def mark_unruled_tables(lines) -> None:
    """Mark `table` on each run of MIN_ROWS or more rows (lines with a cell gap: cell_gaps) of
    one page's region, not code, a figure's labels or furniture, whose cells leave MIN_GUTTERS
    strips empty down the run (_gutters), each column holding a cell in half the rows or more,
    and no more wrapped lines than rows (else it is prose with a margin's numbers or notes
    beside some of its lines). A row that would close one of the strips starts a run of its
    own (a definition list after a table). A line between two rows that starts after the
    run's first column and crosses none of its strips is a cell's text wrapped: in the table,
    and in that cell (`in_cell`, `cell`: the column's box down the table), as the row before
    it is when it ends in that column: the break between them is weighed as a ruled table's
    cell's is."""
    run = []
    for line in [*lines, None]:
        if line is not None and run and _goes_on(run, line):
            run.append(line)
            continue
        _mark(run)
        run = [line] if line is not None and line.gaps and _free(line) else []


def _free(line) -> bool:
    return not (line.code or line.repeated or line.table or line.figure)


def _goes_on(run, line) -> bool:
    """Does `line` go on the `run`: on its page and region, a row that leaves as many of the
    run's strips (up to MIN_GUTTERS) empty, or a cell's wrapped text starting a cell gap or
    more right of the run's first row, across none of them?"""
    first = run[0]
    if (line.page, line.region) != (first.page, first.region) or not _free(line):
        return False
    rows = [row for row in run if row.gaps]
    gutters = _gutters(rows)
    if line.gaps:
        return len(_gutters([*rows, line])) >= min(MIN_GUTTERS, len(gutters))
    slack = SLACK_EMS * (first.size or 10.0)  # a bracket's glyph may stand a little out
    return (line.x0 - first.x0 >= CELL_GAP_EMS * (first.size or 10.0)
            and not any(line.x0 < g1 - slack and line.x1 > g0 + slack for g0, g1 in gutters))


def _mark(run) -> None:
    while run and not run[-1].gaps:  # a wrapped cell ends at a row
        run = run[:-1]
    rows = [line for line in run if line.gaps]
    if len(rows) < MIN_ROWS or len(run) > 2 * len(rows):
        return
    gutters = _gutters(rows)
    if len(gutters) < MIN_GUTTERS:
        return
    edges = [min(line.x0 for line in run), *(x for g in gutters for x in g),
             max(line.x1 for line in run)]
    columns = list(zip(edges[::2], edges[1::2]))  # (start, end) of each column
    if any(2 * sum(any(a <= x < b for x, _ in _cells(row)) for row in rows) < len(rows)
           for a, b in columns):
        return
    top, bottom = run[0].top, run[-1].bottom
    for line in run:
        line.table = True
        x0, x1 = next(((a, b) for a, b in columns if a <= line.x1 - 0.1 <= b), columns[-1])
        line.cell = (x0, top, x1, bottom)
        line.in_cell = not line.gaps


def _gutters(rows) -> list:
    """(x0, x1) of each strip at least MIN_GUTTER_EMS wide that no row's cells touch, between
    where the rows start and where they end: the gaps between a table's columns."""
    cells = sorted(cell for row in rows for cell in _cells(row))
    em = sorted(row.size or 10.0 for row in rows)[len(rows) // 2]
    found, reach = [], cells[0][1]
    for x0, x1 in cells[1:]:
        if x0 - reach >= MIN_GUTTER_EMS * em:
            found.append((reach, x0))
        reach = max(reach, x1)
    return found


def _cells(row) -> list:
    """(x0, x1) of each of a row's cells, left to right."""
    return list(zip([row.x0, *(after for _, after in row.gaps)],
                    [*(before for before, _ in row.gaps), row.x1]))
