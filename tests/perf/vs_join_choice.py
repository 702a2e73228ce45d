"""A feature tried for text alone and not shipped: after a sentence end, does the next
sentence go on in this paragraph? logp_vs_join = log P(a newline and the next line's first
words) - log P(the joiner and the same words), both after the 32 tokens before the break (as
the window reading sees them), both read in one llama.cpp decode of their own (its numbers
move by tenths of a nat with what else a decode holds). Without geometry, a sentence ending a
nearly full line before a capitalised one is all the text says; the model might know "Therefore,
once you..." goes on.

Leave-one-document-out over the dev documents, each weight set (text alone, PDF) with and
without the feature, each left-out document decided by the cascade as the engine decides.
The rule: a weight set would read it if the mean left-out macro-F1 is higher with it. Held-out
documents are never read here.

Not a test: run it by hand (about 10 minutes on 2 cores: the readings are not cached).

    .venv/bin/python -m tests.perf.vs_join_choice [--model PATH]
"""

import argparse

import numpy as np

from scorer import hybrid
from scorer.breaks import ends_sentence, line_pairs
from scorer.document import _read_as
from scorer.model import load_model
from scorer.prefill import readings_steps, run_steps
from tests.perf.lodo import dev_documents, left_out

FIRST_CHARS = 24  # of the next line, a Latin word the cut falls in left out
CLIP = 10.0  # nats


def first_words(line: str, chars: int = FIRST_CHARS) -> str:
    head = line[:chars]
    inside = len(line) > chars and all(
        (c.isalnum() or c == "_") and ord(c) < 0x2E80 for c in line[chars - 1:chars + 1])
    return (head[:head.rindex(" ")] if inside and " " in head else head).rstrip()


def continuations(model, line, joiner) -> list:
    """Token ids of a newline and of the joiner, each before the first words of `line`
    (fewer words where both would not fit one reading: model.READINGS_ROWS)."""
    start = first_words(line)
    while True:
        conts = [model.tokenize_exact([sep + start])[0] for sep in ("\n", joiner)]
        if len(conts[0]) + len(conts[1]) - 1 <= model.READINGS_ROWS or len(start) <= 1:
            return conts
        start = first_words(start, len(start) - 1)


def vs_join(model, text, window=hybrid.WINDOWS["text"]) -> np.ndarray:
    """logp_vs_join at every break whose line ends a sentence (clipped), 0 elsewhere."""
    offsets, joins, _, ids, _, break_token, _, _ = _read_as(model, text, "joined")
    out = np.zeros(len(offsets))
    with model.lock:
        for k, (before, after) in enumerate(line_pairs(text, offsets)):
            if ends_sentence(before):
                j = break_token[k]
                item = (list(ids[max(0, j - window):j]), continuations(model, after, joins[k]))
                logps = run_steps(readings_steps(model, [item]))[0]
                if logps is not None:
                    out[k] = np.clip(logps[0] - logps[1], -CLIP, CLIP)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    args = parser.parse_args()
    model = load_model(args.model)
    # the model's evidence: its usual range bounds the cascade, it counts only where asked
    hybrid.MODEL_EVIDENCE += ("logp_vs_join",)
    prepared = dev_documents(model)
    for p in prepared:
        p.ev_text["logp_vs_join"] = p.ev["logp_vs_join"] = vs_join(model, p.doc.text)
    for kind, pdf, base in (("text", False, hybrid.MODEL + hybrid.TEXT_LAYOUT),
                            ("pdf", True, hybrid.MODEL + hybrid.TEXT_LAYOUT + hybrid.PDF_LAYOUT)):
        docs = [p for p in prepared if p.doc.layout is not None] if pdf else prepared
        without = left_out(docs, list(base), pdf)
        with_it = left_out(docs, list(base[:1] + ("logp_vs_join",) + base[1:]), pdf)
        print(f"{kind}: mean left-out macro-F1 without {np.mean(without):.4f}, "
              f"with logp_vs_join {np.mean(with_it):.4f}")
        for p, a, b in zip(docs, without, with_it):
            print(f"  {p.doc.name:45} {a:.3f} {b:.3f}")


if __name__ == "__main__":
    main()
