"""Characters <-> byte-level tokens, with synthetic pieces and with the real tokenizers."""

import numpy as np
import pytest

from scorer.chars import cell_logprob, cell_tokens, label, shared_flags

EDGE_STRINGS = [
    "",
    "a",
    "\n",
    "\n\n\n",
    "决议公告",
    "股东大会决议公告\n证券代码：900948",
    "family: 👩\u200d👩\u200d👧 ok",
    "e\u0301 cafe\u0301 n\u0303",
    "mixed 中文 English Ελληνικά русский 😀\n",
    "x" * 10_000,
]


def split_bytes(text, sizes):
    data = text.encode("utf-8")
    pieces, i, k = [], 0, 0
    while i < len(data):
        step = sizes[k % len(sizes)]
        pieces.append(data[i:i + step])
        i += step
        k += 1
    return pieces


@pytest.mark.parametrize("text", EDGE_STRINGS)
@pytest.mark.parametrize("sizes", [[1], [2, 1], [5], [3, 7, 1]])
def test_cells_cover_exactly_their_bytes(text, sizes):
    pieces = split_bytes(text, sizes)
    first, last = cell_tokens(text, pieces)
    assert len(first) == len(text)
    rebuilt = []
    for i, ch in enumerate(text):
        covering = b"".join(pieces[first[i]:last[i] + 1])
        assert ch.encode("utf-8") in covering  # the tokens behind a cell hold all its bytes
        rebuilt.append(ch)
    assert "".join(rebuilt) == text
    assert "\ufffd" not in "".join(rebuilt)


def test_split_character_gets_product_of_its_byte_tokens():
    text = "股a"  # 股 is three bytes: one token each, then 'a'
    pieces = [b"\xe8", b"\xb2", b"\xa1", b"a"]
    first, last = cell_tokens(text, pieces)
    assert list(first) == [0, 3] and list(last) == [2, 3]
    lp = np.log(np.array([0.5, 0.5, 0.5, 0.25], dtype=np.float32))
    got = np.exp(cell_logprob(first, last, lp))
    assert got == pytest.approx([0.125, 0.25])
    assert list(shared_flags(text, pieces, first, last)) == [False, False]


def test_multi_character_token_is_shared():
    text = "决议公告"
    pieces = [b"\xe5\x86\xb3", "议公".encode(), "告".encode()]
    first, last = cell_tokens(text, pieces)
    assert list(first) == [0, 1, 1, 2]
    assert list(shared_flags(text, pieces, first, last)) == [False, True, True, False]


def test_missing_probability_does_not_spread():
    first, last = np.array([0, 1, 2]), np.array([0, 1, 2])
    lp = np.array([np.nan, -1.0, -2.0], dtype=np.float32)
    got = cell_logprob(first, last, lp)
    assert np.isnan(got[0]) and got[1] == -1.0 and got[2] == -2.0


def test_pieces_must_match_text():
    with pytest.raises(ValueError):
        cell_tokens("abc", [b"ab"])


def test_label_shows_bytes_of_partial_characters():
    assert label("股".encode()) == "股"
    assert label(b"\xe8\xb2") == "<0xE8><0xB2>"


@pytest.mark.model
@pytest.mark.parametrize("text", EDGE_STRINGS[1:])
def test_real_tokenizers_round_trip(text, gemma, smollm):
    for model in (gemma, smollm):
        pieces = [model.piece(t) for t in model.tokenize(text.encode("utf-8"))]
        assert b"".join(pieces) == text.encode("utf-8")
        first, last = cell_tokens(text, pieces)
        assert (first >= 0).all() and (last >= first).all()
