"""Does the default's P(join) mean what it says? Calibration of the hybrid on held-out
documents, pasted (text alone: its geometry guessed) and as PDFs (docs/evaluation.md).

For every labelled break the default decides (the cascade as the engine runs it; breaks the
layout forces left out), P(join) against the truth: the Brier score, the log loss, the
expected calibration error (ECE: 10 equal-width bins of P(join), each bin's |mean P(join) -
share joined| weighted by its breaks) and the reliability table (the curve, in numbers). The
same for the dev documents, each decided with weights fitted on the others (leave one
document out: how the hybrid meets a document it was not fitted on), and the temperature those
readings give (`eval --train` divides the shipped log-odds by it: training.calibrated).

Not a test: run it by hand; minutes once `prefill-lens eval --docs debian` has cached the
model's evidence (else it scores what is missing first).

    .venv/bin/python -m tests.perf.calibration [--model PATH] [--split held-out|dev|both]
"""

import argparse

import numpy as np

from scorer import hybrid
from scorer.evaluate import corpus
from scorer.evaluate.evidence import prepare
from scorer.evaluate.training import engine_log_odds, left_out_log_odds, temperature
from scorer.model import load_model
from tests.perf.lodo import dev_documents

BINS = 10


def scores(z, y) -> dict:
    q = np.clip(1 / (1 + np.exp(-z)), 1e-6, 1 - 1e-6)
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
            weights = shipped["sets"][kind]
            z, y = (np.concatenate(part) for part in zip(*[engine_log_odds(p, weights, pdf)
                                                          for p in docs]))
            t = weights.get("temperature", 1.0)
            report(f"held-out Debian documents, {'as PDFs' if pdf else 'pasted'}, shipped "
                   f"weights (temperature {t:.2f})", scores(z, y))
            report("  the same before the temperature", scores(z * t, y))
    if args.split in ("dev", "both"):
        docs = dev_documents(model)
        for pdf, kind in ((False, "text"), (True, "pdf")):
            z, y = left_out_log_odds(docs, shipped["sets"][kind]["features"], pdf)
            t = temperature(z, y)
            report(f"dev documents left out in turn, {'as PDFs' if pdf else 'pasted'}",
                   scores(z, y))
            report(f"  the same divided by the temperature fitted on them, {t:.2f}",
                   scores(z / t, y))

if __name__ == "__main__":
    main()
