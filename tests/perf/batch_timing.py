"""Batch throughput with 1 and 2 workers over the same folder of 20 PDFs (16 good, 4 bad).

Not a test: run it by hand, quote the ratio.

    .venv/bin/python -m tests.perf.batch_timing [--model PATH] [--workers 1 2]
"""

import argparse
import io
import tempfile
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        make_folder(folder)
        rows = []
        for n in args.workers:
            s = batch.run([str(folder)], Path(tmp) / f"out{n}", args.model, workers=n,
                          stream=io.StringIO())
            rows.append(s)
            print(batch.readable(s), end="", flush=True)
    base = rows[0]
    for s in rows:
        print(f"workers {s['workers']}: {s['pages_per_s']:.2f} pages/s, {s['tokens_per_s']:,.0f} "
              f"tokens/s, {s['ok']} ok / {s['failed']} failed, "
              f"{s['tokens_per_s'] / base['tokens_per_s']:.2f}x workers {base['workers']}")


if __name__ == "__main__":
    main()
