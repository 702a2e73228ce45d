"""The scoring service: cached documents, bounded cache, merge from any cached detail level."""

import pytest

from scorer import decide
from scorer.service import Scorer

pytestmark = pytest.mark.model  # every test here loads a real model


def test_second_request_for_the_same_text_is_served_from_the_cache(smollm_path):
    scorer = Scorer(smollm_path, cache_size=2)
    text = "One wrapped\nline here.\n两行\n文本"
    first = scorer.document(text)
    assert scorer.document(text) is first
    assert scorer.document(text, mode="as-is") is not first
    scorer.document("another\ntext")
    assert scorer.document(text) is not first  # evicted: the cache holds two documents
    assert len(scorer._cache) == 2


def test_merge_reuses_a_full_document(smollm_path):
    scorer = Scorer(smollm_path)
    text = "alpha beta\ngamma delta\n\nnew paragraph"
    doc = scorer.document(text)
    out = scorer.merge(text, policy=decide.Policy("percentile", 100))
    assert len(scorer._cache) == 1  # no second scoring for the merge
    assert out == {"merged": decide.merged(doc, decide.Policy("percentile", 100)), "joined": 1,
                   "kept": 0, "breaks": 1, "format": "text"}
    assert out["merged"] == "alpha beta gamma delta\n\nnew paragraph"
