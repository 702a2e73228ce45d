"""How wide the model's "usual range" (hybrid.RANGE) should be for the cascade: at each
candidate, the share of the breaks the layout does not force at which the model is asked, the
breaks decided otherwise than with the model asked at every break, and the log loss of P(join)
against the truth; on the dev documents each left out in turn (weights, range and temperature
fitted on the others) and, measured only, on the held-out Debian documents with the shipped
weights' fit. A narrow range asks less (faster) but lets a decision stand that an unusual
reading of the model would overturn.

Not a test: run it by hand (minutes once the eval has cached the model's evidence).

    .venv/bin/python -m tests.perf.ask_range [--model PATH]
"""

import argparse

import numpy as np

from scorer import hybrid
from scorer.align import WRAP
from scorer.evaluate import corpus
from scorer.evaluate.evidence import prepare
from scorer.evaluate.training import fit_on, weighed
from scorer.model import load_model
from tests.perf.lodo import dev_documents

CANDIDATES = ((5, 95), (2, 98), (1, 99), (0.5, 99.5), (0, 100))


def with_range(weights, prepared, pdf, bounds) -> dict:
    """`weights` with the model features' range taken at percentiles `bounds` of `prepared`'s
    labelled breaks."""
    name = hybrid.MODEL[0]
    values = [v for p in prepared if not pdf or p.doc.layout is not None
              for v, label in zip((p.ev if pdf else p.ev_text)[name], p.doc.labels)
              if label is not None]
    return {**weights,
            "model_range": hybrid.model_range({name: np.array(values)}, [name], bounds)}


def tally(p, weights, pdf) -> tuple:
    """(free breaks, asked, decided otherwise than asked everywhere, truth, P(join)) of one
    prepared document at its labelled free breaks."""
    _, free, asked, probs, _ = weighed(p, weights, pdf)
    every, _ = hybrid.weigh(weights, p.ev if pdf else p.ev_text, free)
    keep = np.array([label is not None for label in p.doc.labels]) & free
    truth = np.array([label == WRAP for label in p.doc.labels])[keep]
    return (int(free.sum()), int(asked.sum()), int(((probs > 0.5) != (every > 0.5))[keep].sum()),
            truth, probs[keep])


def line(name, rows) -> str:
    free, asked, other = (sum(r[k] for r in rows) for k in range(3))
    truth = np.concatenate([r[3] for r in rows]).astype(float)
    q = np.clip(np.concatenate([r[4] for r in rows]), 1e-6, 1 - 1e-6)
    loss = -np.mean(truth * np.log(q) + (1 - truth) * np.log(1 - q))
    return (f"  {name:>12}: asked {asked:5d} of {free:5d} free breaks ({asked / max(1, free):6.1%}), "
            f"decided otherwise than asked everywhere {other:3d}, log loss {loss:.4f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    args = parser.parse_args()
    model = load_model(args.model)
    dev = dev_documents(model)
    held = [prepare(model, d) for d in corpus.debian_documents(("held-out",))]
    shipped = hybrid.shipped()["sets"]
    for pdf, kind in ((False, "pasted"), (True, "as PDFs")):
        names = shipped["pdf" if pdf else "text"]["features"]
        print(f"\n{kind}")
        for bounds in CANDIDATES:
            rows = []
            for k, p in enumerate(dev):
                if pdf and p.doc.layout is None:
                    continue
                others = dev[:k] + dev[k + 1:]
                rows.append(tally(p, with_range(fit_on(others, names, pdf), others, pdf, bounds),
                                  pdf))
            print(line(f"dev {bounds}", rows))
            weights = with_range(shipped["pdf" if pdf else "text"], dev, pdf, bounds)
            print(line(f"held {bounds}", [tally(p, weights, pdf) for p in held]))


if __name__ == "__main__":
    main()
