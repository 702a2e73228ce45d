"""How a PDF's window (hybrid.WINDOWS["pdf"]) was chosen: for each length, the PDF hybrid
trained on the dev documents with P(newline) read from that many tokens before each break,
then the dev documents decided by the cascade and by the model at every break: macro-F1 per
document and the breaks the cascade asks. `--text`: the same for the text-alone weights
(WINDOWS["text"]) on the dev documents' text without their layout (as pasted). Held-out
documents are never read here.

The rule: the shortest window whose mean dev macro-F1 is the best of those tried.

Not a test: run it by hand (the readings are cached with the eval's evidence; a window not
read before costs about 5 minutes on 2 cores).

    .venv/bin/python -m tests.perf.window_choice [--model PATH] [--windows 4 8 12 16 32] [--text]
"""

import argparse

import numpy as np

from scorer import decide, hybrid
from scorer.evaluate import corpus, typeset
from scorer.evaluate.evidence import prepare
from scorer.evaluate.metrics import metrics
from scorer.evaluate.training import PDF_HYBRID, TEXT_HYBRID, train
from scorer.model import load_model


def decided(p, weights, ev, asked, forced) -> float:
    """Macro-F1 of the dev document `p` decided with `weights` from its evidence `ev` (with its
    layout or its text alone) and its `forced` keeps, the model counted where asked."""
    offsets = p.joined.break_at
    probs, _ = hybrid.weigh(weights, ev, asked)
    return metrics(p.doc.labels, decide.decisions(offsets, p.joined.percentile, probs, forced,
                                                  decide.Policy()))["macro_f1"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--windows", type=int, nargs="*", default=[4, 8, 12, 16, 32])
    parser.add_argument("--text", action="store_true", help="the text-alone weights instead")
    args = parser.parse_args()
    model = load_model(args.model)
    docs = [d for d in corpus.debian_documents(("dev",)) + typeset.documents(("dev",))
            if args.text or d.layout is not None]
    kind = "text" if args.text else "pdf"
    shipped = hybrid.WINDOWS[kind]
    try:
        for window in args.windows:
            hybrid.WINDOWS[kind] = window
            prepared = [prepare(model, d) for d in docs]
            weights = train(prepared, TEXT_HYBRID if args.text else PDF_HYBRID)
            rows = []
            for p in prepared:
                layout, ev = (None, p.ev_text) if args.text else (p.doc.layout, p.ev)
                forced = decide.forced_keeps(p.doc.text, p.joined.break_at, layout)
                free = np.array([i not in forced for i in p.joined.break_at], dtype=bool)
                asked = hybrid.asks(weights, ev) & free
                rows.append((decided(p, weights, ev, asked, forced),
                             decided(p, weights, ev, np.ones_like(asked), forced),
                             int(asked.sum()), len(asked)))
            cascade, full, n_asked, n = (np.array(c) for c in zip(*rows))
            print(f"{window:3} tokens: dev mean macro-F1 cascade {cascade.mean():.4f} (model at "
                  f"every break {full.mean():.4f}), breaks asked {n_asked.sum()} of {n.sum()}; "
                  "per document " + " ".join(f"{f:.3f}" for f in cascade), flush=True)
    finally:
        hybrid.WINDOWS[kind] = shipped


if __name__ == "__main__":
    main()
