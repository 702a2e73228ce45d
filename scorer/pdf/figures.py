"""Figures on a page: drawings (vector shapes, images) and the text drawn on them (a tree's node
labels, a grid of answer boxes with its letters and digits, a diagram's names). That text is no
body line: set on the same baselines as the body beside it, it was read into the body's lines
("offer. The characters entered by the student will be available B 3 3 3 3"). And a line set
beside a figure ends (or starts) where the figure stands, not at the column's edge: beside it
every line looked short.

Does not: read lines (lines.py), order them (order.py) or place a figure's text (reader.py).
"""

import re
from functools import lru_cache
from statistics import median
from typing import NamedTuple

import numpy as np

from .layout import MARKER_EMS, THREE_LETTERS

GAP_EMS = 1.5  # shapes this close (in ems of the page's text) are parts of one drawing
MIN_SHAPES = 4  # a drawing of fewer shapes is a frame, a mark or a rule; an image counts as many
THIN_PT, THIN_EMS = 1.5, 0.3  # a shape thinner than either is a line
RULE_EMS = 6.0  # a line longer than this is a rule (a table's, a box's border, a plot's axis)
ITEM_EMS = 3.0  # a shape of a list marker's size (layout.MARKER_EMS) with this much text after
# it or more is a list's marker
HOLDER_EMS = 3.0  # a shape this wide with text on it is a box, a panel or a highlight
PAGE_SHARE = 0.8  # a drawing this wide and tall frames the page (a ruler, a border), unless
# most of the page's text is drawn on it (a diagram printed on a page of its own)
LABEL_EMS = 0.4  # a glyph this close to a shape of a drawing is drawn on it, and so is the
# rest of its word or label on that row (glyphs less than WORD_EMS apart)
WORD_EMS = 0.5
ROW_EMS = 0.3  # glyphs whose middles are this close down the page are on one row
PROSE_WORDS = 3  # a row of labels with this many words of two letters or more is prose
MARKS_SHARE = 0.25  # labels of which at most this share are words (three letters running) are
# a diagram's marks: its letters and digits ("a", "b 0 1", "f(a,b,c,d):", "abc")
LONE_EMS = 2.0  # a mark with no other glyph this close on its row stands alone (_lone_marks)
DIVIDERS = 2  # a drawing with this many lines crossing another is divided by them (_crossed)
BESIDE_EMS = 3.0  # lines beside a figure that end this close to it end at it
# A glyph of a dingbat font set smaller than the text (POINT_SIZE of the page's median size or
# less) is drawn as a shape: R's pdf() device draws a plot's points as ZapfDingbats' circles,
# squares and triangles, and a scatter plot's hundred points were rows of "l" among the body's
# lines. A table's check marks, set at the text's size, stay text; a list's bullets, one
# under the other, are never two ems across (a figure's least) nor, with their item's words
# after them, a figure's shapes (_marks_text).
DINGBATS = re.compile(r"dingbats", re.I)
POINT_SIZE = 0.7


class Figure(NamedTuple):
    box: tuple  # (x0, top, x1, bottom) around its shapes and labels
    parts: np.ndarray  # its shapes, one (x0, top, x1, bottom) a row
    labels: list  # the glyphs drawn on it (indices into the page's glyphs)
    points: frozenset = frozenset()  # the id()s of those that are its points, no text


def figures(page, glyphs, tables=()) -> list:
    """[Figure] of the page (`glyphs`: its characters that are not white space): shapes and
    images near each other (GAP_EMS), at least two ems across and down, not framing the page,
    their labels (_labels) no prose (PROSE_WORDS); MIN_SHAPES shapes or more, or lines that
    cross (DIVIDERS, _crossed) and labels that are marks (_marks): a Karnaugh map is a box
    divided by lines, its cells' digits and its variables' letters drawn on and around it. No
    part of a drawing: a page's background, rules (RULE_EMS; but one that another line
    crosses, a big map's divider), list markers and lines over or under text (_marks_text). A
    shape text is drawn on (a box, a panel, a code block's shading) and a line (a box's border
    drawn in pieces, a tree's edge) join a drawing, counting as no shape of it; so do the
    shapes in `tables` (the grid tables' boxes), and a drawing that holds one is a figure only
    as one of marks (a Karnaugh map is also a grid); a figure of marks takes the marks alone on
    their rows near it too (_lone_marks). Framing the page: PAGE_SHARE. A dingbat's glyph
    (DINGBATS), small (POINT_SIZE), is a shape too, and a label drawn on itself: a plot's
    point."""
    dingbats = np.array([_dingbat_font(ch.get("fontname") or "") for ch in glyphs], dtype=bool)
    drawn = page.rects + page.curves + page.lines + page.images
    if not glyphs or not (drawn or dingbats.any()):
        return []
    em = median(ch["size"] for ch in glyphs) or 10.0
    g = _boxes(glyphs)
    text = g[:, ~dingbats]  # a point is asked what else is on it or after it, not about itself
    points = [ch for ch, d in zip(glyphs, dingbats) if d and ch["size"] <= POINT_SIZE * em]
    point_ids = frozenset(map(id, points))
    shapes_drawn, drawn = len(drawn), drawn + points  # the points come last
    if not drawn:
        return []
    boxes = [_box(obj) for obj in drawn]
    crossed = _crossed(np.array(boxes), em)
    parts = []
    for k, (obj, box, cross) in enumerate(zip(drawn, boxes, crossed)):
        kind = _kind(box, page, em, text if k >= shapes_drawn else g, tables, cross)
        if kind != "none":  # a box with text on it, a line, a table's: parts that count as no
            # shape (a table's -1: the drawing that holds it is a figure only of marks)
            thin = min(box[2] - box[0], box[3] - box[1]) < max(THIN_PT, THIN_EMS * em)
            parts.append((box, -1 if kind == "table" else 0 if kind == "holder" or thin else
                          MIN_SHAPES if obj.get("object_type") == "image" else 1, cross))
    out = []
    for members in _drawings(parts, GAP_EMS * em):
        weights = [parts[k][1] for k in members]
        shaped = min(weights) >= 0 and sum(weights) >= MIN_SHAPES
        if not shaped and sum(parts[k][2] for k in members) < DIVIDERS:
            continue
        shapes = np.array([parts[k][0] for k in members])
        labels = _labels(shapes, g, em)
        words = _words(labels, glyphs, g, em)
        if not shaped and not _marks(words):  # lines that cross, holding marks
            continue
        box = (min(shapes[:, 0].min(), g[0][labels].min(initial=np.inf)),
               min(shapes[:, 1].min(), g[1][labels].min(initial=np.inf)),
               max(shapes[:, 2].max(), g[2][labels].max(initial=-np.inf)),
               max(shapes[:, 3].max(), g[3][labels].max(initial=-np.inf)))
        x0, top, x1, bottom = box
        if not shaped:  # a map's letters off its bars
            labels = np.union1d(labels, _lone_marks(box, labels, g, em))
        if (x1 - x0 >= 2 * em and bottom - top >= 2 * em
                and not (x1 - x0 >= PAGE_SHARE * float(page.width)
                         and bottom - top >= PAGE_SHARE * float(page.height)
                         and 2 * len(labels) < len(glyphs))
                and not _prose(words)):
            out.append(Figure(tuple(map(float, box)), shapes, [int(k) for k in labels],
                              frozenset(id(glyphs[k]) for k in labels) & point_ids))
    return out


@lru_cache(maxsize=1024)
def _dingbat_font(fontname: str) -> bool:
    """Is it a dingbat font (DINGBATS)? Asked once a name."""
    return bool(DINGBATS.search(fontname))


def drawn_chars(page, glyphs, fig) -> set:
    """The id()s of the page's characters drawn on `fig`: its labels (indices into `glyphs`)
    and the white space between them (a browser prints spaces as characters)."""
    ids = {id(glyphs[k]) for k in fig.labels}
    if not fig.labels:
        return ids
    em = median(glyphs[k]["size"] for k in fig.labels) or 10.0
    g = _boxes([glyphs[k] for k in fig.labels])
    for ch in page.chars:
        if ch["text"].isspace():
            x, y = (ch["x0"] + ch["x1"]) / 2, (ch["top"] + ch["bottom"]) / 2
            if ((np.abs(g[5] - y) < ROW_EMS * em) & (g[0] - WORD_EMS * em <= x)
                    & (g[2] + WORD_EMS * em >= x)).any():
                ids.add(id(ch))
    return ids


def beside(lines, figs) -> None:
    """Set where each line standing beside a figure (shapes of it at the line's height, all to
    one side) ends or starts: `edge_x1` for lines left of it, `edge_x0` right of it. Lines on
    one side of a figure, at much the same distance from it (its shapes at their heights within
    BESIDE_EMS of each other), two or more, end (start) alike: where the furthest of them does,
    when that is within BESIDE_EMS of the figure (a paragraph wrapped around it, not a short
    list beside it). Lines of a column the figure does not stand in (where the page is read
    in columns: the regions of the body's lines that reach into its width) are never beside
    it: a left column ending 2 ems from a plot in the right one was taken to wrap around it,
    and the plot's text was read into that column."""
    em = median(line.size or 10.0 for line in lines) if lines else 10.0
    for fig in figs:
        left, right = [], []
        x0, _, x1, _ = fig.box
        columns = {line.region for line in lines if line.x0 < x1 and line.x1 > x0}
        for line in lines:
            if columns and line.region not in columns:
                continue  # another column's: a gutter between, not the figure's margin
            level = fig.parts[(fig.parts[:, 1] < line.bottom) & (fig.parts[:, 3] > line.top)]
            if len(level) and line.x1 <= level[:, 0].min():
                left.append((level[:, 0].min(), line))
            elif len(level) and line.x0 >= level[:, 2].max():
                right.append((-level[:, 2].max(), line))
        for group in _alike(left, em) + _alike(right, em):
            x = min(abs(at) for at, _ in group)
            if group[0][0] >= 0:  # left of the figure
                edge = max(line.x1 for _, line in group)
                if edge >= x - BESIDE_EMS * em:
                    for _, line in group:
                        line.edge_x1 = edge
            else:
                x = max(abs(at) for at, _ in group)
                start = min(line.x0 for _, line in group)
                if start <= x + BESIDE_EMS * em:
                    for _, line in group:
                        line.edge_x0 = start


def _alike(beside, em) -> list:
    """[(where the figure stands, line)] in groups of two or more whose figure stands within
    BESIDE_EMS of the next one's."""
    groups = []
    for item in sorted(beside, key=lambda pair: pair[0]):
        if groups and item[0] - groups[-1][-1][0] <= BESIDE_EMS * em:
            groups[-1].append(item)
        else:
            groups.append([item])
    return [group for group in groups if len(group) >= 2]


def _box(obj) -> tuple:
    return float(obj["x0"]), float(obj["top"]), float(obj["x1"]), float(obj["bottom"])


def _boxes(glyphs) -> np.ndarray:
    """Per glyph: x0, top, x1, bottom and its middle across and down."""
    b = np.array([_box(ch) for ch in glyphs]).T
    return np.vstack([b, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2])


def _kind(box, page, em, g, tables, crossed=False) -> str:
    """What a shape is to a drawing: "none" (a page's background; a rule, a list's marker, a
    line over or under text, unless `crossed` by another: a grid's), "table" (a shape in one of
    `tables`), "holder" (text is drawn on it: a box, a panel, a highlight) or "part"."""
    x0, top, x1, bottom = box
    w, h = x1 - x0, bottom - top
    if (w * h > 0.5 * float(page.width) * float(page.height)
            or (min(w, h) < max(THIN_PT, THIN_EMS * em) and max(w, h) > RULE_EMS * em
                and not crossed)
            or (not crossed and _marks_text(box, em, g))):
        return "none"
    if any(t0 <= x0 and x1 <= t1 and t_top <= top and bottom <= t_bottom
           for t0, t_top, t1, t_bottom in tables):
        return "table"
    on = (g[4] >= x0) & (g[4] <= x1) & (g[5] >= top) & (g[5] <= bottom)
    if on.any() and (w >= HOLDER_EMS * em
                     or (on.sum() >= 2 and g[2][on].max() - g[0][on].min() >= 0.5 * w)):
        return "holder"
    return "part"


def _marks_text(box, em, g) -> bool:
    """Is a shape a list's marker (small, none on it, none just before it on its row, and a
    run of text after it, ITEM_EMS long or longer: an item's words, not a grid's digit), or a
    line over, under or through text (an underline or its dots, an overline, a fraction's bar,
    a root's top, a strike: glyphs within 0.4 em across half of it)?"""
    x0, top, x1, bottom = box
    w, h = x1 - x0, bottom - top
    if w <= MARKER_EMS[1] * em and h <= MARKER_EMS[1] * em:
        row = (g[1] < bottom) & (g[3] > top)
        on = row & (g[4] >= x0) & (g[4] <= x1)
        before = row & (g[2] <= x0 + 0.1 * em) & (g[2] >= x0 - em)
        if not on.any() and not before.any() and _run_after(x1, row, g, em) >= ITEM_EMS * em:
            return True
    if h <= max(THIN_PT, THIN_EMS * em):
        mid = (top + bottom) / 2
        near = (g[0] < x1) & (g[2] > x0) & (g[1] - 0.4 * em <= mid) & (g[3] + 0.4 * em >= mid)
        if near.any() and min(x1, g[2][near].max()) - max(x0, g[0][near].min()) >= 0.5 * w:
            return True
    return False


def _run_after(x, row, g, em) -> float:
    """How long the run of text is that starts within 2.5 em after `x` among the glyphs of `row`
    (a mask), its glyphs less than WORD_EMS apart."""
    after = np.flatnonzero(row & (g[0] >= x - 0.1 * em))
    after = after[np.argsort(g[0][after])]
    if not len(after) or g[0][after[0]] > x + 2.5 * em:
        return 0.0
    start = end = None
    for k in after:
        if end is not None and g[0][k] - end > WORD_EMS * em:
            break
        start = g[0][k] if start is None else start
        end = max(end or g[2][k], g[2][k])
    return end - start


def _drawings(parts, gap) -> list:
    """The indices of `parts` ([(box, weight, crossed)]) per drawing: parts chained where they
    come within `gap` of each other. Each part marks the cells of a grid `gap` wide that it
    reaches, and parts that share a cell are one drawing (a plot of thousands of segments is
    joined in linear time)."""
    parent = list(range(len(parts)))

    def root(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    first = {}  # cell -> the first part that reached it
    for k, ((x0, top, x1, bottom), *_) in enumerate(parts):
        for cx in range(int((x0 - gap / 2) // gap), int((x1 + gap / 2) // gap) + 1):
            for cy in range(int((top - gap / 2) // gap), int((bottom + gap / 2) // gap) + 1):
                parent[root(k)] = root(first.setdefault((cx, cy), k))
    out = {}
    for k in range(len(parts)):
        out.setdefault(root(k), []).append(k)
    return list(out.values())


def _labels(shapes, g, em) -> np.ndarray:
    """The glyphs drawn on a drawing (`shapes`): those on or within LABEL_EMS of one of its
    shapes, and the glyphs of their rows chained to them less than WORD_EMS apart."""
    reach = LABEL_EMS * em
    taken = np.zeros(g.shape[1], dtype=bool)
    for chunk in range(0, len(shapes), 512):
        s = shapes[chunk:chunk + 512, :, None]
        taken |= ((g[0] <= s[:, 2] + reach) & (g[2] >= s[:, 0] - reach)
                  & (g[1] <= s[:, 3] + reach) & (g[3] >= s[:, 1] - reach)).any(axis=0)
    new = taken.copy()
    while new.any():  # a body line running onto the drawing is taken whole: its words are prose
        s = g[:, new][:, :, None]  # the glyphs taken last, one a column
        new = ~taken & ((np.abs(g[5] - s[5]) < ROW_EMS * em) & (g[0] <= s[2] + WORD_EMS * em)
                        & (g[2] >= s[0] - WORD_EMS * em)).any(axis=0)
        taken |= new
    return np.flatnonzero(taken)


def _lone_marks(box, labels, g, em) -> np.ndarray:
    """Glyphs within GAP_EMS of a figure of marks (`box`), not among its `labels`, each a mark
    alone on its row: one or two glyphs with no other within LONE_EMS on their row (a Karnaugh
    map's variables beside the bars that span their cells, 5.5 pt off)."""
    gap = GAP_EMS * em
    near = ((g[2] >= box[0] - gap) & (g[0] <= box[2] + gap) & (g[3] >= box[1] - gap)
            & (g[1] <= box[3] + gap))
    near[labels] = False
    out = []
    for k in np.flatnonzero(near):
        row = np.abs(g[5] - g[5][k]) < ROW_EMS * em
        mates = row & (g[2] >= g[0][k] - LONE_EMS * em) & (g[0] <= g[2][k] + LONE_EMS * em)
        if mates.sum() <= 2:
            out.append(k)
    return np.array(out, dtype=int)


def _crossed(boxes, em) -> np.ndarray:
    """Per shape (`boxes`, one a row): is it a line that another crosses (thin, THIN_PT or
    THIN_EMS, one across and one down, each passing the other's ends by more than THIN_PT): a
    Karnaugh map's lines between its cells, a board's grid; not the sides of a box, which meet
    at their ends."""
    out = np.zeros(len(boxes), dtype=bool)
    if not len(boxes):
        return out
    thin = max(THIN_PT, THIN_EMS * em)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    across = np.flatnonzero((h < thin) & (w >= thin))
    down = np.flatnonzero((w < thin) & (h >= thin))
    if not len(across) or not len(down):
        return out
    d = boxes[down]
    x = (d[:, 0] + d[:, 2]) / 2
    for chunk in range(0, len(across), 512):
        rows = across[chunk:chunk + 512]
        a = boxes[rows][:, :, None]
        y = (a[:, 1] + a[:, 3]) / 2
        cross = ((a[:, 0] + THIN_PT < x) & (x < a[:, 2] - THIN_PT)
                 & (d[:, 1] + THIN_PT < y) & (y < d[:, 3] - THIN_PT))
        out[rows] |= cross.any(axis=1)
        out[down] |= cross.any(axis=0)
    return out


def _words(labels, glyphs, g, em) -> list:
    """The words of `labels` (glyphs less than 0.2 em apart), row by row: [[word]]."""
    rows = {}
    for k in labels:
        rows.setdefault(round(g[3][k]), []).append(k)
    out = []
    for row in rows.values():
        row.sort(key=lambda k: g[0][k])
        words, word, end = [], "", None
        for k in row:
            if end is not None and g[0][k] - end > 0.2 * em:
                words.append(word)
                word = ""
            word, end = word + glyphs[k]["text"], g[2][k]
        out.append(words + [word])
    return out


def _prose(rows) -> bool:
    """Does a row of labels' words (_words) hold PROSE_WORDS words of two letters or more (a
    sentence, a list's entry: text, not a drawing's names)?"""
    return any(sum(sum(c.isalpha() for c in word) >= 2 for word in row) >= PROSE_WORDS
               for row in rows)


def _marks(rows) -> bool:
    """Are labels' words (_words) a diagram's marks: two or more, at most MARKS_SHARE of them
    words (three letters running)?"""
    words = [word for row in rows for word in row]
    long = sum(bool(THREE_LETTERS.search(word)) for word in words)
    return len(words) >= 2 and long <= MARKS_SHARE * len(words)
