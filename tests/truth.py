"""Labels from a twin text: which newlines of a hard-wrapped text are wraps."""

import numpy as np

from scorer.breaks import candidates
from scorer.align import WRAP, joined_twin_labels


def wrap_labels(wrapped, truth):
    """bool per newline of `wrapped`: True where the one-paragraph-per-line `truth` has none."""
    per_candidate = dict(zip(candidates(wrapped), joined_twin_labels(wrapped, truth)))
    offsets = [i for i, ch in enumerate(wrapped) if ch == "\n"]
    return np.array([per_candidate.get(i) == WRAP for i in offsets], dtype=bool)
