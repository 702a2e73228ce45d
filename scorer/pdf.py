"""PDF -> lines with layout: what the model cannot see, read from the page.

Does: open a PDF with pdfplumber (clear errors for empty, non-PDF, corrupt, encrypted, too long
and image-only files), extract text lines with their geometry (x0, x1, top, bottom, dominant
font size, page, the column their page's text spans), mark running headers/footers and page
numbers (removed from the text by default, kept in the JSON with a flag), table rows and lines
in a monospaced font (code, preformatted text: never merged), and describe each line break by
layout features.
Does not: decide anything (decide.py) or handle multi-column reading order.
"""

import re
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from .breaks import is_wide, starts_item
from .errors import ScorerError, UnreadablePdf

DEFAULT_MAX_PAGES = 500
# A gap wider than this share of the font size between two glyphs is a space. pdfplumber's
# default (an absolute 3 pt) glues words in PDFs that position words without space glyphs.
X_TOLERANCE_RATIO = 0.15
MONOSPACE = ("courier", "mono", "consol", "menlo", "typewriter")
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
    code: bool = False  # set in a monospaced font: code or preformatted text


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


def check_pdf_bytes(head: bytes, size: int, name: str) -> None:
    if size == 0:
        raise UnreadablePdf(f"{name} is empty (0 bytes)")
    if b"%PDF-" not in head[:1024]:
        raise UnreadablePdf(f"{name} is not a PDF (no %PDF header)")


def read_pdf(path, max_pages=DEFAULT_MAX_PAGES, pages=None) -> PdfText:
    """Every text line of the PDF at `path`, with layout; only pages first..last (1-based,
    inclusive) when `pages` is given (running headers are then found among those pages)."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect

    path = Path(path)
    name = path.name
    with path.open("rb") as fh:
        check_pdf_bytes(fh.read(1024), path.stat().st_size, name)
    try:
        with pdfplumber.open(path) as pdf:
            n = len(pdf.pages)
            if n > max_pages:
                raise UnreadablePdf(f"{name} has {n} pages; the limit is {max_pages}")
            first, last = pages or (1, n)
            last = min(last, n)
            lines, empty = [], 0
            for number in range(first, last + 1):
                page_lines = _page_lines(pdf.pages[number - 1], number)
                empty += not page_lines
                lines.extend(page_lines)
    except ScorerError:
        raise
    except Exception as exc:  # pdfminer raises many types for broken files, pdfplumber wraps them
        causes = [exc, *exc.args, exc.__cause__, exc.__context__]
        if any(isinstance(c, (PDFPasswordIncorrect, PDFEncryptionError)) for c in causes):
            raise UnreadablePdf(f"{name} is encrypted and needs a password") from exc
        raise UnreadablePdf(f"{name} is corrupt or truncated ({type(exc).__name__})") from exc
    read = max(0, last - first + 1) if n else 0
    if read == 0 or empty == read:
        raise UnreadablePdf(f"{name} has no text layer on any of its {read} pages (a scan?); "
                            "OCR is out of scope: run an OCR tool first")
    _mark_repeated(lines, read)
    _mark_columns(lines)
    return PdfText(lines, n, empty)


def _page_lines(page, number) -> list:
    tables = [t.bbox for t in page.find_tables()]
    out = []
    for raw in page.extract_text_lines(x_tolerance_ratio=X_TOLERANCE_RATIO, return_chars=True):
        # control characters (a NUL from a broken font map) would be refused later: drop them
        text = "".join(ch for ch in raw["text"] if unicodedata.category(ch) != "Cc").strip()
        text = _unspace_wide(text)
        if not text:
            continue
        glyphs = [ch for ch in raw["chars"] if not ch["text"].isspace()]
        sizes = Counter(round(ch["size"], 1) for ch in glyphs)
        fonts = Counter(ch.get("fontname", "") for ch in glyphs)
        mid_x, mid_y = (raw["x0"] + raw["x1"]) / 2, (raw["top"] + raw["bottom"]) / 2
        in_table = any(x0 <= mid_x <= x1 and top <= mid_y <= bottom for x0, top, x1, bottom in tables)
        out.append(Line(text=text, page=number, x0=raw["x0"], x1=raw["x1"], top=raw["top"],
                        bottom=raw["bottom"], size=sizes.most_common(1)[0][0] if sizes else 0.0,
                        table=in_table, code=bool(fonts) and is_monospace(fonts.most_common(1)[0][0])))
    return out


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
    return any(mark in fontname.lower() for mark in MONOSPACE)


def _mark_repeated(lines, pages) -> None:
    """Running headers/footers: the same text (digits ignored) at the same height on at least
    half of the pages (and at least 2); page numbers alone on a line at a page's top or bottom."""
    def key(line):
        return (round(line.top / 4), re.sub(r"\d+", "#", line.text))

    counts = Counter(key(line) for line in {(ln.page, key(ln)): ln for ln in lines}.values())
    need = max(2, (pages + 1) // 2)
    by_page = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    folio = _folio_offset(by_page)
    for number, page_lines in by_page.items():
        edges = {id(page_lines[0]), id(page_lines[-1])}
        for line in page_lines:
            if pages >= 2 and counts[key(line)] >= need:
                line.repeated = True
            elif id(line) in edges and (PAGE_NUMBER.match(line.text) or
                                        (folio is not None and folio in _edge_numbers(line, number))):
                line.repeated = True


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


def _mark_columns(lines) -> None:
    """Each page's body column: the left edge most lines start at, the right edge they reach."""
    by_page = {}
    for line in lines:
        if not line.repeated:
            by_page.setdefault(line.page, []).append(line)
    for page_lines in by_page.values():
        x0 = Counter(round(ln.x0) for ln in page_lines).most_common(1)[0][0]
        x1 = max(ln.x1 for ln in page_lines)
        for line in page_lines:
            line.column_x0, line.column_x1 = float(x0), float(x1)


def break_features(before: Line, after: Line) -> dict:
    """Layout evidence for the break between two consecutive body lines."""
    width = max(1.0, before.column_x1 - before.column_x0)
    same_page = before.page == after.page
    height = max(1.0, before.bottom - before.top)
    return {
        "fill": round((before.x1 - before.column_x0) / width, 3),  # how full the line is
        "indent_next": round((after.x0 - after.column_x0) / max(1.0, after.size or 1.0), 2),
        "gap": round((after.top - before.bottom) / height, 2) if same_page else None,
        "page_break": not same_page,
        "size_change": round(after.size - before.size, 1),
        "bullet_next": starts_item(after.text),
        "table": before.table or after.table,
        "code": before.code or after.code,
    }


def line_json(line: Line) -> dict:
    return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in asdict(line).items()}
