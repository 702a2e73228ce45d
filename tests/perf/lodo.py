"""The leave-one-document-out harness the choice scripts share (vs_join_choice,
layout_cues_choice): the dev documents with the model's evidence (cached by the eval), and each
one's macro-F1 decided by the cascade as the engine decides, with weights fitted on the others.
Held-out documents are never read here."""

from scorer import decide
from scorer.evaluate import corpus, manpages, typeset
from scorer.evaluate.evidence import prepare
from scorer.evaluate.metrics import metrics
from scorer.evaluate.training import fit_on, weighed


def dev_documents(model) -> list:
    """Every dev document (Debian ranges, typeset, man pages), prepared as the eval prepares it."""
    return [prepare(model, d) for d in corpus.debian_documents(("dev",))
            + typeset.documents(("dev",)) + manpages.documents(("dev",))]


def left_out(prepared, names, pdf) -> list:
    """Macro-F1 of each document decided by the cascade with weights fitted on the others."""
    out = []
    for k, p in enumerate(prepared):
        forced, _, _, probs, _ = weighed(p, fit_on(prepared[:k] + prepared[k + 1:], names, pdf), pdf)
        out.append(metrics(p.doc.labels, decide.decisions(
            p.joined.break_at, p.joined.percentile, probs, forced, decide.Policy()))["macro_f1"])
    return out
