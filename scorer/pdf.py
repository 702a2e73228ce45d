"""PDF -> lines with layout: what the model cannot see, read from the page.

Does: open a PDF with pdfplumber (clear errors for empty, non-PDF, corrupt, encrypted, too long
and image-only files), extract text lines with their geometry (x0, x1, top, bottom, dominant
font size, page, the column their page's text spans), mark running headers/footers and page
numbers (removed from the text by default, kept in the JSON with a flag), table rows and the
lines of code blocks (nearly all glyphs monospaced: code, preformatted text; never merged; a
prose line with a command or URL inline stays prose), and describe each line break by layout
features.
Reads two-column pages, or parts of pages, column by column (gutter(), _regions(), _columns()),
and pages of three or four columns set as prose (gutters()).
Does not: decide anything (decide.py).
"""

import io
import re
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path
from statistics import median

import numpy as np

from .breaks import is_wide, starts_item
from .errors import ScorerError, TooLarge, UnreadablePdf
from .settings import DEFAULT


def _standard_fonts_measured_by_the_pdf():
    """pdfminer measures the 14 standard fonts (Times, Helvetica, Courier...) by its own metrics,
    found by character, even where the PDF gives their Widths; a glyph its metrics do not know
    by that character (groff's "fi" and "fl" ligatures) measures 0, the letters after it in the
    same string are set too far left, and a space opens inside the word ("fif o(7)", "O_WR
    ONLY"). Such a glyph takes its width from the PDF's Widths; every other width is as before."""
    from pdfminer.pdffont import PDFType1Font
    from pdfminer.pdftypes import int_value, list_value, resolve1

    if getattr(PDFType1Font, "measured_by_the_pdf", False):
        return
    init = PDFType1Font.__init__

    def measured(self, rsrcmgr, spec):
        init(self, rsrcmgr, spec)
        first = int_value(spec.get("FirstChar", 0))
        for k, width in enumerate(list_value(spec.get("Widths", []))):
            cid = first + k
            if cid not in self.widths and self.char_width(cid) == 0:
                self.widths[cid] = resolve1(width)

    PDFType1Font.__init__ = measured
    PDFType1Font.measured_by_the_pdf = True


_standard_fonts_measured_by_the_pdf()
DEFAULT_MAX_PAGES = DEFAULT["MAX_PAGES"]
# A gap wider than this share of the font size between two glyphs is a space. pdfplumber's
# default (an absolute 3 pt) glues words in PDFs that position words without space glyphs.
X_TOLERANCE_RATIO = 0.15
# A font is monospaced when its name says so (TeX's typewriter families: cmtt, sftt, lmtt, txtt,
# pcrr (Courier), qcrr (TeX Gyre Cursor)...), or when every glyph it draws on the page advances
# alike (_monospaced).
MONOSPACE = re.compile(r"courier|mono|nimbusmon|consol|menlo|typewriter|code|cursor"
                       r"|(?:^|\+)(?:(?:cm|sf|ec|tc|lm|tx|ntx|px)tt|[pq]cr[rbo])", re.I)
SAME_ADVANCE = 0.02  # glyph widths (per unit of size) within 2 % of each other: one advance
# A line is code when nearly all its glyphs are monospaced. A prose line with a command, a path
# or a URL inline may be mostly monospaced and is prose; a mostly monospaced line between two
# code lines (a comment in another font) belongs to their block.
CODE_SHARE, BLOCK_SHARE = 0.9, 0.5
BIGGER_PT = 1.0  # a line set this much above the body's usual size may be a heading
TAG_EMS = 12  # a tag before its description (a definition list's term) is at most this long
FAR_IN = 0.25  # a line starting beyond this share of its column is measured from its own start
PAGE_NUMBER = re.compile(r"^\s*(?:[-–—]\s*\d+\s*[-–—]|\d+\s*/\s*\d+|第\s*\d+\s*页(?:\s*共\s*\d+\s*页)?"
                         r"|page\s+\d+(?:\s+of\s+\d+)?|\d+)\s*$", re.IGNORECASE)


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
    code: bool = False  # a code block's line, or preformatted text (_mark_code)
    mono: float = 0.0  # share of its glyphs set in a monospaced font
    region: int = 0  # 0: the page's full width; 1, 2...: its columns, left to right
    text_x0: float = 0.0  # where the text after a list marker or a tag starts (_text_x0); 0: none


@dataclass
class PdfText:
    lines: list  # list[Line], every line, in reading order
    pages: int
    empty_pages: int

    @property
    def body(self) -> list:
        return [line for line in self.lines if not line.repeated]

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.body)

    def break_layout(self) -> list:
        """Layout features per candidate break of `text`: body lines are stripped and non-empty,
        so break k lies between body lines k and k+1."""
        body = self.body
        # the body's size is its prose's: a manual's many short code lines, set smaller, would
        # make every prose line "bigger" than the body (a heading)
        sizes = ([ln.size for ln in body if ln.size and not ln.code]
                 or [ln.size for ln in body if ln.size])
        body_size = float(median(sizes)) if sizes else 0.0
        return [break_features(a, b, body_size) for a, b in zip(body, body[1:])]

    def line_info(self) -> list:
        """Per line of `text`: its page, whether it is code or a table row, its font size and its
        indent from the column's left edge in ems (outputs.py: paragraphs with pages, kinds, nesting)."""
        return [{"page": ln.page, "code": ln.code, "table": ln.table, "size": ln.size,
                 "indent": _indent(ln)}
                for ln in self.body]

    def source(self) -> dict:
        """What a Document's `source` says of this PDF (the file name is the caller's)."""
        return {"type": "pdf", "pages": self.pages, "empty_pages": self.empty_pages,
                "removed": [line_json(ln) for ln in self.lines if ln.repeated]}


def check_pdf_bytes(head: bytes, size: int, name: str) -> None:
    if size == 0:
        raise UnreadablePdf(f"{name} is empty (0 bytes)")
    if b"%PDF-" not in head[:1024]:
        raise UnreadablePdf(f"{name} is not a PDF (no %PDF header)")


def read_pdf(source, max_pages=DEFAULT_MAX_PAGES, pages=None, *, name=None,
             max_chars=None) -> PdfText:
    """Every text line of a PDF (a path, or its bytes with `name` for messages), with layout;
    only pages first..last (1-based, inclusive) when `pages` is given (running headers are then
    found among those pages). Refuses more than `max_pages` pages or `max_chars` characters of
    text. Runs in the caller's process with no limit on time or memory: a PDF from outside is
    read with pdfguard.read_pdf_guarded, which runs this in a child."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    if isinstance(source, bytes):
        name = name or "the PDF"
        check_pdf_bytes(source[:1024], len(source), name)
        opened = io.BytesIO(source)
    else:
        path = Path(source)
        name = name or path.name
        with path.open("rb") as fh:
            check_pdf_bytes(fh.read(1024), path.stat().st_size, name)
        opened = path
    try:
        with pdfplumber.open(opened) as pdf:
            n = len(pdf.pages)
            if n > max_pages:
                raise TooLarge(f"{name} has {n} pages; the limit is {max_pages}")
            first, last = pages or (1, n)
            last = min(last, n)
            lines, empty, chars = [], 0, 0
            for number in range(first, last + 1):
                page_lines = _page_lines(pdf.pages[number - 1], number)
                empty += not page_lines
                lines.extend(page_lines)
                chars += sum(len(line.text) + 1 for line in page_lines)
                if max_chars is not None and chars > max_chars:
                    raise TooLarge(f"{name} has more than {max_chars:,} characters of text by "
                                   f"page {number}; the limit is {max_chars:,}")
    except (ScorerError, MemoryError):  # a bomb is a limit hit (pdfguard.py), not a broken file
        raise
    except Exception as exc:  # pdfminer raises many types for broken files, pdfplumber wraps them
        causes = [exc, *exc.args, exc.__cause__, exc.__context__]
        if any(isinstance(c, MemoryError) for c in causes):  # pdfplumber wraps it
            raise MemoryError from exc
        if any(isinstance(c, (PDFPasswordIncorrect, PDFEncryptionError)) for c in causes):
            raise UnreadablePdf(f"{name} is encrypted and needs a password") from exc
        raise UnreadablePdf(f"{name} is corrupt or truncated ({type(exc).__name__})") from exc
    read = max(0, last - first + 1) if n else 0
    if read == 0 or empty == read:
        raise UnreadablePdf(f"{name} has no text layer on any of its {read} pages (a scan?); "
                            "OCR is out of scope: run an OCR tool first")
    _mark_repeated(lines, read)
    _mark_columns(lines)
    _mark_code(lines)
    return PdfText(lines, n, empty)


def _page_lines(page, number) -> list:
    tables = _tables(page)
    fixed = _monospaced(_glyphs(page))
    out = []
    for region, raw in _reading_order(page):
        # control characters (a NUL from a broken font map) would be refused later: drop them
        text = "".join(ch for ch in raw["text"] if unicodedata.category(ch) != "Cc").strip()
        text = _unspace_wide(text).replace(SOFT_HYPHEN, "-")
        if not text:
            continue
        glyphs = [ch for ch in raw["chars"] if not ch["text"].isspace()]
        sizes = Counter(round(ch["size"], 1) for ch in glyphs)
        mono = sum(ch.get("fontname", "") in fixed for ch in glyphs) / max(1, len(glyphs))
        mid_x, mid_y = (raw["x0"] + raw["x1"]) / 2, (raw["top"] + raw["bottom"]) / 2
        in_table = any(x0 <= mid_x <= x1 and top <= mid_y <= bottom for x0, top, x1, bottom in tables)
        size = sizes.most_common(1)[0][0] if sizes else 0.0
        out.append(Line(text=text, page=number, x0=raw["x0"], x1=raw["x1"], top=raw["top"],
                        bottom=raw["bottom"], size=size, table=in_table, mono=mono,
                        region=region, text_x0=_text_x0(text, glyphs, size)))
    return out


def _text_x0(text, glyphs, size) -> float:
    """Where the text after the line's list marker or tag starts: after its first word when
    that word is a list marker ("•", "2.", "(1)"), or after a tag of one or more words set
    apart by more than a space within TAG_EMS of the line's start (a man page's "shm_open(3)",
    a Texinfo table's "-d name" or "--gui=type" before its description): a hanging indent
    lines the item's next lines up with it. 0: no marker or tag. `glyphs`: the line's
    characters, spaces left out."""
    em = size or 10.0
    gap = X_TOLERANCE_RATIO * em  # wider than this between glyphs: a word ends
    first_word = True
    for before, ch in zip(glyphs, glyphs[1:]):
        if ch["x0"] - glyphs[0]["x0"] > TAG_EMS * em:
            break
        if ch["x0"] - before["x1"] > 0.5 * em:
            return float(ch["x0"])
        if ch["x0"] - before["x1"] > gap:
            if first_word and starts_item(text):
                return float(ch["x0"])
            first_word = False
    return 0.0


def _tables(page) -> list:
    """Bounding boxes of the tables pdfplumber finds that are grids: text in cells of at least
    two columns and two rows. A frame around the text, a shaded box or a one-column layout table
    is none (a browser prints a page's borders and backgrounds as rectangles; what they hold
    is prose, decided as prose)."""
    found = page.find_tables()
    glyphs = _glyphs(page) if found else []
    if not glyphs:
        return []
    mid_x = np.array([(ch["x0"] + ch["x1"]) / 2 for ch in glyphs])
    mid_y = np.array([(ch["top"] + ch["bottom"]) / 2 for ch in glyphs])
    out = []
    for table in found:
        filled = [(x0, top) for x0, top, x1, bottom in table.cells
                  if np.any((mid_x >= x0) & (mid_x <= x1) & (mid_y >= top) & (mid_y <= bottom))]
        if len({round(x) for x, _ in filled}) >= 2 and len({round(y) for _, y in filled}) >= 2:
            out.append(table.bbox)
    return out


# A page holds only what it draws, so a soft hyphen in its text was drawn: a hyphen. Typst
# maps its hyphen glyph to U+00AD when the document's first hyphen is one it set at a line end,
# and every hyphen after it then reads so ("C.UTF\xad8", "non\xadintuitive").
SOFT_HYPHEN = "\u00ad"


def _glyphs(page) -> list:
    """The page's characters that are not white space."""
    return [ch for ch in page.chars if not ch["text"].isspace()]


def _text_lines(page):
    return _side_by_side(page.extract_text_lines(x_tolerance_ratio=X_TOLERANCE_RATIO,
                                                 return_chars=True))


def _side_by_side(raws) -> list:
    """Lines (top down) in reading order where text stands side by side at offset heights: a
    table row whose right cell wraps to two lines centred on a one-line left cell (read by
    top alone: right, left, right), a margin note beside the body. A band: lines whose heights
    overlap by a quarter of a line or more, chained; where its lines fall into two or more
    side-by-side stacks (no two lines of different stacks overlap across; none of one stack
    overlap down), it is read stack by stack, left to right. Every other line keeps its
    place (a superscript over its line is one stack that overlaps down: left as read)."""
    out, band, bottom = [], [], 0.0
    for raw in raws + [None]:
        if raw is not None and band and bottom - raw["top"] \
                >= 0.25 * min(raw["bottom"] - raw["top"], band[-1]["bottom"] - band[-1]["top"]):
            band.append(raw)
            bottom = max(bottom, raw["bottom"])
            continue
        out += _stacks(band) if len(band) > 1 else band
        band, bottom = ([raw], raw["bottom"]) if raw is not None else ([], 0.0)
    return out


def _stacks(band) -> list:
    """A band's lines stack by stack, left to right (_side_by_side), or as they are."""
    stacks = []  # [x0, x1, lines]
    for raw in sorted(band, key=lambda r: r["x0"]):
        if stacks and raw["x0"] < stacks[-1][1]:  # overlaps the stack to its left across
            stacks[-1][1] = max(stacks[-1][1], raw["x1"])
            stacks[-1][2].append(raw)
        else:
            stacks.append([raw["x0"], raw["x1"], [raw]])
    if len(stacks) < 2:
        return band
    out = []
    for _, _, lines in stacks:
        lines.sort(key=lambda r: r["top"])
        if any(b["top"] < a["bottom"] - 0.25 * (a["bottom"] - a["top"])
               for a, b in zip(lines, lines[1:])):
            return band
        out += lines
    return out


def _reading_order(page) -> list:
    """[(region, raw text line)] in reading order. Region 0: read across; 1, 2...: the columns,
    left to right, of a part of the page read in columns (_regions: the whole page, or the runs
    of rows that leave the middle empty when the page changes from one column to two)."""
    x0, top, x1, bottom = page.bbox
    out = []
    for lo, hi, cuts in _regions(page):
        part = page if (lo, hi) == (top, bottom) else page.crop((x0, lo, x1, hi))
        out += _columns(part, cuts) if cuts else [(0, raw) for raw in _text_lines(part)]
    return out


def _regions(page, min_rows=8) -> list:
    """[(top, bottom, gutters or None)] down the page (gutters: a list of (x0, x1), one for two
    columns): the whole page with its gutter (or None) when it is read one way, or with its
    gutters when gutters() cuts it into three or more columns set as prose; else each run of
    `min_rows` rows or more that leave the middle of the text empty is a region of its own,
    two columns where gutter() finds them in it (with `min_rows` on each side, a gap of an em
    or more, set as prose: not code, no table), and what lies between such runs is read
    across."""
    x0, top, x1, bottom = page.bbox
    profile = _profile(page)  # what both gutter() and gutters() read
    if profile is None:
        return [(top, bottom, None)]
    cut = gutter(page, profile=profile)
    if cut is not None:
        return [(top, bottom, [cut])]
    cuts = gutters(page, profile=profile)
    if cuts and _prose(page):
        return [(top, bottom, cuts)]
    lo, hi, size, _, _ = profile
    centre = (lo + hi) / 2
    rows = sorted((t, b, gap >= max(4.0, size / 2), starts) for t, b, gap, starts
                  in _rows(page, centre, centre))
    runs, start = [], None
    for k, (_, _, empty_middle, _) in enumerate(rows + [(0, 0, False, False)]):
        if empty_middle and start is None:
            start = k
        elif not empty_middle and start is not None:
            if k - start >= min_rows:
                runs.append((start, k - 1))
            start = None
    out, y = [], top
    for first, last in runs:
        lo_y = top if first == 0 else max(top, (rows[first - 1][1] + rows[first][0]) / 2)
        hi_y = bottom if last == len(rows) - 1 else min(bottom, (rows[last][1] + rows[last + 1][0]) / 2)
        part = page.crop((x0, lo_y, x1, hi_y)) if hi_y > lo_y else None
        cut = gutter(part, min_rows=min_rows) if part is not None else None
        # a column gap is an em or more; the tables test (the costliest) last
        if cut is None or cut[1] - cut[0] < size or not _prose(part):
            continue
        if lo_y > y:
            out.append((y, lo_y, None))
        out.append((lo_y, hi_y, [cut]))
        y = hi_y
    if not out:
        return [(top, bottom, None)]
    if y < bottom:
        out.append((y, bottom, None))
    return out


def _prose(page) -> bool:
    """Set mostly in proportional fonts (code's aligned columns are no page columns) and
    holding nothing pdfplumber takes for a table (here even a frame or rules says: not sure)."""
    glyphs = _glyphs(page)
    fixed = _monospaced(glyphs)
    mono = sum(ch.get("fontname", "") in fixed for ch in glyphs) / max(1, len(glyphs))
    return mono < 0.5 and not page.find_tables()


def _columns(page, cuts) -> list:
    """A page (or part of one) of two or more columns in reading order: each band of rows
    between full-width lines is read down each column in turn, left to right. The columns are
    cut where each starts (a gutter's right edge), so a line running into a gutter (a long
    path) stays in its column; a row is full width only when its words run across a gutter
    and none of them starts the column after it."""
    x0, top, x1, bottom = page.bbox
    rows = {}  # row -> [top, bottom, spans a gutter?]
    for g0, g1 in cuts:
        for r_top, r_bottom, gap, starts_right in _rows(page, g0, g1):
            row = rows.setdefault(round(r_top), [r_top, r_bottom, False])
            row[2] = row[2] or (gap < (g1 - g0) / 2 and not starts_right)
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
            out += [(0, raw) for raw in _text_lines(page.crop((x0, lo, x1, hi)))]
            continue
        for column, (left, right) in enumerate(zip(edges, edges[1:]), 1):
            out += [(column, raw) for raw in _text_lines(page.crop((left, lo, right, hi)))]
    return out


def _rows(page, g0, g1) -> list:
    """[(top, bottom, gap, starts right)] per row of glyphs (same top, within 1 pt): gap is the
    empty width around the gutter's middle between its glyphs on either side (infinite when
    one side has none); starts right: a word of the row begins where the right column does
    (within 1 pt of g1, after a space wider than half the font size: more than a word gap)."""
    mid = (g0 + g1) / 2
    rows = {}
    for ch in sorted(_glyphs(page), key=lambda c: c["x0"]):
        r = rows.setdefault(round(ch["top"]), [ch["top"], ch["bottom"], -1e9, 1e9, False, -1e9])
        r[1] = max(r[1], ch["bottom"])
        if (ch["x0"] + ch["x1"]) / 2 < mid:
            r[2] = max(r[2], ch["x1"])  # where the left side ends
        else:
            r[3] = min(r[3], ch["x0"])  # where the right side starts
        if abs(ch["x0"] - g1) <= 1.0 and ch["x0"] - r[5] > 0.5 * ch["size"]:
            r[4] = True
        r[5] = max(r[5], ch["x1"])  # where the row's glyphs so far end
    return [(t, b, right - left, starts) for t, b, left, right, starts, _ in rows.values()]


def gutter(page, min_rows=5, profile=None):
    """(x0, x1) of the empty band between two columns of text, or None for a page read across.

    Two columns: a vertical band in the middle third of the text, at least half a font size
    wide, that at most a tenth of the rows cross (a title may span both columns), with text
    on each side in at least `min_rows` rows and 30 % of all, and both sides set as prose,
    not as a table's cells: the right column's rows start at one x, the columns are of about
    one width, the median row of each fills 60 % of its width or more (ragged-right prose
    does; a table's short cells do not), and at most a fifth of the rows have a gap wider
    than a word gap (a table's cells are apart)."""
    profile = profile or _profile(page)
    if profile is None:
        return None
    lo, hi, size, rows, crossing = profile
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
    left_rows = [spans for spans in rows.values() if any(b <= g0 for a, b in spans)]
    right_rows = [spans for spans in rows.values() if any(a >= g1 for a, b in spans)]
    if min(len(left_rows), len(right_rows)) < max(min_rows, 0.3 * len(rows)):
        return None  # text on both sides of the band, in many rows
    starts = Counter(round(min(a for a, b in spans if a >= g1)) for spans in right_rows)
    common = starts.most_common(1)[0][0]  # a column starts at one x; a table's cells do not
    if sum(n for x, n in starts.items() if abs(x - common) <= 2) < 0.7 * len(right_rows):
        return None
    if not 0.75 <= (g0 - lo) / max(1.0, hi - g1) <= 1.33:  # columns of about one width
        return None
    left_fill = median((max(b for a, b in spans if b <= g0) - lo) / (g0 - lo) for spans in left_rows)
    right_fill = median((max(b for a, b in spans if a >= g1) - g1) / max(1.0, hi - g1)
                        for spans in right_rows)
    if left_fill < 0.6 or right_fill < 0.6:
        return None
    # prose: a row's words are a word gap apart; a table row's cells are further apart
    gapped = [_widest_gap([(a, b) for a, b in spans if b <= g0]) > 1.2 * size for spans in left_rows]
    gapped += [_widest_gap([(a, b) for a, b in spans if a >= g1]) > 1.2 * size for spans in right_rows]
    return (g0, g1) if sum(gapped) <= 0.2 * len(gapped) else None


def _profile(page):
    """(lo, hi, size, rows, crossing) of a page's glyphs (None under 100: too few to have
    columns): their left and right ends, their median size, {row top: [(x0, x1), ...]} and per
    point of x from lo, how many rows have a glyph there (gutter() and gutters() take it made,
    or make it)."""
    glyphs = _glyphs(page)
    if len(glyphs) < 100:
        return None
    lo, hi = min(ch["x0"] for ch in glyphs), max(ch["x1"] for ch in glyphs)
    size = median(ch["size"] for ch in glyphs)
    rows = {}
    for ch in glyphs:
        rows.setdefault(round(ch["top"]), []).append((ch["x0"], ch["x1"]))
    crossing = [0] * (int(hi - lo) + 2)
    for spans in rows.values():
        covered = set()
        for a, b in spans:
            covered.update(range(int(a - lo), int(b - lo) + 1))
        for x in covered:
            crossing[x] += 1
    return lo, hi, size, rows, crossing


def gutters(page, min_rows=5, most=3, profile=None):
    """[(x0, x1), ...]: the two or more (at most `most`) empty bands that cut a page into three
    or more columns of text (a reference card, a newsletter), or None. Where gutter() finds
    two columns, it decides. A band: at least half a font size wide, crossed by at most a tenth
    of the rows, with text on both sides. The columns between the bands chosen: of about one
    width (the widest at most 1.5 times the narrowest, none under half its share of the
    text's width), each with text in `min_rows` rows and in 60 % of its share of the rows or
    more (_column), each after a band starting half its rows or more at one x, and each with
    its median row filling half its width or more (a table's short cells do not; a card's
    entries, a key and its description, do). Of several ways, the most columns, then the most
    even widths."""
    profile = profile or _profile(page)
    if profile is None:
        return None
    lo, hi, size, rows, crossing = profile
    allowed, bands, start = len(rows) // 10, [], None
    for x, n in enumerate(crossing + [len(rows) + 1]):
        if n <= allowed and start is None:
            start = x
        elif n > allowed and start is not None:
            if start > 0 and x < len(crossing) and x - start >= max(4.0, size / 2):
                bands.append((lo + start, lo + x))
            start = None
    bands = sorted(sorted(bands, key=lambda b: b[0] - b[1])[:12])  # the 12 widest, left to right
    best = None
    for k in range(min(most, len(bands)), 1, -1):
        for chosen in combinations(bands, k):
            edges = [lo] + [x for band in chosen for x in band] + [hi]
            spans = list(zip(edges[::2], edges[1::2]))  # each column's (x0, x1)
            widths = [b - a for a, b in spans]
            if min(widths) < 0.5 * (hi - lo) / (k + 1) or max(widths) > 1.5 * min(widths):
                continue
            if all(_column(rows, a, b, a == lo, max(min_rows, 0.6 * len(rows) / (k + 1)))
                   for a, b in spans):
                spread = max(widths) - min(widths)
                if best is None or spread < best[0]:
                    best = (spread, list(chosen))
        if best:
            return best[1]
    return None


def _column(rows, x0, x1, first, min_rows) -> bool:
    """Is [x0, x1] a column of text for gutters(): in `min_rows` rows or more, its
    rows starting at one x, half of them or more (unless it is the first: a page's margin
    notes and hanging indents; a card's wrapped descriptions start further in), its median row
    filling half its width or more?"""
    inside = [[(a, b) for a, b in spans if a >= x0 - 0.5 and b <= x1 + 0.5]
              for spans in rows.values()]
    inside = [spans for spans in inside if spans]
    if len(inside) < min_rows:
        return False
    starts = Counter(round(min(a for a, _ in spans)) for spans in inside)
    common = starts.most_common(1)[0][0]
    if not first and sum(n for x, n in starts.items() if abs(x - common) <= 2) < 0.5 * len(inside):
        return False
    return median((max(b for _, b in spans) - x0) / max(1.0, x1 - x0) for spans in inside) >= 0.5


def _widest_gap(spans) -> float:
    """The widest empty stretch between glyphs of one row ((x0, x1) each); 0 for one glyph."""
    spans = sorted(spans)
    end, widest = spans[0][1] if spans else 0.0, 0.0
    for a, b in spans[1:]:
        widest = max(widest, a - end)
        end = max(end, b)
    return widest


def _unspace_wide(text: str) -> str:
    """Drop a single space between two CJK/full-width characters: justified CJK lines have
    gaps between glyphs that the word-gap tolerance would otherwise turn into spaces."""
    if " " not in text:
        return text
    keep = [ch for k, ch in enumerate(text)
            if not (ch == " " and 0 < k < len(text) - 1 and text[k + 1] != " "
                    and is_wide(text[k - 1]) and is_wide(text[k + 1]))]
    return "".join(keep)


def is_monospace(fontname: str) -> bool:
    """Does the font's name say it is monospaced?"""
    return bool(MONOSPACE.search(fontname))


def _monospaced(glyphs, min_kinds=8) -> set:
    """The names of the fonts that are monospaced among `glyphs`: by name (is_monospace), or
    because `min_kinds` different characters or more of theirs all advance alike (SAME_ADVANCE),
    whatever the font is called (a subset "ABCDEF+F3" of a typewriter face)."""
    advances = {}
    for ch in glyphs:
        if ch.get("upright", True) and ch["size"] > 0 and ch["x1"] > ch["x0"]:
            advances.setdefault(ch.get("fontname", ""), {})[ch["text"]] = \
                (ch["x1"] - ch["x0"]) / ch["size"]
    named = {font for font in {ch.get("fontname", "") for ch in glyphs} if is_monospace(font)}
    return named | {font for font, widths in advances.items() if len(widths) >= min_kinds
                    and max(widths.values()) <= (1 + SAME_ADVANCE) * min(widths.values())}


def _mark_repeated(lines, pages) -> None:
    """Running headers/footers: the same text (digits ignored) at the same height on at least
    half of the pages (and at least 2); a running head that changes with the chapter (or with
    the man page, in man pages set one after another): a page's first line, set apart from
    the text below it, whose text recurs at its height on another page, where half of the
    pages have their first line; page numbers alone on a line at a page's top or bottom."""
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
    for number, page_lines in by_page.items():
        edges = {id(page_lines[0]), id(page_lines[-1])}
        for line in page_lines:
            at = key(line)
            if pages >= 2 and counts[at] >= need:
                line.repeated = True
            elif (line is page_lines[0] and counts[at] >= 2 and heads[at[0]] >= need
                  and _set_apart(page_lines)):
                line.repeated = True
            elif id(line) in edges and (
                    PAGE_NUMBER.match(line.text)
                    or (folio is not None and folio in _edge_numbers(line, number)
                        and folio_at[round(line.top / 4)] >= 2)):
                line.repeated = True
    if all(line.repeated for line in lines):  # nothing else on the pages: that is the text
        for line in lines:
            line.repeated = False


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


def _mark_code(lines) -> None:
    """Code blocks, by line: nearly all monospaced; or mostly, between two such lines."""
    for line in lines:
        line.code = line.mono >= CODE_SHARE
    for before, line, after in zip(lines, lines[1:], lines[2:]):
        if (not line.code and line.mono >= BLOCK_SHARE and before.code and after.code
                and before.page == line.page == after.page):
            line.code = True


def _mark_columns(lines) -> None:
    """Each page's body column (each column of a two-column page): the left edge most lines
    start at, the right edge they reach (_right_edge)."""
    by_page = {}
    for line in lines:
        if not line.repeated:
            by_page.setdefault((line.page, line.region), []).append(line)
    for page_lines in by_page.values():
        x0 = Counter(round(ln.x0) for ln in page_lines).most_common(1)[0][0]
        x1 = _right_edge(page_lines)
        for line in page_lines:
            line.column_x0, line.column_x1 = float(x0), float(x1)


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


def break_features(before: Line, after: Line, body_size: float = 0.0) -> dict:
    """Layout evidence for the break between two consecutive body lines; `body_size`: the
    document's usual font size (a line set bigger may be a heading)."""
    width = max(1.0, before.column_x1 - before.column_x0)
    same_page = before.page == after.page and before.top < after.top  # a new column reads
    # like a new page
    height = max(1.0, before.bottom - before.top)
    # how full the line is; one that starts beyond FAR_IN of the column (centred, or set
    # flush right: a signature, a date) from its own start, so that it never reads full
    start = (before.x0 - before.column_x0) / width
    return {
        "fill": round((before.x1 - (before.x0 if start > FAR_IN else before.column_x0)) / width, 3),
        "start_before": round(start, 3),  # the share of the column before the line starts
        "indent_before": _indent(before),  # ems from the column's left edge
        "indent_next": _indent(after),
        "hanging": _hangs(after, before),
        "gap": round((after.top - before.bottom) / height, 2) if same_page else None,
        "page_break": not same_page,
        "size_change": round(after.size - before.size, 1),
        "bigger": bool(body_size) and before.size >= body_size + BIGGER_PT,
        "bullet_next": starts_item(after.text),
        "table": before.table or after.table,
        "code": before.code or after.code,
    }


def _hangs(line: Line, before: Line) -> bool:
    """Does `line` line up with the text after the list marker or tag of the line `before` it
    (a hanging indent: the item goes on)?"""
    return bool(before.text_x0) and abs(line.x0 - before.text_x0) <= 0.25 * (line.size or 10.0)


def _indent(line: Line) -> float:
    return round((line.x0 - line.column_x0) / max(1.0, line.size or 1.0), 2)


def line_json(line: Line) -> dict:
    return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(line).items()}
