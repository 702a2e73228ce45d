"""What a pipeline reads: a decided Document as paragraphs with their kind and pages, written as
plain text, Markdown or JSON Lines.

A paragraph is a run of lines whose breaks are joined. Its kind comes from what the engine
already knows: a code block's or a table's lines (from a PDF's fonts and tables), the text drawn
on a figure (pdf/figures.py), a heading (the break after it is kept because the line is a
heading: decide.forced_keeps), a list item (the line opens like one: breaks.starts_item), else
a paragraph. Consecutive code lines are one code block, consecutive table rows one table, a
figure's labels one figure.

  text      the merged text, exactly decide.merged (the default everywhere)
  markdown  headings as # levels (by their numbering's depth, the shallowest ##; a chapter or
            a title set bigger than any other heading #, else ##), list items as "- " or "1. " (nested by their indent),
            code blocks fenced, table rows and a figure's labels as they are, paragraphs
            apart by a blank line
  jsonl     one record a line: {"text", "kind", "pages": [first, last] or null (text input),
            "chars": [start, end) in the extracted text, "breaks_joined": n, "level"}

Does not: decide anything (decide.py) or read input (document.py, pdfguard.py).
"""

import json
import re
from dataclasses import asdict, dataclass, field

from . import breaks as br
from . import decide

FORMATS = ("text", "markdown", "jsonl")
SUFFIXES = {"text": ".txt", "markdown": ".md", "jsonl": ".jsonl"}
KINDS = ("paragraph", "heading", "item", "code", "table", "figure")
NUMBERING = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})*)\.?\s")
CHAPTER = re.compile(r"^\s*(?:chapter|part|appendix|第[一二三四五六七八九十百\d]{1,4}[章篇部])",
                     re.IGNORECASE)
BULLET = re.compile(r"^\s*[-•●○▪■◆*·–]\s+")
ORDERED = re.compile(r"^\s*(\d{1,3})[.)]\s+")
INDENT_STEP = 1.0  # ems (PDF) or spaces (text) between two nesting levels of a list


@dataclass
class Paragraph:
    text: str  # its lines merged as the policy decides (code and table lines kept apart)
    kind: str  # one of KINDS
    pages: list  # [first, last] page (1-based) of a PDF's lines; None for text
    chars: list  # [start, end): where its lines lie in the extracted text (Document.text)
    breaks_joined: int  # how many line breaks inside it were joined
    level: int = 0  # heading: 1-6; item: nesting depth from 0; else 0
    indent: float = field(default=0.0, repr=False)  # of its first line (ems, or spaces): nesting
    size: float = field(default=0.0, repr=False)  # its first line's font size (PDF): a title?


def paragraphs(doc, policy=decide.Policy()) -> list:
    """list[Paragraph] of a scored Document, in reading order."""
    decided = dict(zip(doc.break_at, decide.of(doc, policy)))
    headings = {i for i, h in zip(doc.break_at, decide.heading_lines(doc.text, doc.break_at,
                                                                     doc.layout)) if h}
    unhyphen = dict(zip(doc.break_at, doc.unhyphen or [False] * len(doc.break_at)))
    joins = dict(zip(doc.break_at, doc.joins))
    info = getattr(doc, "lines", None) or []  # per line of text: page, code, table, indent
    out, run = [], []  # run: (line number, start, end) of the paragraph being read

    def close():
        if run:
            out.append(_paragraph(doc, run, joins, unhyphen, info, headings))
            run.clear()

    start = 0
    for k, line in enumerate(doc.text.split("\n")):
        end = start + len(line)
        if line.strip():
            run.append((k, start, end))
        else:
            close()
        if decided.get(end) != "join":  # the newline after this line is kept (or none)
            close()
        start = end + 1
    close()
    return _blocks(out)


def _paragraph(doc, run, joins, unhyphen, info, headings) -> Paragraph:
    first, start, _ = run[0]
    last, _, end = run[-1]
    inner = [e for _, _, e in run[:-1]]  # the joined newlines inside it
    text = br.merge(doc.text[start:end], [i - start for i in inner], [joins[i] for i in inner],
                    ["join"] * len(inner), [unhyphen[i] for i in inner])
    lines = info[first:last + 1]
    pages = [lines[0]["page"], lines[-1]["page"]] if lines else None
    head = doc.text[start:run[0][2]]
    if lines and all(x["code"] for x in lines):
        kind = "code"
    elif lines and any(x["table"] for x in lines):
        kind = "table"
    elif lines and all(x.get("figure") for x in lines):
        kind = "figure"
    elif end in headings and len(run) == 1:
        kind = "heading"
    elif br.starts_item(head) or (lines and lines[0].get("marker")):
        kind = "item"
    else:
        kind = "paragraph"
    size = lines[0].get("size", 0.0) if lines else 0.0
    level = _heading_level(head) if kind == "heading" else 0
    indent = lines[0]["indent"] if lines else float(len(head) - len(head.lstrip()))
    return Paragraph(text.strip() if kind != "code" else text, kind, pages, [start, end],
                     len(inner), level, indent, size)


def _heading_level(line: str) -> int:
    """Numbered: by the numbering's depth ("2" ##, "2.3" ###; _blocks makes the document's
    shallowest numbering ##); a chapter #; else ## (a title set bigger than every other heading
    becomes # in _blocks)."""
    numbered = NUMBERING.match(line)
    if numbered:
        return min(6, numbered.group(1).count(".") + 2)
    return 1 if CHAPTER.match(line) else 2


def _blocks(paras) -> list:
    """Consecutive code lines -> one code block, consecutive table rows -> one table; list
    items nested by indent within a run of items."""
    out = []
    for para in paras:
        prev = out[-1] if out else None
        if prev and para.kind in ("code", "table", "figure") and prev.kind == para.kind:
            prev.text += "\n" + para.text
            prev.chars[1] = para.chars[1]
            if prev.pages and para.pages:
                prev.pages[1] = para.pages[1]
            continue
        out.append(para)
    numbered = [p.level for p in out if p.kind == "heading" and NUMBERING.match(p.text)]
    for para in out:  # the shallowest numbering in the document is ##
        if para.kind == "heading" and NUMBERING.match(para.text):
            para.level = min(6, para.level - min(numbered) + 2)
    sizes = [p.size for p in out if p.kind == "heading"]
    for para in out:  # an unnumbered heading set bigger than every other one: the title
        if para.kind == "heading" and para.size and sizes.count(para.size) == 1 and \
                para.size == max(sizes) and not NUMBERING.match(para.text):
            para.level = 1
    indents = []  # the indents of the list being read, outermost first
    for para in out:
        if para.kind != "item":
            indents = []
            continue
        while indents and para.indent < indents[-1] - INDENT_STEP / 2:
            indents.pop()
        if not indents or para.indent > indents[-1] + INDENT_STEP / 2:
            indents.append(para.indent)
        para.level = len(indents) - 1
    return out


# -- writers -------------------------------------------------------------------------------------
def render(doc, policy=decide.Policy(), fmt="text") -> str:
    """The Document decided by `policy`, written in `fmt` (one of FORMATS)."""
    if fmt == "text":
        return decide.merged(doc, policy)
    if fmt == "markdown":
        return markdown(paragraphs(doc, policy))
    if fmt == "jsonl":
        return jsonl(paragraphs(doc, policy))
    raise ValueError(f"unknown format {fmt!r}")


def record(para: Paragraph) -> dict:
    """A paragraph as its JSON Lines record."""
    return {k: v for k, v in asdict(para).items() if k not in ("indent", "size")}


def jsonl(paras) -> str:
    return "".join(json.dumps(record(p), ensure_ascii=False) + "\n" for p in paras)


def markdown(paras) -> str:
    blocks, items = [], []  # items: the list being written, one line each

    def flush():
        if items:
            blocks.append("\n".join(items))
            items.clear()

    for para in paras:
        if para.kind == "item":
            items.append(_item(para))
            continue
        flush()
        if para.kind == "heading":
            blocks.append("#" * para.level + " " + para.text)
        elif para.kind == "code":
            fence = "```" if "```" not in para.text else "~~~~"
            blocks.append(f"{fence}\n{para.text}\n{fence}")
        elif para.kind in ("table", "figure"):
            blocks.append(para.text)
        else:
            blocks.append(_escape(para.text))
    flush()
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _item(para: Paragraph) -> str:
    pad = "   " * para.level
    ordered = ORDERED.match(para.text)
    if ordered:
        return f"{pad}{ordered.group(1)}. {para.text[ordered.end():]}"
    bullet = BULLET.match(para.text)
    return f"{pad}- {para.text[bullet.end():] if bullet else para.text}"


def _escape(text: str) -> str:
    """A paragraph that would read as Markdown syntax at its start stays a paragraph."""
    ordered = re.match(r"^(\d{1,9})([.)]\s)", text)
    if ordered:
        return ordered.group(1) + "\\" + text[len(ordered.group(1)):]
    if re.match(r"^(?:#{1,6}\s|[-+*]\s|>|```|~~~)", text):
        return "\\" + text
    return text
