"""Manual pages set by groff: the other way Unix documentation becomes a PDF (`groff -man
-Tpdf`: Times, justified, hyphenated, tagged lists, no paragraph indents), labelled against
the same pages rendered by groff as text with lines too long to wrap, so that each paragraph,
heading, list tag or code line is one line of the text.

Does: fetch Debian's `manpages` package (the Linux man-pages project) once, set each split's
pages into one PDF and one text (list tags on lines of their own there: `-rIN=1n`, an indent
no tag fits in, as groff sets a tag too wide for its indent in the PDF; a break after a tag
is kept), and label the PDF's breaks against the text.
Does not: score or train. Needs groff with its PDF writer (gropdf): `make test` installs it.
The manual pages of bash, rsync, find and nfs are reserved for an independent check and are
never read here (DEVELOPERS.md).
"""

import gzip
import subprocess
from pathlib import Path

from ..errors import ScorerError
from .corpus import CACHE, against_twin, fetch_package

PACKAGE = "manpages"
PAGES = {  # section 7 of the Linux man-pages project: prose, tagged lists, code, tables
    "dev": ["mq_overview", "symlink", "random", "pty", "futex", "shm_overview", "hostname"],
    "held-out": ["pipe", "epoll", "inotify", "credentials", "path_resolution", "unix"],
}
MAN7 = Path("usr/share/man/man7")  # inside the package
SET_CACHE = CACHE.parent / "manpages"


def groff(sources, device, *options) -> bytes:
    """What `groff -t -man -T<device>` writes for the man sources (tables by tbl)."""
    try:
        got = subprocess.run(["groff", "-t", "-man", f"-T{device}", *options,
                              *map(str, sources)], capture_output=True, timeout=600)
    except FileNotFoundError:
        raise ScorerError("the eval's man pages need groff: apt-get install groff "
                          "(make test installs it)") from None
    if got.returncode != 0:
        raise ScorerError(f"groff -T{device} failed: "
                          f"{got.stderr.decode(errors='replace')[:300]}")
    return got.stdout


def set_split(split) -> tuple:
    """(PDF path, text twin) of the split's pages, set anew (a few seconds)."""
    root = fetch_package(PACKAGE, *(MAN7 / f"{page}.7.gz" for page in PAGES[split]))
    SET_CACHE.mkdir(parents=True, exist_ok=True)
    sources = []
    for page in PAGES[split]:
        source = SET_CACHE / f"{page}.7"
        with gzip.open(root / MAN7 / f"{page}.7.gz", "rb") as fh:
            source.write_bytes(fh.read())
        sources.append(source)
    pdf = SET_CACHE / f"manpages-{split}.pdf"
    pdf.write_bytes(groff(sources, "pdf", "-dpaper=a4", "-P-pa4"))
    text = groff(sources, "utf8", "-rLL=3000n", "-rIN=1n", "-P-cbou").decode("utf-8")
    return pdf, "\n\n".join(line for line in text.splitlines() if line.strip())


def documents(splits=("dev", "held-out")) -> list:
    """The split's man pages, as one PDF each, labelled against the text groff sets of them."""
    from ..pdf import read_pdf

    out = []
    for split in splits:
        path, twin = set_split(split)
        pdf = read_pdf(path)
        out.append(against_twin(f"man pages ({split}) groff", "en", split, pdf, twin,
                                (path, 1, pdf.pages)))
    return out
