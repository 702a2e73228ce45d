"""Documents typeset here: real paragraphs, taken from the plain-text twins of Debian's
documentation, set with reportlab in ways Debian's DocBook toolchain never sets them: a book
(justified, first-line indents, no space between paragraphs, headings in the body's size), two
columns, a report (ragged right, no indents, no space between paragraphs, headings set bigger),
a Chinese notice (centred title, 一、 headings, first-line indents, signature and date); and,
for English, a web page printed by Chromium (a bordered, shaded box, paragraphs spaced by a
margin, the browser's own header and footer) and an article set by Typst (justified,
hyphenated, first-line indents). Every paragraph is known, so every break is
labelled exactly.

The text of a dev document's typeset versions comes from the part of its twin that its dev
pages hold; the held-out ones from the two held-out documents: nothing held out is trained on.

Does: pick prose paragraphs and headings from a twin, typeset them (cached PDFs), read and label
them. Does not: score (evidence.py) or report.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path
from xml.sax.saxutils import escape

from ..breaks import HEADING_START, display_width, joiner
from .corpus import CACHE, Labelled, fetch_debian_doc, geometry
from ..align import reading_order, twin_labels

TYPESET_CACHE = CACHE.parent / "typeset"
# split: (package, share of the twin where its paragraphs start, language)
SOURCES = {
    "dev": [("developers-reference", 0.22, "en"), ("debian-reference-zh-cn", 0.12, "zh")],
    "held-out": [("debian-reference-en", 0.12, "en"), ("debian-reference-zh-tw", 0.12, "zh")],
}
STYLES = {"en": ("book", "two-column", "report", "browser", "typst", "latex", "office"),
          "zh": ("book", "two-column", "notice", "office")}
# a TeX-like article set by Typst (requirements-eval.txt): its own line breaker (the whole
# paragraph at once), hyphenation, ligatures, first-line indents but none after a heading, no
# space between paragraphs, numbered pages. English only: no CJK font ships with it.
TYPST_PREAMBLE = """#set page(paper: "a4", margin: (x: 2.4cm, y: 2.6cm), numbering: "1")
#set text(font: "New Computer Modern", size: 10.5pt, lang: "en", hyphenate: true)
#set par(justify: true, first-line-indent: 1.5em, spacing: 0.65em, leading: 0.6em)
#show heading: set text(size: 11pt, weight: "bold")
#show heading: set block(above: 1.4em, below: 0.8em)
"""
# a web page as many sites set text: paragraphs spaced by a margin, in a bordered, shaded box
BROWSER_CSS = ("body{font-family:sans-serif;font-size:15px;line-height:1.6;margin:0}"
               ".page{border:1px solid #bbb;background:#f6f6f6;padding:1em 2em;margin:1em;"
               "-webkit-print-color-adjust:exact;print-color-adjust:exact}"
               "h2{font-size:1.3em;margin:1.1em 0 .4em}p{margin:0 0 .8em}")
# a LaTeX article as journals set them (pdflatex, Makefile): two columns 10 pt apart, the title
# across both, justified and hyphenated, first-line indents, footnotes at a column's foot, a
# figure drawn in LaTeX's picture mode (its labels are text on the page) and a ruled table, each
# floated with its caption; their words (birds) are none the prose holds, so that the labels'
# alignment never mistakes one for a line of it. English only (pdflatex sets no CJK without
# packages not installed).
LATEX_PREAMBLE = r"""\documentclass[10pt,twocolumn,a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[utf8]{inputenc}
\input{glyphtounicode}\pdfgentounicode=1
\title{Maintaining the Guide}\author{The documentation team}\date{1 December 2026}
\begin{document}
\maketitle
"""
LATEX_FLOATS = {  # after which paragraph: what floats there (none of it is a labelled break)
    3: r"""\begin{figure}[t]\centering\setlength{\unitlength}{1pt}
\begin{picture}(200,64)\put(0,20){\framebox(64,24){Kestrel}}\put(64,32){\vector(1,0){64}}
\put(128,20){\framebox(64,24){Osprey}}\put(72,38){\small relay}\put(72,22){\small quorum}
\end{picture}
\caption{Kestrel hands its queue to Osprey through the relay.}\end{figure}""",
    9: r"""\begin{table}[t]\centering\begin{tabular}{lrr}\hline
Roost & Heron & Plover\\\hline
Marsh & 12 & 140\\ Dune & 3 & 27\\ Estuary & 8 & 61\\\hline
\end{tabular}\caption{Sightings of herons and plovers by roost.}\end{table}""",
}
LATEX_FOOTNOTES = {2: "Counted by the marsh wardens at dawn in each quarter.",
                   7: "Wardens rotate between the dune roosts every fortnight.",
                   15: "Estuary counts resume when the tide tables allow it."}
# an office document set by LibreOffice Writer (Makefile): a flat ODT with a page header and a
# numbered footer, justified paragraphs with first-line indents and no space between them,
# bold headings, one paragraph's sentences set as a bulleted list, and a ruled table. The table
# and the header hold no words of the prose (birds), so alignment never takes them for it.
OFFICE_NS = " ".join(f'xmlns:{k}="urn:oasis:names:tc:opendocument:xmlns:{v}"' for k, v in (
    ("office", "office:1.0"), ("style", "style:1.0"), ("text", "text:1.0"), ("table", "table:1.0"),
    ("fo", "xsl-fo-compatible:1.0")))
OFFICE_STYLES = """<office:styles>
<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties
 fo:text-align="justify" fo:text-indent="0.6cm" fo:margin-top="0cm" fo:margin-bottom="0cm"
 fo:line-height="120%"/><style:text-properties style:font-name="Liberation Serif"
 fo:font-family="'Liberation Serif'" fo:font-size="11pt"/></style:style>
<style:style style:name="Item" style:family="paragraph" style:parent-style-name="Body">
 <style:paragraph-properties fo:text-align="start" fo:text-indent="0cm"/></style:style>
<style:style style:name="Head" style:family="paragraph"><style:paragraph-properties
 fo:margin-top="0.35cm" fo:margin-bottom="0.15cm"/><style:text-properties
 fo:font-family="'Liberation Sans'" fo:font-size="13pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Small" style:family="paragraph"><style:text-properties
 fo:font-family="'Liberation Sans'" fo:font-size="9pt"/></style:style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="page"><style:page-layout-properties fo:page-width="21cm"
 fo:page-height="29.7cm" fo:margin-top="1.2cm" fo:margin-bottom="1.2cm" fo:margin-left="2.4cm"
 fo:margin-right="2.4cm"/><style:header-style><style:header-footer-properties
 fo:min-height="0.5cm" fo:margin-bottom="0.5cm"/></style:header-style><style:footer-style>
 <style:header-footer-properties fo:min-height="0.5cm" fo:margin-top="0.5cm"/></style:footer-style>
</style:page-layout>
<text:list-style style:name="Bullets"><text:list-level-style-bullet text:level="1"
 text:bullet-char="•"><style:list-level-properties text:space-before="0.4cm"
 text:min-label-width="0.5cm"/></text:list-level-style-bullet></text:list-style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="page">
<style:header><text:p text:style-name="Small">Curlew Trust: field handbook</text:p></style:header>
<style:footer><text:p text:style-name="Small">Page <text:page-number
 text:select-page="current"/></text:p></style:footer></style:master-page></office:master-styles>"""
OFFICE_TABLE = [("Roost", "Heron", "Plover"), ("Marsh", "12", "140"), ("Dune", "3", "27"),
                ("Estuary", "8", "61")]
PARAGRAPHS = 36  # per document: three to four pages
NUMBERING = re.compile(r"^[\d.]+\s*")  # "1.5.6. " before a twin's heading
UNDERLINE = re.compile(r"^\s*([=\-*~^#+])\1{2,}\s*$")


def paragraphs(twin: str, start: float, count: int = PARAGRAPHS) -> list:
    """[(kind, text)]: 'heading' or 'para', in the twin's order from `start` (a share of its
    length): prose blocks of two lines or more, joined as the engine joins lines, and the
    numbered headings between them. Lists, code, tables and short fragments are skipped."""
    blocks = re.split(r"\n\s*\n", twin[int(len(twin) * start):])[1:]
    out = []
    for block in blocks:
        lines = [ln for ln in block.split("\n") if ln.strip() and not UNDERLINE.match(ln)]
        if not lines:
            continue
        if len(lines) == 1 and HEADING_START.match(lines[0]) and len(lines[0].strip()) < 60:
            out.append(("heading", lines[0].strip()))
            continue
        first = lines[0]
        if (len(lines) < 2 or first.startswith((" " * 4, "\t")) or first.lstrip()[:1] in "*-+|$#•"
                or any(ch in block for ch in "|─┌")
                or display_width(block) < 150):
            continue
        text = lines[0].strip()
        for line in lines[1:]:
            text += joiner(text, line.strip()) + line.strip()
        if text.rstrip()[-1:] not in ".。:：!！?？)）":
            continue
        out.append(("para", text))
        if sum(kind == "para" for kind, _ in out) >= count:
            break
    # a heading only right before its text (not the runs of a table of contents)
    return [item for item, after in zip(out, out[1:] + [("end", "")])
            if item[0] == "para" or after[0] == "para"]


def libreoffice():
    """LibreOffice's command on this machine, or None: the "office" style converts with it."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def chromium():
    """The Chromium (or Chrome) on this machine, or None: the "browser" style prints with it."""
    return next((found for name in ("chromium", "chromium-browser", "google-chrome")
                 if (found := shutil.which(name))), None)


def styles(lang: str) -> list:
    """The styles of a language this machine can set (the "browser" one needs Chromium, the
    "latex" one pdflatex, the "office" one LibreOffice)."""
    missing = {"browser": chromium() is None and "Chromium",
               "latex": shutil.which("pdflatex") is None and "pdflatex",
               "office": libreoffice() is None and "LibreOffice"}
    for style in STYLES[lang]:
        if missing.get(style):
            print(f"no {missing[style]} here: the {lang} {style} documents are left out")
    return [s for s in STYLES[lang] if not missing.get(s)]


def printed(path: Path, items) -> list:
    """The items as a styled web page (BROWSER_CSS) printed to an A4 PDF by Chromium with its
    own header and footer (the date and the title at the top, the file's address and "1/3"
    at the foot); returns the paragraphs as set."""
    body = "".join(f"<h2>{escape(text)}</h2>" if kind == "heading" else f"<p>{escape(text)}</p>"
                   for kind, text in items)
    html = path.with_suffix(".html")
    html.write_text(f"<!doctype html><html lang=en><meta charset=utf-8><title>Printed guide"
                    f"</title><style>{BROWSER_CSS}</style><div class=page>{body}</div>",
                    encoding="utf-8")
    print_to_pdf(html.as_uri(), path)
    return [text for _, text in items]


def print_to_pdf(uri: str, path: Path) -> None:
    """The page at `uri` printed to `path` by headless Chromium, as its Print to PDF does (A4,
    with its header and footer); CalledProcessError or TimeoutExpired (120 s) when it fails."""
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                    f"--print-to-pdf={path}", uri], check=True, timeout=120,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def typst_set(path: Path, items, preamble: str = TYPST_PREAMBLE) -> list:
    """The items set by Typst after `preamble`, each one a string, so that no character of it
    is markup; returns the paragraphs as set."""
    import typst

    def literal(text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    body = "\n\n".join(f"#heading(level: 2, {literal(text)})" if kind == "heading"
                        else f"#{literal(text)}" for kind, text in items)
    source = path.with_suffix(".typ")
    source.write_text(preamble + "\n" + body + "\n", encoding="utf-8")
    typst.compile(str(source), output=str(path))
    return [text for _, text in items]


def latex_set(path: Path, items) -> list:
    """The items set by pdflatex as a two-column article (LATEX_PREAMBLE) with footnotes,
    a figure and a table floated among them; returns the title and paragraphs as set (the
    floats' and footnotes' text is not among them: its lines stay unlabelled)."""
    def literal(text):  # every character as itself: no markup, no "--" dash, no `` quote
        text = re.sub(r"[\\{}$&#^_%~]", lambda m: {
            "\\": r"\textbackslash{}", "^": r"\textasciicircum{}",
            "~": r"\textasciitilde{}"}.get(m[0], "\\" + m[0]), text)
        return re.sub(r"(?<=[-`'<>])(?=[-`'<>])", "{}", text)

    body, paras = [], 0
    for kind, text in items:
        if kind == "heading":
            body.append(rf"\section*{{{literal(text)}}}")
            continue
        paras += 1
        note = rf"\footnote{{{LATEX_FOOTNOTES[paras]}}}" if paras in LATEX_FOOTNOTES else ""
        body.append(literal(text) + note + "\n" + LATEX_FLOATS.get(paras, ""))
    source = path.with_suffix(".tex")
    source.write_text(LATEX_PREAMBLE + "\n\n".join(body) + "\n\\end{document}\n", encoding="utf-8")
    for _ in range(2):  # twice, as LaTeX wants for its floats' places
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                        f"-output-directory={path.parent}", str(source)], check=True, timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return ["Maintaining the Guide", "The documentation team", "1 December 2026"] + [
        text for _, text in items]


def _xml(name, inner, **attributes) -> str:
    """An ODF element; `attributes` named with "__" for ":" and "_" for "-" (text__style_name ->
    text:style-name)."""
    attrs = "".join(f' {k.replace("__", ":").replace("_", "-")}="{v}"'
                    for k, v in attributes.items())
    return f"<{name}{attrs}>{inner}</{name}>"


def office_set(path: Path, items) -> list:
    """The items as a flat ODT (OFFICE_STYLES) converted to PDF by LibreOffice: the fifth
    paragraph's sentences set as a bulleted list, the table after the tenth; returns the
    paragraphs and list items as set."""
    def para(style, text):
        return _xml("text:p", escape(text), text__style_name=style)

    rows = "".join(_xml("table:table-row", "".join(_xml("table:table-cell", para("Small", cell))
                                                   for cell in row)) for row in OFFICE_TABLE)
    table = _xml("table:table", '<table:table-column table:number-columns-repeated="3"/>' + rows,
                 table__name="Counts")
    body, said, paras = [], [], 0
    for kind, text in items:
        if kind == "heading":
            body.append(_xml("text:h", escape(text), text__style_name="Head",
                             text__outline_level=2))
            said.append(text)
            continue
        paras += 1
        sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)
        if paras == 5 and len(sentences) >= 3:
            body.append(_xml("text:list", "".join(_xml("text:list-item", para("Item", one))
                                                  for one in sentences), text__style_name="Bullets"))
            said += sentences
        else:
            body.append(para("Body", text))
            said.append(text)
        if paras == 10:
            body.append(table)
    source = path.with_suffix(".fodt")
    source.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {OFFICE_NS} '
                      'office:version="1.2" '
                      'office:mimetype="application/vnd.oasis.opendocument.text">' + OFFICE_STYLES
                      + _xml("office:body", _xml("office:text", "".join(body)))
                      + "</office:document>", encoding="utf-8")
    subprocess.run([libreoffice(), "--headless", "--convert-to", "pdf", "--outdir",
                    str(path.parent), str(source)], check=True, timeout=180,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "HOME": str(path.parent)})
    return said


def typeset(path: Path, items, style: str, lang: str) -> list:
    """Write the PDF; returns the paragraphs as set (one string each, in order)."""
    if style == "browser":
        return printed(path, items)
    if style == "typst":
        return typst_set(path, items)
    if style == "latex":
        return latex_set(path, items)
    if style == "office":
        return office_set(path, items)
    from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

    cjk = lang == "zh"
    if cjk:
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    font = "STSong-Light" if cjk else "Times-Roman"
    size = 10.5 if cjk else 10
    body = ParagraphStyle("body", fontName=font, fontSize=size, leading=size * 1.45,
                          alignment=TA_JUSTIFY, firstLineIndent=size * (2 if cjk else 1.5),
                          spaceAfter=0, wordWrap="CJK" if cjk else None)
    heading = ParagraphStyle("heading", parent=body, fontName="STSong-Light" if cjk else
                             "Times-Bold", fontSize=size + 2, leading=(size + 2) * 1.5,
                             firstLineIndent=0, spaceBefore=6, spaceAfter=3)
    if style == "two-column":
        body.firstLineIndent, body.spaceAfter = 0, size * 0.4
    if style == "report":  # ragged right, no indent, no space between paragraphs
        body.alignment, body.firstLineIndent = TA_LEFT, 0
    if style == "book":  # headings in the body's size
        heading.fontSize, heading.leading = size, size * 1.45
    if style == "notice":
        heading = ParagraphStyle("heading", parent=body, firstLineIndent=size * 2)
    width, height = A4
    margin = 64
    if style == "two-column":
        col = (width - 2 * margin - 18) / 2
        frames = [Frame(margin, margin, col, height - 2 * margin, id="left"),
                  Frame(margin + col + 18, margin, col, height - 2 * margin, id="right")]
    else:
        frames = [Frame(margin, margin, width - 2 * margin, height - 2 * margin, id="body")]

    def folio(canvas, doc):
        canvas.setFont("Helvetica", 8)
        canvas.drawCentredString(width / 2, 36, f"- {doc.page} -")

    doc = BaseDocTemplate(str(path), pagesize=A4, pageTemplates=[
        PageTemplate(frames=frames, onPage=folio)])
    flow, said = [], []

    def add(text, st):
        flow.append(Paragraph(escape(text), st))
        said.append(text)

    numbers = "一二三四五六七八九十"
    section = 0
    if style == "notice":
        title = ParagraphStyle("title", parent=body, fontSize=size + 5, leading=(size + 5) * 1.6,
                               alignment=TA_CENTER, firstLineIndent=0, spaceAfter=8)
        add("关于文档维护工作的通知", title)
    for kind, text in items:
        if kind == "heading":
            if style == "notice":
                text = numbers[section % 10] + "、" + NUMBERING.sub("", text)
                section += 1
            add(text, heading)
        else:
            add(text, body)
    if style == "notice":
        sign = ParagraphStyle("sign", parent=body, alignment=TA_RIGHT, firstLineIndent=0,
                              spaceBefore=12)
        add("文档维护小组", sign)
        add("二〇二六年十二月一日", ParagraphStyle("date", parent=sign, spaceBefore=0))
    doc.build(flow)
    return said


def documents(splits=("dev", "held-out")) -> list:
    """The typeset documents of the splits, labelled against the paragraphs they set."""
    from ..pdf import read_pdf

    out = []
    TYPESET_CACHE.mkdir(parents=True, exist_ok=True)
    for split in splits:
        for package, start, lang in SOURCES[split]:
            _, twin = fetch_debian_doc(package)
            items = paragraphs(twin, start)
            for style in styles(lang):
                path = TYPESET_CACHE / f"{package}-{style}.pdf"
                said = typeset(path, items, style, lang)
                pdf = read_pdf(path)
                lines = [ln.text for ln in pdf.body]
                truth = "\n\n".join(said)
                out.append(Labelled(f"{package} typeset {style}", lang, split, "\n".join(lines),
                                    twin_labels(lines, truth), pdf.break_layout(),
                                    (path, 1, pdf.pages, geometry(pdf)), reading_order(lines, truth)))
    return out

