"""What reading a PDF within limits costs (not a test): pdf.read_pdf in this process next to
pdfguard.read_pdf_guarded (a reader child, reused), interleaved, medians.

    .venv/bin/python -m tests.perf.pdf_guard [--reps 7]

The first guarded read starts the reader (an interpreter and pdfplumber): printed apart.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from scorer.pdf import read_pdf
from scorer.pdfguard import read_pdf_guarded
from tests import pdfs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = {"report (2 pages)": pdfs.report, "book (6 pages)": pdfs.book,
                 "two-column (2 pages)": pdfs.two_column, "guide (2 pages)": pdfs.structured}
        started = time.perf_counter()
        read_pdf_guarded(Path(__file__).resolve().parents[2] / "samples" / "en-field-guide.pdf")
        print(f"first guarded read (starts the reader): {time.perf_counter() - started:.2f} s")
        for label, make in files.items():
            path = Path(tmp) / "doc.pdf"
            make(path)
            direct, guarded = [], []
            for _ in range(args.reps):
                t = time.perf_counter()
                read_pdf(path)
                direct.append(time.perf_counter() - t)
                t = time.perf_counter()
                read_pdf_guarded(path)
                guarded.append(time.perf_counter() - t)
            d, g = statistics.median(direct), statistics.median(guarded)
            print(f"{label}: direct {d * 1000:.0f} ms, guarded {g * 1000:.0f} ms ({g / d:.2f}x)")


if __name__ == "__main__":
    main()
