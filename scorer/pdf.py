"""PDF -> lines with layout: what the model cannot see, read from the page.

Does: open a PDF with pdfplumber (clear errors for empty, non-PDF, corrupt, encrypted, too long
and image-only files), extract text lines with their geometry (x0, x1, top, bottom, dominant
font size, page, the column their page's text spans), mark running headers/footers and page
numbers (removed from the text by default, kept in the JSON with a flag), table rows and lines
in a monospaced font (code, preformatted text: never merged), and describe each line break by
layout features.
Does not: decide anything (decide.py) or handle multi-column reading order.
"""

import io
import re
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from .breaks import is_wide, starts_item
from .errors import ScorerError, TooLarge, UnreadablePdf

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

    def break_layout(self) -> list:
        """Layout features per candidate break of `text`: body lines are stripped and non-empty,
        so break k lies between body lines k and k+1."""
        body = self.body
        return [break_features(a, b) for a, b in zip(body, body[1:])]

    def source(self) -> dict:
        """What a Document's `source` says of this PDF (the file name is the caller's)."""
        return {"type": "pdf", "pages": self.pages, "empty_pages": self.empty_pages,
                "removed": [line_json(ln) for ln in self.lines if ln.repeated]}


def check_pdf_bytes(head: bytes, size: int, name: str) -> None:
    if size == 0:
        raise UnreadablePdf(f"{name} is empty (0 bytes)")
    if b"%PDF-" not in head[:1024]:
        raise UnreadablePdf(f"{name} is not a PDF (no %PDF header)")


def read_pdf(source, max_pages=DEFAULT_MAX_PAGES, pages=None, *, name=None, max_chars=None,
             on_pages=None) -> PdfText:
    """Every text line of a PDF (a path, or its bytes with `name` for messages), with layout;
    only pages first..last (1-based, inclusive) when `pages` is given (running headers are then
    found among those pages). Refuses more than `max_pages` pages or `max_chars` characters of
    text; on_pages(n) hears the page count before any page is read."""
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
            if on_pages:
                on_pages(n)
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


# -- reading an untrusted PDF: in a child process, with limits -------------------------------
@dataclass(frozen=True)
class Guard:
    """Limits for reading an uploaded PDF. A PDF is a program: a small file can expand to
    hundreds of MB or run for minutes. The child's address space is capped and it is killed at
    its deadline: `seconds` plus `per_page` for each page it says it has."""
    max_pages: int = DEFAULT_MAX_PAGES
    max_chars: int = None
    seconds: float = 20.0
    per_page: float = 1.0
    memory_mb: int = 1536


def read_pdf_guarded(data: bytes, name: str, guard: Guard = Guard()) -> PdfText:
    """read_pdf on bytes, in a child process (spawned, so the parent's model is not copied);
    whatever the file does, the caller's memory is untouched and the answer comes in time."""
    import multiprocessing
    import time

    check_pdf_bytes(data[:1024], len(data), name)
    mp = multiprocessing.get_context("spawn")
    receive, send = mp.Pipe(duplex=False)
    child = mp.Process(target=_read_in_child, args=(send, data, name, guard), daemon=True)
    started = time.monotonic()
    child.start()
    send.close()
    deadline = started + guard.seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TooLarge(f"{name} took more than {deadline - started:.0f} s to read and was "
                               "stopped (a PDF this slow is likely malformed or hostile)")
            if receive.poll(min(left, 0.25)):
                try:
                    kind, value = receive.recv()
                except EOFError:  # the child died without a word (memory, or a crash)
                    kind, value = "died", None
                if kind == "pages":
                    deadline = started + guard.seconds + guard.per_page * value
                    continue
                if kind == "done":
                    return value
                if kind == "error":
                    raise value
                raise TooLarge(f"{name} needs more than {guard.memory_mb} MB of memory to read "
                               "and was stopped (likely a decompression bomb), or it crashed the "
                               "PDF reader")
    finally:
        child.kill()
        child.join()
        receive.close()


def _read_in_child(send, data, name, guard):
    import resource

    limit = guard.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        pdf = read_pdf(data, guard.max_pages, name=name, max_chars=guard.max_chars,
                       on_pages=lambda n: send.send(("pages", n)))
        send.send(("done", pdf))
    except ScorerError as exc:
        send.send(("error", exc))
    except MemoryError:
        send.send(("memory", None))
