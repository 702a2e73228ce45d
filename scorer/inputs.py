"""What an input is, decided once for every entry point (CLI, batch, web upload, Python API).

A file is a PDF when its name ends in .pdf, or, unless its name says text (.txt, .text), when
it begins with the "%PDF-" header (a PDF saved with another name, or sent on standard input,
is still a PDF; a text that mentions "%PDF-" is still text); anything else is UTF-8 text.
Does: that rule; the limits an input is read within (Guard: pdfguard.py reads a PDF within
them); reading an input's bytes within a byte limit (a file, a device, a pipe or
standard input: /dev/zero is refused, not read until memory runs out; a pipe that sends nothing
for a while is given up on) with errors that name it; decoding text within a character limit;
how a file name is shown (a name that is not UTF-8 is shown with \\x escapes); the key a text is
known by (labels files, caches, the JSON's sha256).
Does not: read PDFs (pdfguard.py, pdf.py) or check text for scoring (document.clean_text).
"""

import hashlib
import json
import os
import select
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput, ScorerError, TooLarge
from .settings import DEFAULT

PDF_MAGIC = b"%PDF-"
HEAD = 1024  # bytes read before an input's kind is decided
SUFFIXES = (".pdf", ".txt")  # what a folder given to the batch is searched for
TEXT_SUFFIXES = ("", ".txt", ".text")  # names an upload of text may have
BYTES_PER_CHAR = 4  # UTF-8's longest character: a text's byte limit from its character limit
CHUNK = 1 << 20


@dataclass(frozen=True)
class Guard:
    """Limits for reading one input. `seconds` bounds a PDF's whole read; `memory_mb` the
    child's address space (Python and pdfplumber take about 150 MB of it before the first page);
    `max_chars` a text's or a PDF's characters; `max_pdf_mb` a PDF file's size (inputs.py reads
    within it); `idle_s` how long a pipe named as an input may send nothing. Every limit is checked when a Guard is made: nonsense is one clear error."""
    max_pages: int = DEFAULT["MAX_PAGES"]
    max_chars: int = DEFAULT["OFFLINE_MAX_CHARS"]
    seconds: float = DEFAULT["OFFLINE_PDF_SECONDS"]
    memory_mb: int = DEFAULT["OFFLINE_PDF_MEMORY_MB"]
    # how to raise each limit, named in its error: Python's keywords here; the CLI names its
    # options, the web app its settings
    raise_seconds: str = "scorer.Guard(seconds=...)"
    raise_memory: str = "scorer.Guard(memory_mb=...)"
    max_pdf_mb: int = DEFAULT["OFFLINE_MAX_PDF_MB"]
    idle_s: float = DEFAULT["INPUT_IDLE_S"]

    def __post_init__(self):
        for what, low, high in LIMITS:
            number = getattr(self, what)
            if isinstance(number, bool) or not isinstance(number, (int, float)) or \
                    not low <= number <= high:  # NaN fails this too
                raise BadInput(f"{LIMIT_NAMES[what]} must be a number from {low:,} to {high:,}, "
                               f"not {str(number)[:20]}")


LIMITS = (("max_pages", 1, 100_000), ("max_chars", 1, 100_000_000),
          ("seconds", 0.1, 86_400), ("memory_mb", 256, 1_048_576), ("max_pdf_mb", 1, 65_536),
          ("idle_s", 0.1, 86_400))
LIMIT_NAMES = {"max_pages": "the page limit (--max-pages)",
               "max_chars": "the character limit (--max-chars)",
               "seconds": "the time limit for a PDF (--pdf-timeout)",
               "memory_mb": "the memory limit for a PDF (--pdf-memory)",
               "max_pdf_mb": "the size limit for a PDF file (--max-pdf-mb)",
               "idle_s": "the wait for a pipe"}


def is_pdf(name, head: bytes = b"") -> bool:
    """Whether an input named `name`, whose bytes begin with `head`, is a PDF."""
    suffix = Path(str(name)).suffix.lower()
    return suffix == ".pdf" or (suffix not in (".txt", ".text") and head.startswith(PDF_MAGIC))


def shown(name) -> str:
    """A file name as text that can always be printed and written as UTF-8: a name that is not
    UTF-8 (a byte the file system allows, held by Python as a lone surrogate) keeps \\xNN escapes
    for its bad bytes."""
    return os.fsencode(str(name)).decode("utf-8", "backslashreplace")


def read_bytes(source, guard: Guard = Guard()) -> bytes:
    """The bytes of a file path, or of standard input for "-", within `guard`: a PDF (is_pdf)
    of at most max_pdf_mb, a text of at most BYTES_PER_CHAR x max_chars. A pipe or device named
    as a file that sends nothing for idle_s is given up on (a FIFO nobody writes to); standard
    input is waited for. Errors say what went wrong."""
    max_chars, max_pdf_bytes, idle_s = guard.max_chars, guard.max_pdf_mb * 2**20, guard.idle_s
    if str(source) == "-":
        stream = sys.stdin.buffer
        return _read_limited(lambda: stream.read1(CHUNK), "standard input", "-", max_chars,
                             max_pdf_bytes)
    path = Path(source)
    name = shown(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ScorerError(f"input file not found: {name}") from None
    except OSError as exc:
        raise ScorerError(f"cannot read {name}: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise ScorerError(f"input is a folder, not a file: {name}")
    try:
        fd = os.open(path, os.O_RDONLY | (0 if stat.S_ISREG(mode) else os.O_NONBLOCK))
    except OSError as exc:
        raise ScorerError(f"cannot read {name}: {exc.strerror}") from None
    try:
        if stat.S_ISREG(mode):
            return _read_limited(lambda: os.read(fd, CHUNK), name, path, max_chars, max_pdf_bytes)
        return _read_limited(lambda: _read_waiting(fd, name, idle_s), name, path, max_chars,
                             max_pdf_bytes)
    except OSError as exc:
        raise ScorerError(f"cannot read {name}: {exc.strerror}") from None
    finally:
        os.close(fd)


def _read_waiting(fd, name, idle_s) -> bytes:
    """The next chunk of a pipe or device, waiting at most `idle_s` for it."""
    while True:
        if not select.select([fd], [], [], idle_s)[0]:
            raise ScorerError(f"nothing came from {name} for {idle_s:g} s (a pipe nobody "
                              "writes to?); gave up")
        try:
            return os.read(fd, CHUNK)
        except BlockingIOError:  # woken for nothing: wait again
            time.sleep(0.01)


def _read_limited(read, name, kind_name, max_chars, max_pdf_bytes) -> bytes:
    """Chunks from `read()` until it returns b"", refused past the limit of the input's kind,
    which its first HEAD bytes decide."""
    data, limit = bytearray(), None
    while True:
        chunk = read()
        data += chunk
        if limit is None and (len(data) >= HEAD or not chunk):
            pdf = is_pdf(kind_name, bytes(data[:HEAD]))
            limit = max_pdf_bytes if pdf else max_chars * BYTES_PER_CHAR
        if limit is not None and len(data) > limit:
            what = (f"a PDF may have {limit:,} bytes" if pdf else
                    f"a text may have {max_chars:,} characters ({limit:,} bytes)")
            how = "--max-pdf-mb, or max_pdf_mb" if pdf else "--max-chars, or max_chars"
            raise TooLarge(f"{name} is larger than the limit: {what} (to allow more: {how} in "
                           "Python's scorer.Guard)")
        if not chunk:
            return bytes(data)


def check_length(text: str, max_chars=DEFAULT["OFFLINE_MAX_CHARS"], name="the text") -> str:
    """`text`, refused when longer than `max_chars`."""
    if len(text) > max_chars:
        raise TooLarge(f"{name} has {len(text):,} characters; the limit is {max_chars:,} (to "
                       "allow more: --max-chars, or max_chars in Python's scorer.Guard)")
    return text


def decode_text(data: bytes, name: str = "input", max_chars=DEFAULT["OFFLINE_MAX_CHARS"]) -> str:
    """UTF-8 bytes (a BOM allowed) -> str, with a clear error naming the first bad byte; at most
    `max_chars` characters (check_length)."""
    try:
        return check_length(data.decode("utf-8-sig"), max_chars, name)
    except UnicodeDecodeError as exc:
        raise ScorerError(f"{name} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at "
                          f"offset {exc.start})") from exc


def load_json(data, what="the JSON"):
    """JSON text or bytes -> its value; BadInput that says what is wrong (a number too long to
    read, nesting too deep, or where the syntax breaks)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise BadInput(f"{what} is nested too deeply") from None
    except ValueError as exc:
        if "digits" in str(exc):  # Python reads integers of up to 4,300 digits
            raise BadInput(f"{what} holds a number too long to read (more than 4,300 digits)") \
                from None
        where = f" at line {exc.lineno}, column {exc.colno}" if hasattr(exc, "lineno") else ""
        raise BadInput(f"{what} is not valid JSON{where}") from None


def check_text_name(name: str) -> None:
    """Refuse an upload whose name says it is neither text nor PDF (a .docx, an image)."""
    if Path(name).suffix.lower() not in TEXT_SUFFIXES:
        raise BadInput(f"{name}: only .txt and .pdf files can be scored")


def text_hash(text: str) -> str:
    """The key a text is known by: sha256 of its UTF-8 (labels files, the JSON, caches)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bytes_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
