"""A line's layout and a break's evidence: the Line, where its text starts after a list marker
or a tag, which lines are code, each column's edges, and the features of the break between two
lines (how full, how far in, the gap, a page or size change...) that decide.py and the hybrid
read.

Does not: read pages (reader.py) or decide anything.
"""

import re
from collections import Counter
from dataclasses import asdict, dataclass
from statistics import median

from ..breaks import SHORT, ends_entry, is_wide, starts_item, starts_lower
from .lines import UNMAPPED, X_TOLERANCE_RATIO


# A line is code when nearly all its glyphs are monospaced. A prose line with a command, a path
# or a URL inline may be mostly monospaced and is prose; a mostly monospaced line between two
# code lines (a comment in another font) belongs to their block.
CODE_SHARE, BLOCK_SHARE = 0.9, 0.5
BIGGER_PT = 1.0  # a line set this much above the body's usual size may be a heading
TAG_EMS = 12  # a tag before its description (a definition list's term) is at most this long
COLUMN_GAP_EMS = 2  # a gap this wide, further along the line, sets a table-like column apart
HANG_EMS = (0.25, 1.0)  # a line hangs from the text after a tag from this far before to after
HANG_BLOCK_EMS = (0.5, 6.0)  # a hanging paragraph's next lines are set this far in
MIN_PROSE = 3  # prose lines of a column enough to say where it ends without its code lines
FAR_IN = 0.25  # a line starting beyond this share of its column is measured from its own start
SAME_X_PT = 0.5  # two lines starting this close start at one x (on two pages: one block)
JUSTIFIED_EMS = 0.5  # a line ending this close to its column's right edge runs to it
DISPLAY_EMS = 2.0  # a displayed formula is set this far in from its column's edge or more
DISPLAY_WORDS = 3  # a name or a phrase displayed inside a sentence has at most this many words,
TWO_LETTERS = re.compile(r"[^\W\d_]{2}")  # and two letters running (an index's "D" has not)
THREE_LETTERS = re.compile(r"[^\W\d_]{3}")  # a word, not a mark (in any script)
EDGE_EMS = 0.5  # a line starting this close to its column's left edge starts at it
EQUATION_NUMBER = re.compile(r"\(\d+[a-z]?\)\s")  # or opens on its number there, "(3) "
JUSTIFIED_LINES, JUSTIFIED_SHARE = 4, 2 / 3  # a page's column is justified when this many of its
# full lines or more, and this share of them, run to its edge: there a line that stops an em
# or more short ends its paragraph or item


@dataclass
class Line:
    text: str
    page: int  # 1-based
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # dominant font size of the line's characters
    column_x0: float = 0.0  # where the page's body text starts and ends
    column_x1: float = 0.0
    repeated: bool = False  # running header/footer or page number
    table: bool = False  # inside a table found by pdfplumber
    code: bool = False  # a code block's line, or preformatted text (mark_code)
    mono: float = 0.0  # share of its glyphs set in a monospaced font
    formula: bool = False  # a displayed formula's line: set in a math font (lines.is_formula)
    region: int = 0  # 0: the page's full width; 1, 2...: its columns, left to right
    text_x0: float = 0.0  # where the text after a list marker or a tag starts (text_start); 0: none
    text_x1: float = 0.0  # where its text ends before a tail set flush right (text_end); 0: none
    marker: bool = False  # a list marker drawn as a shape before its first glyph (drawn_marker)
    first_word: float = 0.0  # what its first word takes at the end of the line before (first_word)
    cell: tuple = ()  # the text box (x0, top, x1, bottom) of the table cell the line ends in
    in_cell: bool = False  # the whole line stands in that cell
    figure: bool = False  # text drawn on a figure: its labels (figures.py)
    edge_x0: float = 0.0  # where a figure beside the line lets the column start, or end
    edge_x1: float = 0.0  # (figures.beside); 0: none
    gaps: tuple = ()  # (x1, x0) around each wide gap between its cells (lines.cell_gaps)


MARKER_EMS = (0.15, 1.2)  # a drawn list marker's width and height, in ems of its line
MARKER_BEFORE_EMS = 2.5  # how far before the line's first glyph it may end


def body_size(body) -> float:
    """The body's font size: its prose's, in the median (a manual's many short code lines, set
    smaller, would make every prose line "bigger" than the body: a heading)."""
    sizes = ([ln.size for ln in body if ln.size and not ln.code]
             or [ln.size for ln in body if ln.size])
    return float(median(sizes)) if sizes else 0.0


def drawn_marker(x0, top, bottom, size, shapes) -> bool:
    """Is a list marker drawn as a shape just before a line's first glyph (at `x0`, the line
    from `top` to `bottom`, its font `size`): a small shape (MARKER_EMS) among `shapes` ((x0,
    top, x1, bottom) of the page's curves and rectangles) ending at most MARKER_BEFORE_EMS
    before it, its middle within the line's height, no part of a bigger drawing (_part_of)?
    Chromium prints a list's bullets as
    paths, not glyphs (no printed page of the wild corpus had a "•" in its text), and an exam's
    choices follow drawn boxes."""
    em = size or 10.0
    lo, hi = MARKER_EMS[0] * em, MARKER_EMS[1] * em
    near = [s for s in shapes if x0 - MARKER_BEFORE_EMS * em - hi <= s[2] <= x0
            and s[1] <= bottom and s[3] >= top]
    return any(lo <= s_x1 - s_x0 <= hi and lo <= s_bottom - s_top <= hi
               and x0 - MARKER_BEFORE_EMS * em <= s_x1 and top <= (s_top + s_bottom) / 2 <= bottom
               and not any(_part_of((s_x0, s_top, s_x1, s_bottom), other, hi) for other in near)
               for s_x0, s_top, s_x1, s_bottom in near)


def _part_of(small, other, most) -> bool:
    """Is shape `small` a part of a bigger drawing: does `other`, wider or taller than `most`,
    overlap it (the dot of a warning sign's "!" beside an admonition's first line is no
    list marker)?"""
    return ((other[2] - other[0] > most or other[3] - other[1] > most)
            and other[0] < small[2] and other[2] > small[0]
            and other[1] < small[3] and other[3] > small[1])


def text_start(text, glyphs, size) -> float:
    """Where the text after the line's list marker or tag starts: after its first word when
    that word is a list marker ("•", "2.", "(1)"), or after a tag of one or more words set
    apart by more than a space within TAG_EMS of the line's start (a man page's "shm_open(3)",
    a Texinfo table's "-d name" or "--gui=type" before its description), or by COLUMN_GAP_EMS
    further along (a tabular's macro name before its description): a hanging indent lines the
    item's next lines up with it. 0: no marker or tag. `glyphs`: the line's characters, spaces
    left out."""
    em = size or 10.0
    gap = X_TOLERANCE_RATIO * em  # wider than this between glyphs: a word ends
    first_word = True
    for before, ch in zip(glyphs, glyphs[1:]):
        if ch["x0"] - glyphs[0]["x0"] > TAG_EMS * em:
            if ch["x0"] - before["x1"] > COLUMN_GAP_EMS * em:
                return float(ch["x0"])
            continue
        if ch["x0"] - before["x1"] > 0.5 * em:
            return float(ch["x0"])
        if ch["x0"] - before["x1"] > gap:
            if first_word and starts_item(text):
                return float(ch["x0"])
            first_word = False
    return 0.0


def text_end(gaps, size) -> float:
    """Where the line's text ends before a tail set apart by COLUMN_GAP_EMS or more at its end
    (xgalley's "of the paragraph. [gap] Default: true", set flush right): its last glyph before
    that gap. 0: no such tail. `gaps`: the line's wide gaps between glyphs (lines.cell_gaps,
    an em or more: every gap this wide is among them)."""
    em = size or 10.0
    return next((x1 for x1, x0 in reversed(gaps) if x0 - x1 > COLUMN_GAP_EMS * em), 0.0)


NO_LINE_START = "，。、：；！？）」』】〉》”’,.:;!?)"  # a CJK typesetter moves a character down with these
SPACE_EMS = 0.25  # a word space, at its narrowest a typesetter sets it about this wide


def first_word(text: str, glyphs, size: float) -> float:
    """The width a line's first word would take at the end of the line before: its glyphs'
    (`glyphs`, left to right, no spaces; `text` the line's text) and a word space; a CJK line's
    first character and the punctuation after it, no space (it may break after any other)."""
    words = text.split()
    if not words or not glyphs:
        return 0.0
    if is_wide(words[0][0]):  # with the punctuation after it: no line may start with "，"
        n = min(1 + len(words[0][1:]) - len(words[0][1:].lstrip(NO_LINE_START)), len(glyphs))
        return float(glyphs[n - 1]["x1"] - glyphs[0]["x0"])
    n = min(len(words[0]), len(glyphs))
    return float(glyphs[n - 1]["x1"] - glyphs[0]["x0"]) + SPACE_EMS * (size or 10.0)


def mark_code(lines) -> None:
    """Code blocks, by line: nearly all monospaced; or mostly, between two such lines of the
    body (not two of a page's margin numbers, set in a monospaced font)."""
    for line in lines:
        line.code = line.mono >= CODE_SHARE
    body = [line for line in lines if not line.repeated]
    for before, line, after in zip(body, body[1:], body[2:]):
        if (not line.code and line.mono >= BLOCK_SHARE and before.code and after.code
                and before.page == line.page == after.page):
            line.code = True


def mark_columns(lines) -> None:
    """Each page's body column (each column of a two-column page): the left edge most lines
    start at, the right edge they reach (_right_edge; the prose's, where it has MIN_PROSE lines:
    a code line, marked before, may run into the margin or off the page; and where only lines
    of two glyphs or fewer reach it, an icon beyond a CV's sidebar or a lone mark, the other
    lines', MIN_PROSE or more); a table cell's text box for the lines in it, and the edges a
    figure beside a line sets (edge_x0, edge_x1)."""
    by_page = {}
    for line in lines:
        if not line.repeated:
            by_page.setdefault((line.page, line.region), []).append(line)
    for page_lines in by_page.values():
        # from the body's text, not a figure's labels nor the lines a figure beside them cuts
        starts = [ln for ln in page_lines if not (ln.figure or ln.edge_x0)] or page_lines
        ends = [ln for ln in page_lines if not (ln.figure or ln.edge_x1)] or page_lines
        prose = [ln for ln in ends if not ln.code]
        ends = prose if len(prose) >= MIN_PROSE else ends
        x0 = Counter(round(ln.x0) for ln in starts).most_common(1)[0][0]
        x1 = _right_edge(ends)
        words = [ln for ln in ends if _glyphs(ln.text) > 2]  # not an icon or a lone mark
        if len(words) >= MIN_PROSE and max(ln.x1 for ln in words) < x1 - 1:
            x1 = _right_edge(words)  # only such lines reach the edge: it is the words'
        for line in page_lines:
            line.column_x0, line.column_x1 = float(x0), float(x1)
    for line in lines:  # a table cell's lines fill, and start in, the cell's text box; a
        # figure beside a line narrows its column
        if line.in_cell:
            line.column_x0, line.column_x1 = float(line.cell[0]), float(line.cell[2])
        if line.edge_x0:
            line.column_x0 = max(line.column_x0, line.edge_x0)
        if line.edge_x1:
            line.column_x1 = min(line.column_x1, line.edge_x1)


def _glyphs(text) -> int:
    """How many glyphs a line's `text` shows: its characters but spaces, a glyph its font
    gives no character for ("(cid:339)", an icon) one."""
    return len(UNMAPPED.sub("x", text).replace(" ", ""))


def _right_edge(lines) -> float:
    """Where a column's lines end: the edge a justified column's lines share (the x1 the most
    lines end at, within a point: three lines and a fifth of them or more, with at most a tenth,
    or half as many as share it, ending an em or more beyond it), else the furthest any line
    reaches. A code line or a URL running into the margin (or off the page) then does not make
    every line of the page look short (it measures over full)."""
    furthest = max(ln.x1 for ln in lines)
    ends = Counter(round(ln.x1) for ln in lines)
    edge = max(ends, key=lambda x: (ends[x - 1] + ends[x] + ends[x + 1], x))
    shared = ends[edge - 1] + ends[edge] + ends[edge + 1]
    size = median(ln.size or 10.0 for ln in lines)
    beyond = sum(ln.x1 > edge + 1 + size for ln in lines)
    if shared >= max(3, 0.2 * len(lines)) and beyond <= max(0.1 * len(lines), shared / 2):
        return float(max(ln.x1 for ln in lines if ln.x1 <= edge + 1.5))
    return furthest


def break_features(before: Line, after: Line, body_size: float = 0.0, then: Line = None) -> dict:
    """Layout evidence for the break between two consecutive body lines; `body_size`: the
    document's usual font size (a line set bigger may be a heading); `then`: the line after
    `after` (None: there is none)."""
    width = max(1.0, before.column_x1 - before.column_x0)
    same_page = before.page == after.page and before.top < after.top  # a new column reads
    # like a new page
    height = max(1.0, before.bottom - before.top)
    # how full the line is; one that starts beyond FAR_IN of the column (centred, or set
    # flush right: a signature, a date) from its own start, so that it never reads full
    start = (before.x0 - before.column_x0) / width
    fill = round((before.x1 - (before.x0 if start > FAR_IN else before.column_x0)) / width, 3)
    # a new page's first line set where the line before starts is as far in as that line (and
    # no further out than its column's edge): a page all in one indented block (an item's
    # text, a licence's clause) found its column's edge there, and the next page, back at the
    # margin, read that block's next line as a paragraph's first-line indent; a page mostly
    # in such a block, as an outdent
    goes_on = not same_page and abs(after.x0 - before.x0) <= SAME_X_PT
    return {
        "fill": fill,
        "start_before": round(start, 3),  # the share of the column before the line starts
        "indent_before": indent_ems(before),  # ems from the column's left edge
        "indent_next": max(indent_ems(before), 0.0) if goes_on else indent_ems(after),
        "hanging": _hangs(after, before, then, fill),
        # what a full line would have left after this one and the next line's first word: above
        # 0 the word would have fit, so a typesetter that fills its lines did not wrap here
        "room": round((before.column_x1 - before.x1 - after.first_word) / width, 3),
        "gap": round((after.top - before.bottom) / height, 2) if same_page else None,
        "page_break": not same_page,
        "size_change": round(after.size - before.size, 1),
        "bigger": bool(body_size) and before.size >= body_size + BIGGER_PT,
        "bullet_next": starts_item(after.text),
        "marker_next": after.marker,  # the next line follows a drawn list marker
        "table": before.table or after.table,
        "cell": after.in_cell and before.cell == after.cell,  # the break wraps one cell's text
        "code": before.code or after.code,
        "figure": before.figure or after.figure,  # text drawn on a figure, or the break to it
        "formula": displayed(before),  # the line is a displayed formula's
        "formula_next": displayed(after),
        "display_next": set_off(after, before, then),  # the next line alone, set in: a display
    }


def _hangs(line: Line, before: Line, then: Line = None, fill: float = 0.0, hung=(),
           justified: bool = False) -> bool:
    """Does `line` go on the item of the line `before` it (filled `fill`): does it line up with
    the text after that line's list marker or tag, or start a little further in (HANG_EMS: a
    reference card sets a description's next lines a few points in); or, after a full line, is
    it set in from it (HANG_BLOCK_EMS) as an item's next lines are: the first of them, the line
    `then` after it starting where it does (a hanging paragraph: a description list's item
    after its label, a LaTeX package manual's macro described beside its name in the margin),
    or the last, short (its text, before a tail set flush right; or run to its page number by
    dot leaders: a contents, index or change-history entry; or, where the text is `justified`
    and `before` runs to the column's edge, ending an em or more before it), with `then` back
    at the edge the item started at or left of it (an option described in two lines; a
    heading after the list); or the last, whatever its length, `before` at its column's edge
    and `then` between that edge and it (the next paragraph's first-line indent, less far in
    than the item's lines; not code set a little in, nor a list item)? With no line below it
    in its page's region (the item ends its page or column) it hangs as far in as one of
    `hung`, the offsets at which the region's other lines hang (mark_hanging); with the next
    item below it, back at the edge, it hangs as far in as one of them, full or not, where it
    opens lower-case (a sentence going on; a paragraph's first-line indent opens on a
    capital). A first-line
    indent is followed by a full line back at the edge (else it made a paragraph of one line
    after one that ended full), and a quotation set in follows a paragraph's short last
    line."""
    em = line.size or 10.0
    if before.text_x0 and (before.text_x0 - HANG_EMS[0] * em <= line.x0
                           <= before.text_x0 + HANG_EMS[1] * em):
        return True
    if not (fill >= SHORT
            and HANG_BLOCK_EMS[0] * em < line.x0 - before.x0 <= HANG_BLOCK_EMS[1] * em):
        return False
    below = (then is not None and then.page == line.page and then.region == line.region
             and then.top > line.top)
    if below and abs(then.x0 - line.x0) <= HANG_EMS[0] * em:
        return True
    if before.page != line.page:
        return False
    back = below and then.x0 <= before.x0 + HANG_EMS[0] * em  # the next item, or a heading
    if back and starts_lower(line.text) and _as_far(line, before, hung):
        return True  # an item's second line, the last, goes on from the first, full
    if (below and before.x0 + HANG_BLOCK_EMS[0] * em <= then.x0 < line.x0 - HANG_EMS[0] * em
            and abs(before.x0 - before.column_x0) <= HANG_EMS[0] * em
            and not (then.code or then.marker or starts_item(then.text))):
        return True  # the next paragraph starts at its indent, less far in: the item ended
    width = max(1.0, line.column_x1 - line.column_x0)
    end = line.text_x1 or line.x1  # a tail set flush right ends no line
    if not ((end - line.column_x0) / width < SHORT or ends_entry(line.text)
            or (justified and at_edge(before) and end < line.column_x1 - em)):
        return False
    if below:
        return back
    return _as_far(line, before, hung)


def _as_far(line: Line, before: Line, hung) -> bool:
    """Is `line` set in from `before` as far as one of `hung` (offsets)?"""
    em = line.size or 10.0
    return any(abs(line.x0 - before.x0 - offset) <= HANG_EMS[0] * em for offset in hung)


def at_edge(line: Line, edge: float = 0.0) -> bool:
    """Does `line` run to `edge` (its column's right edge, unless given), JUSTIFIED_EMS?"""
    return line.x1 >= (edge or line.column_x1) - JUSTIFIED_EMS * (line.size or 10.0)


def _justified(lines) -> set:
    """The (page, region)s whose full lines (SHORT), JUSTIFIED_SHARE of them or more, run to
    their column's edge (at_edge), JUSTIFIED_LINES or more: justified text. Ragged text ends
    its lines anywhere, and one of them at the edge says nothing."""
    full, edge = Counter(), Counter()
    for line in lines:
        width = max(1.0, line.column_x1 - line.column_x0)
        if not line.code and (line.x1 - line.column_x0) / width >= SHORT:
            full[line.page, line.region] += 1
            edge[line.page, line.region] += at_edge(line)
    return {where for where, n in full.items()
            if n >= JUSTIFIED_LINES and edge[where] >= JUSTIFIED_SHARE * n}


def mark_hanging(lines, layout) -> None:
    """Set `hanging` on the breaks before an item's last line nearly full in justified text
    (_justified), then on those before an item's last line that ends its page or column
    (_hangs: nothing below it says), where other items of its page's region hang as far in. A
    title page's centred date under a wider line hangs from nothing."""
    justified = _justified(lines)
    steps = list(zip(lines, lines[1:], [*lines[2:], None], layout))  # line before, line, then
    for before, line, then, features in steps:
        if not features["hanging"] and (line.page, line.region) in justified:
            features["hanging"] = _hangs(line, before, then, features["fill"], justified=True)
    hung = {}  # (page, region) -> how far in from their items' first lines lines hang there
    for before, line, _, features in steps:
        if features["hanging"]:
            hung.setdefault((line.page, line.region), []).append(line.x0 - before.x0)
    for before, line, then, features in steps:
        where = (line.page, line.region)
        if not features["hanging"] and where in hung:
            features["hanging"] = _hangs(line, before, then, features["fill"], hung[where],
                                         where in justified)


def displayed(line: Line) -> bool:
    """Is `line` a displayed formula's: set in math fonts (Line.formula), and set in from its
    column's edge (DISPLAY_EMS), or numbered there (EQUATION_NUMBER)? Math glyphs at the edge
    are a program's lines ("1507 <*report>": a docstrip guard) or a list's items."""
    return line.formula and (indent_ems(line) >= DISPLAY_EMS
                             or bool(EQUATION_NUMBER.match(line.text)))


def set_off(line: Line, before: Line, after: Line) -> bool:
    """Is `line` a name or a phrase (DISPLAY_WORDS, TWO_LETTERS) displayed alone between
    `before` and `after`, on one page: set in from its column's edges (DISPLAY_EMS), `before`
    ending that far short of the right one (the sentence broke off for it) and `after` back at
    the left one (EDGE_EMS: the paragraph goes on), neither code, a table's, a figure's, nor a
    formula's (displayed)?
    An option's name inside a sentence: "Mit der Option" / "classiclayout" / "werden die ..."."""
    room = DISPLAY_EMS * max(1.0, line.size)
    return (after is not None and before.page == line.page == after.page
            and before.region == line.region == after.region
            and not (line.code or line.table or line.figure or line.formula)
            and len(line.text.split()) <= DISPLAY_WORDS and bool(TWO_LETTERS.search(line.text))
            and indent_ems(line) >= DISPLAY_EMS and abs(indent_ems(after)) <= EDGE_EMS
            and max(line.x1, before.x1) <= line.column_x1 - room)


def indent_ems(line: Line) -> float:
    return round((line.x0 - line.column_x0) / max(1.0, line.size or 1.0), 2)


def line_json(line: Line) -> dict:
    return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(line).items()}
