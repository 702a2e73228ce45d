"""Labels from a twin text: which newlines of a hard-wrapped text are wraps."""

import numpy as np


def wrap_labels(wrapped, truth):
    """True per newline of `wrapped` that the one-paragraph-per-line `truth` does not have.

    `truth` is `wrapped` with its wraps replaced by nothing (CJK) or one space (Latin).
    """
    labels, pos = [], 0
    for ch in wrapped:
        if ch == "\n":
            is_break = pos < len(truth) and truth[pos] == "\n"
            labels.append(not is_break)
            pos += 1 if is_break or (pos < len(truth) and truth[pos] == " ") else 0
        else:
            assert truth[pos] == ch, (pos, ch, truth[pos])
            pos += 1
    return np.array(labels, dtype=bool)
