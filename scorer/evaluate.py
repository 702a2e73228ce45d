"""Labels for evaluation: which line breaks of a PDF's text are wraps, read off a plain-text twin.

Debian's documentation packages ship the same document as a PDF and as plain text. The twin's
paragraphs (blocks between blank lines, list items, headings) say where the real breaks are.
Does: align the PDF's lines to the twin, ignoring whitespace, and label each newline between
two aligned, adjacent lines WRAP (inside a twin paragraph) or BREAK (at a paragraph, list item
or heading boundary); newlines that do not align stay unlabelled (None).
The report (`python -m scorer eval`) scores each labelled document in both context modes and
compares, on the labelled breaks only, the model's decisions with simple baselines.
Does not: tune anything; it measures.
"""

import gzip
import os
import re
import subprocess
import tempfile
import unicodedata
from pathlib import Path

import numpy as np

from .breaks import DEFAULT_CUTOFF, candidates, decide, is_wide, starts_item

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


# -- labels from a twin that has one paragraph per line (the samples) -------------------------
def joined_twin_labels(wrapped: str, truth: str) -> list:
    """Per candidate newline of `wrapped`: WRAP or BREAK, where `truth` is `wrapped` with its
    wraps replaced by nothing (CJK) or one space (Latin)."""
    per_newline, pos = [], 0
    for ch in wrapped:
        if ch == "\n":
            is_break = pos < len(truth) and truth[pos] == "\n"
            per_newline.append(BREAK if is_break else WRAP)
            pos += 1 if is_break or (pos < len(truth) and truth[pos] == " ") else 0
        else:
            pos += 1
    newline_index = {i: k for k, i in enumerate(i for i, ch in enumerate(wrapped) if ch == "\n")}
    return [per_newline[newline_index[i]] for i in candidates(wrapped)]


# -- decisions to compare -------------------------------------------------------------------
SENTENCE_END = tuple(".!?:;。！？：；")


def display_width(line: str) -> int:
    return sum(2 if is_wide(ch) else 1 for ch in line)


def baselines(lines, fills) -> dict:
    """Plain decisions per break between consecutive `lines` (fills: how full each line is)."""
    n = len(lines) - 1
    return {
        "keep-all": ["keep"] * n,
        "join-all": ["join"] * n,
        "rule: sentence end": ["keep" if lines[k].rstrip().endswith(SENTENCE_END) else "join"
                               for k in range(n)],
        "rule: short line": ["keep" if fills[k] < 0.85 else "join" for k in range(n)],
    }


def model_decisions(doc, cutoff=DEFAULT_CUTOFF) -> list:
    """The percentile alone, nothing forced."""
    return [decide(p, cutoff) for p in doc.percentile]


def metrics(labels, decisions) -> dict:
    """Accuracy, F1 of keep and of join, macro-F1 and confusion counts on the labelled breaks."""
    pairs = [(lab, dec) for lab, dec in zip(labels, decisions) if lab is not None]
    count = {(lab, dec): sum(1 for p in pairs if p == (lab, dec))
             for lab in (WRAP, BREAK) for dec in ("join", "keep")}
    def f1(truth, said):
        tp = count[(truth, said)]
        fp = sum(count[(other, said)] for other in (WRAP, BREAK) if other != truth)
        fn = sum(count[(truth, other)] for other in ("join", "keep") if other != said)
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    right = count[(WRAP, "join")] + count[(BREAK, "keep")]
    f_keep, f_join = f1(BREAK, "keep"), f1(WRAP, "join")
    return {"n": len(pairs), "accuracy": right / len(pairs) if pairs else float("nan"),
            "f1_keep": f_keep, "f1_join": f_join, "macro_f1": (f_keep + f_join) / 2,
            "wrap_joined": count[(WRAP, "join")], "wrap_kept": count[(WRAP, "keep")],
            "break_kept": count[(BREAK, "keep")], "break_joined": count[(BREAK, "join")]}


def evaluate_text(model, name, text, labels, fills, lines) -> list:
    """Rows of the report for one document: every method on its labelled breaks."""
    from .document import score

    rows = [{"document": name, "method": m, **metrics(labels, d)}
            for m, d in baselines(lines, fills).items()]
    for mode in ("as-is", "joined"):
        doc = score(model, text, mode=mode, detail="breaks")
        rows.append({"document": name, "method": f"model {mode} @34%",
                     **metrics(labels, model_decisions(doc))})
        if mode == "joined":
            rows.append({"document": name, "method": "default (joined + item/table/code keeps)",
                         **metrics(labels, doc.decisions())})
    return rows


def sample_documents(samples_dir) -> list:
    """(name, text, labels, fills, lines) of each sample that has its true paragraphs."""
    out = []
    for path in sorted(Path(samples_dir).glob("*.txt")):
        truth = Path(samples_dir) / "expected" / path.name
        if not truth.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.rstrip("\n").split("\n")
        widest = max(display_width(line) for line in lines)
        out.append((path.name, text, joined_twin_labels(text, truth.read_text(encoding="utf-8")),
                    [display_width(line) / widest for line in lines], lines))
    return out


def debian_documents(first, last) -> list:
    """(name, text, labels, fills, lines) for pages first..last of each Debian document (their
    first pages are title, contents and front matter, with few labelled breaks)."""
    from .pdf import read_pdf

    out = []
    for package in DOCS:
        pdf_path, twin = fetch_debian_doc(package)
        body = [ln for ln in read_pdf(pdf_path, max_pages=10_000).body if first <= ln.page <= last]
        lines = [ln.text for ln in body]
        fills = [(ln.x1 - ln.column_x0) / max(1.0, ln.column_x1 - ln.column_x0) for ln in body]
        out.append((f"{package} p{first}-{last}", "\n".join(lines), twin_labels(lines, twin),
                    fills, lines))
    return out


def report(rows) -> str:
    head = f"{'document':34} {'method':42} {'n':>5} {'acc':>6} {'F1keep':>6} {'F1join':>6} {'macroF1':>7}  confusion (wrap->join/keep, break->keep/join)"
    out = [head]
    for r in rows:
        out.append(f"{r['document'][:34]:34} {r['method'][:42]:42} {r['n']:5d} {r['accuracy']:6.3f} "
                   f"{r['f1_keep']:6.3f} {r['f1_join']:6.3f} {r['macro_f1']:7.3f}  "
                   f"{r['wrap_joined']}/{r['wrap_kept']}, {r['break_kept']}/{r['break_joined']}")
    return "\n".join(out)
