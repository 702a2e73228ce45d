"""Byte-level tokens <-> whole Unicode characters ("cells").

Byte-level BPE may split one character over several tokens (a CJK character as 3 single-byte
tokens), and one token may cover several characters. This file maps both directions by byte
offsets, so a page can show one cell per character and list every token behind it.
Does not: decode a token on its own into text for display beyond `label()`, score, or touch
line breaks.
"""

import numpy as np


def char_byte_offsets(text: str) -> np.ndarray:
    """int64 (len(text) + 1,): byte offset of each character in UTF-8, plus the total length."""
    sizes = np.fromiter((len(ch.encode("utf-8")) for ch in text), dtype=np.int64, count=len(text))
    return np.concatenate(([0], np.cumsum(sizes)))


def token_byte_offsets(pieces) -> np.ndarray:
    """int64 (n_tokens + 1,): byte offset where each token starts, plus the total length."""
    sizes = np.fromiter((len(p) for p in pieces), dtype=np.int64, count=len(pieces))
    return np.concatenate(([0], np.cumsum(sizes)))


def cell_tokens(text: str, pieces) -> tuple:
    """For each character, the first and last token index covering its bytes.

    `pieces` (list[bytes]) must concatenate exactly to text's UTF-8; returns two int32 arrays of
    len(text) (first, last), both -1 for a character of zero bytes (none exist in valid str).
    """
    cb = char_byte_offsets(text)
    tb = token_byte_offsets(pieces)
    if tb[-1] != cb[-1]:
        raise ValueError(f"tokens cover {tb[-1]} bytes but the text has {cb[-1]}")
    starts, ends = cb[:-1], cb[1:]
    # token t covers bytes [tb[t], tb[t+1]); the token holding byte x is searchsorted(tb, x, 'right') - 1
    first = np.searchsorted(tb, starts, side="right") - 1
    last = np.searchsorted(tb, ends - 1, side="right") - 1
    # zero-length tokens (control tokens) never own a byte: searchsorted skips them already
    return first.astype(np.int32), last.astype(np.int32)


def cell_logprob(first: np.ndarray, last: np.ndarray, token_logprob: np.ndarray) -> np.ndarray:
    """float64 per character: sum of the log-probs of the tokens covering it (chain rule).

    A character split over byte tokens gets the product of their probabilities; a character
    inside a multi-character token gets that shared token's probability. NaN if any covering
    token has no probability (the first token of a text without BOS).
    """
    lp = token_logprob.astype(np.float64)
    missing = np.concatenate(([0], np.cumsum(np.isnan(lp))))
    csum = np.concatenate(([0.0], np.cumsum(np.nan_to_num(lp, nan=0.0))))
    out = csum[last + 1] - csum[first]
    out[missing[last + 1] - missing[first] > 0] = np.nan
    return out


def shared_flags(text: str, pieces, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """bool per character: True where a covering token also covers bytes of another character."""
    cb = char_byte_offsets(text)
    tb = token_byte_offsets(pieces)
    return (tb[first] < cb[:-1]) | (tb[last + 1] > cb[1:])


def label(piece: bytes) -> str:
    """Display text of one token: its text when it is valid UTF-8, else its bytes as <0xNN>."""
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(f"<0x{b:02X}>" for b in piece)
