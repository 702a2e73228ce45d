"""An analyst's labels: the metrics shared with the page, the JSON Lines the page writes read
back by the engine (scorer/labelfile.py), labels from a truth text, the /api/labels route, and
the HTML report's bundle (scorer/report.py)."""

import json
import math
import shutil
import subprocess

import pytest

from scorer import inputs, labelfile, report
from scorer.breaks import candidates
from scorer.errors import BadInput
from scorer.evaluate.metrics import from_counts
from tests.conftest import ROOT

SHARED = json.loads((ROOT / "tests" / "fixtures" / "metrics.json").read_text(encoding="utf-8"))
TEXT = "A line that wraps in\nthe middle.\nNew paragraph\nthat wraps too.\n中文的句子在这里\n断开了。"


@pytest.mark.parametrize("case", SHARED["cases"], ids=lambda c: c["name"])
def test_metrics_as_the_page_computes_them(case):
    got = from_counts(case["counts"])
    for key, want in case["expect"].items():
        if want is None:
            assert math.isnan(got[key])
        else:
            assert got[key] == pytest.approx(want, abs=1e-9), key


def node_label_lines(text, labels) -> str:
    """What the page's Save labels writes (static/labels.js), for `text` and `labels`."""
    node = shutil.which("node")
    assert node, "node is needed (make test installs it)"
    doc = {"text": text, "sha256": inputs.text_hash(text)}
    script = ("import('./static/labels.js').then((m) => process.stdout.write("
              f"m.labelLines({json.dumps(doc)}, {json.dumps(labels)})));")
    run = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                         text=True, cwd=ROOT, timeout=60, check=True)
    return run.stdout


def test_what_the_page_saves_the_engine_reads_back():
    breaks = candidates(TEXT)
    labels = {breaks[0]: "join", breaks[1]: "keep", breaks[-1]: "join"}
    lines = node_label_lines(TEXT, {str(k): v for k, v in labels.items()})
    assert len(lines.splitlines()) == 3
    got, others = labelfile.read(lines, TEXT)
    assert got == labels and others == 0
    # another document's labels in the same file are counted, not used
    other = node_label_lines("x\ny", {"1": "keep"})
    got, others = labelfile.read(other + lines, TEXT)
    assert got == labels and others == 1


@pytest.mark.parametrize("lines, fragment", [
    ("not json", "line 1 is not valid JSON"),
    ('{"doc": "x", "offset": 1, "label": "maybe"}', "label must be one of"),
    ('{"doc": "x", "offset": "1", "label": "join"}', "whole number"),
    ('[1, 2]', "expected"),
    ('{"doc": "%s", "offset": 2, "label": "join"}', "no line break to decide at offset 2"),
    ('{"doc": "other", "offset": 20, "label": "join"}', "none of the labels is for this document"),
    ("", "none of the labels"),
])
def test_bad_label_files_are_named_line_by_line(lines, fragment):
    lines = lines.replace("%s", inputs.text_hash(TEXT))
    with pytest.raises(BadInput, match=fragment):
        labelfile.read(lines, TEXT)


def test_labels_from_a_truth_text():
    truth = ("A line that wraps in the middle.\n\n“New paragraph” that wraps too.\n"
             "中文的句子在这里断开了。\n")
    quoted = TEXT.replace("New paragraph", "“New paragraph”")  # quotes may differ: they do not count
    got = labelfile.from_truth(quoted, truth.replace("“New paragraph”", '"New paragraph"'))
    breaks = candidates(quoted)
    assert [got.get(i) for i in breaks] == ["join", "keep", "join", "keep", "join"]
    with pytest.raises(BadInput, match="does not line up"):
        labelfile.from_truth(TEXT, "something else entirely\n")


def test_labels_route(app):
    client = app.test_client()
    breaks = candidates(TEXT)
    lines = json.dumps({"doc": inputs.text_hash(TEXT), "offset": breaks[0], "label": "keep"})
    r = client.post("/api/labels", json={"text": TEXT, "labels": lines})
    assert r.status_code == 200 and r.get_json() == {"labels": {str(breaks[0]): "keep"}, "others": 0}
    r = client.post("/api/labels", json={"text": TEXT, "truth": TEXT.replace("\nthe", " the")})
    assert r.get_json()["labels"][str(breaks[0])] == "join"
    for body, status in [({"text": TEXT}, 400), ({"labels": lines}, 400),
                         ({"text": TEXT, "labels": "{"}, 400), ("x", 400)]:
        r = client.post("/api/labels", json=body)
        assert r.status_code == status and "error" in r.get_json()


def test_the_report_bundle_is_one_classic_script_without_imports(tmp_path):
    static, _, _ = report.assets()
    script = report.bundle(static)
    assert "import {" not in script and "\nexport " not in script
    path = tmp_path / "bundle.js"
    path.write_text(script, encoding="utf-8")
    check = subprocess.run([shutil.which("node"), "--check", str(path)], capture_output=True,
                           text=True, timeout=60)
    assert check.returncode == 0, check.stderr
    shell = report.shell()
    assert shell.count(report.MARKER) == 1
    assert "<script src" not in shell and "<link" not in shell  # nothing fetched
    assert "default-src 'none'" in shell


def test_report_data_cannot_close_its_script_block():
    data = report.embed_json(report.data_json('{"text": "</script><script>alert(1)</script>"}',
                                              report.decide.Policy(), "a</script>b"))
    assert "</script" not in data.lower()
    assert json.loads(data)["doc"]["text"] == "</script><script>alert(1)</script>"
    assert json.loads(data)["name"] == "a</script>b"


def test_the_report_embedding_on_the_cases_the_page_shares():
    """report.fill_shell does what static/embed.js does (tests/js/embed.test.mjs), case by case."""
    shared = json.loads((ROOT / "tests" / "fixtures" / "embedding.json").read_text(encoding="utf-8"))
    assert shared["marker"] == report.MARKER
    for case in shared["cases"]:
        assert report.fill_shell(case["shell"], case["json"]) == case["filled"], case["name"]
        assert "<" not in report.embed_json(case["json"])
        assert json.loads(report.embed_json(case["json"])) == json.loads(case["json"])
