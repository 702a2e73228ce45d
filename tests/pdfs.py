"""PDFs made by the tests themselves with reportlab (and one with Typst, one with pdflatex), so
that every line is known exactly."""

import subprocess
import struct

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))  # a standard CJK font: nothing to install
WIDTH, HEIGHT = A4
LEFT, LEADING = 72, 16

EN_PARA = ["The pumping station received two new variable-speed pumps",
           "during the spring, and the old ones were taken out of service",
           "after forty years of work."]
EN_PARA2 = ["Because the pumps now follow demand instead of running at full",
            "speed, the station uses a quarter less electricity than before."]
ZH_PARA = ["本次股东大会由公司董事会召集，董事长主持会议。会议采用现场投",
           "票与网络投票相结合的表决方式，会议合法有效。"]
BULLETS = ["- Fewer interruptions: 41 outages.", "- Clearer water after repairs."]
TABLE = [["District", "Mains (km)", "Leaks"], ["North", "14", "12"], ["South", "9", "7"]]


def _draw_lines(c, font, size, lines, y):
    """Draw lines top-down from y; returns the y below them."""
    c.setFont(font, size)
    for line in lines:
        c.drawString(LEFT, y, line)
        y -= LEADING
    return y


def _page_furniture(c, page, pages):
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, HEIGHT - 40, "Harbour Valley Water Board - Annual Report")
    c.drawString(WIDTH / 2, 30, f"Page {page} of {pages}")


NOTICE = ["Every meter read in the district is checked twice before the bills go out,",
          "and a reading that differs from the last by a third is read again."]


def filled_twice(path, pages=2):
    """A form filled once a page, as a template repeats it: the running head and foot
    (_page_furniture), a paragraph of the page's own, pdfs.NOTICE at the same height on every
    page, another paragraph of its own. Returns the body's lines in order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    order = []
    for page in range(1, pages + 1):
        _page_furniture(c, page, pages)
        street, month = ("Mill Lane", "March") if page % 2 else ("Quay Street", "April")
        lines = [f"This report covers the meters read on {street} and the crews that",
                 f"read them in {month}.", *NOTICE,
                 f"The readings of {street} were all checked by the end of {month},",
                 f"as every reading of {month} is."]
        _draw_lines(c, "Helvetica", 10, lines, HEIGHT - 100)
        order += lines
        c.showPage()
    c.save()
    return order


def _head(c) -> list:
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, HEIGHT - 40, "Harbour Valley Water Board - Annual Report")
    return ["Harbour Valley Water Board - Annual Report"]


def sideways(path, turn=90):
    """A landscape page set on a portrait one, as LaTeX's sidewaystable sets it: the running
    head upright, then the text turned `turn` degrees (90: it reads up the page, -90: down
    it): a caption, pdfs.NOTICE as a paragraph, pdfs.TABLE ruled. Returns the upright lines
    and the turned ones, in the order a person reads them."""
    c = canvas.Canvas(str(path), pagesize=A4)
    head = _head(c)
    c.saveState()
    c.translate(*((LEFT, 60) if turn == 90 else (WIDTH - LEFT, HEIGHT - 60)))
    c.rotate(turn)
    caption = "Table 2. Mains and leaks by district, as read in March."
    y = _draw_lines(c, "Helvetica", 10, [caption, *NOTICE], -LEADING)
    _ruled_table(c, y - 12)
    c.restoreState()
    c.save()
    return head, [caption, *NOTICE, *(" ".join(row) for row in TABLE)]


def turned_label(path):
    """Upright prose (the running head, pdfs.NOTICE) and one label beside it turned to read up
    the page, as a chart's axis is set. Returns the upright lines and the turned one."""
    c = canvas.Canvas(str(path), pagesize=A4)
    head = _head(c)
    _draw_lines(c, "Helvetica", 10, NOTICE, HEIGHT - 100)
    c.saveState()
    c.translate(LEFT - 20, HEIGHT - 160)
    c.rotate(90)
    c.drawString(0, 0, "Leaks per km")
    c.restoreState()
    c.save()
    return [*head, *NOTICE], ["Leaks per km"]


DISPLAYED = [  # (ems set in, text): names displayed alone inside sentences, a quoted block
    (0, "Readings are sent to the office each night, and the checks that they all have to"),
    (0, "pass there are set with the option"),
    (3, "double-check"),
    (0, "which reads every meter twice before the bills go out. A reading that differs from"),
    (0, "the last by a third is sent back to the crew. The second check is switched off by"),
    (3, "single-check"),
    (0, "A crew that does so signs the sheet. Three more options are known to the office."),
    (3, "strict-order"),
    (0, "keeps the readings in the order of the streets. The board's notice says that"),
    (3, "every meter read in the district"),
    (3, "is checked twice before the bills go out"),
    (0, "and it is posted at each office of the board, beside the list of the crews."),
]


def displayed_names(path, size=10):
    """pdfs.DISPLAYED on a page: each line at its indent (in ems of `size`)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", size)
    for k, (ems, text) in enumerate(DISPLAYED):
        c.drawString(LEFT + ems * size, HEIGHT - 100 - k * LEADING, text)
    c.save()


def logo_title(path, size=18, lowered=0.25):
    """A title with TeX's logo, its "E" lowered `lowered` of the size ("Using TEX at home"),
    over a line of body text; and a letter set a line below the title's end, alone."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica-Bold", size)
    y = HEIGHT - 100
    x = LEFT
    for text, drop in (("Using T", 0.0), ("E", lowered), ("X at home", 0.0)):
        c.drawString(x, y - drop * size, text)
        x += pdfmetrics.stringWidth(text, "Helvetica-Bold", size) - 0.1 * size * (text == "E")
    c.drawString(x + size, y - 1.2 * size, "B")
    c.setFont("Helvetica", 10)
    c.drawString(LEFT, y - 3 * size, "The board's crews read every meter twice a year.")
    c.save()


def _ruled_table(c, y):
    """pdfs.TABLE as a ruled grid from y down (pdfplumber finds it from its lines); returns
    the y below it."""
    col_x = [LEFT, LEFT + 120, LEFT + 240, LEFT + 330]
    top = y + 12
    for row in TABLE:
        for k, cell in enumerate(row):
            c.drawString(col_x[k] + 4, y, cell)
        y -= 20
    for k in range(len(TABLE) + 1):
        c.line(col_x[0], top - 20 * k, col_x[-1], top - 20 * k)
    for x in col_x:
        c.line(x, top, x, top - 20 * len(TABLE))
    return y


def report(path):
    """Two pages: heading, English paragraphs (one across the page break), Chinese, bullets,
    a ruled table; a running header and a page number on every page."""
    c = canvas.Canvas(str(path), pagesize=A4)
    _page_furniture(c, 1, 2)
    y = HEIGHT - 90
    c.setFont("Helvetica-Bold", 16)
    c.drawString(LEFT, y, "Pumping stations")
    y -= 28
    for font, lines in (("Helvetica", EN_PARA), ("STSong-Light", ZH_PARA), ("Helvetica", BULLETS)):
        y = _draw_lines(c, font, 11, lines, y) - 8
    y = _ruled_table(c, y) - 10
    c.setFont("Helvetica", 11)
    c.drawString(LEFT, 60, EN_PARA2[0])  # the last line of page 1 ...
    c.showPage()
    _page_furniture(c, 2, 2)
    c.setFont("Helvetica", 11)
    c.drawString(LEFT, HEIGHT - 90, EN_PARA2[1])  # ... continues on page 2
    c.save()


def expected_report_lines():
    """The body lines read_pdf must give for report(), in order."""
    rows = [" ".join(row) for row in TABLE]
    return (["Pumping stations"] + EN_PARA + ZH_PARA + BULLETS + rows + EN_PARA2)


def spaced_words(path, words=("Words", "placed", "one", "by", "one", "without", "spaces")):
    """Each word drawn on its own, a normal word gap apart but with no space glyph between:
    pdfplumber's default 3 pt tolerance glues them at this size."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    x = LEFT
    for word in words:
        c.drawString(x, HEIGHT - 100, word)
        x += pdfmetrics.stringWidth(word, "Helvetica", 9) + 2.6
    c.save()
    return " ".join(words)


def pages(path, n, text="A page of text."):
    c = canvas.Canvas(str(path), pagesize=A4)
    for _ in range(n):
        c.setFont("Helvetica", 11)
        c.drawString(LEFT, HEIGHT - 100, text)
        c.showPage()
    c.save()


def encrypted(path):
    c = canvas.Canvas(str(path), pagesize=A4, encrypt="secret")
    c.setFont("Helvetica", 11)
    c.drawString(LEFT, HEIGHT - 100, "Locked text.")
    c.save()


def image_only(path):
    c = canvas.Canvas(str(path), pagesize=A4)
    c.rect(100, 100, 300, 300, fill=1)  # graphics, no text layer
    c.showPage()
    c.rect(50, 50, 100, 100, fill=1)
    c.save()


def text_pdf(path, lines, per_page=40, title="Prefill Lens test document"):
    """Lines laid out as they are, `per_page` a page, with a running header and page numbers."""
    c = canvas.Canvas(str(path), pagesize=A4)
    pages = max(1, -(-len(lines) // per_page))
    for p in range(pages):
        c.setFont("STSong-Light", 9)
        c.drawString(LEFT, HEIGHT - 40, title)
        c.drawString(WIDTH / 2, 30, f"- {p + 1} -")
        c.setFont("STSong-Light", 10.5)
        y = HEIGHT - 80
        for line in lines[p * per_page:(p + 1) * per_page]:
            c.drawString(LEFT, y, line)
            y -= LEADING
        c.showPage()
    c.save()


CODE = ["def merge(lines):", "    return ' '.join(lines)", "print(merge(['a', 'b']))"]


def with_code(path):
    """A wrapped paragraph, a code block in Courier, another wrapped paragraph."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 90
    for font, lines in (("Helvetica", EN_PARA), ("Courier", CODE), ("Helvetica", EN_PARA2)):
        y = _draw_lines(c, font, 10, lines, y)
    c.save()


def small_code(path):
    """A manual's page: a wrapped paragraph at 11 pt above a listing of many short lines in
    Courier at 9 pt (more lines of code than of prose)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = _draw_lines(c, "Helvetica", 11, EN_PARA, HEIGHT - 90)
    _draw_lines(c, "Courier", 9, [f"{k:3} \\def\\step{k}{{{k}}}" for k in range(12)], y)
    c.save()


def numbered_listing(path):
    """A package's documented source: a paragraph, then code in Courier whose lines a listing
    numbers in Helvetica (as LaTeX's doc package sets them), some of them a brace alone.
    Returns the listing's lines as read."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = _draw_lines(c, "Helvetica", 10, EN_PARA, HEIGHT - 90) - 4
    out = []
    for k in range(490, 502):
        code = "{" if k % 4 == 1 else "}," if k % 4 == 3 else f"type{k} .initial:n = bachelor,"
        c.setFont("Helvetica", 7)
        c.drawString(LEFT, y, str(k))
        c.setFont("Courier", 9)
        c.drawString(LEFT + 24, y, code)
        out.append(f"{k} {code}")
        y -= 11
    c.save()
    return out


INLINE_CODE = [  # (font, text) spans per line: prose with a long command inline, then a code block
    [("Helvetica", "Install it with "), ("Courier", "apt-get install --no-install-recommends live-build")],
    [("Helvetica", "and read the manual page before you run it.")],
    [("Courier", "$ lb config --distribution bookworm")],
    [("Courier", "$ lb build --verbose "), ("Helvetica", "(slow)")],
    [("Courier", "$ ls *.iso")],
    [("Helvetica", "The image is written to the current folder.")],
]


def inline_code(path):
    """Prose whose first line is mostly a monospaced command, then a code block whose middle
    line ends in a proportional comment."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 90
    for spans in INLINE_CODE:
        t = c.beginText(LEFT, y)
        for font, text in spans:
            t.setFont(font, 10)
            t.textOut(text)
        c.drawText(t)
        y -= LEADING
    c.save()


WORDS = ("water mains pumps valves meters crews repairs leaks streets districts reservoir "
         "pressure winter spring budget report council board station network").split()


def _filled(prefix, width, size=9, start=0, share=0.98):
    """`prefix` and words from WORDS[start] on, in Helvetica at `size`, while the line stays
    within `share` of `width`: (the line, the index of the word that did not fit)."""
    text, k = prefix, start
    while True:
        word = WORDS[k % len(WORDS)]
        longer = f"{text} {word}" if text else word
        if pdfmetrics.stringWidth(longer, "Helvetica", size) > width * share:
            return text, k
        text, k = longer, k + 1


def two_column(path, pages=2, per_column=30, gutter=24, ragged=False, overflow=(), intro=0,
               across=0, offset=0.0, marks=False, hang=0.0, outdent=()):
    """A title across both columns, then numbered lines down the left column and on down the
    right one, continued on the next page. `ragged`: lines end anywhere from 55 % of the column
    on, as ragged-right text does; `overflow`: numbers of left-column lines that are one long
    path instead, running into the gutter; `intro`: lines across the whole width under the
    title before the columns start (a page that changes from one column to two); `across`: on
    each page, after that many lines of each column, a figure's caption runs across both and
    the columns go on below it; `offset`: the right column's rows set that many points lower
    than the left's; `hang`: the right column a description list, each term's line at its edge
    and the two lines after it set that many points in; `outdent`: numbers of right-column
    lines that open with a macro's name hung into the gutter, 60 % of its width left of the
    column's edge (NRC's journal guide). Returns the lines in reading order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    title = "Harbour Valley Water Board: the report set in two columns, with a title across"
    order, k = [title], 0
    for page in range(pages):
        y0 = HEIGHT - 72
        if page == 0:
            c.setFont("Helvetica-Bold", 12)
            c.drawString(LEFT, y0, title)
            y0 -= 30
            c.setFont("Helvetica", 9)
            for i in range(intro):
                line, _ = _filled(f"Intro {i:02d}", WIDTH - 2 * LEFT, start=i)
                c.drawString(LEFT, y0, line)
                order.append(line)
                y0 -= 12
            y0 -= 12 if intro else 0
        c.setFont("Helvetica", 9)
        halves = [(0, across), (across, per_column)] if across else [(0, per_column)]
        for first, last in halves:
            if first:  # a figure's caption across both columns, space above and below
                y0 -= 12 * first + 24
                caption = (f"Figure {page + 1}: the pumping stations of the valley, drawn to "
                           "scale, across both columns")
                c.drawString(LEFT, y0, caption)
                order.append(caption)
                y0 -= 30
            k = _two_columns(c, y0, first, last, k, col, gutter, ragged, overflow, order,
                             offset, marks, hang, outdent)
        c.showPage()
    c.save()
    return order


def columns_then_heading(path, rows=14, gutter=18, notes=False):
    """Lines across the page, then two columns of `rows` lines each (ltxdoc's change history
    in multicols), then a heading after a blank (an index's), then lines across again (the
    index's opening paragraph); `notes`: after the blank, a footnote's two lines set in the
    columns, one in each, where the heading stood. Returns the lines in reading order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    width, col = WIDTH - 2 * LEFT, (WIDTH - 2 * LEFT - gutter) / 2
    c.setFont("Helvetica", 9)
    order, y, k = [], HEIGHT - 80, 0
    for n in range(5):
        line, k = _filled(f"Across {n}", width, start=k)
        c.drawString(LEFT, y, line)
        order.append(line)
        y -= 12
    y -= 12
    for side in range(2):
        for n in range(rows):
            line, k = _filled(f"Change {side}.{n}", col, start=k)
            c.drawString(LEFT + side * (col + gutter), y - 12 * n, line)
            order.append(line)
        if notes:
            line, k = _filled(f"Note {side}", col, start=k)
            c.drawString(LEFT + side * (col + gutter), y - 12 * rows - 20, line)
            order.append(line)
    y -= 12 * rows + 20
    if not notes:
        c.setFont("Helvetica-Bold", 12)
        c.drawString(LEFT, y, "Index")
        order.append("Index")
    c.setFont("Helvetica", 9)
    for n in range(4):
        y -= 14 if n == 0 else 12
        line, k = _filled(f"Numbers {n}", width, start=k)
        c.drawString(LEFT, y, line)
        order.append(line)
    c.save()
    return order


def _share(k, ragged) -> float:
    """How much of its column line `k` fills: all of it, or when `ragged` anywhere from 55 %
    on, as ragged-right text does."""
    return 0.55 + 0.45 * ((k * 37) % 10) / 9 if ragged else 1.0


def _two_columns(c, y0, first, last, k, col, gutter, ragged, overflow, order, offset=0.0,
                 marks=False, hang=0.0, outdent=()):
    """Lines first..last of each column from y0 down (two_column); returns the next number."""
    for column in (0, 1):
        y = y0 - offset * column
        for row in range(first, last):
            inset = hang if column == 1 and row % 3 else 0.0  # a description's lines
            # the mark and the Courier word widen a line: room is left for them
            line, _ = _filled(f"{k:03d}", (col - inset) * _share(k, ragged) * (0.85 if marks else 1),
                              start=k)
            if k in overflow and column == 0:  # a path into the gutter, short of the column
                line = f"{k:03d} /usr/share/doc/harbour-valley/examples/"
                for ch in "pumping-station/configuration/templates/" * 3:
                    if pdfmetrics.stringWidth(line + ch, "Helvetica", 9) > col + gutter * 0.6:
                        break
                    line += ch
            if k in outdent and column == 1:  # "\\address012" from the gutter into the column
                inset = -0.6 * gutter
                line, _ = _filled(f"\\address{k:03d}", col - inset, start=k)
            if marks:
                _marked(c, LEFT + column * (col + gutter), y, line)
            else:
                c.drawString(LEFT + column * (col + gutter) + inset, y, line)
            order.append(line)
            y, k = y - 12, k + 1
    return k


def displayed_columns(path, per_column=30, every=2, gutter=12):
    """Two justified columns as a journal sets them (a physics paper's), a display after every
    `every` lines of prose in each: a formula centred in its column, its number set flush
    right. Returns the lines in reading order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    order, k, n = [], 0, 0
    for column in (0, 1):
        c.saveState()
        c.translate(column * (col + gutter), 0)
        y = HEIGHT - 72
        for row in range(per_column):
            text, k = _filled("", col, start=k, share=0.97)
            _justified(c, y, text.split(), col, size=9)
            order.append(text)
            y -= 12
            if row % every == every - 1:
                n += 1
                formula, number = f"E{n} = m{n} c2 + k{n}", f"({n})"
                c.setFont("Helvetica", 9)
                c.drawCentredString(LEFT + col / 2, y, formula)
                c.drawRightString(LEFT + col, y, number)
                order.append(f"{formula} {number}")
                y -= 12
        c.restoreState()
    c.save()
    return order


def numbered_columns(path, per_column=24, gutter=18):
    """Two justified columns of parallel texts as reledpar sets them, each line numbered in
    the margin: the left column's before it ("7"), the right column's after it ("7R"), 14 pt
    away. Returns the lines in reading order, without their numbers."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    order, k = [], 0
    c.setFont("Helvetica", 9)
    for column in (0, 1):
        c.saveState()
        c.translate(column * (col + gutter), 0)
        y = HEIGHT - 72
        for row in range(1, per_column + 1):
            text, k = _filled("", col, start=k, share=0.97)
            _justified(c, y, text.split(), col, size=9)
            c.setFont("Helvetica", 9)
            if column == 0:
                c.drawRightString(LEFT - 14, y, str(row))
            else:
                c.drawString(LEFT + col + 14, y, f"{row}R")
            order.append(text)
            y -= 12
        c.restoreState()
    c.save()
    return order


def column_footnote(path, per_column=30, gutter=12):
    """Two justified columns, a journal's first page: a sentence runs on from the foot of the
    left column to the top of the right one, a footnote (set smaller, opening on its mark)
    under the left column's text; the right column's third line ends the paragraph, short.
    Returns the left column's lines, the right one's and the note's, as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    columns, k = [], 0
    note = ["1 aka the pumping station of the upper valley, as the", "board named it."]
    for column in (0, 1):
        c.saveState()
        c.translate(column * (col + gutter), 0)
        y, lines = HEIGHT - 72, []
        for row in range(per_column):
            text, k = _filled("", col, start=k, share=0.97)
            if (column, row) == (1, 2):
                text = "and so the paragraph ends."
                c.setFont("Helvetica", 9)
                c.drawString(LEFT, y, text)
            else:
                _justified(c, y, text.split(), col, size=9)
            lines.append(text)
            y -= 12
        if column == 0:
            c.setFont("Helvetica", 7)
            for n, line in enumerate(note):
                c.drawString(LEFT, y - 20 - 9 * n, line)
        columns.append(lines)
        c.restoreState()
    c.save()
    return columns[0], columns[1], note


FORMULA_TEX = r"""\documentclass{article}
\begin{document}
The weights of the samples were measured again after the second winter, and the total
weight of the whole collection is given by
\[ W = \sum_{i=1}^{n} \alpha_i \, x_i^2 + \beta \]
where $\alpha_i$ is the weight of the $i$-th sample and $x_i$ its size, as measured by the
station's staff in the spring of each year with the same scales.

The results of the two winters are close to each other. We write them down as follows.
\begin{equation} V = \int_0^1 f(x) \, dx \leq \gamma \end{equation}
The difference stays small over the whole range of the samples and of their sizes, and it
never changes its sign from one winter to the next one.
\end{document}
"""


def displayed_formula(path):
    """pdflatex's article: a sentence that runs into a displayed formula ("is given by") and
    goes on after it ("where ..."), and a formula numbered after a sentence's full stop, a
    sentence opening on a capital after it (FORMULA_TEX)."""
    source = path.with_suffix(".tex")
    source.write_text(FORMULA_TEX, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                    f"-output-directory={path.parent}", str(source)], check=True, timeout=120,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stroked_block(path, lines=4):
    """An algorithm's block with a tall brace's extension drawn beside it, as TeX's CMEX draws
    one: a glyph ("|") set again every 3 pt down one x, short lines of words 12 pt apart right
    of it. Returns the lines of words."""
    c = canvas.Canvas(str(path), pagesize=A4)
    top = HEIGHT - 100
    drawn = [f"for station {n} do {WORDS[n]} {WORDS[n + 1]} {WORDS[n + 2]}" for n in range(lines)]
    c.setFont("Helvetica", 10)
    for n in range(4 * lines + 1):
        c.drawString(LEFT, top + 6 - 3 * n, "|")
    for n, line in enumerate(drawn):
        c.drawString(LEFT + 20, top - 12 * n, line)
    c.save()
    return drawn


def squared_paper(path, rows=12, square=14):
    """Prose set over squared paper, as an exam's answer grid is drawn under its text: light
    grey lines every `square` points across the text block, a line of words in each row of
    squares. Returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    top, width = HEIGHT - 80, 30 * square
    c.setStrokeGray(0.8)
    c.setLineWidth(0.4)
    for n in range(31):
        c.line(LEFT + n * square, top, LEFT + n * square, top - rows * square)
    for n in range(rows + 1):
        c.line(LEFT, top - n * square, LEFT + width, top - n * square)
    drawn, k = [], 0
    for n in range(rows):
        line, k = _filled(f"Rule {n}", width, start=k)
        c.setFont("Helvetica", 9)
        c.drawString(LEFT + 1, top - (n + 1) * square + 4, line)
        drawn.append(line)
    c.save()
    return drawn


def _marked(c, x, y, line):
    """`line` drawn at (x, y) with a footnote mark raised after its first word and its second
    word in Courier, the rest in Helvetica 9 (two_column's `marks`)."""
    number, code, rest = (line.split(" ", 2) + ["", ""])[:3]
    for text, font, size, rise in ((number, "Helvetica", 9, 0), ("1", "Helvetica", 5.5, 4),
                                   (f" {code} ", "Courier", 10, 0), (rest, "Helvetica", 9, 0)):
        c.setFont(font, size)
        c.drawString(x, y + rise, text)
        x += pdfmetrics.stringWidth(text, font, size)
    c.setFont("Helvetica", 9)


def columns(path, n=3, per_column=30, gutter=14, ragged=False, landscape=False):
    """A title, then numbered lines down each of `n` columns in turn (a reference card, a
    newsletter), `ragged` as two_column's. Returns the lines in reading order."""
    width, height = (HEIGHT, WIDTH) if landscape else (WIDTH, HEIGHT)
    c = canvas.Canvas(str(path), pagesize=(width, height))
    col = (width - 2 * LEFT - (n - 1) * gutter) / n
    title = f"Quick reference in {n} columns"
    c.setFont("Helvetica-Bold", 12)
    c.drawString(LEFT, height - 72, title)
    order, k = [title], 0
    c.setFont("Helvetica", 9)
    for column in range(n):
        y = height - 102
        for _ in range(per_column):
            line, _ = _filled(f"{k:03d}", col * _share(k, ragged), start=k)
            c.drawString(LEFT + column * (col + gutter), y, line)
            order.append(line)
            y, k = y - 12, k + 1
    c.showPage()
    c.save()
    return order


def contents_columns(path, entries=24, gutter=10):
    """A title and an abstract across the page, then a table of contents in two columns
    `gutter` points apart (LaTeX's default), as the listings package's manual sets one: each
    chapter's line its title and page number set flush right, each section's run to its page
    number by dot leaders. Returns the lines in reading order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    title = "The pumping stations of Harbour Valley"
    c.setFont("Helvetica-Bold", 14)
    c.drawString(LEFT, HEIGHT - 80, title)
    order, y = [title], HEIGHT - 110
    c.setFont("Helvetica", 9)
    for i in range(5):
        line, _ = _filled("", WIDTH - 2 * LEFT, start=7 * i)
        c.drawString(LEFT, y, line)
        order.append(line)
        y -= 12
    page = 1
    for column in range(2):
        x, row = LEFT + column * (col + gutter), y - 24
        for k in range(entries):
            number = column * entries + k
            if k % 4 == 0:
                name = f"{number // 4 + 1} {WORDS[number % len(WORDS)].capitalize()} and more"
                c.setFont("Helvetica-Bold", 9)
                c.drawString(x, row, name)
                c.drawRightString(x + col, row, str(page))
                c.setFont("Helvetica", 9)
                line = f"{name} {page}"
            else:
                name = f"{number // 4 + 1}.{k % 4} The {WORDS[(3 * number) % len(WORDS)]} of the valley"
                dots = " ."
                while pdfmetrics.stringWidth(f"{name}{dots} . {page}", "Helvetica", 9) < col:
                    dots += " ."
                c.drawString(x, row, f"{name}{dots}")
                c.drawRightString(x + col, row, str(page))
                line = f"{name}{dots} {page}"
            order.append(line)
            row, page = row - 12, page + 3
    c.showPage()
    c.save()
    return order


def boxed_contents(path, width=170):
    """A narrow table of contents as LaTeX sets one in a two-column manual (mdwtools'): each
    number in a box of its own (a gap wider than a word's after it), the leaders' dots on a grid
    from the title up to one place short of the page number set flush right (a gap again), one
    dot where a title leaves room for no more; some entries wrap, the first line justified (its
    word spaces as wide as cells' gaps), the rest going on under the title. Returns the lines
    as drawn, and each entry's lines."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    entries = [("2.1", ["Square roots"], 2), ("2.2", ["Where is the square", "root sign gone?"], 2),
               ("2.3", ["Drawing fake square", "roots in the margins"], 3),
               ("2.4", ["The new square root", "command"], 4),
               ("2.5", ["Some magic new maths", "characters"], 5), ("2.6", ["Biggles"], 5),
               ("2.7", ["Braces and brackets"], 6), ("2.8", ["Vertical bars of", "every size"], 7),
               ("2.9", ["Spacing of operators"], 8),
               ("2.10", ["Alignment of operators", "in displayed equation layouts"], 9),
               ("2.11", ["Error messages"], 10)]
    y, drawn, lines, end = HEIGHT - 90, [], [], LEFT + width - 24  # the leaders' last dot
    box = 22  # the numbers' box: the titles start this far in
    for number, title, page in entries:
        c.drawString(LEFT, y, number)
        entry = []
        for n, part in enumerate(title):
            left = LEFT + box
            spare = end - left - pdfmetrics.stringWidth(part, "Helvetica", 9)
            if n < len(title) - 1:  # justified: its words spread to the leaders' end
                c.saveState()
                c.translate(box, 0)
                _justified(c, y, part.split(), end - left, size=9)
                c.restoreState()
                text = part
            else:
                c.drawString(left, y, part)
                dots = int((spare - 4) // 5) + 1
                for k in range(dots):
                    c.drawString(end - 5 * k, y, ".")
                c.drawRightString(LEFT + width, y, str(page))
                text = f"{part}{' .' * dots} {page}"
            entry.append(f"{number} {text}" if n == 0 else text)
            y -= 11
        drawn += entry
        lines.append(entry)
    c.showPage()
    c.save()
    return drawn, lines


def index_columns(path, groups=3, gutter=14):
    """An index set in three columns: per letter a heading set in the middle of its column,
    then entries at the column's edge, each with its page numbers wrapped to a line set in
    3 em (nostarch's index). Returns the lines in reading order, down each column in turn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - 2 * gutter) / 3
    order, k = [], 0
    for column in range(3):
        x, y = LEFT + column * (col + gutter), HEIGHT - 90
        for group in range(groups):
            letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[column * groups + group]
            c.setFont("Helvetica-Bold", 9)
            c.drawString(x + col / 2 - 3, y, letter)
            order.append(letter)
            y -= 11
            c.setFont("Helvetica", 9)
            for _ in range(3):
                name = f"\\{letter.lower()}{WORDS[k % len(WORDS)]}"
                entry = f"{name}, {k + 3}, {2 * k + 40}, {3 * k + 101},"
                pages = ", ".join(str(200 + 17 * k + j * 31) for j in range(4))
                c.drawString(x, y, entry)
                c.drawString(x + 27, y - 11, pages)
                order += [entry, pages]
                y, k = y - 22, k + 1
    c.save()
    return order


def command_index(path, rows=40, gutter=10, leaders=True):
    """A package's index of commands in three columns, all in Courier 8 pt: "\\cmdname . . . 12"
    per row, dot leaders (`leaders`) to its page numbers, or without them, the numbers set after
    the name: aligned columns of code, as a listing sets them. Returns the rows as drawn, top
    down, each row's three entries left to right."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Courier", 8)

    def entry(n):
        name = f"\\{WORDS[n % len(WORDS)][:9]}{n}"
        return f"{name} {' .' * (12 - len(name) // 2)} {n + 3}" if leaders else f"{name} {n + 3}"

    drawn = _three_columns(c, HEIGHT - 80, rows, gutter, 16, entry)
    c.save()
    return drawn


def _three_columns(c, y, rows, gutter, pitch, entry) -> list:
    """`rows` rows down three columns `gutter` apart from `y`, `pitch` points apart, the n-th
    entry down the columns `entry(n)`: returns the rows as drawn, each row's three entries
    left to right."""
    col = (WIDTH - 2 * LEFT - 2 * gutter) / 3
    drawn = []
    for k in range(rows):
        row = [entry(k + rows * column) for column in range(3)]
        for column, text in enumerate(row):
            c.drawString(LEFT + column * (col + gutter), y - pitch * k, text)
        drawn.append(row)
    return drawn


def index_under_text(path, rows=20, gutter=10, leaders=True, below=0.0):
    """A paragraph across the page, then an index in three columns under it (LaTeX's
    theindex after its heading's paragraph): "\\name . . . 12" per row, in a proportional
    font, dot leaders (`leaders`) to the page numbers, or the numbers right after the name.
    Returns (the paragraph's lines, the rows as drawn: each row's three entries left to
    right). `below`: points the index is moved down, to run off the page's foot."""
    c = canvas.Canvas(str(path), pagesize=A4)
    width = WIDTH - 2 * LEFT
    first, y, _ = _justified_lines(c, HEIGHT - 90, width, 8, 0, last="")
    c.setFont("Helvetica", 9)

    def entry(n):
        name = f"\\{WORDS[n % len(WORDS)][:9]}"
        return f"{name} {' .' * (14 - len(name))} {n + 3}" if leaders else f"{name} {n + 3}"

    drawn = _three_columns(c, y - below - 20, rows, gutter, 12, entry)
    c.save()
    return first, drawn


def centred_cells(path, rows=24, gutter=14):
    """A table of three columns whose cells are centred: texts of three lengths, so that a
    column's rows start at three x, two of them within a few ems. Returns its rows."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - 2 * gutter) / 3
    texts = ("water mains pumps valves", "crews repairs leaks", "pressure")
    c.setFont("Helvetica", 9)
    out = []
    for r in range(rows):
        cells = [f"{texts[(r + j) % 3]} {r}" for j in range(3)]
        for j, cell in enumerate(cells):
            width = pdfmetrics.stringWidth(cell, "Helvetica", 9)
            c.drawString(LEFT + j * (col + gutter) + (col - width) / 2, HEIGHT - 90 - 12 * r, cell)
        out.append(" ".join(cells))
    c.save()
    return out


def short_cells(path, rows=30):
    """A table without rules: three short cells a row, in three evenly spaced columns."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 9)
    out = []
    for r in range(rows):
        cells = [WORDS[r % len(WORDS)], f"{r * 7 % 100}", f"{r * 13 % 50} km"]
        for j, cell in enumerate(cells):
            c.drawString(LEFT + j * 160, HEIGHT - 90 - 12 * r, cell)
        out.append(" ".join(cells))
    c.save()
    return out


def listed_columns(path, items=14, bullets=True):
    """Short items set in two columns (a glossary of names set with multicols): each a bulleted
    name and, set in under it, its command. Returns the lines in reading order (down the left
    column, then the right). With `bullets` False, the same short texts without marks or
    commands, side by side in rows: a two-column table, returned row by row as (left, right).
    Set in Vera (reportlab's own TrueType font), whose bullet pdfplumber reads as "\u2022"."""
    import os

    import reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("Vera", os.path.join(os.path.dirname(reportlab.__file__),
                                                        "fonts", "Vera.ttf")))
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Vera", 10)
    order, rows = [], []
    for column in range(2):
        y = HEIGHT - 90
        for k in range(items):
            name = _item_name(k, column * items)
            x = LEFT + column * 235
            if bullets:
                command = f"\\{'ab'[column]}{k} => {name[:2]}"
                c.drawString(x, y, f"\u2022 {name}")
                c.drawString(x + 12, y - 14, command)
                order += [f"\u2022 {name}", command]
                y -= 30
            else:
                c.drawString(x, y, name)
                rows += [name] if column == 0 else []
                y -= 16
    c.save()
    if bullets:
        return order
    return list(zip(rows, [_item_name(k, items) for k in range(items)]))


def _item_name(k, start) -> str:
    """An item's name: a word of WORDS from `start` on, and in every fifth item its three
    first (both columns as wide)."""
    return " ".join(WORDS[:3]) if k % 5 == 4 else WORDS[(k + start) % len(WORDS)]


def unruled_table(path, width=400, columns=3):
    """A justified paragraph, a table set as booktabs sets one (rules across, none between the
    columns; `columns` of them, the last one's text wrapping in its second row), a definition
    list (a term and its description side by side, the description going on under itself),
    then a justified paragraph: returns (the lines of the first paragraph, the table's, the
    list's and the last paragraph's), as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k = HEIGHT - 90, 0
    first, y, k = _justified_lines(c, y, width, 3, k)
    c.line(LEFT, y + 11, LEFT + width, y + 11)
    xs = [LEFT + 6 + 90 * j for j in range(columns)]
    rows = [["Name", "Package", "Family"][:columns - 1] + ["Comment"]]
    rows += [[f"{WORDS[r]}{j}" for j in range(columns - 1)] + [text] for r, text in enumerate(
        ("a plain sans serif", "light and wide, with a large x-height, bitmap", "wrapped",
         "a slide font, very wide"))]
    table = []
    for r, cells in enumerate(rows):
        c.setFont("Helvetica", 10)
        for x, cell in zip(xs, cells):
            c.drawString(x, y, cell)
        table.append(" ".join(cells))
        y -= 14
        if r == 2:  # the last cell's text goes on under itself
            c.drawString(xs[-1], y, "version for the screen")
            table.append("version for the screen")
            y -= 14
    c.line(LEFT, y + 10, LEFT + width, y + 10)
    y -= 14
    listed = []
    for term, lines in (("--all", ["do not ignore the entries starting with a dot, nor",
                                   "those hidden by the system"]),
                        ("--size", ["print the size of each file"]),
                        ("--sort", ["sort by the word given, not by name: the size, the time or",
                                    "the version"])):
        c.drawString(LEFT, y, term)
        for n, line in enumerate(lines):
            c.drawString(LEFT + 70, y, line)
            listed.append(f"{term} {line}" if n == 0 else line)
            y -= 14
    last, _, _ = _justified_lines(c, y - 14, width, 2, k)
    c.showPage()
    c.save()
    return first, table, listed, last


def grouped_table(path, width=400):
    """A justified paragraph, a table set as booktabs sets one whose first column names groups
    of rows (a name on a group's first row only, its other rows' first cell empty; one row
    with no option, a single cell), then a justified paragraph: returns (the first
    paragraph's lines, the table's, the last paragraph's), as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k = HEIGHT - 90, 0
    first, y, k = _justified_lines(c, y, width, 3, k)
    c.line(LEFT, y + 11, LEFT + width, y + 11)
    xs = [LEFT + 6, LEFT + 86, LEFT + 186]
    rows = [("Style", "Package", "Option"), ("Sloped", "fixmath", ""), ("", "isomath", ""),
            ("", "kpfonts", "slanted"), ("", "lucida", "iso style"),
            ("", "mathpazo", "slanted greek"), ("Upright", "fourier", "upright"),
            ("", "kpfonts", "french style"), ("", "unicode", "upright")]
    c.setFont("Helvetica", 10)
    table = []
    for cells in rows:
        for x, cell in zip(xs, cells):
            c.drawString(x, y, cell)
        table.append(" ".join(cell for cell in cells if cell))
        y -= 14
    c.line(LEFT, y + 10, LEFT + width, y + 10)
    last, _, _ = _justified_lines(c, y - 14, width, 2, k)
    c.showPage()
    c.save()
    return first, table, last


def centred_header_table(path, width=450):
    """A justified paragraph, a table as a browser prints an HTML one (no rules; each header
    centred above its column; a cell whose text runs over two lines sets the row's other cells
    midway between them), then a justified paragraph: returns (the first paragraph's lines, the
    table's, the last paragraph's), as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k = HEIGHT - 90, 0
    first, y, k = _justified_lines(c, y, width, 3, k)
    xs, right = [LEFT, LEFT + 110, LEFT + 180, LEFT + 400], LEFT + width  # columns' left edges
    c.setFont("Helvetica", 9)
    table = ["Name Type Description Default"]
    for x0, x1, head in zip(xs, [*xs[1:], right], table[0].split()):
        c.drawCentredString((x0 + x1 - 10) / 2, y, head)
    for name, kind, description, default in (
            ("--clean", "boolean", ["Remove old files from the site folder before",
                                    "building (the default)."], "True"),
            ("--config-file", "filename", ["Provide a specific config file"], "None"),
            ("--strict", "boolean", ["Enable strict mode: this will cause the build",
                                     "to abort on any warnings."], "None"),
            ("--quiet", "boolean", ["Silence warnings"], "False")):
        y -= 17 + 7 * (len(description) - 1)
        for x, cell in zip(xs, (name, kind, "", default)):
            c.drawString(x, y, cell)
        if len(description) == 1:
            c.drawString(xs[2], y, description[0])
            table.append(f"{name} {kind} {description[0]} {default}")
            continue
        for n, line in enumerate(description):
            c.drawString(xs[2], y + 7 - 14 * n, line)
        table += [description[0], f"{name} {kind} {default}", description[1]]  # top down
        y -= 7
    last, _, _ = _justified_lines(c, y - 28, width, 2, k)
    c.showPage()
    c.save()
    return first, table, last


def key_table(path, width=400, margin_names=False):
    """A justified paragraph, then two columns of keys and what each means, as a reference card
    or a glossary sets them (short keys in a column of their own, a description one line each
    beside it, ragged, one going on under itself), then a justified paragraph; with
    `margin_names`, the keys stand instead in the margin beside the justified lines of the last
    paragraph (a package's manual names each command beside the prose that tells of it).
    Returns (the lines of the first paragraph, the keys' rows as drawn, the last paragraph's)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    first, y, k = _justified_lines(c, HEIGHT - 90, width, 3, 0)
    y -= 14
    rows = []
    described = (("n", "select the next node"), ("p", "select the previous node"),
                 ("u", "select the up node and the section above it, then its"),
                 ("", "own contents"), ("C-r", "search backward incrementally"),
                 ("quit", "leave the reader"))
    if not margin_names:
        c.setFont("Helvetica", 10)
        for key, text in described:
            c.drawString(LEFT, y, key)
            c.drawString(LEFT + 70, y, text)
            rows.append(f"{key} {text}".strip())
            y -= 14
        y -= 14
    last, _, _ = _justified_lines(c, y, width, 4, k, indent=70 if margin_names else 0.0)
    if margin_names:
        c.setFont("Helvetica", 10)
        names = ("n", "p", "u", "C-r")
        for n, key in enumerate(names):
            c.drawString(LEFT, y - 14 * n, key)
        last = [f"{key} {line}" for key, line in zip(names, last)] + last[len(names):]
    c.showPage()
    c.save()
    return first, rows, last


def numbered_prose(path, width=400, count=12):
    """A justified paragraph of `count` lines, every fifth numbered in the left margin on its
    own baseline (a critical edition's, reledmac's), two with a side note in the right margin
    on theirs: each such line reads as cells apart by wide gaps, the others as one cell."""
    c = canvas.Canvas(str(path), pagesize=A4)
    lines, _, _ = _justified_lines(c, HEIGHT - 90, width, count, 0, last=None)
    c.setFont("Helvetica", 8)
    for n in range(1, count + 1):
        y = HEIGHT - 90 - 14 * (n - 1)
        if n % 5 == 0:
            c.drawRightString(LEFT - 12, y, str(n))
        if n in (2, 7):
            c.drawString(LEFT + width + 12, y, "note")
    c.showPage()
    c.save()
    return lines


def book(path, pages=6):
    """A book's chapter: "Chapter 1" opens page 1 (no running header there); later pages carry
    a running header with the page number that changes with the section (odd and even pages).
    Returns the body lines in order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    body = []
    for page in range(1, pages + 1):
        y = HEIGHT - 160 if page == 1 else HEIGHT - 90
        if page == 1:
            c.setFont("Helvetica-Bold", 18)
            c.drawString(LEFT, y, "Chapter 1")
            body.append("Chapter 1")
            y -= 40
        else:
            c.setFont("Helvetica", 9)
            header = f"CHAPTER 1. DEFINITIONS AND OVERVIEW {page}" if page % 2 == 0 \
                else f"1.{page}. WHAT IS A WATER BOARD {page}"
            c.drawString(LEFT, HEIGHT - 40, header)
        lines, y = _page_lines(c, page, y, 12)
        body += lines
        c.showPage()
    c.save()
    return body


def _page_lines(c, page, y, count):
    """`count` lines of WORDS named by their page ("Page 2 line 03 ..."), in Helvetica 10 from
    `y` down: returns (the lines, the y below them)."""
    c.setFont("Helvetica", 10)
    lines = []
    for k in range(count):
        line, _ = _filled(f"Page {page} line {k:02d}", WIDTH - 2 * LEFT, size=10,
                          start=page * 5 + k)
        c.drawString(LEFT, y, line)
        lines.append(line)
        y -= LEADING
    return lines, y


def front_matter(path, pages=4):
    """A book's front matter: each page's prose, its number in roman numerals at the bottom
    ("i", "ii", ...), then the index's first page, its letter "C" alone at the top and its
    number, "5", at the bottom. Returns the body lines in order."""
    c = canvas.Canvas(str(path), pagesize=A4)
    body = []
    for page in range(1, pages + 2):
        y = HEIGHT - 90
        c.setFont("Helvetica", 10)
        if page > pages:
            c.drawString(LEFT, y, "C")
            body.append("C")
            y -= LEADING
        lines, y = _page_lines(c, page, y, 6)
        body += lines
        number = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii"][page - 1] if page <= pages \
            else str(page)
        c.drawCentredString(WIDTH / 2, 40, number)
        c.showPage()
    c.save()
    return body


def truncated(path):
    pages(path, 3)
    path.write_bytes(path.read_bytes()[:400])


# Every kind of bad PDF, with a fragment of its error message; max pages is the default 500.
BAD_PDFS = [  # (kind, make(path), words of the error, its HTTP status)
    ("empty", lambda p: p.write_bytes(b""), "empty", 422),
    ("not-a-pdf", lambda p: p.write_text("just some text, not a PDF"), "not a PDF", 422),
    ("truncated", truncated, "corrupt or truncated", 422),
    ("encrypted", encrypted, "password", 422),
    ("image-only", image_only, "OCR", 422),
    ("too-long", lambda p: pages(p, 501, "x"), "the limit is 500", 413),
    ("unparsable", lambda p: unparsable_page(p, readable=False), "could not be read", 422),
]


def spaced_cjk(path, text="本次股东大会由公司董事会召集，会议合法有效。"):
    """A justified-looking CJK line: extra space between every glyph, no space characters."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("STSong-Light", 10)
    c.drawString(LEFT, HEIGHT - 100, text, charSpace=2.5)
    c.save()
    return text


def _raw_pdf(*chunks: bytes, repeat: int = 1, pages: int = 1,
             font: bytes = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
             extra=(), second_font: bytes = b"") -> bytes:
    """A PDF written by hand around one Flate-compressed content stream: the chunks, the last
    one `repeat` times (compressed as it goes, so a bomb never exists inflated here), shared by
    all its `pages`; its font /F1 is `font` (and /F2 `second_font`, if any); the `extra`
    objects follow the pages."""
    import zlib

    packer = zlib.compressobj(9)
    parts = [packer.compress(c) for c in chunks[:-1]]
    for start in range(0, repeat, 2**16):
        parts.append(packer.compress(chunks[-1] * min(2**16, repeat - start)))
    stream = b"".join(parts) + packer.flush()
    f2 = b" /F2 %d 0 R" % (6 + pages - 1 + len(extra)) if second_font else b""
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R%s >> >> >>" % f2)
    kids = b" ".join(b"%d 0 R" % k for k in [3, *range(6, 5 + pages)])
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
               page,
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
               + b"\nendstream",
               font,
               *[page] * (pages - 1), *extra, *[second_font] * bool(second_font)]
    return _pdf_file(objects)


def _pdf_file(objects) -> bytes:
    """A PDF of `objects` (their bodies; object k + 1 is objects[k], the first the catalog)."""
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for k, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def unparsable_page(path, readable=True):
    """Two pages, the second's content stream holding a dictionary pdfminer cannot parse (three
    items, "<< /A /B /C >>", as page 11 of TeX's l3backend test file holds one) before its
    text; the first pdfs.EN_PARA's lines, or (`readable` False) broken as well."""
    def stream(data):
        return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"

    good = b"".join(b"BT /F1 10 Tf 72 %d Td (%s) Tj ET\n" % (700 - 14 * k, line.encode())
                    for k, line in enumerate(EN_PARA))
    bad = b"<< /A /B /C >> pop\nBT /F1 10 Tf 72 700 Td (Lost text.) Tj ET\n"
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R " \
           b"/Resources << /Font << /F1 7 0 R >> >> >>"
    path.write_bytes(_pdf_file([
        b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        page % 5, page % 6, stream(good if readable else bad), stream(bad),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]))


NAMELESS_CODE = ["for k in range(3):", "    total += k * step", "print(total)"]


def nameless_font(path, fixed=True):
    """pdfs.NAMELESS_CODE in a font whose name says nothing ("ABCDEF+F3", as a subset of an
    embedded face is often called): every glyph 600 units wide (a typewriter face), or, with
    `fixed` False, widths that differ from glyph to glyph."""
    widths = b" ".join(b"600" if fixed else b"%d" % (300 + 7 * (k % 40)) for k in range(95))
    font = (b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+F3 /FirstChar 32 /LastChar 126 "
            b"/Widths [" + widths + b"] >>")
    text = b"".join(b"72 %d Td (%s) Tj -72 -%d Td " % (700 - 14 * k, line.encode(), 700 - 14 * k)
                    for k, line in enumerate(NAMELESS_CODE))
    path.write_bytes(_raw_pdf(b"BT /F1 10 Tf " + text + b"ET\n", font=font))


def type3_fonts(path):
    """pdfs.EN_PARA, pdfs.NAMELESS_CODE and pdfs.EN_PARA2 in two Type 3 fonts, as old dvips
    output sets a page in bitmaps: neither font has a name (pdfplumber calls both "unknown");
    the prose's glyphs differ in width, the code's are all 600 units wide."""
    def type3(widths):
        return (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 -200 1000 800] "
                b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << >> /Resources << >> "
                b"/Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths ["
                + b" ".join(widths) + b"] >>")
    prose = type3([b"%d" % (250 + 9 * (k % 50)) for k in range(95)])
    code = type3([b"600"] * 95)
    body, y = b"", 700
    for font, lines in ((1, EN_PARA), (2, NAMELESS_CODE), (1, EN_PARA2)):
        for line in lines:
            body += b"BT /F%d 10 Tf 72 %d Td (%s) Tj ET\n" % (font, y, line.strip().encode())
            y -= 12
        y -= 12
    path.write_bytes(_raw_pdf(body, font=prose, second_font=code))


def ligatures(path):
    """Times-Roman as groff sets it: its "fi" and "fl" glyphs at codes 140 and 141, with their
    Widths and a ToUnicode map to two letters each, and a word's last letter placed apart:
    "See fifo(7) for the flag." """
    widths = b" ".join(b"556" if code in (140, 141) else b"500" for code in range(256))
    font = (b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /FirstChar 0 /LastChar 255 "
            b"/Widths [" + widths + b"] /Encoding << /Type /Encoding /BaseEncoding "
            b"/WinAnsiEncoding /Differences [140 /fi /fl] >> /ToUnicode 6 0 R >>")
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"2 beginbfchar <8C> <00660069> <8D> <0066006C> endbfchar\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end")
    path.write_bytes(_raw_pdf(b"BT /F1 10 Tf 72 700 Td (See \x8cf) Tj 26.12 0 Td "
                              b"(o\\(7\\) for the \x8dag.) Tj ET\n", font=font,
                              extra=[b"<< /Length %d >>\nstream\n" % len(cmap) + cmap
                                     + b"\nendstream"]))


def _cff(name: bytes, glyphs) -> bytes:
    """A compact (CFF) font program with its own encoding: `glyphs` (code, glyph name); each
    glyph drawn as nothing (pdfminer reads no outline)."""
    from pdfminer.pdffont import CFFFont

    def index(items):
        if not items:
            return b"\x00\x00"
        ends = [1]
        for item in items:
            ends.append(ends[-1] + len(item))
        return (struct.pack(">HB", len(items), 4) + b"".join(struct.pack(">I", e) for e in ends)
                + b"".join(items))

    standard = CFFFont.STANDARD_STRINGS
    own = [g.encode() for _, g in glyphs if g not in standard]
    sids = [standard.index(g) if g in standard else len(standard) + own.index(g.encode())
            for _, g in glyphs]

    def top(at):  # the top dict: charset, Encoding and CharStrings at `at`, as 5-byte numbers
        return b"".join(b"\x1d" + struct.pack(">i", at[k]) + bytes([15 + k]) for k in range(3))

    head = b"\x01\x00\x04\x04" + index([name])
    start = len(head) + len(index([top((0, 0, 0))])) + len(index(own)) + len(index([]))
    charset = b"\x00" + b"".join(struct.pack(">H", sid) for sid in sids)
    encoding = bytes([0, len(glyphs), *(code for code, _ in glyphs)])
    at = (start, start + len(charset), start + len(charset) + len(encoding))
    return (head + index([top(at)]) + index(own) + index([]) + charset + encoding
            + index([b"\x0e"] * (len(glyphs) + 1)))


def tex_symbols(path):
    """TeX's symbol fonts without a ToUnicode map or an /Encoding, as old dvips and
    Ghostscript output embeds them: a Type 1 program (CMSY: the bullet at 15, the angle
    brackets at 104 and 105) and a compact one (CMMI: the script l at 96, the "fi" ligature at
    12, a wide tilde at 101, whose name reads as no character) between Helvetica's words; and
    in the second line CMSY's angle brackets named by an /Encoding's Differences over the
    standard encoding (whose letters at 104 and 105 are "h" and "i").
    Returns the first line's text as the names say (the ligature as its two letters), up to
    the tilde."""
    type1 = (b"%!PS-AdobeFont-1.0: CMSY10\n/FontName /CMSY10 def\n/Encoding 256 array\n"
             b"0 1 255 {1 index exch /.notdef put} for\ndup 15 /bullet put\n"
             b"dup 104 /angbracketleft put\ndup 105 /angbracketright put\nreadonly def\n"
             b"currentdict end\ncurrentfile eexec\n")
    cff = _cff(b"CMMI10", [(96, "lscript"), (12, "fi"), (101, "tildewide")])
    widths = b"/FirstChar 0 /LastChar 255 /Widths [" + b" 500" * 256 + b"]"

    def font(name, descriptor):
        return (b"<< /Type /Font /Subtype /Type1 /BaseFont /" + name + b" " + widths
                + b" /FontDescriptor %d 0 R >>" % descriptor)

    def descriptor(name, key, program):
        return (b"<< /Type /FontDescriptor /FontName /" + name + b" /Flags 4 /ItalicAngle 0 "
                b"/Ascent 750 /Descent -250 /CapHeight 700 /StemV 50 "
                b"/FontBBox [0 -250 1000 750] /" + key + b" %d 0 R >>" % program)

    def stream(data, extra=b""):
        return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"

    def run(font_, text):
        return b"/F%d 10 Tf <%s> Tj " % (font_, text.hex().encode()) if font_ > 1 else \
            b"/F1 10 Tf (%s) Tj " % text

    first = [(1, b"The pair "), (2, b"\x68"), (1, b"a, b"), (2, b"\x69"),
             (1, b" names a script "), (3, b"\x60"), (1, b" and a "), (3, b"\x0c"),
             (1, b"le on H"), (3, b"\x65"), (1, b".")]
    second = [(2, b"\x0f"), (1, b" An item "), (4, b"\x68"), (1, b"of"), (4, b"\x69"),
              (1, b" the list.")]
    content = (b"BT 72 700 Td " + b"".join(run(f, t) for f, t in first) + b"ET\n"
               b"BT 72 680 Td " + b"".join(run(f, t) for f, t in second) + b"ET\n")
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R /F2 6 0 R /F3 7 0 R /F4 12 0 R >> >> >>")
    path.write_bytes(_pdf_file([
        b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page, stream(content), b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        font(b"ABCDEF+CMSY10", 8), font(b"GHIJKL+CMMI10", 9),
        descriptor(b"ABCDEF+CMSY10", b"FontFile", 10),
        descriptor(b"GHIJKL+CMMI10", b"FontFile3", 11),
        stream(type1, b" /Length1 %d /Length2 0 /Length3 0" % len(type1)),
        stream(cff, b" /Subtype /Type1C"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /MNOPQR+CMSY10 " + widths
        + b" /Encoding << /Type /Encoding /Differences [104 /angbracketleft /angbracketright] >> >>"]))
    return "The pair ⟨a, b⟩ names a script ℓ and a file on H"


def operator_bomb(path, n=3_000_000):
    """A small file whose one page runs `n` text-showing operators (parsing never ends)."""
    path.write_bytes(_raw_pdf(b"BT /F1 1 Tf 10 10 Td ", b"(a) Tj ", repeat=n))


def stream_bomb(path, mb=200):
    """A small file whose content stream inflates to `mb` MB of drawing operators."""
    line = b"0 0 m 1 1 l S\n"
    path.write_bytes(_raw_pdf(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n", line,
                              repeat=mb * 2**20 // len(line)))


def far_glyph(path, x=1e8, y=500):
    """A page of 40 lines of text, and "far away" drawn at (`x`, `y`), off the page. Returns
    the lines of the page."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    lines = [" ".join(WORDS[k % 10:k % 10 + 9]) for k in range(40)]
    for k, line in enumerate(lines):
        c.drawString(LEFT, HEIGHT - 40 - 14 * k, line)
    c.drawString(x, y, "far away")
    c.save()
    return lines


def pages_bomb(path, pages=100, n=30_000):
    """A small file of `pages` pages sharing one content stream of `n` drawing operators: each
    page is slow to read, none alone is a bomb; all together they hold a reader for long."""
    line = b"0 0 m 1 1 l S\n"
    path.write_bytes(_raw_pdf(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n", line, repeat=n,
                              pages=pages))


GUIDE = {
    "title": "Field Guide to the Harbour Valley Pump Station",
    "intro": ("1.1 Before you start",
              "This guide walks a new operator through one shift at the pump station, from "
              "the first walk round to the hand-over at the end of the day. Read it once in "
              "full before your first shift, and keep it at the control desk afterwards."),
    "list": [(0, "1. Check the three valves on the inlet manifold."),
             (1, "- Open the inlet valve slowly, a quarter turn at a time."),
             (1, "- Leave the bypass valve closed unless the supervisor says otherwise."),
             (0, "2. Write the pressure at both gauges into the log book.")],
    "code": ["$ pumpctl status --all", "pump-1  running  41.2 l/s", "pump-2  standby   0.0 l/s"],
    "run": ("1.2 Running the pumps",
            "When demand rises in the morning, the controller starts the second pump by itself "
            "and the flow climbs over about ten minutes. Watch the pressure at the outlet "
            "gauge while this happens: it should rise smoothly and settle below six bar. If it "
            "overshoots, stop the second pump from the panel, note the time and the reading, "
            "and call the supervisor on duty before you start it again. A pump that has been "
            "stopped twice in one shift stays off until an engineer has looked at it, however "
            "high the demand is at that moment, because a fault that trips a pump twice is "
            "rarely cured by a third start and the station can carry the load on one pump for "
            "a day."),
    "end": "At the end of the shift, sign the log book and walk the hand-over round with the "
           "next operator.",
}


def structured(path):
    """A two-page guide with what Markdown keeps: a title set bigger, numbered headings, a
    paragraph, a nested list (numbered, then indented dashes), a code block in Courier, and a
    paragraph that runs across the page break. Returns the paragraphs as a pipeline should
    see them: [(kind, text)], list items with their nesting level."""
    from reportlab.lib.utils import simpleSplit

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    width = WIDTH - 2 * LEFT
    out = []
    y = HEIGHT - 80

    def heading(text, size):
        nonlocal y
        c.setFont("Helvetica-Bold", size)
        c.drawString(LEFT, y, text)
        out.append(("heading", text))
        y -= size + 14

    def paragraph(text, page_room=None):
        nonlocal y
        lines = simpleSplit(text, "Helvetica", 10, width)
        c.setFont("Helvetica", 10)
        for k, line in enumerate(lines):
            if page_room is not None and k == page_room:  # the rest on the next page
                c.showPage()
                c.setFont("Helvetica", 10)
                y = HEIGHT - 80
            c.drawString(LEFT, y, line)
            y -= 14
        out.append(("paragraph", text))
        y -= 10

    heading(GUIDE["title"], 16)
    heading(GUIDE["intro"][0], 12)
    paragraph(GUIDE["intro"][1])
    for level, item in GUIDE["list"]:
        c.setFont("Helvetica", 10)
        c.drawString(LEFT + 18 * level, y, item)
        out.append(("item", level, item))
        y -= 14
    y -= 10
    c.setFont("Courier", 9)
    for line in GUIDE["code"]:
        c.drawString(LEFT + 12, y, line)
        y -= 12
    out.append(("code", "\n".join(GUIDE["code"])))
    y = 60 + 4 * 14 + 26  # the next section starts low on the page ...
    heading(GUIDE["run"][0], 12)
    paragraph(GUIDE["run"][1], page_room=4)  # ... and its paragraph goes on on page 2
    paragraph(GUIDE["end"])
    c.save()
    return out


def framed(path):
    """What a browser prints for a styled web page: the text inside a bordered box (a page
    frame), a paragraph on a shaded background, a one-column layout table around a paragraph;
    then a real ruled table (pdfs.TABLE). pdfplumber finds "tables" in all of them; only the
    last is one. Returns the lines of the real table."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setLineWidth(1)
    c.rect(40, 40, WIDTH - 80, HEIGHT - 80)  # the page frame
    y = _draw_lines(c, "Helvetica", 11, EN_PARA, HEIGHT - 90) - 8
    c.setFillGray(0.9)
    c.rect(LEFT - 6, y - 2 * LEADING + 8, WIDTH - 2 * LEFT, 2 * LEADING + 6, stroke=0, fill=1)
    c.setFillGray(0)
    y = _draw_lines(c, "Helvetica", 11, EN_PARA2, y) - 16
    c.rect(LEFT - 6, y - 2 * LEADING + 8, WIDTH - 2 * LEFT, 2 * LEADING + 6)  # a layout table:
    c.line(LEFT - 6, y - LEADING + 10, WIDTH - LEFT - 6, y - LEADING + 10)  # two rows, one column
    _ruled_table(c, _draw_lines(c, "Helvetica", 11, EN_PARA2, y) - 24)
    c.save()
    return [" ".join(row) for row in TABLE]


def nested_boxes(path):
    """A documentation theme printed by a browser (Doxygen's own pages): the page in a bordered
    box with a header bar ruled across it, and under the bar, 5 pt further in, a box for the
    body's prose and one for the footer, their sides running from rule to rule. pdfplumber
    finds a "table" whose cells start at two x and lie in several rows; none stands apart
    from another across. Returns the body's lines."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setLineWidth(1)
    top, bottom, x0, x1 = HEIGHT - 40, 40, 40, WIDTH - 40
    body = EN_PARA + EN_PARA2 + EN_PARA
    bar = top - 40
    split = bar - LEADING * len(body) - 30
    c.rect(x0, bottom, x1 - x0, top - bottom)  # the page's box
    for y in (bar, split):  # rules across it: under the header, above the footer
        c.line(x0, y, x1, y)
    for y_hi, y_lo in ((bar, split), (split, bottom)):  # the body's and the footer's boxes
        c.line(x0 + 5, y_hi, x0 + 5, y_lo)
        c.line(x1 - 5, y_hi, x1 - 5, y_lo)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(LEFT, top - 28, "Internals")
    _draw_lines(c, "Helvetica", 11, body, bar - 20)
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, split - 20, "Generated by a documentation tool")
    c.save()
    return body


def sidebar_in_a_table(path):
    """A page laid out as a ruled table: a title row across, then a navigation cell of short
    links beside a cell of wrapped prose (the body). Returns (links, body lines)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setLineWidth(1)
    links = ["Home", "Install", "Usage", "Internals", "Changes", "Index"]
    top, x0, x1, split = HEIGHT - 40, 40, WIDTH - 40, 150
    body, k = [], 0
    for _ in range(8):  # wrapped prose: each line nearly fills the cell
        line, k = _filled("", x1 - split - 20, size=11, start=k, share=0.95)
        body.append(line)
    bar = top - 40
    bottom = bar - LEADING * len(body) - 30
    c.rect(x0, bottom, x1 - x0, top - bottom)
    c.line(x0, bar, x1, bar)
    c.line(split, bar, split, bottom)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(x0 + 10, top - 28, "A project's manual")
    c.setFont("Helvetica", 10)
    for k, link in enumerate(links):
        c.drawString(x0 + 10, bar - 20 - k * LEADING, link)
    c.setFont("Helvetica", 11)
    for k, line in enumerate(body):
        c.drawString(split + 10, bar - 20 - k * LEADING, line)
    c.save()
    return links, body


def sidebar_panel(path, lines=40, paired=False):
    """A CV's page: a shaded panel down the left edge holds a name and short centred lines
    (contacts, skills) at a leading of their own, and the body, wrapped prose, stands 4 em to
    its right, wider; `paired`: the panel's lines on the body's rows instead (a description
    list's terms beside their text). Returns (the panel's lines, the body's)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFillColorRGB(0.8, 0.9, 0.8)
    c.rect(0, 0, 180, HEIGHT, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    panel, y = [], HEIGHT - 60
    for k in range(lines // 2):
        line = f"{WORDS[k % len(WORDS)].capitalize()} {WORDS[(k + 5) % len(WORDS)]} {k + 1}"
        c.setFont("Helvetica", 9)
        c.drawCentredString(90, y, line)
        panel.append(line)
        y -= 12 if paired else 15.5
    body, k, y = [], 0, HEIGHT - 60
    c.setFont("Helvetica", 9)
    for _ in range(lines):
        line, k = _filled("", WIDTH - 230 - 30, start=k)
        c.drawString(230, y, line)
        body.append(line)
        y -= 12
    c.showPage()
    c.save()
    return panel, body


def wrapped_cells(path):
    """A ruled table of three rows of three cells whose last cell wraps its text over five
    lines (groff's boxed tables in random(7)): a table, wrapped cells and all. Returns the
    first cells of its rows."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setLineWidth(1)
    xs, top = [LEFT, LEFT + 90, LEFT + 180, LEFT + 330], HEIGHT - 100
    names = ["/dev/random", "/dev/urandom", "getrandom()"]
    y = top
    c.setFont("Helvetica", 10)
    for k, name in enumerate(names):
        height = 5 * 12 + 8
        c.drawString(xs[0] + 4, y - 14, name)
        c.drawString(xs[1] + 4, y - 14, f"pool {k}")
        start = 3 * k
        for j in range(5):
            line, start = _filled("", xs[3] - xs[2] - 8, size=10, start=start, share=0.95)
            c.drawString(xs[2] + 4, y - 14 - 12 * j, line)
        y -= height
    for x in xs:
        c.line(x, top, x, y)
    for k in range(len(names) + 1):
        c.line(xs[0], top - k * (5 * 12 + 8), xs[-1], top - k * (5 * 12 + 8))
    c.save()
    return names


def typst_paragraph(path, text, width_cm=8):
    """`text` set by Typst as the eval's "typst" style sets it (typeset.typst_set), as one
    justified, hyphenated paragraph on a narrow page."""
    from scorer.evaluate.typeset import typst_set

    typst_set(path, [("para", text)], f"""#set page(width: {width_cm}cm, height: auto, margin: 0.5cm)
#set text(font: "New Computer Modern", size: 10pt, lang: "en", hyphenate: true)
#set par(justify: true)
""")


def side_by_side(path):
    """An intro line, a borderless table whose cells wrap to two lines set centred beside
    one-line cells (as dblatex sets a command and its description), a margin note beside
    two body lines, and a body line with a superscript footnote mark: returns the lines before
    that last one in reading order (the table row by row, each cell whole)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    y = HEIGHT - 90
    c.drawString(LEFT, y, "The commands below list what a package holds on the system.")
    rows = [(["dpkg -L name"], ["list the files that the package installed,",
                                "one path on each line"]),
            (["COLUMNS=120 dpkg -l", "name_pattern"], ["show the state of a package"]),
            (["apt-file search"], ["find the packages whose files match"]),
            # a third column, as a browser prints an HTML table (its cells centred by default):
            # the one-line cells either side of a wrapped one are one line, read before it
            (["dpkg -s name"], ["print the version of the package, its size",
                                "and the packages it depends on"], ["yes"])]
    order = ["The commands below list what a package holds on the system."]
    y -= 24
    for cells in rows:
        tall = max(len(cell) for cell in cells)
        for cell, x in zip(cells, (LEFT, LEFT + 200, LEFT + 420)):
            start = y - (tall - len(cell)) * 6  # a shorter cell is centred beside the taller
            for k, text in enumerate(cell):
                c.drawString(x, start - 12 * k, text)
        # left to right, each cell whole; the one-line cells, at one height, are one line,
        # read where the first of them stands
        ones = [k for k, cell in enumerate(cells) if len(cell) == 1]
        for k, cell in enumerate(cells):
            if len(cell) > 1:
                order += cell
            elif k == ones[0]:
                order.append(" ".join(cells[j][0] for j in ones))
        y -= 12 * tall + 6
    y -= 18
    body = ["Reading a table row by row keeps each cell whole and in place,",
            "so a command never lands between the two lines of its meaning."]
    c.drawString(LEFT, y, body[0])
    c.drawString(LEFT, y - 14, body[1])
    c.setFont("Helvetica", 8)
    c.drawString(LEFT + 360, y - 7, "see also")  # a margin note, centred beside the two lines
    order += body + ["see also"]
    c.setFont("Helvetica", 10)
    y -= 40
    c.drawString(LEFT, y, "A claim that needs a source")
    c.setFont("Helvetica", 6)
    c.drawString(LEFT + 140, y + 5, "2")  # a superscript
    c.setFont("Helvetica", 10)
    c.drawString(LEFT + 146, y, "and goes on after its mark.")
    c.showPage()
    c.save()
    return order


def _justified(c, y, words, width, font="Helvetica", size=10):
    """`words` drawn from LEFT, spread to end exactly `width` further right (a justified line)."""
    widths = [pdfmetrics.stringWidth(w, font, size) for w in words]
    gap = (width - sum(widths)) / max(1, len(words) - 1)
    c.setFont(font, size)
    x = LEFT
    for word, w in zip(words, widths):
        c.drawString(x, y, word)
        x += w + gap


def _justified_lines(c, y, width, count, k, indent=0.0, first=0.0, size=10, last="and so on.",
                     ragged=False, capitals=()):
    """`count` justified lines of WORDS from LEFT + `indent` (the first also `first` further in),
    then a short `last` line (if any); `ragged`: each line set at its own width instead (it
    ends where its words do, short of the edge); the lines numbered in `capitals` open on a
    capital, as a sentence does; returns (the lines as drawn, the y below them, the next
    word)."""
    lines = []
    for n in range(count):
        x = indent + (first if n == 0 else 0.0)
        text, k = _filled("", width - x, size=size, start=k, share=0.97)
        words = text.split()
        if n in capitals:
            words[0] = words[0].capitalize()
        c.saveState()
        c.translate(x, 0)
        if ragged:
            c.setFont("Helvetica", size)
            c.drawString(LEFT, y, text)
        else:
            _justified(c, y, words, width - x, size=size)
        c.restoreState()
        lines.append(" ".join(words))
        y -= 14
    if not last:
        return lines, y, k
    c.setFont("Helvetica", size)
    c.drawString(LEFT + indent, y, last)
    return lines + [last], y - 14, k


def footnoted(path, width=400, runs_on=True, note_runs_on=False):
    """Two pages of justified prose, a footnote (set smaller, its mark "1" set smaller still
    and raised) at the bottom of the first; `runs_on`: the first page's last sentence goes on
    at the top of the second, to a paragraph's short last line, then another paragraph;
    `note_runs_on`: the note goes on at the bottom of the second page. Returns each page's
    text lines and its note's lines, as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    one, _, k = _justified_lines(c, HEIGHT - 90, width, 30, 0, last="" if runs_on else "and so on.")
    note = ["aka the pumping station of the upper valley, as the board named it in its first",
            "report and as everyone has called it since" + ("," if note_runs_on else ".")]
    c.setFont("Helvetica", 6)
    c.drawString(LEFT, 95, "1")
    c.setFont("Helvetica", 8)
    c.drawString(LEFT + 5, 92, note[0])
    c.drawString(LEFT, 82, note[1])
    notes = [["1 " + note[0], note[1]], ["and still does today."] if note_runs_on else []]
    c.showPage()
    two, y, k = _justified_lines(c, HEIGHT - 90, width, 3, k, last="and so on to the end.")
    more, _, _ = _justified_lines(c, y - 10, width, 5, k, first=15, capitals=(0,))
    c.setFont("Helvetica", 8)
    for n, line in enumerate(notes[1]):
        c.drawString(LEFT, 92 - 10 * n, line)
    c.showPage()
    c.save()
    return [one, two + more], notes


def indented_block(path, width=400, across=False):
    """Two justified paragraphs with a 1.5-em first-line indent, then a quotation indented 2 em
    on the left that wraps over four lines, set as closely as the paragraphs (no space around);
    `across`: a page of only the quotation's first four lines (their column's edge is theirs),
    the quotation going on over the next page's first two, and the two paragraphs after it:
    returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k, out = HEIGHT - 90, 0, []
    blocks = ((4, 20.0, 0.0, None), (2, 20.0, 0.0, "and so on."), (3, 0.0, 15.0, "and so on."),
              (3, 0.0, 15.0, "and so on.")) if across else \
        ((3, 0.0, 15.0, "and so on."), (3, 0.0, 15.0, "and so on."), (4, 20.0, 0.0, "and so on."))
    for n, (count, indent, first, last) in enumerate(blocks):
        lines, y, k = _justified_lines(c, y, width, count, k, indent, first, last=last)
        out += lines
        if across and n == 0:
            c.showPage()
            y = HEIGHT - 90
    c.showPage()
    c.save()
    return out


def margin_notes(path, width=400, right=False, drop=2.5):
    """Two justified paragraphs with a 1.5-em first-line indent, each with notes in the margin
    (left, or with `right` right of the column) beside its second and fourth lines, smaller
    and `drop` points below their baselines, as a LaTeX package manual sets the macro names it
    describes (ltxdoc's \\DescribeMacro; l3doc and hyperref's manual set theirs on the
    baseline, drop 0): returns ([each paragraph's lines], [each paragraph's notes])."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k, paragraphs, notes = HEIGHT - 90, 0, [], []
    for n in range(2):
        top = y
        lines, y, k = _justified_lines(c, y, width, 5, k, first=15.0)
        names = [f"\\note{n}{m}" for m in "ab"]
        c.setFont("Courier", 7)
        for line, name in zip((1, 3), names):
            x = LEFT + width + 10 if right else LEFT - 10 - pdfmetrics.stringWidth(name, "Courier", 7)
            c.drawString(x, top - 14 * line - drop, name)
        paragraphs.append(lines)
        notes.append(names)
        y -= 8
    c.showPage()
    c.save()
    return paragraphs, notes


def hanging(path, width=400, two_words=False, further=False):
    """Three justified lines (the paragraph ends on a full line), a paragraph with a 1.5-em
    first-line indent, a list item whose text hangs 1.5 em in from its dash, a man page's
    tag with its description set 9 em in, and (with `two_words`) a Texinfo table's tag of two
    words ("-d name") with its description 6 em in; with `further`, a reference card's term
    whose description's next line starts 0.7 em further in than its first, and a tabular's
    macro name with its description 20 em in: returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k = HEIGHT - 90, 0
    out, y, k = _justified_lines(c, y, width, 3, k, last=None)
    tags = ((0.0, 15.0, ""), (15.0, 0.0, "\u2014"), (90.0, 0.0, "shm_open(3)"))
    tags += ((60.0, 0.0, "-d name"),) if two_words else ()
    tags += ((97.0, -7.0, "INTERRUPT"), (200.0, 0.0, "\\msuabbrevfont")) if further else ()
    for indent, first, marker in tags:
        c.setFont("Helvetica", 10)
        c.drawString(LEFT, y, marker)
        lines, y, k = _justified_lines(c, y, width, 2, k, indent, first,
                                       capitals=(0,) if first else ())  # a paragraph's start
        out += [f"{marker} {lines[0]}".strip()] + lines[1:]
    c.showPage()
    c.save()
    return out


def hanging_paragraphs(path, width=400, items=3, full=3, heading=False, leaders=False,
                       flush=False, indented=False, long_last=False, ragged=False,
                       capitals=False):
    """A paragraph of nine lines, then a description list as LaTeX sets one: each item's first
    line full from the list's edge, its next lines 2 em in (a hanging paragraph), the last of
    them short; `full`: the item's full lines (1: an item of two lines, the second short);
    `heading`: the list set 1.5 em in, a heading at the page's edge after it; `leaders`: the
    last line run to a page number by dot leaders (a contents or index entry); `flush`: a
    default value set flush right at its end ("Default: 0pt"); `indented`: each item's last
    line full too, and after the list a "paragraph" whose first line is set 1.5 em in, or an
    "item" numbered there; `long_last`: each item's last line nine tenths full, not
    justified (it ends some ems short of the edge); `ragged`: every line set at its own width,
    none justified; `capitals`: each item's second line opens on a capital, as a sentence
    does: returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    out, y, k = _justified_lines(c, HEIGHT - 90, width, 8, 0, ragged=ragged)
    inset = 15.0 if heading else 0.0
    last = "and so on."
    while leaders and pdfmetrics.stringWidth(last + " . 12", "Helvetica", 10) < width - 22:
        last += " ."
    last += " 12" if leaders else ""
    for _ in range(items):
        if long_last:
            last = _filled("", width - 20.0 - inset, size=10, start=k + 20, share=0.9)[0]
        lines, y, k = _justified_lines(c, y, width, full + bool(indented), k,
                                       indent=20.0 + inset, first=-20.0,
                                       last=None if indented else last, ragged=ragged,
                                       capitals=(1,) if capitals else ())
        if flush:
            c.drawRightString(LEFT + width, y + 14, "Default: 0pt")
            lines[-1] += " Default: 0pt"
        out += lines
    if heading:
        c.setFont("Helvetica-Bold", 10)
        c.drawString(LEFT, y - 10, "Limitations")
        out.append("Limitations")
    if indented:  # a paragraph, or a numbered item, 1.5 em in
        item = indented == "item"
        if item:
            c.setFont("Helvetica", 10)
            c.drawString(LEFT + 15.0, y, "1.")
        lines, y, k = _justified_lines(c, y, width, 2, k, first=15.0 + 15.0 * item)
        out += ["1. " + lines[0], *lines[1:]] if item else lines
    c.showPage()
    c.save()
    return out


def signed(path, width=400):
    """A justified paragraph, then a signature and a date each set flush right (as a notice
    ends): returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    lines, y, _ = _justified_lines(c, HEIGHT - 90, width, 3, 0)
    for line in ("Harbour Valley Water Board", "1 December 2026"):
        c.drawRightString(LEFT + width, y, line)
        lines.append(line)
        y -= 14
    c.showPage()
    c.save()
    return lines


def overflowing(path, width=400, urls=1):
    """A justified paragraph of eight lines, `urls` URL lines running far into the right margin
    (and off the page), and a second paragraph: returns the lines as drawn (each paragraph's
    last line short)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    lines, y, k = _justified_lines(c, HEIGHT - 90, width, 8, 0)
    drawn = []
    for n in range(urls):
        drawn.append("https://www.example.org/harbour-valley/pumping-stations/annual-report/2026/"
                     f"appendix/tables/pumps-by-district/north-valley/station-{n:02}/readings.csv")
        c.drawString(LEFT, y, drawn[-1])  # far beyond the column's right edge
        y -= 14
    second, _, _ = _justified_lines(c, y, width, 5, k, last="the end.")
    c.showPage()
    c.save()
    return lines + drawn + second


def _unwrapped_lines(c, y, k, widths, share=1.0):
    """Lines of WORDS from word `k` set flush left in Helvetica 10, each as long as fits its
    width in `widths` (times `share`), then a short "and so on.": (the lines as drawn, the y
    below them, the next word)."""
    lines = []
    c.setFont("Helvetica", 10)
    for width in widths:
        text, k = _filled("", width, size=10, start=k, share=share)
        lines.append(text)
    for text in lines + ["and so on."]:
        c.drawString(LEFT, y, text)
        y -= 14
    return lines + ["and so on."], y, k


def ragged_with_code(path, width=400):
    """Two paragraphs set ragged right (each line filled to 88-97 % of `width`, the last one
    short) around a line of code in Courier that runs off the page (multitoc's manual: its
    prose measured to the page's edge, every wrap read 0.6 full): returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    drawn, y, k = [], HEIGHT - 90, 0
    for count in (6, 5):
        lines, y, k = _unwrapped_lines(c, y, k, [width * (0.88 + 0.03 * (n % 4))
                                                  for n in range(count)])
        drawn += lines
        if len(drawn) < 10:
            code = (r"\immediate\write\@auxout{\string\newlabel{TotalPages}"
                    r"{{\the\count1}{\the\count1}}}")
            c.setFont("Courier", 10)
            c.drawString(LEFT + 20, y, code)
            drawn.append(code)
            y -= 14
    c.showPage()
    c.save()
    return drawn


def off_the_page(path, paragraphs=3, count=6):
    """`paragraphs` paragraphs of `count` lines that run off the page's right edge, each by a
    different amount (a stylesheet that never wraps: a DocBook reference's table of contents
    printed far past the page), then a short last line: returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    drawn, y, k = [], HEIGHT - 90, 0
    for _ in range(paragraphs):
        lines, y, k = _unwrapped_lines(c, y, k, [WIDTH * (1.5 + 0.4 * (n % 3))
                                                  for n in range(count)], share=0.98)
        drawn += lines
        y -= 14
    c.showPage()
    c.save()
    return drawn


_SUBJECTS = ["The north crew", "Our inspectors", "The district engineer", "A night shift",
             "The regional board", "Two contractors", "The pumping station", "Every team"]
_VERBS = ["replaced", "inspected", "repaired", "measured", "cleaned", "mapped", "tested",
          "painted"]
_OBJECTS = ["the old cast iron mains", "forty valves near the harbour", "the meters on Mill Street",
            "the reservoir's outlet tower", "a leaking joint under the bridge",
            "the pressure sensors of the network", "the storm drains by the school",
            "the booster pumps in the hills"]
_WHEN = ["before the winter storms arrived", "during the long dry summer", "in the first week",
         "while the council met", "after the spring thaw", "without cutting the supply",
         "ahead of the annual audit", "as the budget allowed"]


def family_sentences(seed):
    """Plain English sentences, different for each seed (the prose of `family`)."""
    import random
    rnd = random.Random(seed)
    while True:
        yield (f"{rnd.choice(_SUBJECTS)} {rnd.choice(_VERBS)} {rnd.choice(_OBJECTS)} "
               f"{rnd.choice(_WHEN)}.")


def family(path, seed=0, paragraphs=12, indent=2.5, width=380, size=10):
    """A house style the shipped weights do not know: every line justified, a paragraph's last
    line too (so it ends full, like any wrap), no space between paragraphs, and only a small
    first-line indent (`indent` points) to show where one starts. Returns the paragraphs (the
    truth). Pages as they fill; each seed gives other sentences."""
    c = canvas.Canvas(str(path), pagesize=A4)
    sentences, out, y = family_sentences(seed), [], HEIGHT - 90
    for _ in range(paragraphs):
        words = []
        while True:  # sentences until the last line is well filled: justified, it looks full
            words += next(sentences).split()
            lines = _greedy(words, width, size, first=indent)
            last = pdfmetrics.stringWidth(" ".join(lines[-1]), "Helvetica", size)
            if len(lines) >= 3 and 0.6 * width <= last:
                break
        for n, line in enumerate(lines):
            if y < 72:
                c.showPage()
                y = HEIGHT - 90
            x = indent if n == 0 else 0.0
            c.saveState()
            c.translate(x, 0)
            _justified(c, y, line, width - x, size=size)
            c.restoreState()
            y -= 13
        out.append(" ".join(words))
    c.showPage()
    c.save()
    return out


def ragged(path, seed=0, paragraphs=10, width=380, size=10, icons=False):
    """Ragged-right paragraphs set as a report sets them: no indent, no space between them, each
    one's last line well filled (so its fill cannot tell it from a wrap); `icons`: each after a
    line of one glyph set beyond the column's edge (a CV's section icon). Returns the lines as
    drawn and the index of each paragraph's last line."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", size)
    sentences, drawn, ends, y = family_sentences(seed), [], [], HEIGHT - 90
    for _ in range(paragraphs):
        if icons:
            c.drawString(LEFT + width + 60, y, "+")
            drawn.append("+")
            y -= 13
        words = []
        while True:
            words += next(sentences).split()
            lines = _greedy(words, width, size)
            last = pdfmetrics.stringWidth(" ".join(lines[-1]), "Helvetica", size)
            if len(lines) >= 3 and 0.6 * width <= last:
                break
        for line in lines:
            c.drawString(LEFT, y, " ".join(line))
            drawn.append(" ".join(line))
            y -= 13
        ends.append(len(drawn) - 1)
    c.showPage()
    c.save()
    return drawn, ends


def _greedy(words, width, size, first=0.0):
    """`words` in lines of at most `width` points (the first `first` narrower)."""
    lines, line = [], []
    for word in words:
        room = width - (first if not lines else 0.0)
        if line and pdfmetrics.stringWidth(" ".join(line + [word]), "Helvetica", size) > room:
            lines.append(line)
            line = []
        line.append(word)
    return lines + [line]


def hanging_glyphs(path):
    """A paragraph whose arguments stand between brackets from a second font whose descriptor
    gives a descent of nearly an em (as TeX's math symbol font does in some manuals): pdfminer
    hangs those glyphs' boxes 7 pt below the words' on the same baseline. A raised footnote mark
    on its own baseline, too, and a subscript set 3 pt below the words' (its box's top 6 pt
    below theirs). And a word in a smaller font whose ascent is low ("group", 0.87 of the
    line's size, as a sans font scaled to the text's x-height), on the line's very baseline:
    its box's top 4 pt below the words'."""
    import os

    import reportlab
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont("Hanging", os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf"))
    font.face.descent = -960
    pdfmetrics.registerFont(font)
    low = TTFont("Low", os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf"))
    low.face.ascent = 300
    pdfmetrics.registerFont(low)
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 100
    for pieces in ([("The command takes {", 0), ("<", 1), ("name", 0), (">", 1), ("}{", 0), ("<", 1),
                    ("value", 0), (">", 1), ("} and sets the name to the value x", 0), ("i", 3),
                    (" given,", 0)],
                   [("for the rest of the ", 0), ("group", 4), ("; an empty ", 0), ("<", 1),
                    ("value", 0), (">", 1), (" clears it.", 0), ("1", 2),
                    (" Nothing else changes.", 0)]):
        x = LEFT
        for text, kind in pieces:
            font, size, rise = (("Helvetica", 10, 0), ("Hanging", 10, 0), ("Helvetica", 6, 4),
                                ("Helvetica", 6, -3), ("Low", 8.7, 0))[kind]
            c.setFont(font, size)
            c.drawString(x, y + rise, text)
            x += pdfmetrics.stringWidth(text, font, size)
        y -= LEADING
    c.save()


def inline_fraction(path):
    """A line holding an inline fraction, its numerator ("counter") 4 pt up and its denominator
    ("height") 3 pt down in 6 pt, one over the other, then a subscript; a line after it."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 100
    c.setFont("Helvetica", 10)
    c.drawString(LEFT, y, "node where y is the floor of")
    x = LEFT + pdfmetrics.stringWidth("node where y is the floor of ", "Helvetica", 10)
    c.setFont("Helvetica", 6)
    c.drawString(x, y + 4, "counter")
    c.drawString(x + 1, y - 3, "height")
    x += pdfmetrics.stringWidth("counter ", "Helvetica", 6)
    c.setFont("Helvetica", 10)
    c.drawString(x, y, "and of x")
    x += pdfmetrics.stringWidth("and of x", "Helvetica", 10)
    c.setFont("Helvetica", 6)
    c.drawString(x, y - 3, "i")
    c.setFont("Helvetica", 10)
    c.drawString(x + 3, y, " given here.")
    c.drawString(LEFT, y - LEADING, "The next line goes on.")
    c.save()


def title_and_subtitle(path):
    """A title in 24 pt and under it, set close (its baseline 14 pt below), a subtitle in 12 pt,
    then a paragraph: returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 100
    lines = ["Harbour Valley Report", "Pumping stations in the year 2026"]
    c.setFont("Helvetica-Bold", 24)
    c.drawString(LEFT, y, lines[0])
    c.setFont("Helvetica", 12)
    c.drawString(LEFT + 10, y - 14, lines[1])
    para, _, _ = _justified_lines(c, y - 50, 400, 3, 0)
    c.save()
    return lines + para


def cjk_in_its_own_font(path):
    """Chinese prose as an office suite sets it: the CJK characters in a CJK font (every glyph
    one em wide), the Latin words and digits among them in a proportional one."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = HEIGHT - 100
    for pieces in (["本次股东大会由公司董事会召集，董事长主持会议。会议采用", "LANG=C", "或",
                    "UTF-8", "语言环境"],
                   ["票与网络投票相结合的表决方式，会议合法有效。参见", "dpkg(1)", "命令的说明"],
                   ["所有的已安装软件包升级到可用版本，否则只有选中的软件包", "apt", "才能被升级。"]):
        x = LEFT
        for piece in pieces:
            font = "Helvetica" if piece.isascii() else "STSong-Light"
            text = f" {piece} " if piece.isascii() else piece
            c.setFont(font, 10.5)
            c.drawString(x, y, text)
            x += pdfmetrics.stringWidth(text, font, 10.5)
        y -= LEADING
    c.save()


def drawn_bullets(path):
    """A paragraph, then a list whose bullets are drawn as small discs (as Chromium prints a
    web page's list), each item's text ending without a full stop, then a paragraph beside a
    warning sign drawn as a triangle with a "!" of a bar and a disc (no list marker)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y = _draw_lines(c, "Helvetica", 10, EN_PARA, HEIGHT - 100) - LEADING / 2
    for item in ("new pumps in the northern district", "a second inlet for the reservoir",
                 "meters read from the road"):
        c.circle(LEFT + 4, y + 3.5, 1.8, stroke=0, fill=1)
        c.setFont("Helvetica", 10)
        c.drawString(LEFT + 14, y, item)
        y -= LEADING
    y -= LEADING / 2
    path = c.beginPath()  # a warning sign beside the last paragraph: a triangle, a "!" in it
    path.moveTo(LEFT - 24, y - 12)
    path.lineTo(LEFT - 4, y - 12)
    path.lineTo(LEFT - 14, y + 10)
    path.close()
    c.drawPath(path, stroke=1, fill=0)
    c.rect(LEFT - 15, y - 1, 2, 7, stroke=0, fill=1)
    c.circle(LEFT - 14, y - 6, 1.8, stroke=0, fill=1)
    _draw_lines(c, "Helvetica", 10, EN_PARA2, y)
    c.save()


def beside_a_figure(path, width=400, narrow=250, rows=8):
    """A paragraph wrapped around a figure set to its right (LaTeX's wrapfig, a floated image):
    `rows` justified lines `narrow` wide, beside a drawing of small boxes, each row of boxes with
    its digits on the baseline of the text line beside it; then the paragraph goes on under the
    figure, `width` wide, and ends short. Returns (the prose lines, the figure's rows of text)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k, prose, labels = HEIGHT - 90, 0, [], []
    for row in range(rows):
        text, k = _filled("", narrow, size=10, start=k, share=0.97)
        _justified(c, y, text.split(), narrow)
        prose.append(" ".join(text.split()))
        digits = []
        for col in range(4):
            x = LEFT + narrow + 18 + 22 * col
            c.rect(x, y - 2, 10, 10, stroke=1, fill=0)
            c.drawString(x + 13, y, str((row + col) % 10))
            digits.append(str((row + col) % 10))
        labels.append(" ".join(digits))
        y -= 14
    lines, _, _ = _justified_lines(c, y, width, 3, k)
    c.showPage()
    c.save()
    return prose + lines, labels


def decorated(path, width=400):
    """Shapes that make no figure: a list whose bullets (two levels) are drawn as circles, a
    paragraph with words underlined by dots and others on highlights, and a shaded panel
    holding prose. Returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    y, out = HEIGHT - 90, []
    for n, item in enumerate(["Fewer interruptions in the north", "Clearer water after repairs",
                              "New meters on every street", "Faster answers to calls",
                              "A map of every valve", "Reports each month"]):
        x = LEFT + (18 if n % 3 else 0)
        c.circle(x + 3, y + 3, 2, stroke=0, fill=1)
        c.drawString(x + 12, y, item)
        out.append(item)
        y -= 14
    y -= 10
    lines, k = [], 0
    for row in range(4):
        text, k = _filled("", width, size=10, start=k, share=0.97)
        words = text.split()
        for dot in range(12):  # a link's dotted underline under the line's start
            c.rect(LEFT + 4 * dot, y - 2.5, 1.2, 0.8, stroke=0, fill=1)
        c.setFillGray(0.85)
        c.rect(LEFT + width - 60, y - 3, 60, 12, stroke=0, fill=1)  # a highlight
        c.setFillGray(0)
        _justified(c, y, words, width)
        lines.append(" ".join(words))
        y -= 14
    out += lines
    y -= 14
    c.setFillGray(0.9)
    c.rect(LEFT - 6, y - 4 - 2 * 14, width + 12, 3 * 14 + 4, stroke=0, fill=1)  # a panel
    c.setFillGray(0)
    for row in range(3):
        for x in (20, 28):  # marks in the margin
            c.circle(LEFT + width + x, y + 3, 2.5, stroke=1, fill=0)
        text, k = _filled("", width, size=10, start=k, share=0.97)
        _justified(c, y, text.split(), width)
        out.append(" ".join(text.split()))
        y -= 14
    c.showPage()
    c.save()
    return out


def dingbat_marks(path, size=10):
    """Check marks from ZapfDingbats: a list of short items ("Go", "Lua") ticked with small
    ones, then a table's rows, each a feature's name and three marks set at the text's size
    1.3 em apart. A list and a table, no plot's points. Returns the lines, "{}" where a mark
    stands (its character is the font's)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, out = HEIGHT - 90, []
    for item in ["Go", "C", "Lua", "Java", "Rust", "Perl"]:
        c.setFont("ZapfDingbats", 0.6 * size)  # smaller, as a plot's points are
        c.drawString(LEFT, y, "4")
        c.setFont("Helvetica", size)
        c.drawString(LEFT + 1.4 * size, y, item)
        out.append(f"{{}} {item}")
        y -= 1.4 * size
    y -= size
    for row in range(5):
        c.setFont("Helvetica", size)
        c.drawString(LEFT, y, f"Feature {row}")
        c.setFont("ZapfDingbats", size)
        for col in range(3):
            c.drawString(LEFT + 10 * size + 1.3 * size * col, y, "4")
        out.append(f"Feature {row} {{}} {{}} {{}}")
        y -= 1.4 * size
    c.showPage()
    c.save()
    return out


def line_numbers(path, width=400, every=1, right=False, mono=False, cut=False, restart=False):
    """Two justified paragraphs whose lines are numbered in the margin as lineno numbers them,
    each number set in a smaller font, its box's top 4 pt below its line's (`every`: only each
    n-th line numbered; `right`: in the right margin; `mono`: the numbers in Courier, the first
    paragraph ending on a line mostly in it, "read the file longtable.sty."; `cut`: number 11
    drawn as "1", as where a heading beside it took its last digit; `restart`: the second
    paragraph counted from 1 again, as lineno's manual counts its code and its prose apart),
    then a numbered
    list whose numbers stand in the text and a line holding a number alone at the text's edge.
    Returns the lines as drawn (without the margin's numbers)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, k, out, n = HEIGHT - 90, 0, [], 0
    for paragraph in range(2):
        mixed = mono and paragraph == 0
        n = 0 if restart else n
        lines, _, k = _justified_lines(c, y, width, 5, k, last="" if mixed else "and so on.")
        if mixed:
            below = y - 14 * len(lines)
            c.setFont("Helvetica", 10)
            c.drawString(LEFT, below, "read the file ")
            c.setFont("Courier", 10)
            c.drawString(LEFT + pdfmetrics.stringWidth("read the file ", "Helvetica", 10), below,
                         "longtable.sty.")
            lines.append("read the file longtable.sty.")
        for line in lines:
            n += 1
            if n % every == 0:
                c.setFont("Courier" if mono else "Helvetica", 6)
                number = "1" if cut and n == 11 else str(n)
                if right:
                    c.drawString(LEFT + width + 12, y - 1.2, number)
                else:
                    c.drawRightString(LEFT - 12, y - 1.2, number)
            y -= 14
        out += lines
        y -= 14
    c.setFont("Helvetica", 10)
    for line in ("1. Close the valve.", "42", "2. Open the drain.", "3. Wait an hour."):
        c.drawString(LEFT, y, line)
        out.append(line)
        y -= 14
    c.showPage()
    c.save()
    return out


def flush_right_tags(path, width=400):
    """Texinfo's definitions: a paragraph, then ten C++ signatures one a line, each with its
    category tag set flush right at the text's right edge (nearly all "[Method on
    DiagArray<T>]"), then a paragraph. Returns the lines as drawn, each signature with its
    tag."""
    c = canvas.Canvas(str(path), pagesize=A4)
    y, out = HEIGHT - 90, []
    lines, y, k = _justified_lines(c, y, width, 1, 0, last="They offer these methods:")
    out += lines
    y -= 6
    signatures = ["int dim1 (void) const", "int rows (void) const", "int dim2 (void) const",
                  "int cols (void) const", "int columns (void) const", "T& elem (int r, int c)",
                  "T& checkelem (int r, int c)", "T& operator () (int r, int c)",
                  "void resize (int n, int m)", "void fill (const T &val)"]
    c.setFont("Helvetica", 10)
    for n, signature in enumerate(signatures):
        tag = "[Indexing on DiagArray<T>]" if n == 7 else "[Method on DiagArray<T>]"
        c.drawString(LEFT, y, signature)
        c.drawRightString(LEFT + width, y, tag)
        out.append(f"{signature} {tag}")
        y -= 14
    y -= 6
    lines, y, k = _justified_lines(c, y, width, 2, k)
    out += lines
    c.showPage()
    c.save()
    return out


def karnaugh_map(path, width=400, words=False, side=56, off=0):
    """A Karnaugh map between two paragraphs: a square divided by two lines into four cells,
    each with its value (and, smaller, its index), the variables' letters and bars beside it,
    the function's name at a corner on the end of a diagonal, none of them a word (`words`:
    the cells and labels hold words instead, as a small diagram of names would). Returns (the
    prose lines, the map's marks drawn left to right, top to bottom, or None with `words`).
    `side`: the map's side (pt); `off`: "b" set this much further left of its bar."""
    c = canvas.Canvas(str(path), pagesize=A4)
    above, y, k = _justified_lines(c, HEIGHT - 90, width, 3, 0, last="")
    x, top = LEFT + 150, y - 30  # the map's left edge, its top
    c.rect(x, top - side, side, side, stroke=1, fill=0)
    c.line(x + side / 2, top, x + side / 2, top - side)
    c.line(x, top - side / 2, x + side, top - side / 2)
    c.line(x - 20, top + 20, x, top)  # the diagonal to the corner's names
    c.line(x + side / 2 + 3, top + 12, x + side - 3, top + 12)  # the bar over "a"'s column
    c.line(x - 12, top - side / 2 - 3, x - 12, top - side + 3)  # the bar beside "b"'s row
    names = ["north", "south", "east", "west"] if words else ["0", "1", "*", "1"]
    marks = (["speed", "depth", "flow"] if words else ["z:", "a", "b"])
    c.setFont("Helvetica", 10)
    c.drawString(x - 30, top + 22, marks[0])
    c.drawString(x + side * 3 / 4 - 3, top + 16, marks[1])
    c.drawString(x - 20 - off, top - side / 2 - 18, marks[2])  # on the second row's baseline
    for n, name in enumerate(names):
        cx, cy = x + (n % 2) * side / 2 + 8, top - (n // 2) * side / 2 - 18
        c.drawString(cx, cy, name)
    below, _, _ = _justified_lines(c, top - side - 30, width, 3, k, last="and so on.")
    c.showPage()
    c.save()
    return above + below, None if words else ["z:", "a", "0 1", "b * 1"]


def diagram_page(path):
    """A diagram printed on a page of its own, the page cropped to it (a package's workflow
    drawn in TikZ): boxes with a name in each, arrows between them with arrowheads and a word
    beside each. Returns the names and words, each as it is drawn."""
    c = canvas.Canvas(str(path), pagesize=(420, 260))
    c.setFont("Helvetica", 10)
    boxes = {"remote": (160, 215), "local": (20, 120), "release": (300, 120), "users": (160, 25)}
    drawn = []
    for name, (x, y) in boxes.items():
        c.roundRect(x, y, 100, 26, 4, stroke=1, fill=0)
        c.drawString(x + 10, y + 9, name)
        drawn.append(name)
    for (x0, y0, x1, y1), word in (((120, 146, 160, 215), "push"), ((260, 215, 300, 146), "pull"),
                                   ((120, 120, 160, 51), "edit"), ((300, 120, 260, 51), "install")):
        c.line(x0, y0, x1, y1)
        head = c.beginPath()  # the arrowhead, filled
        head.moveTo(x1, y1)
        head.lineTo(x1 - 6, y1 - 3 if y1 > y0 else y1 + 3)
        head.lineTo(x1 - 3 if x1 > x0 else x1 + 3, y1 - 6 if y1 > y0 else y1 + 6)
        head.close()
        c.drawPath(head, stroke=0, fill=1)
        c.drawString((x0 + x1) / 2 + 4, (y0 + y1) / 2, word)
        drawn.append(word)
    c.showPage()
    c.save()
    return drawn


def boxed_letters(path, rows=12):
    """A table of macros and what they print, each a letter or two in a frame drawn as four
    thin rules (LaTeX's \\fbox), one under the other: boxes that meet at their corners, no
    figure. Returns the lines as drawn."""
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    y, out = HEIGHT - 90, []
    for n in range(rows):
        letters = "ABCDEFGHIJKLMNOP"[n] * (1 + n % 2)
        c.drawString(LEFT, y, f"\\box{letters}")
        x, w = LEFT + 120, 8 + 7 * len(letters)
        for x0, y0, x1, y1 in [(x, y - 3, x + w, y - 3), (x, y + 9, x + w, y + 9),
                               (x, y - 3, x, y + 9), (x + w, y - 3, x + w, y + 9)]:
            c.line(x0, y0, x1, y1)
        c.drawString(x + 4, y, letters)
        out.append(f"\\box{letters} {letters}")
        y -= 15
    c.showPage()
    c.save()
    return out


def plotted_columns(path, rows=30, plot_rows=12, gutter=14, points=80):
    """Two columns of numbered prose lines, a scatter plot at the top of the right column as R's
    pdf() device draws one: a frame, tick marks, the points as ZapfDingbats' "l" (a filled
    circle, here 4 pt) and the ticks' numbers; under it the right column's lines go on. The
    plot's ticks stand a gutter's width from the left column's lines. Returns (the prose lines
    in reading order, the plot's text)."""
    c = canvas.Canvas(str(path), pagesize=A4)
    col = (WIDTH - 2 * LEFT - gutter) / 2
    right = LEFT + col + gutter
    y0, order, k = HEIGHT - 72, [], 0
    c.setFont("Helvetica", 9)
    for row in range(rows):  # the left column, full
        line, _ = _filled(f"{k:03d}", col, start=k)
        c.drawString(LEFT, y0 - 12 * row, line)
        order.append(line)
        k += 1
    x0, high = right + 8, 12 * plot_rows - 30  # the plot's frame: 100 pt wide
    bottom = y0 + 4 - high
    c.rect(x0, bottom, 100, high, stroke=1, fill=0)
    c.setFont("Helvetica", 7)
    for t in range(5):  # ticks under the frame, with their numbers, and left of it
        c.line(x0 + 25 * t, bottom, x0 + 25 * t, bottom - 4)
        c.line(x0, bottom + high / 4 * t, x0 - 4, bottom + high / 4 * t)
        c.drawCentredString(x0 + 25 * t, bottom - 11, str(25 * t))
    c.setFont("ZapfDingbats", 4)
    for p in range(points):  # a cloud along the diagonal
        u = (p * 37 % points) / points
        v = min(1.0, max(0.0, u + ((p * 53 % 17) - 8) / 60))
        c.drawString(x0 + 4 + 90 * u, bottom + 4 + (high - 10) * v, "l")
    c.setFont("Helvetica", 9)
    for row in range(plot_rows, rows):  # the right column under the plot
        line, _ = _filled(f"{k:03d}", col, start=k)
        c.drawString(right, y0 - 12 * row, line)
        order.append(line)
        k += 1
    c.showPage()
    c.save()
    return order, ["0 25 50 75 100"]
