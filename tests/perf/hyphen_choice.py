"""How hyphen.CONTEXT_CHARS and hyphen.MARGIN were chosen: on the eval's dev hyphen cases
(scorer/evaluate/hyphens.py), for each length of the text read before the word, the errors
(hyphens dropped from compounds + hyphens kept in split words) at each margin, and the
readings' tokens and rows of logits, which the stage's time follows. The held-out cases are
printed below for the record, never to choose by.

The rule (set after sweeps of the dev cases): the shortest context whose fewest dev errors are
no more than the longest's plus one over at least RUN margins in a row (a nat: one lucky margin
is not a setting), at the middle of that run. Its first form, without the run, chose 40
characters and 6.5 nats from 20, 40, 60 and 120; on the finer sweep 24 characters passed it
with only two margins in a row, which is why the run was added.

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
RUN = 3  # margins in a row (0.5 nats apart) that must hold the fewest errors


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
    parser.add_argument("--context", type=int, nargs="*", default=[20, 24, 28, 32, 40, 120])
    args = parser.parse_args()
    model = load_model(args.model)
    print("errors = compounds dropping their hyphen + split words keeping it, by margin (nats)")
    for split in ("dev", "held-out"):
        package, start = SOURCES[split]
        made = cases(fetch_debian_doc(package)[1], start)
        truth = [remove for _, remove in made]
        print(f"{split} ({package}, {len(made)} cases):")
        by_chars = {}
        for chars in args.context:
            diffs, tokens, rows = differences(model, made, chars)
            by_chars[chars] = [sum(errors(diffs, truth, m)) for m in MARGINS]
            cells = [f"{m:g}:{'+'.join(map(str, errors(diffs, truth, m)))}" for m in MARGINS]
            print(f"  {chars:4} chars, {tokens} tokens, {rows} rows  " + " ".join(cells))
        if split == "dev":
            chars, margin = choose(by_chars)
            print(f"chosen on dev: {chars} characters, margin {margin:g} nats")


def choose(by_chars) -> tuple:
    """(context, margin) by the rule in the module's docstring, from {chars: [errors per
    margin of MARGINS]}; the longest context at its fewest errors if no context passes."""
    longest = by_chars[max(by_chars)]
    for chars in sorted(by_chars):
        errors_at = by_chars[chars]
        fewest = min(errors_at)
        if fewest > min(longest) + 1:
            continue
        best, run = [], []
        for m, e in zip(MARGINS, errors_at):
            run = run + [m] if e == fewest else []
            best = max(best, run, key=len)
        if len(best) >= RUN:
            return chars, best[len(best) // 2]
    return max(by_chars), MARGINS[longest.index(min(longest))]


if __name__ == "__main__":
    main()
