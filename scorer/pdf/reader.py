"""Opening a PDF: clear errors for empty, non-PDF, corrupt, encrypted, too long and image-only
files, a page pdfminer cannot parse left out and said (PdfText.unreadable), the pages read one
at a time; each page's lines in reading order with their layout (lines_of_page), a figure's labels
as lines of their own, the furniture marked (running heads, page and line numbers), each
column's edges and the code found; PdfText: the body's text and its breaks' layout.

Does not: decide anything (decide.py); read a PDF from outside with limits (pdfguard.py).
"""

import io
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import ScorerError, TooLarge, UnreadablePdf
from ..settings import DEFAULT
from .figures import beside, drawn_chars, figures
from .furniture import mark_line_numbers, mark_repeated
from .glyphs import NamedGlyphs
from .layout import (Line, body_size, break_features, drawn_marker, first_word, indent_ems,
                     line_json, mark_code, mark_columns, mark_hanging, text_end, text_start)
from .lines import (SOFT_HYPHEN, cell_gaps, is_formula, monospaced_fonts, monospaced_share,
                    page_glyphs, text_lines, unspace_wide)
from .order import defer_footnotes, place_margin_notes, reading_order
from .regions import in_tables, ruled_tables, table_boxes, table_cells
from .tables import mark_unruled_tables
from .turned import TurnedPage, sideways, upright_part

DEFAULT_MAX_PAGES = DEFAULT["MAX_PAGES"]


@dataclass
class PdfText:
    lines: list  # list[Line], every line, in reading order
    pages: int
    empty_pages: int
    unreadable: tuple = ()  # (page, why) of each page whose content pdfminer could not parse

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
        size = body_size(body)
        layout = [break_features(a, b, size, then)
                  for a, b, then in zip(body, body[1:], [*body[2:], None])]
        mark_hanging(body, layout)
        return layout

    def line_info(self) -> list:
        """Per line of `text`: its page, whether it is code, a table row or a figure's labels,
        its font size and its indent from the column's left edge in ems (outputs.py:
        paragraphs with pages, kinds, nesting)."""
        return [{"page": ln.page, "code": ln.code, "table": ln.table, "figure": ln.figure,
                 "size": ln.size, "indent": indent_ems(ln), "marker": ln.marker}
                for ln in self.body]

    def source(self) -> dict:
        """What a Document's `source` says of this PDF (the file name is the caller's)."""
        return {"type": "pdf", "pages": self.pages, "empty_pages": self.empty_pages,
                "unreadable_pages": [page for page, _ in self.unreadable],
                "warnings": [f"{missing_pages(self.unreadable, self.pages)}: the text of "
                             f"{'that page' if len(self.unreadable) == 1 else 'those pages'} is "
                             "missing from the output; the other pages were read"]
                if self.unreadable else [],
                "removed": [line_json(ln) for ln in self.lines if ln.repeated]}


def missing_pages(unreadable, pages) -> str:
    """Which of a PDF's `pages` could not be read and why (PdfText.unreadable): "page 11 of 42
    could not be read (PSSyntaxError: ...)"."""
    numbers = [str(page) for page, _ in unreadable]
    listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return (f"page{'s' if len(numbers) > 1 else ''} {listed} of {pages} could not be read "
            f"({unreadable[0][1]})")


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
    from pdfplumber.utils.exceptions import PdfminerException

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
            pdf.rsrcmgr = NamedGlyphs()  # glyphs read by their names where pdfminer has none
            n = len(pdf.pages)
            if n > max_pages:
                raise TooLarge(f"{name} has {n} pages; the limit is {max_pages}")
            first, last = pages or (1, n)
            last = min(last, n)
            lines, empty, chars, unreadable = [], 0, 0, []
            for number in range(first, last + 1):
                page = pdf.pages[number - 1]
                try:
                    page_lines = lines_of_page(page, number)
                except PdfminerException as exc:  # a content stream pdfminer cannot parse:
                    if _out_of_memory(exc):  # that page alone is left out, and the output
                        raise  # says so (PdfText.source's warnings)
                    unreadable.append((number, _why(exc)))
                    continue
                finally:  # its objects freed: pdfplumber keeps every page's until the file
                    page.close()  # closes (reledmac's 458 pages passed the reader's 2 GB)
                empty += not page_lines
                lines.extend(page_lines)
                chars += sum(len(line.text) + 1 for line in page_lines)
                if max_chars is not None and chars > max_chars:
                    raise TooLarge(f"{name} has more than {max_chars:,} characters of text by "
                                   f"page {number}; the limit is {max_chars:,}")
    except (ScorerError, MemoryError):  # a bomb is a limit hit (pdfguard.py), not a broken file
        raise
    except Exception as exc:  # pdfminer raises many types for broken files, pdfplumber wraps them
        if _out_of_memory(exc):  # pdfplumber wraps it
            raise MemoryError from exc
        if any(isinstance(c, (PDFPasswordIncorrect, PDFEncryptionError)) for c in _causes(exc)):
            raise UnreadablePdf(f"{name} is encrypted and needs a password") from exc
        raise UnreadablePdf(f"{name} is corrupt or truncated ({type(exc).__name__})") from exc
    read = max(0, last - first + 1) if n else 0
    if unreadable and not lines:
        rest = "; the others have no text layer" if empty else ""
        raise UnreadablePdf(f"{name} is corrupt: {missing_pages(unreadable, n)}{rest}")
    if read == 0 or empty == read:
        raise UnreadablePdf(f"{name} has no text layer on any of its {read} pages (a scan?); "
                            "OCR is out of scope: run an OCR tool first")
    mark_repeated(lines, read - len(unreadable))
    mark_line_numbers(lines)
    mark_code(lines)
    mark_unruled_tables(lines)
    mark_columns(lines)
    return PdfText(defer_footnotes(place_margin_notes(lines)), n, empty, tuple(unreadable))


def _causes(exc) -> tuple:
    """`exc` and what it wraps (pdfplumber wraps pdfminer's errors, and a MemoryError)."""
    return (exc, *exc.args, exc.__cause__, exc.__context__)


def _out_of_memory(exc) -> bool:
    return any(isinstance(c, MemoryError) for c in _causes(exc))


def _why(exc, limit=80) -> str:
    """pdfminer's own error under pdfplumber's wrapper, short: "PSSyntaxError: Invalid ..."."""
    cause = next((c for c in exc.args if isinstance(c, BaseException)), exc)
    text = f"{type(cause).__name__}: {cause}"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def lines_of_page(page, number) -> list:
    """The page's text lines in reading order with their layout: the body's (reading_order)
    and, as lines of their own, the text drawn on each figure (figures.py), placed before the
    first body line at the figure's height or below it that stands beside it or in its width
    (a figure is set before the paragraph that flows around it). A page set sideways is read
    turned upright (turned.py), after what stands upright on it."""
    way = sideways(page)
    if way:
        return (lines_of_page(upright_part(page, way), number)
                + lines_of_page(TurnedPage(page, way), number))
    ruled = ruled_tables(page)
    tables = table_boxes(ruled)
    cells = table_cells(ruled)
    glyphs = page_glyphs(page)
    fixed = monospaced_fonts(glyphs)
    shapes = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in page.curves + page.rects]
    edge = float(page.bbox[2])  # a line running off the page reaches, as a reader sees it, here

    def line(raw, region, figure=False):
        # control characters (a NUL from a broken font map) would be refused later: drop them
        text = "".join(ch for ch in raw["text"] if unicodedata.category(ch) != "Cc").strip()
        text = unspace_wide(text).replace(SOFT_HYPHEN, "-")
        if not text:
            return None
        own = [ch for ch in raw["chars"] if not ch["text"].isspace()]  # the line's glyphs
        sizes = Counter(round(ch["size"], 1) for ch in own)
        mono = monospaced_share(_after_number(own), fixed)
        in_table = in_tables(raw, tables)
        size = sizes.most_common(1)[0][0] if sizes else 0.0
        gaps = cell_gaps(own, size)
        first, last = (_cell_of(min(own, key=lambda ch: ch["x0"]), cells),
                       _cell_of(max(own, key=lambda ch: ch["x1"]), cells)) if own else (None, None)
        return Line(text=text, page=number, x0=raw["x0"], x1=max(raw["x0"], min(raw["x1"], edge)), top=raw["top"],
                    bottom=raw["bottom"], size=size, table=in_table, mono=mono,
                    formula=not mono and is_formula(own),
                    region=region, text_x0=text_start(text, own, size),
                    text_x1=text_end(gaps, size), gaps=gaps,
                    marker=drawn_marker(raw["x0"], raw["top"], raw["bottom"], size, shapes),
                    first_word=first_word(text, own, size),
                    cell=last or (), in_cell=last is not None and first == last, figure=figure)

    figs = figures(page, glyphs, tables)
    drawn = [drawn_chars(page, glyphs, fig) for fig in figs]
    taken = set().union(*drawn)
    body = page.filter(lambda obj: id(obj) not in taken) if taken else page
    out = [ln for ln in (line(raw, region)
                         for region, raw in reading_order(body, ruled, fixed, tables)) if ln]
    beside(out, figs)
    for fig, ids in sorted(zip(figs, drawn), key=lambda pair: pair[0].box[1]):
        x0, top, x1, _ = fig.box
        labels = [ln for ln in (line(raw, 0, figure=True) for raw in
                                text_lines(page.filter(lambda obj, ids=ids, fig=fig: id(obj) in ids
                                                       and id(obj) not in fig.points)))
                  if ln]
        at = next((k for k, ln in enumerate(out) if not ln.figure and ln.bottom > top
                   and (ln.edge_x0 or ln.edge_x1 or (ln.x0 < x1 and ln.x1 > x0))), len(out))
        out[at:at] = labels
    return out


def _after_number(glyphs) -> list:
    """A line's glyphs after its leading digits (all of them when it is digits only): a
    listing numbers its lines in the text font, and "497 type .initial:n = bachelor," was
    not code for the number's three glyphs."""
    ordered = sorted(glyphs, key=lambda ch: ch["x0"])
    digits = next((k for k, ch in enumerate(ordered) if not ch["text"].isdigit()), len(ordered))
    return ordered[digits:] or ordered


def _cell_of(ch, cells):
    """The text box of the table cell (`cells`: table_cells) a glyph stands in, or None."""
    x, y = (ch["x0"] + ch["x1"]) / 2, (ch["top"] + ch["bottom"]) / 2
    return next((text for (x0, top, x1, bottom), text in cells
                 if x0 <= x <= x1 and top <= y <= bottom), None)
