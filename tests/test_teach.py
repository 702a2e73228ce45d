"""Labels that teach (teach.py, `prefill-lens train`, --weights / weights= / serve --weights, the
page's "Learn from my labels"): a family of PDFs typeset here in a house style the shipped
weights get wrong (every line justified, a paragraph's last line too, and only a 1.5-point
first-line indent where a paragraph starts) is learnt from one labelled PDF and decided right on
the others; contradictory labels change nothing; every entry point decides alike with the same
weights file; a malformed weights file is one clear error everywhere."""

import io
import json
import time
from pathlib import Path

import numpy as np
import pytest

import scorer
from app import create_app
from scorer import batch, cli, decide, hybrid, labelfile, teach
from scorer.document import score_pdf
from scorer.errors import BadInput
from tests import pdfs

INDENT = 1.5  # points: the house style's first-line indent, which the shipped weights miss


# -- fast: weights files, the fit, the guard ----------------------------------------------------
def _set(**change):
    good = json.loads(json.dumps(hybrid.shipped()))
    good["sets"]["pdf"].update(change)
    return good


BAD_WEIGHTS = [
    (b"{not json", "not valid JSON"),
    (b"[]", "expected"),
    (json.dumps({"sets": {"text": {}}}).encode(), '"features"'),
    (json.dumps(_set(features=["fill", "nonsense"])).encode(), '"features"'),
    (json.dumps(_set(coef=[1.0])).encode(), '"coef"'),
    (json.dumps(_set(intercept=float("nan"))).encode(), '"intercept"'),
    (json.dumps(_set(intercept="1")).encode(), '"intercept"'),
    (json.dumps(_set(intercept=True)).encode(), '"intercept"'),
    (json.dumps(_set(intercept=10 ** 400)).encode(), '"intercept"'),
    (json.dumps(_set(window=0)).encode(), '"window"'),
    (json.dumps({**_set(), "name": "x" * 300}).encode(), '"name"'),
    (b"\xff\xfe", "not UTF-8"),
    (b" " * (hybrid.MAX_WEIGHTS_BYTES + 1), "over"),
]


def test_the_shipped_weights_pass_the_check_every_file_gets():
    assert hybrid.checked_weights(hybrid.shipped()) is hybrid.shipped()


@pytest.mark.parametrize("content, fragment", BAD_WEIGHTS)
def test_a_malformed_weights_file_is_one_clear_error_everywhere(tmp_path, capsys, content,
                                                                 fragment):
    """The CLI (one line, status 2, before any model loads), the Python API, the batch and the
    web app's setting all refuse it with the same words."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    text = tmp_path / "in.txt"
    text.write_text("one line\nand another\n", encoding="utf-8")
    assert cli.main(["merge", str(text), "--weights", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and fragment in err and err.count("\n") == 1
    for call in (lambda: scorer.merge_text("a\nb", weights=bad),
                 lambda: batch.run([str(text)], tmp_path / "out", weights=str(bad)),
                 lambda: create_app({"TESTING": True, "WEIGHTS": str(bad)})):
        with pytest.raises(BadInput, match=fragment.replace('"', '.')):
            call()
    with pytest.raises(BadInput, match="path or a dict"):
        scorer.merge_text("a\nb", weights=42)


def test_a_missing_weights_file_says_so(tmp_path):
    with pytest.raises(BadInput, match="cannot read the weights file"):
        hybrid.read_weights(tmp_path / "nope.json")


def _labelled(X, y, name="doc"):
    names = hybrid.shipped()["sets"]["text"]["features"]
    return teach.Labelled(name, False, dict(zip(names, np.asarray(X, float).T)),
                          np.arange(len(y)), np.asarray(y, float), np.zeros(len(y)))


def test_the_prior_holds_a_fit_on_few_labels_and_lets_many_move_it():
    prior = hybrid.shipped()["sets"]["text"]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, len(prior["features"]))) * prior["scale"] + prior["mean"]
    y = (X[:, 0] > prior["mean"][0]).astype(float)  # a rule of the first feature alone
    start = np.array([prior["intercept"], *prior["coef"]])

    def moved(n, l2):
        w = hybrid.fit(X[:n], y[:n], l2, prior=prior)
        assert w["mean"] == prior["mean"] and w["scale"] == prior["scale"]
        return np.abs(np.array([w["intercept"], *w["coef"]]) - start).max()

    assert moved(400, 1e6) < 0.01  # a very strong pull: the prior itself
    assert moved(10, 10.0) < moved(400, 10.0)  # more labels move it more


def test_too_few_labels_of_one_kind_are_refused_with_counts():
    prior = hybrid.shipped()["sets"]["text"]
    X = np.tile(prior["mean"], (10, 1))
    with pytest.raises(BadInput, match="7 join and 3 keep.*at least 5 of each"):
        teach.fit_set([_labelled(X, [1] * 7 + [0] * 3)], prior)


def test_labels_that_contradict_each_other_keep_the_weights_before():
    """Every break labelled twice, join and keep (no feature can tell them apart): whatever a
    fit puts right it puts as much wrong on the twin break, no fit does better than chance,
    so the weights it started from are kept, and the report says so."""
    prior = hybrid.shipped()["sets"]["text"]
    rng = np.random.default_rng(1)
    X = np.array(prior["mean"]) + rng.normal(size=(20, len(prior["mean"]))) * np.array(prior["scale"])
    X, y = np.repeat(X, 2, axis=0), np.array([0, 1] * 20)
    got, report = teach.fit_set([_labelled(X, y)], prior)
    assert got is prior and report["kept"] == "before"
    assert report["put_right"] == report["put_wrong"]
    assert report["macro_f1_fitted"] <= 0.5


def test_folds_are_documents_when_there_are_several_else_balanced_folds_of_breaks():
    one = _labelled(np.zeros((12, 1)), [1] * 6 + [0] * 6)
    fold = teach.folds_of([one])
    for k in range(teach.FOLDS):  # every fold of breaks holds both kinds where it can
        assert len(fold[fold == k]) in (2, 3)
    assert set(one.y[fold == 0]) == {0.0, 1.0}
    two = teach.folds_of([one, _labelled(np.zeros((3, 1)), [1, 0, 1])])
    assert list(two) == [0] * 12 + [1] * 3


def test_macro_f1_is_the_evaluations():
    from scorer.evaluate.metrics import metrics

    y = [1, 1, 0, 0, 1, 0, 1]
    join = [1, 0, 0, 1, 1, 0, 1]
    want = metrics(["wrap" if v else "break" for v in y],
                   ["join" if d else "keep" for d in join])["macro_f1"]
    assert teach.macro_f1(y, join) == pytest.approx(want)


def test_train_pairs_come_from_folders_or_in_twos(tmp_path):
    for name in ("a.pdf", "a.truth.txt", "b.txt", "b.labels.jsonl", "c.pdf"):
        (tmp_path / name).write_text("x")
    got = cli.training_pairs([str(tmp_path)])
    assert [(d.name, lab.name) for d, lab in got] == [("a.pdf", "a.truth.txt"),
                                                      ("b.txt", "b.labels.jsonl")]
    with pytest.raises(BadInput, match="DOC LABELS"):
        cli.training_pairs(["a.pdf", "a.truth.txt", "c.pdf"])
    with pytest.raises(BadInput, match="holds no"):
        cli.training_pairs([str(tmp_path / "empty")] if (tmp_path / "empty").mkdir() is None
                           else [])


def test_the_pages_labels_are_checked_against_the_text():
    text = "one line\nand another\nthird"
    assert labelfile.from_page({"8": "join", "20": "keep"}, text) == {8: "join", 20: "keep"}
    for bad, fragment in (([], "object"), ({"3": "join"}, "not the offset"),
                          ({"-8": "join"}, "not the offset"), ({"8": "maybe"}, "one of")):
        with pytest.raises(BadInput, match=fragment):
            labelfile.from_page(bad, text)


# -- with the real model: a family learnt from one of its PDFs ---------------------------------
@pytest.fixture(scope="module")
def family(tmp_path_factory):
    """Three PDFs of the house style (other sentences each) with their truth texts."""
    folder = tmp_path_factory.mktemp("family")
    for seed in range(3):
        truth = pdfs.family(folder / f"f{seed}.pdf", seed=seed, paragraphs=10, indent=INDENT)
        (folder / f"f{seed}.truth.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
    return folder


def macro_f1_on(model, path, weights=None):
    """Macro-F1 of the default decisions (forced keeps included) against the PDF's truth."""
    doc = score_pdf(model, path.read_bytes(), detail="cascade", name=path.name, weights=weights)
    truth = labelfile.from_truth(doc.text, path.with_suffix(".truth.txt").read_text("utf-8"))
    said = dict(zip(doc.break_at, decide.of(doc, decide.policy(None, None))))
    return teach.macro_f1([truth[i] == "join" for i in truth], [said[i] == "join" for i in truth])


@pytest.mark.model
def test_labels_on_one_pdf_of_a_family_fix_the_same_mistake_on_the_others(family, run_cli,
                                                                            gemma):
    weights = family / "family.json"
    r = run_cli("train", str(family / "f0.pdf"), str(family / "f0.truth.txt"), "-o",
                str(weights))
    assert r.returncode == 0, r.stderr.decode()
    assert b"the fitted weights are kept" in r.stderr
    written = json.loads(weights.read_text("utf-8"))
    trained = written["trained"]["sets"]["pdf"]
    assert written["name"] == "family" and written["trained"]["version"] == scorer.__version__
    assert trained["documents"] == ["f0.pdf"] and trained["keep"] >= 5
    assert trained["macro_f1_fitted"] > trained["macro_f1_before"]
    assert written["sets"]["text"] == hybrid.shipped()["sets"]["text"]  # only PDFs were labelled
    fitted = hybrid.read_weights(weights)
    for other in ("f1.pdf", "f2.pdf"):  # never labelled
        before = macro_f1_on(gemma, family / other)
        after = macro_f1_on(gemma, family / other, fitted)
        print(f"{other}: macro-F1 {before:.3f} with the shipped weights, {after:.3f} fitted")
        assert before < 0.85 and after >= 0.95


@pytest.mark.model
def test_a_handful_of_contradictory_labels_changes_nothing(family, run_cli, gemma, tmp_path):
    """Twelve labels at every other break, join and keep in turn whatever the truth: the guard
    keeps the shipped weights, and merge decides as without them."""
    doc = score_pdf(gemma, (family / "f0.pdf").read_bytes(), detail="cascade", name="f0.pdf")
    free = [i for i in doc.break_at if i not in doc.forced][::2][:12]
    marks = tmp_path / "f0.labels.jsonl"
    marks.write_text("".join(json.dumps({"doc": scorer.inputs.text_hash(doc.text), "offset": i,
                                         "label": ("join", "keep")[k % 2]}) + "\n"
                             for k, i in enumerate(free)), encoding="utf-8")
    weights = tmp_path / "w.json"
    r = run_cli("train", str(family / "f0.pdf"), str(marks), "-o", str(weights))
    assert r.returncode == 0, r.stderr.decode()
    assert b"the weights it started from are kept" in r.stderr
    assert json.loads(weights.read_text("utf-8"))["sets"] == hybrid.shipped()["sets"]
    for other in ("f1.pdf", "f2.pdf"):
        assert (scorer.merge_pdf(family / other, model=gemma, weights=weights)
                == scorer.merge_pdf(family / other, model=gemma))


def _finished(client, url):
    for _ in range(1200):
        view = client.get(url).get_json()
        if view["state"] in ("done", "failed", "cancelled"):
            return view
        time.sleep(0.1)
    raise AssertionError(view)


def _upload(client, path):
    r = client.post("/api/jobs", data={"file": (io.BytesIO(path.read_bytes()), path.name)},
                    content_type="multipart/form-data")
    assert r.status_code == 202, r.get_json()
    url = r.get_json()["url"]
    assert _finished(client, url)["state"] == "done"
    return url


@pytest.mark.model
def test_the_batch_the_api_and_the_server_decide_alike_with_one_weights_file(family, gemma,
                                                                             tmp_path):
    item = teach.labelled(gemma, score_pdf(gemma, (family / "f0.pdf").read_bytes(),
                                           detail="breaks", name="f0.pdf"),
                          labelfile.from_truth(*_text_and_truth(gemma, family / "f0.pdf")),
                          "f0.pdf")
    path = tmp_path / "w.json"
    path.write_text(json.dumps(teach.train([item], gemma.info, name="family")), "utf-8")
    out = tmp_path / "out"
    summary = batch.run([str(family / "f1.pdf"), str(family / "f2.pdf")], out, workers=1,
                        weights=str(path), stream=io.StringIO())
    assert summary["failed"] == 0
    client = create_app({"TESTING": True, "WEIGHTS": str(path)}).test_client()
    for name in ("f1.pdf", "f2.pdf"):
        api = scorer.merge_pdf(family / name, model=gemma, weights=path)
        assert api != scorer.merge_pdf(family / name, model=gemma)  # the weights matter here
        assert (out / f"{name}.txt").read_text("utf-8") == api
        url = _upload(client, family / name)
        assert client.post(url + "/merge", json={}).get_json()["merged"] == api
        assert client.get(url + "/result").get_json()["weights"]["name"] == "family"


def _text_and_truth(model, path):
    doc = score_pdf(model, path.read_bytes(), detail="cascade", name=path.name)
    return doc.text, path.with_suffix(".truth.txt").read_text("utf-8")


@pytest.mark.model
def test_the_page_learns_from_its_labels_and_decides_as_merge_with_those_weights(family, gemma):
    app = create_app({"TESTING": True})
    mine, theirs = app.test_client(), app.test_client()
    url = _upload(mine, family / "f0.pdf")
    result = mine.get(url + "/result").get_json()
    assert result["weights"] == {"name": "shipped"}
    truth = labelfile.from_truth(result["text"], (family / "f0.truth.txt").read_text("utf-8"))
    labels = {str(i): d for i, d in truth.items()}
    assert theirs.post(url + "/learn", json={"labels": labels}).status_code == 403
    few = mine.post(url + "/learn", json={"labels": dict(list(labels.items())[:3])})
    assert few.status_code == 400 and "too few labels" in few.get_json()["error"]
    r = mine.post(url + "/learn", json={"labels": labels})
    assert r.status_code == 200, r.get_json()
    got = r.get_json()
    assert "the fitted weights are kept" in got["summary"]
    learned = mine.get(got["url"] + "/result").get_json()
    assert learned["weights"]["name"] == "learned from labels on f0.pdf"
    assert learned["weights"]["trained"]["sets"]["pdf"]["kept"] == "fitted"
    page = mine.post(got["url"] + "/merge", json={}).get_json()["merged"]
    assert page == scorer.merge_pdf(family / "f0.pdf", model=gemma, weights=got["weights"])
    assert page != mine.post(url + "/merge", json={}).get_json()["merged"]
