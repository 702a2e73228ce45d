"""Evaluation: labelled line breaks of real PDFs, every decision method on them, and training.

The modules: the README's "Where things live"; the method: docs/evaluation.md.
`main` is `prefill-lens eval`. Nothing is tuned on the held-out documents.
"""

import json

from ..atomic import write_atomic
from ..errors import BadInput
from ..model import load_model
from . import corpus, hyphens, manpages, metrics, methods, structure, training, typeset


def main(args) -> None:
    """`prefill-lens eval`: score, (train,) report; see cli.py for the options."""
    splits = ("dev", "held-out") if args.split == "all" else (args.split,)
    if args.documents and not args.labels:
        raise BadInput("documents are evaluated against a labels file: --labels FILE.jsonl")
    if args.train and (args.labels or args.docs in ("samples", "typeset") or "dev" not in splits):
        raise BadInput("--train needs the Debian dev documents (--docs all|debian, "
                       "--split all|dev)")
    if args.docs in ("wild", "papers"):
        from . import wild

        return wild.main(args)
    if args.structure:
        rows = structure.measure(load_model(args.model), structure.documents(splits))
        print(structure.report(rows))
        if args.json:
            write_atomic(args.json, json.dumps(rows, indent=1))
        return
    docs = []
    if args.labels:  # an analyst's labels: those documents alone
        docs += corpus.labelled_documents(args.labels, args.documents)
    elif args.docs in ("all", "samples"):
        docs += corpus.sample_documents(args.samples)
    if args.docs in ("all", "debian") and not args.labels:
        docs += corpus.debian_documents(splits)
    if args.docs in ("all", "typeset") and not args.labels:
        docs += typeset.documents(splits) + manpages.documents(splits)
    model = load_model(args.model)
    rows, trained, paired = methods.evaluate(model, docs)
    if args.train:
        training.save(trained, model)
        rows, trained, paired = methods.evaluate(model, docs)  # the default row: new weights
    pooled = metrics.pooled(rows)
    print(metrics.summary(rows))
    print()
    print(metrics.report(sorted(pooled, key=lambda r: (r["split"], r["lang"]))))
    if any(r["split"] == "held-out" for r in rows):
        print()
        print("macro-F1 per held-out document:")
        print(metrics.per_document(rows))
    order = {d.name: {"lines_checked": d.order.checked, "out_of_order": d.order.out,
                      "prose_checked": d.order.prose_checked,
                      "prose_out_of_order": d.order.prose_out}
             for d in docs if d.order is not None}
    if order:
        print()
        print("reading order against the twin (lines of 25 characters or more; the prose: lines "
              "the twin does not set as a block, such as a table or a footnote):")
        for name, o in order.items():
            print(f"  {name:42} {o['out_of_order']} of {o['lines_checked']} out of order; "
                  f"prose {o['prose_out_of_order']} of {o['prose_checked']}")
    hyphen_rows = []
    if args.docs in ("all", "debian") and not args.labels:
        hyphen_rows = hyphens.measure(model, splits)
        print()
        print(hyphens.report(hyphen_rows))
    for row in paired:
        (a, n_a), (b, n_b) = row["only_right"].items()
        print(f"{row['split']} {row['lang']}: labelled breaks only '{a}' gets right: {n_a}; "
              f"only '{b}': {n_b}")
    if args.details:
        print()
        print(metrics.report(rows))
    if args.json:
        write_atomic(args.json, json.dumps({"documents": rows, "pooled": pooled,
                                            "trained": trained, "paired": paired,
                                            "hyphens": hyphen_rows, "reading_order": order},
                                           indent=1))

