"""The numpy reductions of prefill.py against plain, slow references (no model needed)."""

import numpy as np
import pytest

from scorer.prefill import row_stats, windows


@pytest.mark.parametrize("n_vocab", [1000, 49152, 151936, 262144])
@pytest.mark.parametrize("k", [0, 1, 5])
def test_row_stats_match_reference(n_vocab, k):
    rng = np.random.default_rng(n_vocab + k)
    x = (rng.standard_normal((7, n_vocab)) * 4).astype(np.float32)
    x[3, -1] = 40.0  # the best entry in the tail columns that fill no block
    x[4, :] = 1.5  # a flat row: every entry ties
    lse, best = row_stats(x, k, np.empty_like(x))
    ref = np.log(np.exp(x.astype(np.float64)).sum(axis=1))
    assert lse == pytest.approx(ref, rel=1e-5)
    if k:
        for r in range(len(x)):
            got = np.sort(x[r, best[r]])[::-1]
            want = np.sort(x[r])[::-1][:k]
            assert np.array_equal(got, want)
            assert len(set(best[r].tolist())) == k


def test_windows_cover_every_token_once_as_new():
    for n, size, overlap, bos in [(0, 8, 2, True), (5, 8, 2, True), (100, 16, 4, False),
                                  (1000, 64, 16, True)]:
        seen = []
        for c, a, b in windows(n, size, overlap, bos):
            assert c == max(0, a - overlap) and b - c <= size - bos
            seen.extend(range(a, b))
        assert seen == list(range(n))
