"""The labelled documents: Debian's documentation (a PDF and its plain-text twin per package,
fetched from Debian's archive once and cached), the samples, and the dev / held-out split.

Does: fetch and cache the packages, read the PDF pages of each split with their layout, label
them against the twin (labels.py), read the samples with their true paragraphs, and read the
documents an analyst labelled on the page (labelfile.py).
Does not: score, train or report.
"""

import gzip
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..align import BREAK, WRAP, joined_twin_labels, reading_order, twin_labels

# -- real documents: Debian documentation packages, fetched from Debian's archive ---------------
CACHE = Path(os.environ.get("PREFILL_LENS_CACHE", Path.home() / ".cache" / "prefill-lens")) / "debian"
DOCS = {  # package: (language, PDF, plain-text twin) inside it
    "developers-reference": ("en", "usr/share/developers-reference/developers-reference.pdf",
                             "usr/share/developers-reference/developers-reference.txt.gz"),
    "debian-reference-zh-cn": ("zh", "usr/share/debian-reference/debian-reference.zh-cn.pdf",
                               "usr/share/debian-reference/debian-reference.zh-cn.txt.gz"),
    "debian-reference-en": ("en", "usr/share/debian-reference/debian-reference.en.pdf",
                            "usr/share/debian-reference/debian-reference.en.txt.gz"),
    "debian-reference-zh-tw": ("zh", "usr/share/debian-reference/debian-reference.zh-tw.pdf",
                               "usr/share/debian-reference/debian-reference.zh-tw.txt.gz"),
    "debian-reference-de": ("de", "usr/share/debian-reference/debian-reference.de.pdf",
                            "usr/share/debian-reference/debian-reference.de.txt.gz"),
    "developers-reference-ja": ("ja", "usr/share/developers-reference/ja/developers-reference.pdf",
                                "usr/share/developers-reference/ja/developers-reference.txt.gz"),
    "developers-reference-fr": ("fr", "usr/share/developers-reference/fr/developers-reference.pdf",
                                "usr/share/developers-reference/fr/developers-reference.txt.gz"),
}


def fetch_debian_doc(package: str) -> tuple:
    """(pdf path, twin text) of a Debian documentation package, downloading it once."""
    _, pdf_rel, txt_rel = DOCS[package]
    root = CACHE / package
    pdf, txt = root / pdf_rel, root / txt_rel
    fetch_package(package, pdf_rel, txt_rel)
    with gzip.open(txt, "rt", encoding="utf-8") as fh:
        return pdf, fh.read()


def fetch_package(package: str, *files) -> Path:
    """Where Debian's `package` lies unpacked (CACHE/package): downloaded unless its `files`
    (paths inside it) are all there already."""
    root = CACHE / package
    if not all((root / f).is_file() for f in files) or not root.is_dir():
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
    return root


# -- the labelled documents and how they are split -------------------------------------------
# Development: what the hybrid's weights and the 2-gram table are trained on. Held out: other
# pages of the same documents and two documents never used for any tuning. (The first pages
# are title, contents and front matter; debian-reference-zh-cn's pages 61-100 are nearly all
# tables and code, hence 101-180.) Some Debian documents are reserved for an independent check
# and must never be read here (DEVELOPERS.md).
SPLITS = {
    "dev": [("developers-reference", 21, 60), ("debian-reference-zh-cn", 21, 60)],
    "held-out": [("developers-reference", 61, 100), ("debian-reference-zh-cn", 101, 180),
                 ("debian-reference-en", 21, 60), ("debian-reference-zh-tw", 21, 60),
                 ("debian-reference-de", 61, 100), ("developers-reference-fr", 61, 100),
                 ("developers-reference-ja", 61, 100)],
}


@dataclass
class Labelled:
    name: str
    lang: str  # "en" | "zh"
    split: str  # "dev" | "held-out" | "samples" | "labels"
    text: str  # what is scored: a PDF's body lines joined by newlines, or a sample text
    labels: list  # per candidate break: WRAP, BREAK or None
    layout: list = None  # per break: pdf.break_features, for PDFs
    pdf: tuple = None  # (path, first page, last page, [(page, top, bottom, x0, x1) per line])
    order: tuple = None  # align.Order: lines checked and out of order against the twin


def geometry(pdf) -> list:
    """Where each body line of a read PDF lies: (page, top, bottom, x0, x1)."""
    return [(ln.page, ln.top, ln.bottom, ln.x0, ln.x1) for ln in pdf.body]


def against_twin(name, lang, split, pdf, twin, pages) -> Labelled:
    """A read PDF labelled against its twin text; `pages`: (its path, first page, last page).
    The twin renders code and tables as blocks without paragraphs: no labels there."""
    lines = [ln.text for ln in pdf.body]
    layout = pdf.break_layout()
    labels = [None if f["code"] or f["table"] else label
              for label, f in zip(twin_labels(lines, twin), layout)]
    return Labelled(name, lang, split, "\n".join(lines), labels, layout,
                    (*pages, geometry(pdf)), reading_order(lines, twin))


def debian_documents(splits=("dev", "held-out")) -> list:
    from ..pdf import read_pdf

    out = []
    for split in splits:
        for package, first, last in SPLITS[split]:
            pdf_path, twin = fetch_debian_doc(package)
            pdf = read_pdf(pdf_path, max_pages=10_000, pages=(first, last))
            out.append(against_twin(f"{package} p{first}-{last}", DOCS[package][0], split, pdf,
                                    twin, (pdf_path, first, last)))
    return out


def sample_documents(samples_dir) -> list:
    """Each sample that has its true paragraphs in samples/expected/."""
    out = []
    for path in sorted(Path(samples_dir).glob("*.txt")):
        truth = Path(samples_dir) / "expected" / path.name
        if truth.is_file():
            text = path.read_text(encoding="utf-8")
            out.append(Labelled(path.name, path.name[:2], "samples", text,
                                joined_twin_labels(text, truth.read_text(encoding="utf-8"))))
    return out


def labelled_documents(labels_path, paths) -> list:
    """The documents of an analyst's labels file (JSON Lines, saved by the page): each .txt or
    .pdf read exactly as the page and the CLI read it, its labels found by its text's hash."""
    from ..breaks import candidates, is_wide
    from ..document import clean_text
    from ..inputs import decode_text, is_pdf
    from ..errors import BadInput
    from ..labelfile import read
    from ..pdfguard import read_pdf_guarded

    if not paths:
        raise BadInput("--labels needs the labelled documents: prefill-lens eval --labels "
                       "FILE.jsonl DOC.txt [DOC.pdf ...]")
    try:
        jsonl = Path(labels_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read the labels file {labels_path}: {exc}") from None
    out = []
    for path in map(Path, paths):
        if not path.is_file():
            raise BadInput(f"input file not found: {path}")
        layout = where = None
        data = path.read_bytes()
        if is_pdf(path, data):
            pdf = read_pdf_guarded(data, path.name)  # an analyst's PDF: read within limits
            text, layout = clean_text(pdf.text), pdf.break_layout()
            where = (path, 1, pdf.pages, geometry(pdf))
        else:
            text = clean_text(decode_text(data, str(path)))
        try:
            labels, _ = read(jsonl, text)
        except BadInput as exc:
            raise BadInput(f"{path.name}: {exc}") from None
        wide = sum(map(is_wide, text))
        lang = "zh" if wide * 2 > sum(ch.isalpha() for ch in text) else "en"
        per_break = [{"join": WRAP, "keep": BREAK}.get(labels.get(i)) for i in candidates(text)]
        out.append(Labelled(path.name, lang, "labels", text, per_break, layout, where))
    return out
