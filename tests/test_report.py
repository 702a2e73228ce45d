"""The shareable HTML report from the command line and the batch, and `eval --labels`: real
model (SmolLM2). The report opened in a browser: tests/test_browser.py."""

import json
import re

import pytest

from scorer import batch, decide, inputs, labelfile
from scorer.breaks import candidates
from scorer.document import score
from scorer.align import BREAK, WRAP
from scorer.evaluate.metrics import metrics
from tests import pdfs
from tests.conftest import EN_SAMPLE, ZH_SAMPLE

pytestmark = pytest.mark.model
DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.S)


def embedded(html: str) -> dict:
    return json.loads(DATA.search(html).group(1))


def test_report_command_embeds_the_document_and_its_decisions(run_cli, smollm_path, tmp_path):
    out = tmp_path / "r.html"
    result = run_cli("report", str(EN_SAMPLE), "-o", str(out), "--model", str(smollm_path),
                     "--cutoff", "40")
    assert result.returncode == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert "<script src" not in html and "http://" not in html.split("<script>")[0]
    data = embedded(html)
    assert data["name"] == EN_SAMPLE.name and data["doc"]["text"] == EN_SAMPLE.read_text()
    assert data["policy"]["decider"] == "percentile" and data["policy"]["cutoff"] == 40
    assert data["doc"]["tokens"][1]["top"]  # per-token tooltips: every token, with alternatives
    merged = run_cli("merge", str(EN_SAMPLE), "--model", str(smollm_path), "--cutoff", "40")
    decided = [b["decision"] for b in data["doc"]["breaks"]]
    text = data["doc"]["text"]
    for b, d in sorted(zip(data["doc"]["breaks"], decided), key=lambda x: -x[0]["i"]):
        if d == "join":
            text = text[:b["i"]] + b["joiner"] + text[b["i"] + 1:]
    assert text == merged.stdout.decode()


def test_report_of_a_pdf_and_refusals(run_cli, smollm_path, tmp_path):
    pdf = tmp_path / "report.pdf"
    pdfs.report(pdf)
    result = run_cli("report", str(pdf), "--model", str(smollm_path))  # to stdout
    assert result.returncode == 0, result.stderr
    data = embedded(result.stdout.decode())
    assert data["doc"]["source"]["type"] == "pdf" and data["doc"]["breaks"][0]["layout"]
    missing = run_cli("report", str(pdf), "-o", str(tmp_path / "no" / "r.html"))
    assert missing.returncode == 2 and b"error:" in missing.stderr


def test_batch_report_writes_one_html_per_input_and_resumes(tmp_path, smollm_path):
    inbox = tmp_path / "in"
    inbox.mkdir()
    (inbox / "notes.txt").write_text("first wrapped\nline of notes\n\nsecond", encoding="utf-8")
    pdfs.report(inbox / "report.pdf")
    out = tmp_path / "out"
    first = batch.run([str(inbox)], out, smollm_path, report=True, stream=open("/dev/null", "w"))
    assert first["ok"] == 2
    for name in ("notes.txt", "report.pdf"):
        data = embedded((out / f"{name}.html").read_text(encoding="utf-8"))
        assert data["name"] == name
        assert data["doc"]["text"] == json.loads((out / f"{name}.json").read_text())["text"]
    again = batch.run([str(inbox)], out, smollm_path, report=True, stream=open("/dev/null", "w"))
    assert again["skipped"] == 2
    (out / "notes.txt.html").unlink()  # a missing report is redone
    third = batch.run([str(inbox)], out, smollm_path, report=True, stream=open("/dev/null", "w"))
    assert third["skipped"] == 1 and (out / "notes.txt.html").is_file()


def test_eval_on_labels_scores_what_the_engine_decides(run_cli, smollm, smollm_path, tmp_path):
    """Labels from the sample's truth text, in the page's format; eval's default row equals the
    engine's own decisions scored against them."""
    text = ZH_SAMPLE.read_text(encoding="utf-8")
    truth = (ZH_SAMPLE.parent / "expected" / ZH_SAMPLE.name).read_text(encoding="utf-8")
    labels = labelfile.from_truth(text, truth)
    rows = [json.dumps({"doc": inputs.text_hash(text), "offset": i, "context": "", "label": d})
            for i, d in labels.items()]
    path = tmp_path / "zh.labels.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "eval.json"
    result = run_cli("eval", "--labels", str(path), str(ZH_SAMPLE), "--model", str(smollm_path),
                     "--json", str(out))
    assert result.returncode == 0, result.stderr
    assert "labels zh" in result.stdout.decode()
    got = {r["method"]: r for r in json.loads(out.read_text())["documents"]}
    doc = score(smollm, text, detail="breaks")
    per_break = [{"join": WRAP, "keep": BREAK}.get(labels.get(i)) for i in candidates(text)]
    want = metrics(per_break, decide.of(doc))
    default = next(r for m, r in got.items() if m.startswith("DEFAULT"))
    assert default["n"] == len(labels) and default["macro_f1"] == pytest.approx(want["macro_f1"])
    assert any(m.startswith("short line") or "rule" in m for m in got)  # the baselines beside it

    unknown = run_cli("eval", "--labels", str(path), str(EN_SAMPLE), "--model", str(smollm_path))
    assert unknown.returncode == 2 and b"none of the labels is for this document" in unknown.stderr
    alone = run_cli("eval", str(EN_SAMPLE))
    assert alone.returncode == 2 and b"--labels" in alone.stderr
