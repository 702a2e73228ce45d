"""Markdown fidelity: the headings and list items a PDF's Markdown finds, against its twin; ours
(outputs.py, the engine's default) next to pymupdf4llm's `to_markdown`, with seconds per page.

Truth: for a Debian PDF, its plain-text twin within the pages read: a heading is a twin line
at the margin (the twins indent all body text: "1.4.4. Mouse operations", "Preface"), a list
item a twin line that opens with a list marker ("* ", "+ ", "- ", "1. "). For a typeset
document, the headings it set (exact; it sets no lists). A found heading or item is right when
the start of its text (KEY characters, normalised as labels.normalise, numbering and markers
dropped) is the start of a truth one's; precision over what was found, recall over the truth.

pymupdf4llm (AGPL) is an evaluation-only peer, never imported by the product: `pip install -r
requirements-eval.txt`; without it its rows say so. `prefill-lens eval --structure`.
Does not: tune anything.
"""

import re
import time
from collections import Counter
from pathlib import Path

from ..outputs import markdown, paragraphs
from ..align import normalise, twin_stream

KEY = 16  # normalised characters that identify a heading or an item
SLACK = 300  # normalised characters of the twin before and after the pages' first and last lines
ITEM = re.compile(r"^\s*(?:[*+\-•◦o]|\d{1,3}[.)])\s+(\S.*)$")
BULLETED = re.compile(r"^\s*[*+\-•◦o]\s+\S")  # a twin's list item (its numbered lines are
# mostly its contents list)
MD_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
MD_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$")
NUMBER = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,3})*\.?|chapter\s+\d+\.?|[（(]?[一二三四五六七八九十]{1,3}[、)）])\s*",
                    re.IGNORECASE)


def key(text: str) -> str:
    """What identifies a heading or item: its first KEY normalised characters, numbering,
    markers and Markdown emphasis dropped."""
    text = re.sub(r"[*_`]{1,3}", "", text)
    return normalise(NUMBER.sub("", ITEM.sub(r"\1", text)))[:KEY]


def twin_truth(twin: str, pdf_text: str) -> dict:
    """{"heading": [keys], "item": [keys]} of the twin's part that the PDF's lines cover;
    "heading" is None for a twin that does not indent its body text (nothing tells its
    headings apart: every line would be one)."""
    stream, _, _ = twin_stream(twin)
    at = [(stream.find(ln), ln) for ln in (normalise(x) for x in pdf_text.split("\n"))
          if len(ln) >= 30]
    at = [(pos, ln) for pos, ln in at if pos >= 0]
    if not at:
        return {"heading": [], "item": []}
    # the twin's part the pages cover, and the short lines (a heading) next to its ends
    first, last = at[0][0] - SLACK, at[-1][0] + len(at[-1][1]) + SLACK
    truth, pos = {"heading": [], "item": []}, 0
    for line in twin.splitlines():
        norm = normalise(line)
        if not norm or re.match(r"^\s*([=\-*~^#+])\1{2,}\s*$", line):
            continue
        if first <= pos <= last:
            if not line[:1].isspace() and len(line.strip()) < 100:  # body text is indented
                truth["heading"].append(key(line))
            elif BULLETED.match(line):
                truth["item"].append(key(line))
        pos += len(norm)
    # what the pages hold: a key must be in their text (the twin's own contents list, or a
    # heading printed on pages not read, is no truth here)
    body = normalise(pdf_text)
    out = {kind: [k for k in keys if k and k in body] for kind, keys in truth.items()}
    if not body_indented(twin):
        out["heading"] = None
    return out


def body_indented(twin: str) -> bool:
    """Whether the twin indents its paragraphs (blocks of two lines or more): then a line at
    the margin is a heading."""
    indents = Counter()
    for block in re.split(r"\n\s*\n", twin):
        lines = [ln for ln in block.split("\n") if ln.strip()]
        if len(lines) >= 2 and not ITEM.match(lines[0]):
            indents[len(lines[0]) - len(lines[0].lstrip())] += 1
    return bool(indents) and indents.most_common(1)[0][0] > 0


def found(keys, truth) -> tuple:
    """(right, found, truth matched, truth) counts over distinct keys (a contents list repeats
    its headings)."""
    keys = sorted({k for k in keys if k})
    truth = sorted({t for t in truth if t})
    right = sum(any(t.startswith(k) or k.startswith(t) for t in truth) for k in keys)
    matched = sum(any(t.startswith(k) or k.startswith(t) for k in keys) for t in truth)
    return right, len(keys), matched, len(truth)


def ours(model, path, first, last) -> tuple:
    """(keys of its Markdown, seconds, the pages' text) of the engine's default on pages
    first-last."""
    from ..document import score_pdf_text
    from ..pdf import read_pdf

    started = time.perf_counter()
    pdf = read_pdf(path, max_pages=10_000, pages=(first, last))
    doc = score_pdf_text(model, pdf, Path(path).name, detail="breaks")
    md = markdown(paragraphs(doc))
    return markdown_keys(md), time.perf_counter() - started, pdf.text


def peer(path, first, last) -> tuple:
    """The same from pymupdf4llm's Markdown, or None when it is not installed."""
    try:
        import pymupdf4llm
    except ImportError:
        return None, 0.0
    started = time.perf_counter()
    md = pymupdf4llm.to_markdown(str(path), pages=list(range(first - 1, last)),
                                 show_progress=False)
    return markdown_keys(md), time.perf_counter() - started


def markdown_keys(md: str) -> dict:
    """{"heading": keys, "item": keys} of a Markdown text (both methods' read alike; fenced
    code is skipped)."""
    out, fenced = {"heading": [], "item": []}, False
    for line in md.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        heading, item = MD_HEADING.match(line), MD_ITEM.match(line)
        if fenced:
            continue
        if heading:
            out["heading"].append(key(heading.group(1)))
        elif item:
            out["item"].append(key(item.group(1)))
    return out


def measure(model, docs) -> list:
    """One row per document and method: precision and recall of headings and items, s/page.
    `docs`: (name, pdf path, first page, last page, truth or None for the twin's)."""
    rows = []
    for name, path, first, last, twin, truth in docs:
        got, seconds, text = ours(model, path, first, last)
        truth = truth or twin_truth(twin, text)
        pages = last - first + 1
        theirs, peer_seconds = peer(path, first, last)
        for method, keys, secs in (("prefill-lens", got, seconds),
                                   ("pymupdf4llm", theirs, peer_seconds)):
            row = {"document": name, "method": method, "pages": pages,
                   "s_per_page": round(secs / pages, 3) if keys is not None else None}
            for kind in ("heading", "item"):
                if keys is None:
                    row[kind] = None
                    continue
                right, n, matched, n_truth = found(keys[kind], truth[kind] or [])
                if truth[kind] is None:
                    right, n_truth = None, None
                row[kind] = {"precision": round(right / n, 3) if n and right is not None else None,
                             "recall": round(matched / n_truth, 3) if n_truth else None,
                             "found": n, "truth": n_truth}
            rows.append(row)
    return rows


def documents(splits) -> list:
    """The held-out (or dev) Debian page ranges and typeset documents, with their truth."""
    from . import corpus, typeset

    out = []
    for split in splits:
        for package, first, last in corpus.SPLITS[split]:
            pdf, twin = corpus.fetch_debian_doc(package)
            out.append((f"{package} p{first}-{last}", pdf, first, last, twin, None))
        for package, start, lang in typeset.SOURCES[split]:
            _, twin = corpus.fetch_debian_doc(package)
            items = typeset.paragraphs(twin, start)
            headings = [key(text) for kind, text in items if kind == "heading"]
            for style in typeset.styles(lang):
                path = typeset.TYPESET_CACHE / f"{package}-{style}.pdf"
                if not path.is_file():
                    typeset.TYPESET_CACHE.mkdir(parents=True, exist_ok=True)
                    typeset.typeset(path, items, style, lang)
                from ..pdf import read_pdf
                n = read_pdf(path).pages
                out.append((f"{package} typeset {style}", path, 1, n, twin,
                            {"heading": headings, "item": []}))
    return out


def report(rows) -> str:
    def pr(cell):
        if cell is None:
            return "not installed"
        if cell["truth"] is None:
            return f"no truth ({cell['found']} found)"
        p, r = cell["precision"], cell["recall"]
        return (f"{'-' if p is None else f'{p:.3f}'} / {'-' if r is None else f'{r:.3f}'} "
                f"({cell['found']}/{cell['truth']})")

    out = ["| document | method | headings P / R (found/truth) | items P / R (found/truth) "
           "| s/page |", "|---|---|---|---|---|"]
    for row in rows:
        secs = "-" if row["s_per_page"] is None else f"{row['s_per_page']:.3f}"
        out.append(f"| {row['document']} | {row['method']} | {pr(row['heading'])} | "
                   f"{pr(row['item'])} | {secs} |")
    return "\n".join(out)
