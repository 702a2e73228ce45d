"""Batch throughput over the same folder of 20 PDFs (16 good, 4 bad): 1 and 2 local workers,
and the Ray engine (a Ray runtime started here) with 2 actors, in one run. `--held-out`: over
the eval's held-out PDFs instead (each document's pages copied into a PDF of its own).
`--wild N`: over N PDFs of the wild corpus (evaluate.wild.documents), beside the baseline of
pdfplumber's own text extraction of the same files in as many processes, in the same run.

Not a test: run it by hand, quote the ratio.

    .venv/bin/python -m tests.perf.batch_timing [--model PATH] [--workers 1 2] [--ray 2]
                                                [--held-out | --wild N]

Each run's wall time counts from the first input to the summary: for Ray it includes starting
Ray and its actors loading the model; `ray start` alone is timed separately.
"""

import argparse
import io
import multiprocessing
import tempfile
import time
from pathlib import Path

from scorer import batch
from tests import pdfs

ROOT = Path(__file__).resolve().parents[2]


def make_folder(folder: Path) -> None:
    samples = sorted((ROOT / "samples").glob("*.txt"))
    for k in range(16):
        lines = samples[k % len(samples)].read_text(encoding="utf-8").splitlines() * (1 + k % 3)
        pdfs.text_pdf(folder / f"doc{k:02}.pdf", lines)
    (folder / "empty.pdf").write_bytes(b"")
    (folder / "not-a-pdf.pdf").write_text("hello")
    pdfs.encrypted(folder / "locked.pdf")
    pdfs.image_only(folder / "scan.pdf")


def held_out_folder(folder: Path) -> None:
    """The eval's held-out PDFs, each document's page range a PDF of its own (pypdfium2, which
    pdfplumber installs)."""
    import pypdfium2

    from scorer.evaluate import corpus, typeset

    for doc in corpus.debian_documents(("held-out",)) + typeset.documents(("held-out",)):
        path, first, last, _ = doc.pdf
        source, out = pypdfium2.PdfDocument(str(path)), pypdfium2.PdfDocument.new()
        out.import_pages(source, list(range(first - 1, last)))
        out.save(str(folder / (doc.name.replace(" ", "-") + ".pdf")))


def wild_folder(folder: Path, count: int) -> None:
    """`count` PDFs of the wild corpus, linked into the folder."""
    from scorer.evaluate import wild

    for k, path in enumerate(wild.documents(count)):
        (folder / f"{k:03}-{path.name}").symlink_to(path)


def _plumb(path) -> int:
    """pdfplumber's own text of every page of one PDF; its pages (0 if it fails)."""
    import pdfplumber

    try:
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                page.extract_text()
            return len(pdf.pages)
    except Exception:  # noqa: BLE001 -- a failing PDF counts no pages
        return 0


def plumb_folder(folder: Path, workers: int) -> dict:
    """The baseline: pdfplumber.extract_text over the folder's PDFs in `workers` processes."""
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pages = sum(pool.map(_plumb, sorted(str(p) for p in folder.glob("*.pdf"))))
    wall = time.perf_counter() - started
    return {"wall_s": wall, "pages": pages, "pages_per_s": pages / wall}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--ray", type=int, nargs="*", default=[2], help="actors per Ray run")
    parser.add_argument("--held-out", action="store_true",
                        help="the eval's held-out PDFs instead of 20 generated ones")
    parser.add_argument("--wild", type=int, metavar="N",
                        help="N PDFs of the wild corpus, beside pdfplumber's own extraction")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        if args.wild:
            wild_folder(folder, args.wild)
        else:
            (held_out_folder if args.held_out else make_folder)(folder)
        rows = []
        plumbed = {n: plumb_folder(folder, n) for n in args.workers} if args.wild else {}
        runs = [("local", n) for n in args.workers] + [("ray", n) for n in args.ray]
        for engine, n in runs:
            s = batch.run([str(folder)], Path(tmp) / f"out-{engine}{n}", args.model, workers=n,
                          stream=io.StringIO(), engine=engine)
            rows.append(s)
            print(batch.readable(s), end="", flush=True)
    if args.ray:
        import ray

        started = time.perf_counter()
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        ray.shutdown()
        print(f"starting and stopping a local Ray runtime alone: {time.perf_counter() - started:.1f} s")
    base = rows[0]
    for s in rows:
        print(f"{s['engine']} workers {s['workers']}: {s['wall_s']:.1f} s, {s['pages_per_s']:.2f} "
              f"pages/s, {s['tokens_per_s']:,.0f} tokens/s, {s['ok']} ok / {s['failed']} failed, "
              f"{s['tokens_per_s'] / base['tokens_per_s']:.2f}x {base['engine']} "
              f"workers {base['workers']}")
        if s["engine"] == "local" and s["workers"] in plumbed:
            p = plumbed[s["workers"]]
            print(f"  pdfplumber's own extraction, {s['workers']} processes: {p['wall_s']:.1f} s, "
                  f"{p['pages']:,} pages, {p['pages_per_s']:.2f} pages/s; ours at "
                  f"{s['pages_per_s'] / p['pages_per_s']:.2f}x its speed")


if __name__ == "__main__":
    main()
