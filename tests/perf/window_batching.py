"""Why the cascade reads its windows one a decode: the asked breaks' windows (prefill.window_steps,
one reading a decode, as shipped) next to the same windows read many to a decode (the hyphen
stage's way, prefill.readings_steps: up to 16 sequences and 256 tokens a decode), on the samples,
interleaved, medians of several runs; and how far a window's log P(newline) moves with the other
readings that share its decode (read all together, in reverse order, and each alone).

Many to a decode is faster, but llama.cpp's CPU kernels round by the batch they compute, so a
break's number would depend on which other breaks were asked with it: a page range read alone
and the whole document would not give one break the same evidence (tests/test_engine.py holds
the shipped readings to exactly the same number wherever the break stands).

Not a test: run it by hand, quote the ratios.

    .venv/bin/python -m tests.perf.window_batching [--model PATH] [--runs 3]
"""

import statistics
import time

import numpy as np

from scorer import hybrid
from scorer.document import _read_as
from scorer.prefill import readings_steps, run_steps, window_steps
from tests.perf import ROOT, with_model


def main():
    args, model = with_model(lambda p: p.add_argument("--runs", type=int, default=3))
    newline = model.tokenize_exact(["\n"])[0]
    for path in sorted((ROOT / "samples").glob("*.txt")):
        text, name = path.read_text(encoding="utf-8"), path.name
        _, _, _, ids, _, _, queries, _ = _read_as(model, text, "joined")
        at = sorted({int(q[0]) for q in queries})
        for window in sorted(set(hybrid.WINDOWS.values())):
            items = [([int(t) for t in ids[max(0, j - window):j]], [newline]) for j in at]
            one, many = [], []
            with model.lock:
                for _ in range(args.runs):
                    started = time.perf_counter()
                    run_steps(window_steps(model, ids, [(j, b"\n") for j in at], window))
                    one.append(time.perf_counter() - started)
                    started = time.perf_counter()
                    together = run_steps(readings_steps(model, items))
                    many.append(time.perf_counter() - started)
                backwards = run_steps(readings_steps(model, items[::-1]))[::-1]
                alone = [run_steps(readings_steps(model, [item]))[0] for item in items]
            together, backwards, alone = (np.array([r[0] for r in got])
                                          for got in (together, backwards, alone))
            a, b = statistics.median(one), statistics.median(many)
            print(f"{name} window {window}: {len(at)} breaks; one a decode {a / len(at) * 1000:.1f} "
                  f"ms a break, many a decode {b / len(at) * 1000:.1f} ms ({a / b:.2f}x faster); "
                  f"log P(newline) moved by the decode's other readings: reversed order up to "
                  f"{np.abs(together - backwards).max():.3f} nats "
                  f"({np.count_nonzero(together != backwards)} breaks), each alone up to "
                  f"{np.abs(together - alone).max():.3f} ({np.count_nonzero(together != alone)})")


if __name__ == "__main__":
    main()
