"""Line-end hyphens (scorer/hyphen.py): which breaks are candidates, what the model reads, and,
with the default model, both ways: a word split by the layout loses its hyphen when joined, a
compound keeps it. The measured precision: `prefill-lens eval` (scorer/evaluate/hyphens.py)."""

import numpy as np
import pytest

from scorer import contract, decide, hyphen
from scorer.breaks import candidates
from scorer.document import score
from scorer.evaluate.hyphens import cases


@pytest.mark.parametrize("text, expected", [
    ("read the docu-\nmentation first", [0]),
    ("a well-\nknown fact", [0]),
    ("a dash -\nthen", []),  # no letter before the hyphen
    ("the GPL-\nCompatible", []),  # the next line starts upper-case: a name, not a split word
    ("ends here-\n42 more", []),
    ("中文-\n中文", []),  # not lower-case Latin after it
])
def test_candidates(text, expected):
    assert hyphen.candidates(text, candidates(text)) == expected


def test_readings_carry_the_space_before_the_word():
    """The word is read with the space before it (" documentation" is one token to the model,
    " " + "documentation" two it never saw in training); no space where none stood."""
    text = "Please read the\ndocu-\nmentation, then upload."
    i = candidates(text)[1]
    context, with_hyphen, without = hyphen.readings(text, i)
    assert context == "Please read the"  # newlines read as spaces
    assert (with_hyphen, without) == (" docu-mentation", " documentation")
    text = "a long note (docu-\nmentation) follows"
    assert hyphen.readings(text, text.index("\n")) == ("a long note (", "docu-mentation",
                                                        "documentation")
    text = "the " + "x" * 100 + " docu-\nmentation"
    assert hyphen.readings(text, text.index("\n"))[0] == ""  # no word whole in reach
    text = "one two three four five six seven eight docu-\nmentation"
    for chars, context in [(13, "seven eight"), (12, "seven eight"), (11, "eight")]:
        assert hyphen.readings(text, text.index("\n"), chars)[0] == context  # 11: not "even"


def test_cases_leave_out_compounds_the_document_writes_both_ways():
    twin = ("The command-line tool and the commandline tool are one. A well-known "
            "distribution ships the documentation of every package. ") * 2
    made = cases(twin, 0.0, n=5)
    words = [text.split("\n")[0].split()[-1] + text.split("\n")[1].split()[0] for text, _ in made]
    assert "well-known" in words and "command-line" not in words
    assert ("docu" + "mentation") in [w.replace("-", "") for w, (_, r) in zip(words, made) if r]


@pytest.mark.model
def test_the_model_drops_a_layout_hyphen_and_keeps_a_compound(gemma):
    text = ("Maintainers should read the docu-\nmentation before they upload, and the "
            "well-\nknown rules of the archive apply to every package they send.")
    doc = score(gemma, text, detail="breaks")
    assert doc.unhyphen == [True, False]
    merged = decide.merged(doc, decide.Policy("percentile", 100))  # join every break
    assert "documentation before" in merged and "well-known rules" in merged
    breaks = contract.to_dict(doc)["breaks"]
    assert [b["unhyphen"] for b in breaks] == [True, False]
    assert doc.timings["hyphens_s"] > 0
    # keep every break by hand: a hand keep wins over the forced join a cut word now gets
    kept = decide.merged(doc, decide.Policy("percentile", 0,
                                            {i: "keep" for i in doc.break_at}))
    assert kept == text  # a kept break keeps its hyphen


def test_a_hyphen_set_in_a_cut_address_goes_without_asking_the_model():
    """A typesetter's hyphen after an address's "/" or "." ("www.debian.org/-" + "doc/") is
    none of the URL's: dropped when the break is joined, and no model is read for it."""
    from scorer.prefill import run_steps

    text = "See https://www.debian.org/-\ndoc/manuals/ for more, and the self-\nhosted one."
    offsets = candidates(text)
    assert hyphen.address_cuts(text, offsets) == [0]
    assert hyphen.candidates(text, offsets) == [1]  # the word is still the model's to read
    assert hyphen.address_cuts("a dash -\nthen /x", candidates("a dash -\nthen /x")) == []
    assert hyphen.address_cuts("the /usr/-\nfor all", candidates("the /usr/-\nfor all")) == []
    name = "\\g__kernel_pdfmanagement_-\nlastpage_shipout_code_tl . . 79"  # an index's entry
    assert hyphen.address_cuts(name, candidates(name)) == [0]
    assert run_steps(hyphen.decide_steps(None, text[:text.index("\n", 30)],
                                         offsets[:1])) == [True]  # no model needed


@pytest.mark.model
def test_readings_read_together_are_the_readings_read_alone(gemma):
    """prefill.readings_steps, which the hyphen stage runs: many items' readings in one decode,
    none seeing another's tokens (each reading as when its item is read alone, to llama.cpp's
    rounding, which differs with the batch), the spellings told apart as alone; as few
    decodes as fit; an item too long for one decode reads None, and its hyphen stays."""
    from scorer.prefill import readings_steps, run_steps

    def tok(s):
        return gemma.tokenize_exact([s])[0]

    items = [(tok("Maintainers should read the "), [tok("docu-mentation first"),
                                                    tok("documentation first")]),
             (tok("The capital of France is"), [tok(" Paris."), tok(" Tokyo.")]),
             (tok("The capital of Japan is Tokyo. The capital of Japan is"),
              [tok(" Tokyo."), tok(" Paris.")])] * 8
    with gemma.lock:
        together = run_steps(readings_steps(gemma, items))
        alone = [run_steps(readings_steps(gemma, [item]))[0] for item in items[:3]]
        steps = list(readings_steps(gemma, items))
    for got, want in zip(together, alone * 8):
        assert np.allclose(got, want, atol=0.5)
        assert (got[1] > got[0]) == (want[1] > want[0])
    assert together[1][0] > together[1][1] + 3 and together[2][0] > together[2][1] + 3
    assert len(steps) < len(items) / 2 and steps[-1] == (len(items), len(items))

    huge = "".join(chr(ord("a") + (i * 7) % 26) for i in range(3000))  # one "word"
    assert len(tok(huge)) > gemma.READINGS_BATCH
    text = (f"Maintainers should read the docu-\nmentation first.\n\n"
            f"Then the {huge}-\nmentation.")
    offsets = candidates(text)
    with gemma.lock:
        assert run_steps(hyphen.decide_steps(gemma, text, offsets)) == [True, False]


def test_a_word_the_text_writes_whole_elsewhere_is_not_asked():
    """The text's own spelling decides without the model (None here): "documentation" written
    whole elsewhere, its split drops the hyphen; "well-known" written with its hyphen on one
    line, its split keeps it, even where the text also writes "wellknown"."""
    from scorer.prefill import run_steps

    text = ("The documentation is long, and the well-known rules (wellknown to all) apply. "
            "Read the docu-\nmentation and a well-\nknown fact, then the Docu-\nmentation.")
    offsets = candidates(text)
    assert hyphen.candidates(text, offsets) == [0, 1, 2]
    assert run_steps(hyphen.decide_steps(None, text, offsets)) == [True, False, True]
    assert hyphen.written("a docu-\nmentation", candidates("a docu-\nmentation"), [0]) == {}
