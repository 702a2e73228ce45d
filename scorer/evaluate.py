"""Labels for evaluation: which line breaks of a PDF's text are wraps, read off a plain-text twin.

Debian's documentation packages ship the same document as a PDF and as plain text. The twin's
paragraphs (blocks between blank lines, list items, headings) say where the real breaks are.
Does: align the PDF's lines to the twin, ignoring whitespace, and label each newline between
two aligned, adjacent lines WRAP (inside a twin paragraph) or BREAK (at a paragraph, list item
or heading boundary); newlines that do not align stay unlabelled (None).
Does not: score or decide (the evaluation report builds on these labels).
"""

import gzip
import os
import re
import subprocess
import tempfile
import unicodedata
from pathlib import Path

from .breaks import starts_item

WRAP, BREAK = "wrap", "break"
SEARCH_AHEAD = 4000  # normalised characters a line may be away from the previous one in the twin
ANCHOR = 25  # a line this long (normalised) is distinctive enough to be searched for anywhere
BULLET = re.compile(r"^\s*[*•·●▪‣◦-]\s+")  # list markers differ between a PDF and its twin
UNDERLINE = re.compile(r"^\s*([=\-*~^#+])\1{2,}\s*$")  # a heading's underline in a text rendering
FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-"})


def normalise(text: str) -> str:
    """What alignment compares: NFKC, straight quotes and plain dashes, no list marker, no
    whitespace at all."""
    text = BULLET.sub("", unicodedata.normalize("NFKC", text).translate(FOLD))
    return "".join(ch for ch in text if not ch.isspace())


def twin_stream(twin: str) -> tuple:
    """(normalised twin text, set of positions in it where a paragraph, item or heading starts)."""
    out, starts, pos = [], set(), 0
    new_block, column = True, 0
    for line in twin.splitlines():
        if not line.strip() or UNDERLINE.match(line):  # blank, or the underline of a heading
            new_block = True
            continue
        indent = len(line) - len(line.lstrip())
        marker = BULLET.match(line)
        # a paragraph's lines continue at its text column; any other indent starts a block
        if new_block or indent != column or marker or starts_item(line):
            starts.add(pos)
        column = marker.end() if marker else indent
        norm = normalise(line)
        new_block = False
        out.append(norm)
        pos += len(norm)
    return "".join(out), starts


def twin_labels(lines, twin: str) -> list:
    """Per newline between consecutive `lines` (PDF line texts): WRAP, BREAK or None."""
    stream, starts = twin_stream(twin)
    found = []  # per line: (start, end) in the stream, or None
    cursor = 0
    for line in lines:
        norm = normalise(line)
        at = _find(stream, norm, cursor)
        if at < 0 and norm.endswith("-"):  # a word hyphenated by the layout, whole in the twin
            norm = norm[:-1]
            at = _find(stream, norm, cursor)
        if at < 0:
            found.append(None)
            continue
        found.append((at, at + len(norm)))
        cursor = at + len(norm)
    labels = []
    for here, after in zip(found, found[1:]):  # only adjacent, contiguous lines get a label
        if here is None or after is None or after[0] != here[1]:
            labels.append(None)
        else:
            labels.append(BREAK if after[0] in starts else WRAP)
    return labels


def _find(stream, norm, cursor) -> int:
    """Where `norm` continues the alignment: near the cursor, else (if distinctive) anywhere after."""
    if not norm:
        return -1
    at = stream.find(norm, cursor, cursor + SEARCH_AHEAD + len(norm))
    if at < 0 and len(norm) >= ANCHOR:
        at = stream.find(norm, cursor)
    return at


# -- real documents: Debian documentation packages, fetched from Debian's archive ---------------
CACHE = Path(os.environ.get("PREFILL_LENS_CACHE", Path.home() / ".cache" / "prefill-lens")) / "debian"
DOCS = {  # package: (PDF, plain-text twin) inside it
    "developers-reference": ("usr/share/developers-reference/developers-reference.pdf",
                             "usr/share/developers-reference/developers-reference.txt.gz"),
    "debian-reference-zh-cn": ("usr/share/debian-reference/debian-reference.zh-cn.pdf",
                               "usr/share/debian-reference/debian-reference.zh-cn.txt.gz"),
}


def fetch_debian_doc(package: str) -> tuple:
    """(pdf path, twin text) of a Debian documentation package, downloading it once."""
    pdf_rel, txt_rel = DOCS[package]
    root = CACHE / package
    pdf, txt = root / pdf_rel, root / txt_rel
    if not (pdf.is_file() and txt.is_file()):
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)  # apt's sandbox user must be able to write there
            got = subprocess.run(["apt-get", "download", package], cwd=tmp,
                                 capture_output=True, timeout=600)
            if got.returncode != 0:  # a fresh machine may have no package lists yet
                subprocess.run(["apt-get", "update"], check=True, capture_output=True, timeout=600)
                subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                               capture_output=True, timeout=600)
            deb = next(Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True, timeout=600)
    with gzip.open(txt, "rt", encoding="utf-8") as fh:
        return pdf, fh.read()
