"""How well P(newline) separates wraps from paragraph ends, per context mode, on the samples
whose true paragraphs are known (samples/expected/). Prints ROC AUC and accuracy at the cutoff.

    .venv/bin/python -m tests.perf.mode_auc [--model PATH] [--cutoff 34]
"""

import numpy as np

from scorer import decide
from scorer.breaks import item_starts, line_pairs
from scorer.document import MODES, score
from tests.perf import ROOT, with_model
from tests.truth import wrap_labels


def auc(scores_pos, scores_neg):
    """P(a random positive scores above a random negative), ties half."""
    diff = np.subtract.outer(scores_pos, scores_neg)
    return float((diff > 0).mean() + 0.5 * (diff == 0).mean())


def main():
    args, model = with_model(lambda p: p.add_argument("--cutoff", type=float, default=34.0))
    print(f"model {model.info['file']}, cutoff {args.cutoff:g} %")
    for path in sorted((ROOT / "samples").glob("*.txt")):
        wrapped = path.read_text(encoding="utf-8")
        truth = (ROOT / "samples" / "expected" / path.name).read_text(encoding="utf-8")
        for mode in MODES:
            doc = score(model, wrapped, mode=mode, detail="breaks")
            is_wrap = wrap_labels(wrapped, truth)[[wrapped.count("\n", 0, i) for i in doc.break_at]]
            lp = doc.logp_newline
            pol = decide.Policy("percentile", args.cutoff)
            joined = np.array([d == "join" for d in decide.of(doc, pol)])
            model_only = np.array([decide.by_percentile(p, args.cutoff) == "join"
                                   for p in doc.percentile])
            items = np.array(item_starts(doc.text, doc.break_at, decide.fills(
                doc.text, line_pairs(doc.text, doc.break_at))))
            print(f"{path.name:32} {mode:7} breaks {len(lp):3} (wraps {is_wrap.sum():3})  "
                  f"AUC {auc(-lp[is_wrap], -lp[~is_wrap]):.3f}  right at cutoff: model alone "
                  f"{np.mean(model_only == is_wrap):.0%}, item rule alone (join all others) "
                  f"{np.mean(~items == is_wrap):.0%}, both (percentile mode) {np.mean(joined == is_wrap):.0%}")


if __name__ == "__main__":
    main()
