"""What an input is, decided once for every entry point (CLI, batch, web upload, Python API).

A file is a PDF when its name ends in .pdf or its first KB holds the "%PDF-" header (as PDF
readers allow: a PDF saved with a wrong name, or sent on standard input, is still a PDF);
anything else is UTF-8 text. Does: that rule, reading a file's bytes with errors that name it,
decoding text, and the key a text is known by (labels files, caches, the JSON's sha256).
Does not: read PDFs (pdfguard.py, pdf.py) or check text for scoring (document.clean_text).
"""

import hashlib
import sys
from pathlib import Path

from .errors import BadInput, ScorerError

PDF_MAGIC = b"%PDF-"
MAGIC_WITHIN = 1024  # bytes: where a PDF's header may be
SUFFIXES = (".pdf", ".txt")  # what a folder given to the batch is searched for
TEXT_SUFFIXES = ("", ".txt", ".text")  # names an upload of text may have


def is_pdf(name, head: bytes = b"") -> bool:
    """Whether an input named `name`, whose bytes begin with `head`, is a PDF."""
    return Path(str(name)).suffix.lower() == ".pdf" or PDF_MAGIC in head[:MAGIC_WITHIN]


def read_bytes(source) -> bytes:
    """The bytes of a file path, or of standard input for "-"; errors say what went wrong."""
    if str(source) == "-":
        return sys.stdin.buffer.read()
    path = Path(source)
    if path.is_dir():
        raise ScorerError(f"input is a folder, not a file: {path}")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise ScorerError(f"input file not found: {path}") from None
    except OSError as exc:
        raise ScorerError(f"cannot read {path}: {exc.strerror}") from None


def decode_text(data: bytes, name: str = "input") -> str:
    """UTF-8 bytes (a BOM allowed) -> str, with a clear error naming the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScorerError(f"{name} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at "
                          f"offset {exc.start})") from exc


def check_text_name(name: str) -> None:
    """Refuse an upload whose name says it is neither text nor PDF (a .docx, an image)."""
    if Path(name).suffix.lower() not in TEXT_SUFFIXES:
        raise BadInput(f"{name}: only .txt and .pdf files can be scored")


def text_hash(text: str) -> str:
    """The key a text is known by: sha256 of its UTF-8 (labels files, the JSON, caches)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bytes_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
