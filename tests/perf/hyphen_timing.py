"""The line-end hyphen stage next to the prefill, on a text with a line-end hyphen on a quarter
of its lines; and the stage as it runs (hyphen.py: every candidate's readings together, as many
a decode as fit) next to the same readings one candidate a decode (as it ran before),
interleaved, medians of several runs, with the decisions of both compared.

Not a test: run it by hand, quote the ratios.

    .venv/bin/python -m tests.perf.hyphen_timing [--model PATH] [--runs 5] [--rows 8 16 32 64] [--context 20 24 40]
"""

import argparse
import re
import statistics
import textwrap
import time
from pathlib import Path


from scorer import hyphen
from scorer.breaks import candidates
from scorer.document import score
from scorer.model import load_model
from scorer.prefill import run_steps

ROOT = Path(__file__).resolve().parents[2]


def hyphenated_text(width=64, letters=5) -> str:
    """The English sample's paragraphs, four times over, wrapped at `width`; a line that a word
    of `letters` letters or more would end is ended by that word's first half and a hyphen, as
    a typesetter splits a word."""
    paragraphs = (ROOT / "samples" / "expected" / "en-maintenance-report.txt").read_text(
        encoding="utf-8").split("\n")
    lines = []
    for para in [p for p in paragraphs if p.strip()] * 4:
        line = ""
        for word in para.split():
            if line and len(line) + 1 + len(word) > width:
                start = re.match(rf"[a-z]{{{letters},}}", word)  # lower-case: a word, not a name
                if start:
                    cut = start.end() // 2
                    lines.append(f"{line} {word[:cut]}-")
                    line = word[cut:]
                    continue
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    return "\n".join(lines)


def one_at_a_time(model, text, offsets) -> list:
    """The hyphen decisions read one candidate a decode (its context once, both spellings
    after it), as the stage ran before it read them all together."""
    out = [False] * len(offsets)
    for k in hyphen.candidates(text, offsets):
        out[k] = run_steps(hyphen.decide_steps(model, text, [offsets[k]]))[0]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, nargs="*", default=[],
                        help="also time the stage with decodes capped at these rows of logits")
    parser.add_argument("--context", type=int, nargs="*", default=[],
                        help="also time the stage reading this many characters before each word")
    args = parser.parse_args()
    model = load_model(args.model)
    text = hyphenated_text()
    offsets = candidates(text)
    n_lines = text.count("\n") + 1
    found = hyphen.candidates(text, offsets)
    print(f"{n_lines} lines, {len(found)} with a line-end hyphen candidate")
    prefill, shared, before = [], [], []
    same = True
    for _ in range(args.runs):  # interleaved: the machine's noise hits both alike
        doc = score(model, text, detail="breaks")
        prefill.append(doc.timings["prefill_s"])
        shared.append(doc.timings["hyphens_s"])
        with model.lock:
            started = time.perf_counter()
            old = one_at_a_time(model, text, offsets)
            before.append(time.perf_counter() - started)
        same &= old == list(doc.unhyphen)
    med = statistics.median
    print(f"prefill (every token)             median {med(prefill):.2f} s")
    print(f"hyphens, all in few decodes (now) median {med(shared):.2f} s = "
          f"{med(shared) / med(prefill):.0%} of the prefill")
    print(f"hyphens, one a decode (was)       median {med(before):.2f} s = "
          f"{med(before) / med(prefill):.0%} of the prefill")
    print(f"now / was: {med(shared) / med(before):.2f}; the same decisions: {same} "
          f"({sum(doc.unhyphen)} hyphens removed)")
    if args.rows:
        by_rows = rows_timing(model, text, offsets, args.rows, args.runs)
        print(f"the stage with decodes capped at N rows of logits (now {model.READINGS_ROWS}): "
              + ", ".join(f"{n}: {s:.2f} s" for n, s in by_rows.items()))
    if args.context:
        by_chars = setting_timing(model, text, offsets, "CONTEXT_CHARS", args.context, args.runs)
        print(f"the stage reading N characters before each word (now {hyphen.CONTEXT_CHARS}): "
              + ", ".join(f"{n}: {s:.2f} s = {s / med(prefill):.0%}" for n, s in by_chars.items()))


def rows_timing(model, text, offsets, caps, runs) -> dict:
    """{cap: median seconds of the hyphen stage with model.READINGS_ROWS = cap}, interleaved."""
    return setting_timing(model, text, offsets, "READINGS_ROWS", caps, runs, owner=model)


def setting_timing(model, text, offsets, name, values, runs, owner=hyphen) -> dict:
    """{value: median seconds of the hyphen stage with owner.<name> = value}, interleaved."""
    shipped, times = getattr(owner, name), {n: [] for n in values}
    try:
        for _ in range(runs):
            for n in values:
                setattr(owner, name, n)
                with model.lock:
                    started = time.perf_counter()
                    run_steps(hyphen.decide_steps(model, text, offsets))
                    times[n].append(time.perf_counter() - started)
    finally:
        setattr(owner, name, shipped)
    return {n: statistics.median(t) for n, t in times.items()}


if __name__ == "__main__":
    main()
