"""How hyphen.CONTEXT_CHARS and hyphen.MARGIN were chosen: on the eval's dev hyphen cases
(scorer/evaluate/hyphens.py), for each length of the text read before the word, the errors
(hyphens dropped from compounds + hyphens kept in split words) at each margin, and the
readings' tokens and rows of logits, which the stage's time follows. The held-out cases are
printed below for the record, never to choose by.

The rule (set after a first sweep of the dev cases): the shortest context whose fewest dev
errors are no more than the longest's plus one, at the margin where its dev errors are fewest
(the middle one of a tie).

Not a test: run it by hand.

    .venv/bin/python -m tests.perf.hyphen_choice [--model PATH] [--context 20 40 60 120]
"""

import argparse

from scorer import hyphen
from scorer.evaluate.corpus import fetch_debian_doc
from scorer.evaluate.hyphens import SOURCES, cases
from scorer.model import load_model
from scorer.prefill import run_steps, readings_steps

MARGINS = [m / 2 for m in range(6, 21)]  # 3.0 .. 10.0 nats


def differences(model, made, chars) -> tuple:
    """([log P(without) - log P(with) per case], tokens read, rows of logits)."""
    items = [hyphen.reading_item(model, text, text.index("\n"), chars) for text, _ in made]
    with model.lock:
        read = run_steps(readings_steps(model, items))
    tokens = sum(len(p) + sum(len(c) for c in conts) for p, conts in items)
    rows = sum(1 + sum(len(c) - 1 for c in conts) for _, conts in items)
    return [r[1] - r[0] if r else float("-inf") for r in read], tokens, rows


def errors(diffs, truth, margin) -> tuple:
    """(compounds that lose their hyphen, split words that keep it)."""
    dropped = sum(d > margin and not t for d, t in zip(diffs, truth))
    kept = sum(d <= margin and t for d, t in zip(diffs, truth))
    return dropped, kept


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--context", type=int, nargs="*", default=[20, 40, 60, 120])
    args = parser.parse_args()
    model = load_model(args.model)
    print("errors = compounds dropping their hyphen + split words keeping it, by margin (nats)")
    for split in ("dev", "held-out"):
        package, start = SOURCES[split]
        made = cases(fetch_debian_doc(package)[1], start)
        truth = [remove for _, remove in made]
        print(f"{split} ({package}, {len(made)} cases):")
        for chars in args.context:
            diffs, tokens, rows = differences(model, made, chars)
            cells = []
            for m in MARGINS:
                dropped, kept = errors(diffs, truth, m)
                cells.append(f"{m:g}:{dropped}+{kept}")
            print(f"  {chars:4} chars, {tokens} tokens, {rows} rows  " + " ".join(cells))


if __name__ == "__main__":
    main()
