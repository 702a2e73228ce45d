"""Other ways to read a page in order, to measure ours against (tests/perf/order_methods.py):
recursive XY-cut over pdfplumber's words, Breuel's whitespace cover with his reading order,
pdfminer's layout analysis (its text boxes in the order it sorts them), PyMuPDF's text blocks
as the file draws them, pymupdf4llm's Markdown, and pdfplumber's own text (top to bottom,
across the page). Each returns the page range's lines of
text, in its order; `found_pieces` places a twin's text in them whatever their lines are.

PyMuPDF and pymupdf4llm (AGPL) are evaluation-only: `pip install -r requirements-eval.txt`.
Does not: decide, label or tune anything; the engine reads pages in pdf/ (order.py, regions.py).
"""

import contextlib
import heapq
import io
import re
from collections import Counter

from ..align import inside, longest_increasing, normalise, twin_stream

PIECE = 25  # normalised characters: the twin is cut into pieces this long, each looked for
XY_GUTTER = 6.0  # points: the narrowest empty band down a region that XY-cut cuts at (a
# gutter; LaTeX's default is 10 pt); an empty band across, however narrow, is cut at
MD_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)|\*\*|__|`|\||(?<!\w)[*_]|[*_](?!\w)")


def found_pieces(lines, twin: str) -> dict:
    """Where a method's `lines` hold the twin's text: the twin (normalised, align.twin_stream)
    cut into pieces of PIECE characters; {piece number: its place in the lines' normalised
    text} for each piece that the twin and the lines both hold exactly once. A piece is lost
    where the method broke it (a column read across puts the other column's words inside it)
    or left it out (a running head between the pages' halves of it). A word hyphenated at a
    line's end is whole again (as a reader takes it, and pymupdf4llm writes it)."""
    stream, text = twin_stream(twin)[0], _unhyphenated(normalise(line) for line in lines)
    seen = Counter(text[i:i + PIECE] for i in range(len(text) - PIECE + 1))
    pieces = {stream[k * PIECE:(k + 1) * PIECE]: k for k in range(len(stream) // PIECE)}
    pieces = {piece: k for piece, k in pieces.items() if seen[piece] == 1}
    in_twin = Counter(piece for piece in (stream[i:i + PIECE] for i in range(len(stream)))
                      if piece in pieces)
    return {k: text.find(piece) for piece, k in pieces.items() if in_twin[piece] == 1}


def prose_pieces(twin: str, asked) -> set:
    """The piece numbers of `asked` that start outside the twin's preformatted blocks (code,
    tables drawn as grids: align.twin_stream)."""
    pre = twin_stream(twin)[2]
    return {k for k in asked if not inside(pre, k * PIECE)}


def _unhyphenated(lines) -> str:
    """Normalised lines as one text, a letter's hyphen at a line's end dropped before a
    lowercase letter."""
    out = []
    for line in lines:
        if out and out[-1][-2:-1].isalpha() and out[-1].endswith("-") and line[:1].islower():
            out[-1] = out[-1][:-1]
        out.append(line)
    return "".join(out)


def pieces_out(found: dict, asked) -> tuple:
    """(lost, out of order) of the piece numbers `asked`: not in `found`, and the fewest of
    those found that must move for the rest to follow the twin's order."""
    places = [found[k] for k in sorted(asked) if k in found]
    return len(asked) - len(places), len(places) - longest_increasing(places)


def xy_cut(words, gutter=XY_GUTTER) -> list:
    """Recursive XY-cut (Nagy and Seth's, the widest gap first): `words` (pdfplumber's dicts)
    cut at the widest empty band across (top to bottom) or down (left to right, GUTTER wide or
    more) until none is left; returns the parts in reading order, each a list of words."""
    out, todo = [], [list(words)]
    while todo:
        part = todo.pop()
        down = _gaps([(w["x0"], w["x1"]) for w in part], gutter)
        across = _gaps([(w["top"], w["bottom"]) for w in part], 0.0)
        best = max(down + across, default=None)
        if best is None:
            out.append(part)
            continue
        _, at = best
        key = "x0" if best in down else "top"
        first = [w for w in part if w[key] < at]
        rest = [w for w in part if w[key] >= at]
        todo += [rest, first]  # the first part is read first
    return out


def _gaps(spans, least) -> list:
    """[(width, middle)] of the empty gaps between `spans` (start, end) wider than `least`."""
    out, reach = [], None
    for start, end in sorted(spans):
        if reach is not None and start - reach > least:
            out.append((start - reach, (start + reach) / 2))
        reach = end if reach is None else max(reach, end)
    return out


def xy_cut_lines(path, first, last, gutter=XY_GUTTER) -> list:
    """The pages' lines read by xy_cut: each part's words in rows, left to right; a row cut at
    a wide gap (a table's cells, a contents entry's page number) is one line again."""
    import pdfplumber

    lines = []
    with pdfplumber.open(str(path)) as pdf:
        for page in pdf.pages[first - 1:last]:
            rows = []  # [(top, bottom, [words])], in the order the parts are read
            for part in xy_cut(page.extract_words(x_tolerance=1.5), gutter):
                for row in _rows(part):
                    top, bottom = min(w["top"] for w in row), max(w["bottom"] for w in row)
                    if rows and (min(bottom, rows[-1][1]) - max(top, rows[-1][0])
                                 > (bottom - top) / 2):
                        rows[-1][2].extend(row)  # the rest of the row before
                    else:
                        rows.append((top, bottom, list(row)))
            lines += [" ".join(w["text"] for w in words) for _, _, words in rows]
            page.close()
    return lines


def whitespace_cover(words, gutter=XY_GUTTER, tall=3.0, most=40) -> list:
    """Breuel's whitespace cover: the largest empty rectangles among `words` (the obstacles),
    found best first by branch and bound, each GUTTER wide or more and `tall` lines high; at
    most `most`. A rectangle is (x0, top, x1, bottom)."""
    if not words:
        return []
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in words]
    line = sorted(b[3] - b[1] for b in boxes)[len(boxes) // 2]
    bound = (min(b[0] for b in boxes), min(b[1] for b in boxes),
             max(b[2] for b in boxes), max(b[3] for b in boxes))
    area = lambda r: (r[2] - r[0]) * (r[3] - r[1])
    heap, found = [(-area(bound), bound, boxes)], []
    while heap and len(found) < most:
        _, rect, inside_it = heapq.heappop(heap)
        inside_it = [b for b in inside_it + found if _overlap(b, rect)]
        if not inside_it:
            found.append(rect)
            continue
        cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        pivot = min(inside_it, key=lambda b: abs((b[0] + b[2]) / 2 - cx)
                    + abs((b[1] + b[3]) / 2 - cy))  # the obstacle nearest the middle
        x0, top, x1, bottom = rect
        for part in ((x0, top, pivot[0], bottom), (pivot[2], top, x1, bottom),
                     (x0, top, x1, pivot[1]), (x0, pivot[3], x1, bottom)):
            if part[2] - part[0] >= gutter and part[3] - part[1] >= tall * line:
                within = [b for b in inside_it if _overlap(b, part)]
                heapq.heappush(heap, (-area(part), part, within))
    return found


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def whitespace_lines(path, first, last, gutter=XY_GUTTER) -> list:
    """The pages' lines cut at the whitespace cover's rectangles (whitespace_cover) and read in
    Breuel's order: a line before another below it that it overlaps across, and before one
    wholly to its right unless a line between them in height reaches over both (a title
    across two columns)."""
    import pdfplumber

    lines = []
    with pdfplumber.open(str(path)) as pdf:
        for page in pdf.pages[first - 1:last]:
            words = page.extract_words(x_tolerance=1.5)
            cover = whitespace_cover(words, gutter)
            found = []  # (x0, top, x1, bottom, text)
            for row in _rows(words):
                start = 0
                for k in range(1, len(row) + 1):
                    if k == len(row) or any(
                            r[0] >= row[k - 1]["x1"] - 1 and r[2] <= row[k]["x0"] + 1
                            and r[1] <= row[k]["bottom"] and r[3] >= row[k]["top"] for r in cover):
                        part = row[start:k]
                        found.append((min(w["x0"] for w in part), min(w["top"] for w in part),
                                      max(w["x1"] for w in part), max(w["bottom"] for w in part),
                                      " ".join(w["text"] for w in part)))
                        start = k
            lines += [ln[4] for ln in _breuel_order(found)]
            page.close()
    return lines


def _breuel_order(lines) -> list:
    """Lines (x0, top, x1, bottom, text) in Breuel's reading order (topological, the highest
    line first among those free to come next)."""
    n = len(lines)
    before = [set() for _ in range(n)]  # before[b]: the lines that must come before b
    for a, la in enumerate(lines):
        for b, lb in enumerate(lines):
            if a == b:
                continue
            if la[0] < lb[2] and lb[0] < la[2]:
                if la[1] < lb[1]:
                    before[b].add(a)
            elif la[2] <= lb[0] and not any(
                    min(la[1], lb[1]) < c[1] < max(la[3], lb[3]) and c[0] < la[2] and c[2] > lb[0]
                    for c in lines if c is not la and c is not lb):
                before[b].add(a)
    out, done, free = [], set(), [(ln[1], k) for k, ln in enumerate(lines) if not before[k]]
    heapq.heapify(free)
    waiting = [len(b) for b in before]
    after = [[] for _ in range(n)]
    for b, bs in enumerate(before):
        for a in bs:
            after[a].append(b)
    while free:
        _, k = heapq.heappop(free)
        out.append(lines[k])
        done.add(k)
        for b in after[k]:
            waiting[b] -= 1
            if waiting[b] == 0:
                heapq.heappush(free, (lines[b][1], b))
    # a cycle (lines that overlap oddly) leaves the rest, read top to bottom
    out += sorted((ln for k, ln in enumerate(lines) if k not in done), key=lambda ln: ln[1])
    return out


def _rows(words) -> list:
    """A part's words in rows (overlapping heights), each left to right, top to bottom."""
    rows = []
    for word in sorted(words, key=lambda w: w["top"]):
        if rows and word["top"] < rows[-1][-1]["bottom"] - 1:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w["x0"]) for row in rows]


def pdfminer_lines(path, first, last) -> list:
    """pdfminer.six's text lines, box by box in the order its layout analysis (default
    LAParams) sorts the boxes."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextBox, LTTextLine

    lines = []
    for layout in extract_pages(str(path), page_numbers=range(first - 1, last),
                                laparams=LAParams()):
        for box in layout:
            if isinstance(box, LTTextBox):
                lines += [ln.get_text().strip() for ln in box if isinstance(ln, LTTextLine)]
    return lines


def pymupdf_lines(path, first, last) -> list:
    """PyMuPDF's text blocks' lines in the order the file draws them (`get_text("blocks")`)."""
    import pymupdf

    lines = []
    with pymupdf.open(str(path)) as pdf:
        for number in range(first - 1, last):
            for block in pdf[number].get_text("blocks"):
                if block[6] == 0:  # text, not an image
                    lines += block[4].splitlines()
    return lines


def pymupdf4llm_lines(path, first, last) -> list:
    """pymupdf4llm's Markdown lines, its markup dropped."""
    import pymupdf4llm

    with contextlib.redirect_stdout(io.StringIO()):  # its notes on OCR
        markdown = pymupdf4llm.to_markdown(str(path), pages=list(range(first - 1, last)),
                                           show_progress=False)
    return [MD_MARKUP.sub("", line) for line in markdown.splitlines()]


def pdfplumber_lines(path, first, last) -> list:
    """pdfplumber's own text: each page's rows top to bottom, across the whole page."""
    import pdfplumber

    lines = []
    with pdfplumber.open(str(path)) as pdf:
        for page in pdf.pages[first - 1:last]:
            lines += (page.extract_text() or "").splitlines()
            page.close()
    return lines


METHODS = {"XY-cut": xy_cut_lines, "whitespace cover": whitespace_lines,
           "pdfminer: layout analysis": pdfminer_lines,
           "PyMuPDF: blocks": pymupdf_lines, "pymupdf4llm: Markdown": pymupdf4llm_lines,
           "pdfplumber: extract_text": pdfplumber_lines}
