"""The cascade (`merge`'s detail now) next to the pass it replaced (logits at every break), on
the eval's held-out PDFs: the PDF read, then scored (hyphens included), both ways interleaved,
medians of several runs, with the decisions of both compared.

Not a test: run it by hand, quote the ratios.

    .venv/bin/python -m tests.perf.cascade_timing [--model PATH] [--runs 3]
"""

import argparse
import statistics
import time

from scorer import decide
from scorer.document import score
from scorer.evaluate import corpus, typeset
from scorer.model import load_model
from scorer.pdf import read_pdf


def timed(model, doc, detail) -> tuple:
    """(seconds, decisions): the document's pages read, then scored with `detail`."""
    path, first, last, _ = doc.pdf
    started = time.perf_counter()
    pdf = read_pdf(path, max_pages=10_000, pages=(first, last))
    scored = score(model, pdf.text, detail=detail, layout=pdf.break_layout())
    return time.perf_counter() - started, decide.of(scored), scored.stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    model = load_model(args.model)
    docs = corpus.debian_documents(("held-out",)) + typeset.documents(("held-out",))
    print("| document | pages | asked | breaks s/page | cascade s/page | ratio | same decisions |")
    print("|---|---|---|---|---|---|---|")
    totals = {"breaks": 0.0, "cascade": 0.0}
    pages_all = 0
    for doc in docs:
        pages = doc.pdf[2] - doc.pdf[1] + 1
        times = {"breaks": [], "cascade": []}
        said = {}
        for _ in range(args.runs):
            for detail in ("breaks", "cascade"):
                seconds, said[detail], stats = timed(model, doc, detail)
                times[detail].append(seconds)
        med = {d: statistics.median(t) for d, t in times.items()}
        for d in totals:
            totals[d] += med[d]
        pages_all += pages
        print(f"| {doc.name} | {pages} | {stats['asked']} of {stats['n_breaks']} | "
              f"{med['breaks'] / pages:.3f} | {med['cascade'] / pages:.3f} | "
              f"{med['cascade'] / med['breaks']:.2f} | {said['breaks'] == said['cascade']} |")
    print(f"| all | {pages_all} | | {totals['breaks'] / pages_all:.3f} | "
          f"{totals['cascade'] / pages_all:.3f} | {totals['cascade'] / totals['breaks']:.2f} | |")


if __name__ == "__main__":
    main()
