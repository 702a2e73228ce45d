"""Batch throughput over the same folder of 20 PDFs (16 good, 4 bad): 1 and 2 local workers,
and the Ray engine (a Ray runtime started here) with 2 actors, in one run. `--held-out`: over
the eval's held-out PDFs instead (each document's pages copied into a PDF of its own).

Not a test: run it by hand, quote the ratio.

    .venv/bin/python -m tests.perf.batch_timing [--model PATH] [--workers 1 2] [--ray 2]
                                                [--held-out]

Each run's wall time counts from the first input to the summary: for Ray it includes starting
Ray and its actors loading the model; `ray start` alone is timed separately.
"""

import argparse
import io
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--ray", type=int, nargs="*", default=[2], help="actors per Ray run")
    parser.add_argument("--held-out", action="store_true",
                        help="the eval's held-out PDFs instead of 20 generated ones")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        (held_out_folder if args.held_out else make_folder)(folder)
        rows = []
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


if __name__ == "__main__":
    main()
