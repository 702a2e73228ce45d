"""Characters to text lines: a page's glyphs, the fonts that are monospaced, and its lines
(pdfplumber's, with a gap of X_TOLERANCE_RATIO of the size for a space), side by side where
text stands at offset heights, justified CJK's gaps and soft hyphens undone.

Does not: know columns, tables or reading order (regions.py, order.py).
"""

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from functools import lru_cache

from pdfplumber.utils import chars_to_textmap

from ..breaks import is_wide


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


# A gap wider than this share of the font size between two glyphs is a space. pdfplumber's
# default (an absolute 3 pt) glues words in PDFs that position words without space glyphs.
X_TOLERANCE_RATIO = 0.15
CELL_GAP_EMS = 1.0  # a gap this wide or wider between two glyphs of a line ends a cell: a
# justified line's word space stays under half of that
# A font is monospaced when its name says so (TeX's typewriter families: cmtt, sftt, lmtt, txtt,
# pcrr (Courier), qcrr (TeX Gyre Cursor)...), or when every glyph it draws on the page advances
# alike (monospaced_fonts).
MONOSPACE = re.compile(r"courier|mono|nimbusmon|consol|menlo|typewriter|code|cursor"
                       r"|(?:^|\+)(?:(?:cm|sf|ec|tc|lm|tx|ntx|px)tt|[pq]cr[rbo])", re.I)
SAME_ADVANCE = 0.02  # glyph widths (per unit of size) within 2 % of each other: one advance
# A Type 3 font (old dvips output's bitmaps) has no name: pdfplumber calls each "unknown", and a
# page's typewriter and roman faces pool under it. Such glyphs are monospaced where, on one line,
# LINE_KINDS different characters or more (not digits, which advance alike in most fonts) do.
UNNAMED = frozenset({"", "unknown"})
LINE_KINDS = 5
# A font is a mathematical one when its name says so: TeX's math italic, symbols and extension
# (cmmi, cmsy, cmex and their AMS, Euler, rsfs and stmaryrd kin; Latin Modern's LMMathItalic...),
# an OpenType math font (XITS Math, STIX Two Math, Latin Modern Math, Cambria Math...),
# MathDesign's math faces, MathJax's in a browser.
MATH_FONT = re.compile(r"(?:^|\+)(?:cmmib?|cmb?sy|cmex|msam|msbm|eufm|eurm|eusm|rsfs|stmary"
                       r"|yhcmex)\d|math(?:italic|symbols|extension|mi)|math-symbols"
                       r"|mathdesign.*-(?:\w*symbol\w*|mathitalic|extension)-"
                       r"|math(?:-(?:regular|bold|italic|semibold))?$|(?:^|\+)mjx", re.I)
# A displayed formula's line: a fifth of its glyphs or more set in a math font, and at most a
# dozen letters in the text's fonts (an operator's name, "if", "and": a prose line has many)
FORMULA_SHARE = 0.2
FORMULA_LETTERS = 12
# A subscript or superscript: a glyph set at most SCRIPT_SIZE of a line's size, its baseline
# within SCRIPT_EMS of its own size from the line's (a thesis's: subscripts 0.2-0.45 of theirs
# below, superscripts 0.5-0.55 above, a subscript's subscript 0.7; the next line's baseline is
# 1.2 ems of the line's own size away)
SCRIPT_SIZE, SCRIPT_EMS = 0.85, 0.8
# A letter of a line's own size set a little off its baseline (at most LOGO_EMS of the size),
# inside its width, alone or with one other on that baseline, a capital in a text font, is the
# line's: TeX's logo lowers its "E" half an ex, and in a title set big pdfplumber read "LAT X"
# and "E" as two lines
LOGO_EMS, LOGO_GLYPHS = 0.35, 2
SAME_SIZE = 0.05  # two sizes this share apart or closer are one
# A word in a smaller font set on a line's very baseline (within SAME_BASELINE_EMS of the line's
# size) is part of that line whatever its size, where its box's top stands further from the
# line's than pdfplumber's ROW_TOLERANCE_PT (which would read it as a row of its own): a
# package's name in a sans font scaled to the text's x-height (0.87 of its size), its top 3.2 pt
# below the line's
SAME_BASELINE_EMS, ROW_TOLERANCE_PT = 0.05, 3.0
# A script's word starts at most this far after its line's last glyph (an em before its first,
# or it ends at most this far before it: a word opening the line); a note in the margin stands
# further off (LaTeX's \marginparsep: 10-11 pt beside 10-pt text)
SCRIPT_AFTER_EMS = 0.5
# A glyph drawn again and again down one x, each this share of its size or less below the one
# before (STROKE_GLYPHS of them or more), draws a stroke: a tall brace's or bracket's extension
STROKE_STEP, STROKE_GLYPHS = 0.5, 3

# A page holds only what it draws, so a soft hyphen in its text was drawn: a hyphen. Typst
# maps its hyphen glyph to U+00AD when the document's first hyphen is one it set at a line end,
# and every hyphen after it then reads so ("C.UTF\xad8", "non\xadintuitive").
SOFT_HYPHEN = "\u00ad"


def page_glyphs(page) -> list:
    """The page's characters that are not white space, less any set a page's width or more
    off its sides: no text of the page, and the arrays across its text were as wide as the
    distance (a glyph set 10^8 pt away asked for 30 GiB)."""
    x0, _, x1, _ = page.bbox
    reach = x1 - x0
    return [ch for ch in page.chars
            if not ch["text"].isspace() and ch["x1"] > x0 - reach and ch["x0"] < x1 + reach]


def page_part(page, bbox):
    """The part of `page` (pdfplumber's, or a part of one) inside `bbox` (x0, top, x1, bottom),
    the page's glyphs set off its paper included (a line running off the page's edge is its
    text; page_glyphs keeps those within a page's width): pdfplumber's strict crop refused a
    column reaching past the edge, and the whole file was "corrupt". Nothing where `bbox` has
    no area."""
    x0, top, x1, bottom = bbox
    if x1 <= x0 or bottom <= top:
        return page.filter(lambda obj: False)
    return page.crop(bbox, strict=False)


def text_lines(page):
    """The page's text lines, top down (pdfplumber's rows of glyphs, each glyph on its
    baseline's row: on_their_baselines), side by side where text stands at offset heights."""
    textmap = chars_to_textmap(on_their_baselines(page.chars), layout_bbox=page.bbox,
                               layout_width=page.width, layout_height=page.height,
                               x_tolerance_ratio=X_TOLERANCE_RATIO)
    return _side_by_side(textmap.extract_text_lines(strip=True, return_chars=True))


def baseline_y(ch) -> float:
    """A glyph's baseline in the PDF's own units, up the page: its matrix's y where it is
    upright (pdfplumber's box is the font's, and may reach far below or above the text), else
    its box's bottom."""
    matrix = ch.get("matrix")
    return matrix[5] if ch.get("upright", True) and matrix else ch["y0"]


def on_their_baselines(chars) -> list:
    """`chars` with each glyph whose box stands off its line moved onto it: pdfplumber rows
    glyphs by their top, and a font's box for a glyph may reach far below or above the text's
    (TeX's angle brackets from its math symbol font, CMSY, around every argument in a package's
    manual: their boxes hang 7 pt below the words', and "⟨ ⟩ ⟨ ⟩" was read as a line of its own
    under each line that held them). Among the upright glyphs of one size on one baseline, one
    whose top is more than a third of its size from their usual top takes their usual box
    down the page. A subscript or superscript joins its line too (_scripts_onto_lines)."""
    rows = {}
    for k, ch in enumerate(chars):
        if ch.get("upright", True) and ch.get("matrix") and not ch["text"].isspace():
            rows.setdefault((round(baseline_y(ch), 1), round(ch["size"])), []).append(k)
    out, lines = list(chars), []
    for (baseline, size), ks in rows.items():
        if len(ks) < 3:
            continue
        usual_top = Counter(round(chars[k]["top"], 1) for k in ks).most_common(1)[0][0]
        usual = next(chars[k] for k in ks if round(chars[k]["top"], 1) == usual_top)
        for k in ks:
            if abs(chars[k]["top"] - usual["top"]) > chars[k]["size"] / 3:
                out[k] = _onto(chars[k], usual)
        lines.append((baseline, size, min(chars[k]["x0"] for k in ks),
                      max(chars[k]["x1"] for k in ks), usual, ks))
    _scripts_onto_lines(out, rows, lines)
    _strokes_onto_lines(out, rows, lines)
    return out


def _strokes_onto_lines(chars, rows, lines) -> None:
    """Move each piece of a stroke drawn in glyphs (STROKE_STEP, STROKE_GLYPHS: a big brace's
    extension, "\uf8f4" every 3 pt down an algorithm's block in TeX's CMEX) onto the line whose
    baseline is nearest its own, within a line's size, of those it stands beside, not inside
    (a display's tall bars under a line of text stay off it), in place. pdfplumber rows glyphs
    by their tops within 3 pt, and the pieces, one under the other, chained every line beside
    them into one row: two lines' words were read interleaved, one glyph a line ("d", "r",
    "o", "i" of "do" and "for i"). `rows` and `lines`: on_their_baselines'."""
    if not lines:
        return
    columns = {}  # (x0, text, font) -> the upright glyphs drawn so
    for k in (k for ks in rows.values() for k in ks):
        ch = chars[k]
        columns.setdefault((round(ch["x0"], 1), ch["text"], ch.get("fontname")), []).append(k)
    pieces = set()
    for ks in columns.values():
        ks.sort(key=lambda k: -baseline_y(chars[k]))  # top down
        run = ks[:1]
        for k in ks[1:] + [None]:
            if k is not None and (baseline_y(chars[run[-1]]) - baseline_y(chars[k])
                                  <= STROKE_STEP * chars[k]["size"]):
                run.append(k)
                continue
            pieces.update(run if len(run) >= STROKE_GLYPHS else ())
            run = [k]
    if not pieces:
        return
    spans = []  # per line: its baseline, size, a glyph of it and where its other glyphs stand
    for baseline, size, _, _, usual, ks in lines:
        text = [chars[k] for k in ks if k not in pieces]
        if text:
            spans.append((baseline, size, usual, min(ch["x0"] for ch in text),
                          max(ch["x1"] for ch in text)))
    for piece in pieces:
        ch, y = chars[piece], baseline_y(chars[piece])
        beside = [span for span in spans if abs(span[0] - y) <= span[1]
                  and (ch["x1"] <= span[3] + 1.0 or ch["x0"] >= span[4] - 1.0)]  # a point
        if beside:
            chars[piece] = _onto(ch, min(beside, key=lambda span: abs(span[0] - y))[2])


def _onto(ch, usual) -> dict:
    """`ch` with the box of `usual`, a glyph of the line it stands in, down the page."""
    return {**ch, **{key: usual[key] for key in ("top", "bottom", "y0", "y1", "doctop")}}


def _scripts_onto_lines(chars, rows, lines) -> None:
    """Move each subscript and superscript onto its line (in place): a glyph set at most
    SCRIPT_SIZE of a line's size, its baseline within SCRIPT_EMS of its own size from that
    line's, within the line's width (_takes: a note in the margin beside a line's end gave
    that line its first glyph as a subscript); the biggest such line, then the nearest (a
    subscript's subscript goes onto the text's line, not its subscript's). pdfplumber rows
    glyphs by their top, and a subscript's stands a third of a line below its line's: "q" and
    "i" of a thesis's "a†_{q_i}" were read as two lines of their own between the body's, each
    break around them kept. A word of any smaller size on the line's very baseline joins it
    too: metrix's manual scales its sans "me˘trix" to 0.87 of the text's size, and "... to
    customize" / "me˘trix" / "easily." were three lines. A subtitle set under a title is no
    script (its baseline is more than its size below); nor is a word stacked over or under
    another (_stacked: an inline fraction's numerator and denominator, read along one line,
    would interleave: "⌊choeuingthetr⌋"). `rows`: (baseline, size) -> the indices of the upright
    glyphs set so; `lines`: (baseline, size, x0, x1, a glyph of it, its glyphs' indices) per
    row of three glyphs or more."""
    if not lines:
        return
    lines.sort(key=lambda line: line[0])
    baselines = [line[0] for line in lines]
    onto = {}  # line's index -> the glyphs (indices into chars) to move onto it
    for (y, _), ks in rows.items():  # the lines near a row, then its glyphs in their width
        size = max(chars[k]["size"] for k in ks)
        reach = SCRIPT_EMS * size
        near = [n for n in range(bisect_left(baselines, y - reach),
                                 bisect_right(baselines, y + reach))
                if size < lines[n][1] or (len(ks) <= LOGO_GLYPHS
                                          and abs(size - lines[n][1]) <= SAME_SIZE * size)]
        spans = {k: (x0, x1, len(word))
                 for x0, x1, _, word in (glyph_words(chars, ks) if near else ())
                 for k in word}  # each glyph's word's start, end and length
        for k in ks if near else ():
            ch = chars[k]
            word = spans[k]
            inside = [n for n in near if _takes(lines[n], ch, y, size, word)]
            if inside:
                best = min(inside, key=lambda n: (-lines[n][1], abs(y - lines[n][0])))
                onto.setdefault(best, []).append(k)
    for n, ks in onto.items():
        stacked = _stacked(chars, ks, lines[n][5])
        for k in ks:
            if k not in stacked:
                chars[k] = _onto(chars[k], lines[n][4])


def _takes(line, ch, y, size, word) -> bool:
    """Does `line` take the glyph `ch` (of `size` on baseline `y`; `word`: its word's start and
    length), its word of three glyphs or more starting at most SCRIPT_AFTER_EMS after the
    line's end (a script of one or two, "1" of "‖⋅‖1", "i" of "B0 i", may stand further off a
    line set in another size): a script (SCRIPT_SIZE) within the line's width, an em either
    side; or a smaller glyph on the line's very baseline (SAME_BASELINE_EMS) that pdfplumber
    would read as a row of its own (ROW_TOLERANCE_PT), its word starting at most an em before
    the line's start or ending at most SCRIPT_AFTER_EMS before it (a word that opens the line,
    a space before the next), and starting at most SCRIPT_AFTER_EMS after the line's end (a
    word moves whole or not at all: a note in the margin, set smaller beside the line's start,
    a marginparsep away, is no part of it); or a letter of the line's own size a little off
    its baseline (LOGO_EMS), inside its width, a capital in a text font (a piece of a formula's
    big delimiter beside a line, "(cid:12)", went into its words, and a "y" marking a sample
    page's boxes, drawn small, into its lines), that pdfplumber would read as a row of its own."""
    baseline, em, x0, x1, usual, _ = line
    start, end, glyphs = word
    if glyphs >= 3 and start > x1 + SCRIPT_AFTER_EMS * em:
        return False
    if size <= SCRIPT_SIZE * em:
        return x0 - em <= ch["x0"] <= x1 + em
    logo = (abs(size - em) <= SAME_SIZE * em and abs(y - baseline) <= LOGO_EMS * em
            and x0 < ch["x0"] and ch["x1"] < x1  # a logo's letter, a little off, inside it
            and len(ch["text"]) == 1 and ch["text"].isupper()
            and not _math_font(ch.get("fontname", "")))  # no piece of a formula's delimiter
    return ((logo or (abs(y - baseline) <= SAME_BASELINE_EMS * em
                      and (x0 - em <= start or x0 - end <= SCRIPT_AFTER_EMS * em)
                      and start <= x1 + SCRIPT_AFTER_EMS * em))
            and abs(ch["top"] - usual["top"]) > ROW_TOLERANCE_PT)


def glyph_words(chars, ks) -> list:
    """The glyphs `ks` of `chars` as words: (x0, x1, baseline, indices), a word's glyphs on one
    baseline, no gap wider than a space (X_TOLERANCE_RATIO) between them."""
    words = []
    for k in sorted(ks, key=lambda k: (round(baseline_y(chars[k]), 1), chars[k]["x0"])):
        ch, y = chars[k], round(baseline_y(chars[k]), 1)
        if words and words[-1][2] == y and \
                ch["x0"] - words[-1][1] <= X_TOLERANCE_RATIO * ch["size"]:
            words[-1] = (words[-1][0], max(words[-1][1], ch["x1"]), y, words[-1][3] + [k])
        else:
            words.append((ch["x0"], ch["x1"], y, [k]))
    return words


def _stacked(chars, moving, staying) -> set:
    """Of the glyphs `moving` onto a line (whose own are `staying`), those in a word of two
    glyphs or more that stands over or under another such word, moving or staying (half the
    narrower one's width across): an inline fraction, a limit under "lim"."""
    words = [(w, True) for w in glyph_words(chars, moving)] + \
        [(w, False) for w in glyph_words(chars, staying)]
    out = set()
    for (a, moves), (b, _) in ((x, y) for x in words for y in words if x is not y):
        if (moves and len(a[3]) > 1 and len(b[3]) > 1 and a[2] != b[2]
                and min(a[1], b[1]) - max(a[0], b[0]) >= 0.5 * min(a[1] - a[0], b[1] - b[0])):
            out.update(a[3])
    return out


def _side_by_side(raws) -> list:
    """Lines (top down) in reading order where text stands side by side at offset heights: a
    table row whose cell wraps to two lines centred beside one-line cells (read by top alone:
    the wrapped cell's first line, the row's other cells, its second line), a margin note
    beside the body. A band: lines whose heights overlap by a quarter of a line or more,
    chained; where its lines fall into two or more side-by-side stacks (no two lines of
    different stacks have cells, _cells, that overlap across; none of one stack overlap down),
    it is read stack by stack, by where each starts. Every other line keeps its place (a
    superscript over its line is one stack that overlaps down: left as read)."""
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
    """A band's lines stack by stack, by where each starts (_side_by_side), or as they are. A
    line whose cells overlap those of more than one stack leaves the band as it is."""
    stacks = []  # [cells, lines]
    for raw in sorted(band, key=lambda r: r["x0"]):
        cells = _cells(raw)
        hit = [stack for stack in stacks if any(x0 < b1 and b0 < x1 for x0, x1 in cells
                                                 for b0, b1 in stack[0])]
        if len(hit) > 1:
            return band
        if hit:
            hit[0][0] += cells
            hit[0][1].append(raw)
        else:
            stacks.append([cells, [raw]])
    if len(stacks) < 2 or any(_inside(b, a) and not _centred(b, a)
                              for a in stacks for b in stacks if a is not b):
        return band
    out = []
    for _, lines in stacks:
        lines.sort(key=lambda r: r["top"])
        if any(b["top"] < a["bottom"] - 0.25 * (a["bottom"] - a["top"])
               for a, b in zip(lines, lines[1:])):
            return band
        out += lines
    return out


def _inside(stack, other) -> bool:
    """Does `stack` stand between two cells of `other`, across?"""
    x0, x1 = min(cell[0] for cell in other[0]), max(cell[1] for cell in other[0])
    return any(b0 < x1 and x0 < b1 for b0, b1 in stack[0])


def _centred(stack, other) -> bool:
    """Is `stack` a cell of two lines or more, all starting at one x (a paragraph wrapped),
    that reaches above `other`'s lines and below them (centred beside a row of one-line
    cells)? A display formula's fraction stands between two cells of its line too, its
    numerator and denominator each centred, and is left as read."""
    lines, row = stack[1], other[1]
    return (len(lines) >= 2 and max(r["x0"] for r in lines) - min(r["x0"] for r in lines) < 1.0
            and min(r["top"] for r in lines) < min(r["top"] for r in row)
            and max(r["bottom"] for r in lines) > max(r["bottom"] for r in row))


def _cells(raw) -> list:
    """(x0, x1) of each run of a line's glyphs between its cell gaps (cell_gaps): a table
    row's cells, where one of another line may stand in the gap between two of them."""
    glyphs = sorted((ch for ch in raw["chars"] if not ch["text"].isspace()),
                    key=lambda ch: ch["x0"])
    size = Counter(round(ch["size"], 1) for ch in glyphs).most_common(1)[0][0] if glyphs else 0
    edges = [raw["x0"], *(x for gap in cell_gaps(glyphs, size) for x in gap), raw["x1"]]
    return list(zip(edges[::2], edges[1::2]))


def cell_gaps(glyphs, size) -> tuple:
    """((x1, x0) of the glyphs before and after it) for each gap of CELL_GAP_EMS or more
    between a line's glyphs (`glyphs`, left to right, spaces left out)."""
    em = size or 10.0
    return tuple((float(before["x1"]), float(ch["x0"])) for before, ch in zip(glyphs, glyphs[1:])
                 if ch["x0"] - before["x1"] >= CELL_GAP_EMS * em)


UNMAPPED = re.compile(r"\(cid:\d+\)")  # pdfplumber's text for a glyph with no character


def unmapped(text: str) -> bool:
    """Is `text` a glyph its font gives no character for, which pdfplumber writes "(cid:N)"
    (an old TeX font's bullet)?"""
    return bool(UNMAPPED.match(text))


def unspace_wide(text: str) -> str:
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


def monospaced_fonts(glyphs, min_kinds=8) -> set:
    """The names of the fonts that are monospaced among `glyphs`: by name (is_monospace), or
    because `min_kinds` different characters or more of theirs all advance alike
    (_advance_alike), whatever the font is called (a subset "ABCDEF+F3" of a typewriter face).
    Fonts without a name (UNNAMED) pool here, and where their faces differ they are judged
    line by line (monospaced_share)."""
    by_font = {}
    for ch in glyphs:
        by_font.setdefault(ch.get("fontname", ""), []).append(ch)
    return {font for font, own in by_font.items()
            if is_monospace(font) or _advance_alike(own, min_kinds)}


def monospaced_share(glyphs, fixed) -> float:
    """The share of a line's `glyphs` set in a monospaced font: one of the page's `fixed`
    (monospaced_fonts), or an unnamed one (UNNAMED) whose glyphs on this line advance alike."""
    unnamed = [ch for ch in glyphs if ch.get("fontname", "") in UNNAMED - fixed]
    alike = _advance_alike([ch for ch in unnamed if not ch["text"].isdigit()], LINE_KINDS)
    return ((sum(ch.get("fontname", "") in fixed for ch in glyphs) + alike * len(unnamed))
            / max(1, len(glyphs)))


def is_formula(glyphs) -> bool:
    """Are a line's `glyphs` those of a displayed formula (FORMULA_SHARE, FORMULA_LETTERS)? A
    glyph drawn again over itself (a bold bullet overprinted) counts once."""
    drawn = {(round(ch["x0"]), round(ch["top"]), ch["text"]): ch for ch in glyphs}.values()
    math = [_math_font(ch.get("fontname", "")) for ch in drawn]
    letters = sum(ch["text"].isalpha() and not m for ch, m in zip(drawn, math))
    return sum(math) >= FORMULA_SHARE * len(math) > 0 and letters <= FORMULA_LETTERS


@lru_cache(maxsize=1024)
def _math_font(fontname: str) -> bool:
    """Does the font's name say it is a mathematical one (MATH_FONT)? Asked once a name."""
    return bool(MATH_FONT.search(fontname))


def _advance_alike(glyphs, min_kinds) -> bool:
    """Do `min_kinds` different characters or more among `glyphs` all advance alike
    (SAME_ADVANCE)? Wide characters (CJK, full-width) are not counted: they advance alike in
    every font, an office document sets its Chinese in a CJK font of its own, every glyph one
    em, and all its prose was taken for code."""
    widths = {ch["text"]: (ch["x1"] - ch["x0"]) / ch["size"] for ch in glyphs
              if ch.get("upright", True) and ch["size"] > 0 and ch["x1"] > ch["x0"]
              and not (ch["text"] and is_wide(ch["text"][0]))}
    return (len(widths) >= min_kinds
            and max(widths.values()) <= (1 + SAME_ADVANCE) * min(widths.values()))
