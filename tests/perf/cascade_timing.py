"""The cascade (`merge`'s detail now: only the asked breaks' 32-token windows) next to what
`merge` ran before (one pass over the whole text with logits at every break, then the
line-end hyphens), on the eval's held-out PDFs: each PDF's pages read, then scored, both ways
interleaved, medians of several runs.

Not a test: run it by hand, quote the ratios.

    .venv/bin/python -m tests.perf.cascade_timing [--model PATH] [--runs 3] [--pages N] [--pasted]
"""

import argparse
import statistics
import time
from dataclasses import replace

from scorer import hyphen
from scorer.document import _read_as, score
from scorer.evaluate import corpus, typeset
from scorer.model import load_model
from scorer.pdf import read_pdf
from scorer.prefill import prefill_steps, run_steps


def whole_pass(model, text, layout):
    """What merge ran before the cascade: the whole pass, logits at every break, the hyphens."""
    offsets, _, _, ids, _, _, queries, next_token = _read_as(model, text, "joined")
    with model.lock:
        run_steps(prefill_steps(model, ids, positions=[j for j in next_token if j >= 0],
                                queries=[(q[0], p) for q in queries for p in q[1:] if p]))
        run_steps(hyphen.decide_steps(model, text, offsets))
    return {"asked": len(offsets), "tokens": len(ids)}


def cascade(model, text, layout):
    doc = score(model, text, detail="cascade", layout=layout)
    return {"asked": doc.stats["asked"], "tokens": doc.stats["window_tokens"]}


def timed(model, doc, how, pasted=False) -> tuple:
    """(seconds, what was read): the document's pages read, then scored `how`; `pasted`: their
    text scored without the PDF's layout (as pasted), the reading not timed."""
    path, first, last, _ = doc.pdf
    started = time.perf_counter()
    pdf = read_pdf(path, max_pages=10_000, pages=(first, last))
    if pasted:
        started = time.perf_counter()
    said = how(model, pdf.text, None if pasted else pdf.break_layout())
    return time.perf_counter() - started, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", type=int, default=None,
                        help="only the first N pages of each Debian range (quicker)")
    parser.add_argument("--pasted", action="store_true",
                        help="score the pages' text without the PDF's layout (as pasted)")
    args = parser.parse_args()
    model = load_model(args.model)
    docs = corpus.debian_documents(("held-out",)) + typeset.documents(("held-out",))
    if args.pages:
        docs = [replace(d, pdf=(d.pdf[0], d.pdf[1], min(d.pdf[2], d.pdf[1] + args.pages - 1),
                                d.pdf[3])) for d in docs]
    print("| document | pages | breaks asked | tokens read: whole / cascade | whole s/page | "
          "cascade s/page | cascade / whole |")
    print("|---|---|---|---|---|---|---|")
    totals, pages_all = {"whole": 0.0, "cascade": 0.0}, 0
    for doc in docs:
        pages = doc.pdf[2] - doc.pdf[1] + 1
        times, said = {"whole": [], "cascade": []}, {}
        for _ in range(args.runs):
            for name, how in (("whole", whole_pass), ("cascade", cascade)):
                seconds, said[name] = timed(model, doc, how, args.pasted)
                times[name].append(seconds)
        med = {name: statistics.median(t) for name, t in times.items()}
        for name in totals:
            totals[name] += med[name]
        pages_all += pages
        print(f"| {doc.name} | {pages} | {said['cascade']['asked']} of {said['whole']['asked']} | "
              f"{said['whole']['tokens']} / {said['cascade']['tokens']} | "
              f"{med['whole'] / pages:.3f} | {med['cascade'] / pages:.3f} | "
              f"{med['cascade'] / med['whole']:.2f} |")
    print(f"| all | {pages_all} | | | {totals['whole'] / pages_all:.3f} | "
          f"{totals['cascade'] / pages_all:.3f} | {totals['cascade'] / totals['whole']:.2f} |")


if __name__ == "__main__":
    main()
