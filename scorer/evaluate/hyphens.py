"""Hyphen removal measured (hyphen.py): cases made from the twins' real English prose. A long
word split at a line end as a layout would split it ("docu-" + "mentation": the hyphen must
go), and a hyphenated compound split at its own hyphen ("command-" + "line": it stays). Dev
cases from the dev document's twin, held-out ones from a held-out document's.

Does: make the cases, run the engine's decision on each, count precision and recall of
removal. Does not: train anything (hyphen.MARGIN was set on dev cases).
"""

import re

from ..hyphen import candidates, decide_steps
from ..prefill import run_steps
from .corpus import fetch_debian_doc

SOURCES = {"dev": ("developers-reference", 0.22), "held-out": ("debian-reference-en", 0.12)}
PER_KIND = 100  # cases of each kind per split
WORD = re.compile(r"(?<![\w-])([a-z]{9,})(?![\w-])")
COMPOUND = re.compile(r"(?<![\w-])([a-z]{2,})-([a-z]{3,})(?![\w-])")


def left_of(compound: str) -> str:
    return compound.split("-", 1)[0]


def right_of(compound: str) -> str:
    return compound.split("-", 1)[1]


def cases(twin: str, start: float, n: int = PER_KIND) -> list:
    """[(text with one line-end hyphen, should the hyphen go?)]: n of each kind, in order.
    A compound the document also writes without its hyphen ("command-line" and "commandline",
    "front-end" and "frontend") is left out: either way is right there."""
    prose = " ".join(twin[int(len(twin) * start):].split())
    made = {True: [], False: []}
    for pattern, remove in ((WORD, True), (COMPOUND, False)):
        seen = set()
        for m in pattern.finditer(prose):
            word = m.group(0)
            if word in seen or len(made[remove]) >= n:
                continue
            if not remove and re.search(rf"(?<![\w-]){left_of(word)}{right_of(word)}(?![\w-])",
                                        prose, re.IGNORECASE):
                continue  # written both ways in this document
            seen.add(word)
            cut = len(word) // 2 if remove else word.index("-")
            left, right = word[:cut], word[cut + (0 if remove else 1):]
            before = prose[max(0, m.start() - 200):m.start()]
            after = prose[m.end():m.end() + 60]
            made[remove].append((f"{before}{left}-\n{right}{after}", remove))
    return made[True] + made[False]


def measure(model, splits=("dev", "held-out")) -> list:
    """Per split: the counts, precision and recall of removing the hyphen."""
    rows = []
    for split in splits:
        package, start = SOURCES[split]
        _, twin = fetch_debian_doc(package)
        tp = fp = fn = tn = 0
        with model.lock:
            for text, remove in cases(twin, start):
                offsets = [text.index("\n")]
                if not candidates(text, offsets):
                    continue
                removed = run_steps(decide_steps(model, text, offsets))[0]
                tp += removed and remove
                fp += removed and not remove
                fn += remove and not removed
                tn += not remove and not removed
        rows.append({"split": split, "document": package, "removed_right": tp,
                     "removed_wrong": fp, "kept_wrong": fn, "kept_right": tn,
                     "precision": tp / (tp + fp) if tp + fp else float("nan"),
                     "recall": tp / (tp + fn) if tp + fn else float("nan")})
    return rows


def report(rows) -> str:
    out = ["hyphen removal (words split by a layout: the hyphen goes; compounds: it stays):"]
    for r in rows:
        out.append(f"  {r['split']:9} {r['document']:24} precision {r['precision']:.3f} "
                   f"recall {r['recall']:.3f}  (removed {r['removed_right']} right, "
                   f"{r['removed_wrong']} wrong; kept {r['kept_right']} right, "
                   f"{r['kept_wrong']} wrong)")
    return "\n".join(out)
