"""Does the default's P(join) mean what it says? Calibration of the hybrid on held-out
documents, pasted (text alone: its geometry guessed) and as PDFs (docs/evaluation.md).

For every labelled break the default decides (the cascade as the engine runs it; breaks the
layout forces left out), P(join) against the truth: the Brier score, the log loss, the
expected calibration error (ECE: 10 equal-width bins of P(join), each bin's |mean P(join) -
share joined| weighted by its breaks) and the reliability table (the curve, in numbers). The
same for the dev documents, each decided with weights fitted on the others (leave one
document out: how the hybrid meets a document it was not fitted on).

Not a test: run it by hand; minutes once `prefill-lens eval --docs debian` has cached the
model's evidence (else it scores what is missing first).

    .venv/bin/python -m tests.perf.calibration [--model PATH] [--split held-out|dev|both]
"""

import argparse

import numpy as np

from scorer import decide, hybrid
from scorer.align import WRAP
from scorer.evaluate import corpus
from scorer.evaluate.evidence import prepare
from scorer.evaluate.training import fit_on
from scorer.model import load_model
from tests.perf.lodo import dev_documents

BINS = 10


def probabilities(p, weights, pdf) -> tuple:
    """(P(join), truth 1 = a wrap) at the labelled breaks of prepared document `p` the layout
    does not force, decided as the engine decides (the cascade's asks)."""
    layout, ev = (p.doc.layout, p.ev) if pdf else (None, p.ev_text)
    forced = decide.forced_keeps(p.doc.text, p.joined.break_at, layout)
    free = np.array([i not in forced for i in p.joined.break_at], dtype=bool)
    probs, _ = hybrid.weigh(weights, ev, hybrid.asks(weights, ev) & free)
    keep = [k for k, (i, label) in enumerate(zip(p.joined.break_at, p.doc.labels))
            if label is not None and free[k]]
    truth = np.array([1.0 if p.doc.labels[k] == WRAP else 0.0 for k in keep])
    return probs[keep], truth


def scores(q, y) -> dict:
    q = np.clip(q, 1e-6, 1 - 1e-6)
    bins = np.minimum((q * BINS).astype(int), BINS - 1)
    table = [(b / BINS, (b + 1) / BINS, int((bins == b).sum()),
              float(q[bins == b].mean()) if (bins == b).any() else None,
              float(y[bins == b].mean()) if (bins == b).any() else None) for b in range(BINS)]
    ece = sum(n * abs(mq - my) for _, _, n, mq, my in table if n) / max(1, len(q))
    return {"n": len(q), "brier": float(np.mean((q - y) ** 2)),
            "log_loss": float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))),
            "ece": float(ece), "wrong": int(((q > 0.5) != (y == 1)).sum()), "table": table}


def report(title, got) -> None:
    print(f"\n{title}: {got['n']} breaks, Brier {got['brier']:.4f}, log loss "
          f"{got['log_loss']:.4f}, ECE {got['ece']:.4f}, decided wrong {got['wrong']}")
    print("  P(join) bin   breaks   mean P(join)   share joined")
    for lo, hi, n, mq, my in got["table"]:
        if n:
            print(f"  {lo:.1f}-{hi:.1f}      {n:6d}   {mq:12.3f}   {my:12.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--split", choices=("held-out", "dev", "both"), default="held-out")
    args = parser.parse_args()
    model = load_model(args.model)
    shipped = hybrid.shipped()
    if args.split in ("held-out", "both"):
        docs = [prepare(model, d) for d in corpus.debian_documents(("held-out",))]
        for pdf, kind in ((False, "text"), (True, "pdf")):
            pairs = [probabilities(p, shipped["sets"][kind], pdf) for p in docs]
            q = np.concatenate([a for a, _ in pairs])
            y = np.concatenate([b for _, b in pairs])
            report(f"held-out Debian documents, {'as PDFs' if pdf else 'pasted'}, shipped "
                   f"weights", scores(q, y))
    if args.split in ("dev", "both"):
        docs = dev_documents(model)
        for pdf, kind in ((False, "text"), (True, "pdf")):
            names = shipped["sets"][kind]["features"]
            pairs = [probabilities(p, fit_on(docs[:k] + docs[k + 1:], names, pdf), pdf)
                     for k, p in enumerate(docs) if not pdf or p.doc.layout is not None]
            q = np.concatenate([a for a, _ in pairs])
            y = np.concatenate([b for _, b in pairs])
            report(f"dev documents left out in turn, {'as PDFs' if pdf else 'pasted'}",
                   scores(q, y))


if __name__ == "__main__":
    main()
