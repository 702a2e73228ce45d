"""Why the default keeps the wraps it keeps, over the wild corpus: every kept break between a
line that ends mid-sentence and one that opens lowercase (evaluate.wild's test of a kept wrap),
named by the rule that forced it or the feature that weighed most against joining, per PDF.
`--against` an earlier run's JSON (made with the code before a change: PYTHONPATH set to a
worktree of it) to see, per PDF, where a change keeps fewer or more.

Not a test (it scores every PDF, minutes): run it by hand after changing the page's reading or
the layout's features, and look at the PDFs that keep more.

    .venv/bin/python -m tests.perf.wrap_census [--pdfs 120] [--html 20] [--json OUT]
                                               [--against EARLIER.json]

Code blocks are counted apart: the wild eval leaves them out of every tool's paragraphs.
"""

import argparse
import collections
import json

from scorer import decide, hybrid
from scorer.breaks import line_pairs
from scorer.document import score_pdf
from scorer.errors import ScorerError
from scorer.evaluate import wild
from scorer.model import load_model

CODE = "forced: code"


def kept_wraps(model, path) -> list:
    """[{pdf, cause, before, after, fill, indent}] for each wrap the default keeps in `path`."""
    doc = score_pdf(model, path, detail="cascade")
    layout = doc.layout
    _, why = hybrid.explain(doc)
    out = []
    pairs = line_pairs(doc.text, doc.break_at)
    for k, (i, said) in enumerate(zip(doc.break_at, decide.of(doc))):
        before, after = pairs[k]
        if said != "keep" or not (wild.ends_mid_sentence(before) and wild.opens_lowercase(after)):
            continue
        if i in doc.forced:
            reason = doc.forced[i][1]
            cause = CODE if reason.startswith("code") else "forced: " + reason
        else:
            cause = "hybrid: " + min(zip(why.parts[k], why.names))[1]
        out.append({"pdf": str(path), "cause": cause, "before": before[-60:], "after": after[:60],
                    "fill": layout[k]["fill"], "indent": layout[k]["indent_next"]})
    return out


def per_pdf(rows) -> collections.Counter:
    return collections.Counter(row["pdf"] for row in rows if row["cause"] != CODE)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=int, default=120)
    parser.add_argument("--html", type=int, default=20)
    parser.add_argument("--json", help="write every kept wrap here")
    parser.add_argument("--against", help="an earlier run's JSON: compare per PDF")
    args = parser.parse_args(argv)
    paths = wild.documents(args.pdfs) + wild.printed_pages(args.html)
    model = load_model(None, threads=2)
    rows = []
    for path in paths:
        try:
            rows += kept_wraps(model, path)
        except ScorerError as exc:
            print(f"{path}: {exc}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, ensure_ascii=False, indent=0)
    print(f"{len(paths)} PDFs; kept wraps by cause:")
    for cause, n in collections.Counter(row["cause"] for row in rows).most_common():
        print(f"  {n:6d}  {cause}")
    if args.against:
        with open(args.against, encoding="utf-8") as fh:
            before = per_pdf(json.load(fh))
        now = per_pdf(rows)
        print(f"outside code: {sum(before.values())} before, {sum(now.values())} now")
        for pdf in sorted(set(before) | set(now), key=lambda p: now[p] - before[p]):
            if now[pdf] != before[pdf]:
                print(f"  {before[pdf]:5d} -> {now[pdf]:5d}  {pdf}")


if __name__ == "__main__":
    main()
