"""The hybrid decider: its features, its training, the shipped weights and its place in the
engine (merge and batch use it by default; a cutoff alone asks for the percentile)."""

import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from scorer import contract, decide, hybrid
from scorer.baseline import TwoGram, plain
from scorer.breaks import candidates, percentiles
from scorer.document import score
from scorer.errors import BadInput


def fake_scored(text, logp=None, layout=None):
    """What hybrid.evidence reads, for a text with made-up model numbers."""
    offsets = candidates(text)
    logp = np.array(logp if logp is not None else [-1.0] * len(offsets))
    return SimpleNamespace(text=text, break_at=offsets, layout=layout, logp_newline=logp,
                           logp_next=np.full(len(offsets), np.nan), logp_window=logp,
                           percentile=percentiles(logp))


def test_text_features_read_the_lines():
    text = ("A line that is as long as the other full lines\n"
            "wraps here and ends a sentence, then.\n"
            "- an item\n"
            "短句。\n"
            "and a last line that is again long, enough")
    ev = hybrid.evidence(fake_scored(text, [-3.0, -0.5, -20.5, float("nan")]))
    assert ev["next_lower"].tolist() == [1, 0, 0, 1]
    assert ev["next_item"].tolist() == [0, 1, 0, 0]
    assert ev["sentence_end"].tolist() == [0, 1, 0, 1]
    assert ev["fill"][0] > ev["fill"][1] > ev["fill"][3]  # 短句。 is 6 columns wide
    assert ev["short"].tolist() == [0, 1, 1, 1]
    # clipped log-probabilities; a missing one counts as likely, percentile 0.5
    assert ev["logp_newline"].tolist() == [-3.0, -0.5, hybrid.CLIP, 0.0]
    assert ev["newline_pct"][3] == 0.5 and ev["newline_pct"][2] < ev["newline_pct"][0]
    assert not ev["page_break"].any() and not ev["gap"].any()  # plain text: no PDF layout


def test_pdf_gap_is_measured_against_the_usual_gap():
    keys = ("fill", "gap", "indent_before", "indent_next", "hanging", "page_break")
    layout = [dict(zip(keys, row)) for row in [(1.0, 0.2, 0.0, 0.0, False, False),
                                               (0.4, 1.2, 0.0, 2.0, False, False),
                                               (1.0, 0.2, 2.0, 2.5, False, False),
                                               (1.0, 0.2, 0.0, 1.5, True, False),
                                               (1.0, None, 2.5, 0.0, False, True)]]
    ev = hybrid.evidence(fake_scored("a\nb\nc\nd\ne\nf", layout=layout))
    assert ev["gap"].tolist() == pytest.approx([0.0, 1.0, 0.0, 0.0, 0.0])
    assert ev["page_break"].tolist() == [0, 0, 0, 0, 1]
    # the next line's indent from the edge of the block the line before starts at; none where
    # it hangs from the line before's marker
    assert ev["indent"].tolist() == [0, 2, 0.5, 0, 0]
    assert ev["indent_full"].tolist() == [0, 0, 0.5, 0, 0]  # where the line before ends full
    assert ev["fill"].tolist() == [1.0, 0.4, 1.0, 1.0, 1.0]  # from the geometry, not the text


def test_fit_learns_the_direction_and_the_base_rate():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 2))  # column 0 matters, column 1 is noise
    truth = 1 / (1 + np.exp(-(0.5 + 3 * x[:, 0])))
    y = (rng.random(2000) < truth).astype(float)
    w = hybrid.fit(x, y)
    assert w["coef"][0] > 2 and abs(w["coef"][1]) < 0.3
    probs = hybrid.p_join(w, x)
    assert abs(probs.mean() - y.mean()) < 0.02
    best = ((truth > 0.5) == (y > 0.5)).mean()  # what the true probabilities would get right
    assert ((probs > 0.5) == (y > 0.5)).mean() > best - 0.01


def test_shipped_weights_use_the_model_and_the_layout():
    sets = hybrid.shipped()["sets"]
    for name, weights in sets.items():
        feats = weights["features"]
        assert set(feats) <= set(hybrid.ALL_MODEL + hybrid.TEXT_LAYOUT + hybrid.TEXT_ALONE
                                 + hybrid.PDF_LAYOUT)
        assert set(hybrid.MODEL) <= set(feats)
        assert len(weights["coef"]) == len(weights["mean"]) == len(weights["scale"]) == len(feats)
        assert any(weights["coef"][feats.index(f)] != 0 for f in hybrid.MODEL)
    assert not set(hybrid.PDF_LAYOUT) & set(sets["text"]["features"])
    assert set(hybrid.PDF_LAYOUT) <= set(sets["pdf"]["features"])
    assert set(hybrid.TEXT_ALONE) <= set(sets["text"]["features"])
    assert not set(hybrid.TEXT_ALONE) & set(sets["pdf"]["features"])
    assert "trained" in hybrid.shipped()["about"] and "dev" in hybrid.shipped()["about"]


def test_the_page_has_words_for_every_shipped_feature():
    """The page explains a decision in words (static/render.js FEATURE_WORDS): a feature the
    weights read and the page cannot name would show as its bare name."""
    script = (Path(__file__).resolve().parents[1] / "static" / "render.js").read_text()
    block = script[script.index("const FEATURE_WORDS = {"):]
    named = set(re.findall(r"^  (\w+): ", block[:block.index("\n};")], re.MULTILINE))
    for weights in hybrid.shipped()["sets"].values():
        assert set(weights["features"]) <= named


def test_two_gram_learns_line_final_characters():
    two_gram = TwoGram([("ends.", True), ("ends.", True), ("ends,", False), ("word", False),
                        ("more.", True), ("word", False), ("word", False), ("x", True), ("y", True)])
    assert two_gram.prior == 5 / 9
    assert two_gram.p_break("full stop.") > 0.5 > two_gram.p_break("comma,")
    assert two_gram.decisions(["a.", "a word", "？"]) == ["keep", "join", "keep"]  # unseen: the prior
    rules = plain(["ends.", "a short one"], [1.0, 0.3])
    assert rules["rule: sentence end"] == ["keep", "join"]
    assert rules["rule: short line"] == ["join", "keep"]


@pytest.mark.model
def test_real_document_explains_every_hybrid_decision(gemma):
    text = ("The committee met on Monday and discussed the\n"
            "budget for the coming year in great detail.\n"
            "Results\n"
            "All motions were carried.")
    doc = score(gemma, text, detail="breaks")
    assert len(doc.p_join) == len(doc.break_at) == 3
    weights = hybrid.weights_for(doc)
    for q, why in zip(doc.p_join, doc.evidence):
        assert [name for name, _, _ in why] == weights["features"]
        logit = weights["intercept"] + sum(c for _, _, c in why)
        assert q == pytest.approx(1 / (1 + math.exp(-logit)), abs=1e-3)
    hybrid_said = ["join" if q > 0.5 else "keep" for q in doc.p_join]  # THRESHOLD, by hand
    assert decide.of(doc) == [doc.forced.get(i, (d,))[0] for i, d in zip(doc.break_at, hybrid_said)]
    data = contract.to_dict(doc)
    assert data["decider"] == "hybrid"
    assert all(b["hybrid"] in ("join", "keep") and 0 <= b["p_join"] <= 1 for b in data["breaks"])
    with pytest.raises(BadInput, match="unknown decider"):
        decide.of(doc, decide.Policy("coin"))


@pytest.mark.model
def test_merge_uses_the_hybrid_unless_a_cutoff_is_given(run_cli, smollm_path, tmp_path):
    from scorer.model import load_model

    text = tmp_path / "in.txt"
    text.write_text("Short.\nA longer line that goes on and on and on\nuntil the end of it.\nEnd.\n",
                    encoding="utf-8")
    doc = score(load_model(str(smollm_path)), text.read_text(encoding="utf-8"), detail="breaks")
    default = run_cli("merge", str(text), "--model", str(smollm_path))
    cutoff = run_cli("merge", str(text), "--model", str(smollm_path), "--cutoff", "60")
    assert default.returncode == 0 and cutoff.returncode == 0, default.stderr + cutoff.stderr
    assert default.stdout.decode() == decide.merged(doc, decide.Policy("hybrid"))
    assert cutoff.stdout.decode() == decide.merged(doc, decide.Policy("percentile", 60))


def _weights(model_range=True):
    """Two features: the model's log P(newline) (weight -1 a nat) and how full the line is."""
    w = {"features": ["logp_newline", "fill"], "intercept": 0.0, "coef": [-1.0, 10.0],
         "mean": [-7.0, 0.5], "scale": [1.0, 0.1]}
    if model_range:
        w["model_range"] = {"logp_newline": [-12.0, -2.0]}  # contributions -5 .. +5
    return w


def test_the_model_is_asked_only_where_its_evidence_can_change_the_decision():
    fill = np.array([0.95, 0.05, 0.52, 0.46, 0.80])  # layout log-odds +45, -45, +2, -4, +30
    ev = {"logp_newline": np.full(5, np.nan), "fill": fill}
    asked = hybrid.asks(_weights(), ev)
    assert asked.tolist() == [False, False, True, True, False]
    assert hybrid.asks(_weights(model_range=False), ev).all()  # no range known: ask everywhere
    layout_only = {"features": ["fill"], "intercept": 0.0, "coef": [1.0], "mean": [0.0],
                   "scale": [1.0]}
    assert not hybrid.asks(layout_only, ev).any()
    # where not asked, no value of the model's in its range changes the decision
    for logp in np.linspace(-12, -2, 11):
        probs, parts = hybrid.weigh(_weights(), {"logp_newline": np.full(5, logp), "fill": fill},
                                    np.ones(5, dtype=bool))
        layout = hybrid.weigh(_weights(), {"logp_newline": np.full(5, logp), "fill": fill},
                              asked)[0]
        assert ((probs > 0.5) == (layout > 0.5))[~asked].all()
    # not asked: the model's contribution is 0 (its dev mean), whatever was read
    probs, parts = hybrid.weigh(_weights(), {"logp_newline": np.full(5, -20.0), "fill": fill},
                                asked)
    assert (parts[~asked, 0] == 0).all() and (parts[asked, 0] == 13).all()


def test_the_temperature_undoes_over_and_under_confidence():
    """training.temperature: log-odds twice as sure as the truth get T near 2, half as sure near
    0.5; calibrated weights decide every break as before, only less (or more) sure."""
    from scorer.evaluate.training import calibrated, temperature

    rng = np.random.default_rng(1)
    z = rng.normal(0, 3, size=20000)
    y = (rng.random(len(z)) < 1 / (1 + np.exp(-z))).astype(float)  # z is calibrated
    assert abs(temperature(z, y) - 1) < 0.1
    assert abs(temperature(2 * z, y) - 2) < 0.2
    assert abs(temperature(z / 2, y) - 0.5) < 0.05
    x = rng.normal(size=(500, 2))
    w = {"features": ["fill", "short"], **hybrid.fit(x, (x[:, 0] > 0).astype(float))}
    cool = calibrated(w, 2.0)
    before, after = hybrid.p_join(w, x), hybrid.p_join(cool, x)
    assert ((before > 0.5) == (after > 0.5)).all()
    assert (np.abs(after - 0.5) < np.abs(before - 0.5) + 1e-12).all() and cool["temperature"] == 2.0


def test_the_shipped_weights_know_the_models_usual_range():
    for weights in hybrid.shipped()["sets"].values():
        k = weights["features"].index(hybrid.MODEL[0])
        low, high = weights["model_range"][hybrid.MODEL[0]]
        assert hybrid.CLIP < low < weights["mean"][k] < high < 0
