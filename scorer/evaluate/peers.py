"""The PDF tools a user would pick instead, as decisions on the eval's breaks, with their seconds
per page: pdfminer.six's layout analysis (its text boxes), PyMuPDF's text blocks
(`page.get_text("blocks")`: a block a paragraph) and pymupdf4llm's Markdown (`to_markdown`: its
paragraphs, list items and headings). Two lines of ours are joined by a peer when it puts them in
one box, block or paragraph; a line it did not find is kept apart.

PyMuPDF and pymupdf4llm (AGPL) are evaluation-only: never imported by the product, installed by
`pip install -r requirements-eval.txt`; without them their rows are missing.
Does not: label, train or tune anything.
"""

import re
import time

from ..align import align_stream, normalise
from ..baseline import pdfminer_boxes, same_box

PDFMINER = "pdfminer: layout analysis text boxes"
PYMUPDF = "PyMuPDF: text blocks"
PYMUPDF4LLM = "pymupdf4llm: Markdown paragraphs"
MD_BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|```|\|)")
MD_MARKUP = re.compile(r"^\s*#{1,6}\s+|\*\*|__|`|\||(?<!\w)[*_]|[*_](?!\w)")  # headings,
# emphasis, code spans, table rows: what Markdown adds to the text


def run(source, first, last, lines, texts) -> dict:
    """name -> (decisions per break, seconds per page) for every peer installed. `lines`: our
    body lines' (page, top, bottom, x0, x1); `texts`: their text."""
    pages = last - first + 1
    out = {}
    for name, peer in ((PDFMINER, lambda: pdfminer_boxes(source, first, last, lines)),
                       (PYMUPDF, lambda: pymupdf_blocks(source, first, last, lines)),
                       (PYMUPDF4LLM, lambda: pymupdf4llm_paragraphs(source, first, last, texts))):
        started = time.perf_counter()
        try:
            decisions = peer()
        except ImportError:
            continue
        out[name] = (decisions, (time.perf_counter() - started) / pages)
    return out


def pymupdf_blocks(source, first, last, lines) -> list:
    """Per break between consecutive `lines`: "join" when PyMuPDF put both in one text block."""
    import pymupdf

    found, block_id = {}, 0  # page -> [(top, bottom, x0, x1, block id)]
    with pymupdf.open(str(source)) as pdf:
        for number in range(first, last + 1):
            for block in pdf[number - 1].get_text("dict")["blocks"]:
                block_id += 1
                for line in block.get("lines", []):
                    x0, top, x1, bottom = line["bbox"]
                    found.setdefault(number, []).append((top, bottom, x0, x1, block_id))
    return same_box(found, lines)


def pymupdf4llm_paragraphs(source, first, last, texts) -> list:
    """Per break between consecutive lines `texts`: "join" when both lie inside one paragraph
    of pymupdf4llm's Markdown (blocks between blank lines; a heading, list item, table row or
    code fence starts one), found by their text as the eval finds them in a twin (align.py)."""
    import pymupdf4llm

    markdown = pymupdf4llm.to_markdown(str(source), pages=list(range(first - 1, last)),
                                       show_progress=False)
    stream, starts, pos, new_block = [], set(), 0, True
    for line in markdown.splitlines():
        if not line.strip():
            new_block = True
            continue
        if new_block or MD_BLOCK_START.match(line):
            starts.add(pos)
        norm = normalise(MD_MARKUP.sub("", line))
        stream.append(norm)
        pos += len(norm)
        new_block = False
    labels = align_stream(texts, "".join(stream), starts, [])
    return ["join" if label == "wrap" else "keep" for label in labels]
