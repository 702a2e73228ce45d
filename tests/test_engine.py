"""The engine with real models: prefill alignment, windows, detail levels, both context modes."""

import numpy as np
import pytest

from scorer import ScorerError, contract, decide, hybrid
from scorer.document import score
from scorer.model import load_model
from scorer.prefill import prefill

from tests.conftest import EN_SAMPLE, ZH_SAMPLE
from tests.truth import wrap_labels

pytestmark = pytest.mark.model  # every test here loads a real model

SHORT = ("The board replaced fourteen kilometres of old mains this year.\n"
         "股东大会决议公告，证券代码：900948。\n")


def reference_logprobs(model, ids):
    """Independent reference: llama-cpp-python's high-level eval with logits for every row."""
    from llama_cpp import Llama

    ref = Llama(model_path=str(model.path), n_ctx=1024, n_batch=512, logits_all=True,
                verbose=False)
    try:
        toks = ([model.bos] if model.add_bos else []) + list(ids)
        ref.eval(toks)
        x = np.array(ref.scores[:len(toks)], dtype=np.float64)
    finally:
        ref.close()
    m = x.max(axis=1, keepdims=True)
    logsm = x - (m + np.log(np.exp(x - m).sum(axis=1, keepdims=True)))
    off = 1 if model.add_bos else 0
    out = np.full(len(ids), np.nan)
    for j in range(len(ids)):
        if j - 1 + off >= 0:
            out[j] = logsm[j - 1 + off, ids[j]]
    return out


@pytest.mark.parametrize("which", ["gemma", "smollm"])
def test_prefill_matches_independent_reference(which, request):
    model = request.getfixturevalue(which)
    ids = model.tokenize(SHORT.encode())
    with model.lock:
        got = prefill(model, ids, top_k=5)
    want = reference_logprobs(model, ids)
    ok = ~np.isnan(want)
    assert np.isnan(got.logprob).sum() == (0 if model.add_bos else 1)
    diff = np.abs(got.logprob[ok] - want[ok])
    assert diff.max() < 0.1 and diff.mean() < 0.02, diff.max()
    # top-1 alternative is the argmax, and its probability is at least the actual token's
    assert (got.top_logprob[ok, 0] >= got.logprob[ok] - 1e-5).all()
    assert (np.diff(got.top_logprob[ok], axis=1) <= 1e-6).all()  # sorted, best first


@pytest.mark.parametrize("shift", [True, False])
def test_windows_agree_with_one_window_and_cover_long_text(smollm_path, smollm, shift):
    text = EN_SAMPLE.read_text() * 3
    small = load_model(smollm_path, window=192, batch=64)
    ids = smollm.tokenize(text.encode())
    assert len(ids) > 3 * 192
    with small.lock:
        windowed = prefill(small, ids, overlap=64, shift=shift)
    with smollm.lock:
        whole = prefill(smollm, ids[:small.window])
    assert windowed.stats["shift"] is shift
    assert windowed.stats["windows"] >= 4
    if shift:  # the overlap stays in the KV cache: every token is decoded exactly once
        assert windowed.stats["recomputed"] == 0 and windowed.stats["decoded"] == len(ids)
    else:
        assert windowed.stats["recomputed"] == 64 * (windowed.stats["windows"] - 1)
    # every token but the first is scored, and each saw at least the overlap after window 1
    assert np.isnan(windowed.logprob).sum() == 1
    first_window = small.window - (1 if small.add_bos else 0)
    assert (windowed.context[first_window:] >= 64).all()
    assert (windowed.context <= small.window - (1 if small.add_bos else 0)).all()
    # inside the first window both runs saw the same history: same numbers
    n = first_window
    diff = np.abs(windowed.logprob[1:n] - whole.logprob[1:n])
    assert diff.max() < 0.1 and diff.mean() < 0.02


def test_shifted_windows_score_like_recomputed_ones(gemma):
    """After a shift the kept tokens carry more history than a recompute gives them (BOS stays
    at position 0 as the attention sink): per token the two differ a little, not on average."""
    small = load_model(None, window=192, batch=64)
    ids = small.tokenize((EN_SAMPLE.read_text() * 2).encode())
    with small.lock:
        kept = prefill(small, ids, overlap=64)
        again = prefill(small, ids, overlap=64, shift=False)
    assert kept.stats["shift"] and not again.stats["shift"]
    later = slice(small.window, None)
    assert np.mean(kept.logprob[later]) > np.mean(again.logprob[later]) - 0.1
    assert np.median(np.abs(kept.logprob[later] - again.logprob[later])) < 0.3


def test_models_without_bos_recompute_windows(smollm_path):
    small = load_model(smollm_path, window=192, batch=64)
    assert not small.add_bos
    with small.lock:
        result = prefill(small, small.tokenize((EN_SAMPLE.read_text() * 2).encode()), overlap=64)
    assert result.stats["shift"] is False and result.stats["recomputed"] > 0


@pytest.mark.parametrize("mode", ["joined", "as-is"])
def test_breaks_only_detail_gives_the_same_break_probabilities(gemma, mode):
    text = ZH_SAMPLE.read_text()
    full = score(gemma, text, mode=mode, detail="full")
    lean = score(gemma, text, mode=mode, detail="breaks")
    assert len(full.break_at) == len(lean.break_at) > 40
    assert np.array_equal(full.logp_newline, lean.logp_newline)
    assert lean.stats["logit_rows"] < full.stats["logit_rows"] / 5
    assert decide.merged(full) == decide.merged(lean)


def test_document_shape_and_evidence(gemma):
    text = ZH_SAMPLE.read_text()
    doc = score(gemma, text, mode="joined")
    data = contract.to_dict(doc, vocab=gemma.vocab_bytes)
    assert "".join(c["ch"] for c in data["cells"]) == text
    assert len(data["tokens"]) == data["n_tokens"] > 500
    assert data["model"]["file"].endswith(".gguf") and len(data["model"]["sha256"]) == 64
    breaks = data["breaks"]
    assert all(text[b["i"]] == "\n" for b in breaks)
    probs = [b["p"] for b in breaks]
    assert all(0 < p <= 1 for p in probs)
    pcts = sorted(b["percentile"] for b in breaks)
    assert pcts[0] < 5 and pcts[-1] > 95
    # the default decider is the hybrid; the percentile decides when asked
    assert data["decider"] == "hybrid"
    assert [b["decision"] for b in breaks] == [b["forced"] or b["hybrid"] for b in breaks]
    by_pct = contract.to_dict(doc, decide.Policy("percentile"))["breaks"]
    joined = sum(b["decision"] == "join" for b in by_pct)
    assert joined == sum(b["percentile"] < 34 and not b["forced"] for b in by_pct) > 0
    # a line that starts a numbered item is never joined to the line before it, nor a heading
    # (a short line that ends no sentence) to the line after it
    forced = [b for b in breaks if b["forced"]]
    assert forced and all(b["decision"] == "keep" for b in forced)
    for b in forced:
        before = text[:b["i"]].rsplit("\n", 1)[-1]
        assert text[b["i"] + 1:].startswith(("1.", "2.", "3.", "（", "一、", "二、", "三、", "四、")) or (
            b["reason"] == "the line is a heading" and not before.endswith(tuple("。.，,；;"))), b
    assert all(len(t["top"]) == 5 for t in data["tokens"])
    # the newline cells of joined mode carry no tokens: the model never read them
    assert all(data["cells"][b["i"]]["t"] == [] for b in breaks)


def test_model_sees_wraps_as_less_expected_than_paragraph_ends(gemma):
    """The premise of the product, on the sample whose true paragraphs are known."""
    wrapped = ZH_SAMPLE.read_text()
    truth = (ZH_SAMPLE.parent / "expected" / ZH_SAMPLE.name).read_text()
    doc = score(gemma, wrapped, mode="joined", detail="breaks")
    labels = wrap_labels(wrapped, truth)
    is_wrap = np.array([labels[wrapped.count("\n", 0, i)] for i in doc.break_at])
    lp = doc.logp_newline
    assert 10 < is_wrap.sum() < len(is_wrap) - 10
    assert np.median(lp[is_wrap]) < np.median(lp[~is_wrap]) - 1.0


def test_split_characters_with_byte_level_model(smollm):
    text = ZH_SAMPLE.read_text()
    doc = score(smollm, text, mode="as-is")
    data = contract.to_dict(doc, vocab=smollm.vocab_bytes)
    tokens, cells = data["tokens"], data["cells"]
    split = [c for c in cells if c["t"] and c["t"][1] > c["t"][0]]
    assert len(split) > 10
    for cell in split:
        covering = [tokens[t] for t in range(cell["t"][0], cell["t"][1] + 1)]
        joined = b"".join(bytes.fromhex(t["hex"]) for t in covering)
        if cell["shared"]:  # a token also holds a neighbour's bytes (" \xe5" + "\x85\xac")
            assert cell["ch"].encode() in joined
        else:
            assert joined == cell["ch"].encode()
        assert any(t["text"].startswith("<0x") for t in covering)
        if all(t["logprob"] is not None for t in covering):
            want = sum(t["logprob"] for t in covering)
            assert cell["logprob"] == pytest.approx(want, abs=1e-3)
    assert "\ufffd" not in "".join(c["ch"] for c in cells)


def test_as_is_newline_merged_into_a_token_is_divided_out(smollm):
    """SmolLM2 has a " \\n" token: P(newline) must be P(newline | " "), not P(" \\n")."""
    text = "First line. \n  Second line:\nThird line \n  Fourth line."
    doc = score(smollm, text, mode="as-is")
    merged = [k for k, j in enumerate(doc.break_token) if doc.pieces[j] != b"\n"
              and b"\n" in doc.pieces[j] and not doc.pieces[j].startswith(b"\n")]
    plain = [k for k, j in enumerate(doc.break_token) if doc.pieces[j].startswith(b"\n")]
    assert merged, [doc.pieces[j] for j in doc.break_token]
    for k in merged + plain:
        assert doc.logp_newline[k] <= 1e-6
    for k in merged:  # P(newline | "…." ) >= P("." + newline together)
        assert doc.logp_newline[k] >= doc.logprob[doc.break_token[k]] - 1e-4


@pytest.mark.parametrize("bad, message", [
    ("", "empty"), ("   \n\n ", "empty"), ("a\x00b", r"U\+0000"), ("bell\x07", r"U\+0007"),
])
def test_bad_text_is_a_clear_error(gemma, bad, message):
    with pytest.raises(ScorerError, match=message):
        score(gemma, bad)


def test_long_document_is_scored_end_to_end(gemma):
    """100,000 characters: many windows, every break gets evidence (about a minute on 2 cores)."""
    text = EN_SAMPLE.read_text() * 64 + ZH_SAMPLE.read_text() * 8
    assert len(text) > 100_000
    doc = score(gemma, text, mode="joined", detail="breaks")
    assert doc.stats["windows"] > 10
    assert not np.isnan(doc.logp_newline).any()
    merged = decide.merged(doc)
    assert merged.count("\n") == text.count("\n") - decide.of(doc).count("join")


def test_the_cascade_reads_only_the_asked_windows_and_decides_as_the_whole_pass(gemma):
    """merge's detail: no pass over the whole text, only the short window before each break
    the hybrid asks about, read alone; the same numbers there, the same decisions; a text it
    asks nothing about is not read at all."""
    items = "".join(f"• item {k}: a short entry of the list\n" for k in range(200))
    text = items + EN_SAMPLE.read_text()
    whole = score(gemma, text, detail="breaks")
    cascade = score(gemma, text, detail="cascade")
    asked = cascade.asked
    assert np.array_equal(asked, whole.asked) and 0 < asked.sum() < len(asked) / 10
    assert np.array_equal(cascade.logp_window[asked], whole.logp_window[asked])
    assert np.isnan(cascade.logp_window[~asked]).all() and np.isnan(cascade.percentile).all()
    assert decide.of(cascade) == decide.of(whole)
    assert decide.merged(cascade) == decide.merged(whole)
    assert cascade.stats["decoded"] == 0 and cascade.stats["window_tokens"] < len(cascade.ids) / 5
    data = contract.to_dict(cascade)
    for brk, a in zip(data["breaks"], asked):
        assert brk["asked"] == bool(a) and (brk["logp_window"] is None) == (not a)
        assert brk["logp"] is None and brk["percentile"] is None
        model_row = [e for e in brk["evidence"] if e[0] == "logp_window"][0]
        assert (model_row[1] is None and model_row[2] == 0) == (not a)
    nothing = score(gemma, items, detail="cascade")  # every break before a list item
    assert nothing.stats["asked"] == 0
    assert decide.merged(nothing) == items


def test_a_window_reading_is_the_same_wherever_the_break_stands(gemma):
    """P(newline) from the few tokens before a break (each weight set's window), read alone:
    the text before those does not change it (what lets the cascade skip it)."""
    from scorer.document import _read_as, window_logps

    tail = EN_SAMPLE.read_text()
    break_token = _read_as(gemma, tail, "joined")[5]
    for window in sorted(set(hybrid.WINDOWS.values())):
        with gemma.lock:
            alone = window_logps(gemma, tail, window)
            after = window_logps(gemma, ZH_SAMPLE.read_text() + "\n\n" + tail, window)
        far = np.array(break_token) >= window  # its window lies inside `tail`
        assert far.sum() > 10
        assert np.array_equal(after[-len(alone):][far], alone[far])
