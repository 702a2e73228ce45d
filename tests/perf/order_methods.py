"""Reading order: ours (pdf/, the engine's body lines) against the known ways to read a page
(scorer/evaluate/orders.py: recursive XY-cut, Breuel's whitespace cover and reading order,
pdfminer's layout analysis, PyMuPDF's blocks, pymupdf4llm's Markdown, pdfplumber's text across
the page), on every labelled document with a twin: Debian's PDFs (dev and held-out pages) and
the typeset ones (two columns by reportlab and by pdflatex, a browser's print, LibreOffice,
Typst, in English and Chinese). Per document and method, whatever lines it makes: the twin's
text cut into pieces of 25 normalised characters (orders.found_pieces), those that some method
holds found in each: how many it lost (broken by a column read across, or left out) / how many
of the rest must move for the rest to follow the twin, over all pieces and (in brackets) over
the prose's (outside the twin's code and tables); the last row, the share found in order. The
lines ours takes for furniture (running heads, page numbers) are left out of every method's.

With `--wild N`, PDFs the project did not make (the wild corpus, no twin): each page read by
ours, XY-cut and pdfminer; where their orders differ (a method loses or misplaces a tenth of the
pieces of ours' page text, or ours a tenth of its; the lines ours takes for furniture left out
of each), the model reads each method's page text (its lines joined by spaces: the order alone
differs) and the order it finds likelier, in bits per byte, is the one a reader would take;
per method, how many such pages it reads likeliest.

Not a test (it reads and typesets every labelled document, minutes; `--wild`, the model too):

    .venv/bin/python -m tests.perf.order_methods [--gutter 6]
    .venv/bin/python -m tests.perf.order_methods --wild 300 [--pages 150]
"""

import argparse
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from scorer.evaluate.corpus import SPLITS, fetch_debian_doc
from scorer.evaluate.orders import METHODS, XY_GUTTER, found_pieces, pieces_out, prose_pieces
from scorer.evaluate.typeset import SOURCES, TYPESET_CACHE, paragraphs, styles, typeset
from scorer.pdf import read_pdf


GUTTERED = ("XY-cut", "whitespace cover")  # the methods that take --gutter


def documents():
    """(name, PDF path, first page, last page, twin text) of every labelled document."""
    for split in ("dev", "held-out"):
        for package, first, last in SPLITS[split]:
            path, twin = fetch_debian_doc(package)
            yield f"{package} p{first}-{last}", path, first, last, twin
    TYPESET_CACHE.mkdir(parents=True, exist_ok=True)
    for split in ("dev", "held-out"):
        for package, start, lang in SOURCES[split]:
            items = paragraphs(fetch_debian_doc(package)[1], start)
            for style in styles(lang):
                path = TYPESET_CACHE / f"{package}-{style}.pdf"
                said = typeset(path, items, style, lang)
                yield f"{package} typeset {style}", path, 1, None, "\n\n".join(said)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gutter", type=float, default=XY_GUTTER,
                        help="XY-cut's and the whitespace cover's narrowest gutter in points")
    parser.add_argument("--wild", type=int, default=0,
                        help="measure on this many PDFs of the wild corpus instead")
    parser.add_argument("--pages", type=int, default=150, help="--wild: pages the model reads")
    args = parser.parse_args()
    if args.wild:
        return wild_pages(args)
    names = ["ours"] + list(METHODS)
    totals = defaultdict(lambda: [0] * 6)  # method -> pieces, lost, out of order; the prose's
    seconds = defaultdict(float)
    print("| document | pieces | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for name, path, first, last, twin in documents():
        started = time.perf_counter()
        pdf = read_pdf(path, max_pages=10_000, pages=(first, last) if last else None)
        last = last or pdf.pages
        lines = {"ours": [ln.text for ln in pdf.body]}
        seconds["ours"] += time.perf_counter() - started
        furniture = Counter(ln.text.strip() for ln in pdf.lines if ln.repeated)
        for method, read in METHODS.items():
            started = time.perf_counter()
            try:
                got = (read(path, first, last, args.gutter) if method in GUTTERED
                       else read(path, first, last))
            except ImportError:
                continue
            seconds[method] += time.perf_counter() - started
            lines[method] = _without(got, furniture)
        found = {method: found_pieces(got, twin) for method, got in lines.items()}
        asked = set().union(*found.values())  # the twin's pieces that some method holds
        prose = prose_pieces(twin, asked)
        cells = []
        for method in names:
            if method not in found:
                cells.append("not installed")
                continue
            counts = (len(asked), *pieces_out(found[method], asked),
                      len(prose), *pieces_out(found[method], prose))
            totals[method] = [a + b for a, b in zip(totals[method], counts)]
            cells.append("{1} / {2} ({4} / {5})".format(*counts))
        print(f"| {name} | {len(asked)} ({len(prose)}) | " + " | ".join(cells) + " |", flush=True)
    t = totals["ours"]
    print(f"| all | {t[0]} ({t[3]}) | " + " | ".join(
        "{1} / {2} ({4} / {5}): {6:.1%} ({7:.1%})".format(
            *t, (t[0] - t[1] - t[2]) / max(t[0], 1), (t[3] - t[4] - t[5]) / max(t[3], 1))
        for t in (totals[m] for m in names)) + " |")
    print("seconds: " + ", ".join(f"{m} {seconds[m]:.0f}" for m in names))


WILD_METHODS = ("ours", "XY-cut", "pdfminer: layout analysis")


def page_texts(path) -> list:
    """[(PDF name, page, {method: the page's lines})] for pages where the methods differ. The
    lines ours takes for furniture (running heads, page and line numbers) are left out of every
    method's: where they go is not the body's order."""
    try:
        pdf = read_pdf(path)
    except Exception as exc:  # a PDF ours refuses is the wild run's failure, not this one's
        print(f"{path}: {exc}")
        return []
    out = []
    for page in range(1, pdf.pages + 1):
        lines = {"ours": [ln.text for ln in pdf.lines if ln.page == page and not ln.repeated]}
        furniture = Counter(ln.text.strip() for ln in pdf.lines if ln.page == page and ln.repeated)
        if sum(map(len, lines["ours"])) < 500:
            continue
        for method in WILD_METHODS[1:]:
            lines[method] = _without(METHODS[method](path, page, page), furniture)
        if any(_differ(lines["ours"], lines[method]) for method in WILD_METHODS[1:]):
            out.append((Path(path).name, page, lines))
    return out


def _without(lines, furniture) -> list:
    """`lines` less those that are ours' furniture (a Counter of their texts): where a running
    head or a page number goes is not the body's order, and ours leaves them out."""
    left, out = furniture.copy(), []
    for line in lines:
        if left[line.strip()] > 0:
            left[line.strip()] -= 1
        else:
            out.append(line)
    return out


def _differ(ours, theirs) -> bool:
    """Does either reading lose or misplace a tenth of the other's pieces?"""
    for a, b in ((ours, theirs), (theirs, ours)):
        mine = found_pieces(a, "\n".join(a))
        if sum(pieces_out(found_pieces(b, "\n".join(a)), mine)) > len(mine) / 10:
            return True
    return False


def wild_pages(args) -> None:
    import multiprocessing
    import random

    from scorer.evaluate import wild
    from scorer.model import load_model
    from scorer.prefill import prefill

    paths = wild.documents(args.wild) + wild.printed_pages(30)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pages = [p for found in pool.imap(page_texts, paths) for p in found]
    read = len({name for name, _, _ in pages})
    print(f"{len(pages)} pages of {read} PDFs read differently (of {len(paths)} PDFs)")
    random.Random(0).shuffle(pages)
    model = load_model(None, threads=2)
    wins, worse = defaultdict(int), defaultdict(list)
    for name, page, lines in pages[:args.pages]:
        bits = {}
        for method in WILD_METHODS:
            data = " ".join(" ".join(lines[method]).split()).encode("utf-8")
            with model.lock:
                logprob = prefill(model, model.tokenize(data)).logprob
            bits[method] = -float(np.nansum(logprob)) / np.log(2) / max(len(data), 1)
        best = min(bits, key=bits.get)
        wins[best] += 1
        for method in WILD_METHODS:
            worse[method].append(bits[method] - bits[best])
        print(f"{name} p{page}: " + ", ".join(f"{m} {b:.3f}" for m, b in bits.items()), flush=True)
    print(f"of {min(len(pages), args.pages)} pages read differently, the likeliest order: " +
          ", ".join(f"{m} {wins[m]}" for m in WILD_METHODS))
    print("bits per byte above the page's likeliest, median / mean: " + ", ".join(
        f"{m} {np.median(worse[m]):.3f} / {np.mean(worse[m]):.3f}" for m in WILD_METHODS))


if __name__ == "__main__":
    main()
