"""Output a pipeline can use as it is: paragraphs with their kind and pages, Markdown, JSON Lines,
through the engine, the CLI, the batch, the API and the Python API (a fresh interpreter)."""

import json
import re
import subprocess
import sys
import warnings

import pytest

from scorer import decide, outputs
from scorer.document import score_pdf
from scorer.outputs import Paragraph
from tests import pdfs
from tests.conftest import ROOT

GUIDE = ROOT / "samples" / "en-field-guide.pdf"


def para(kind, text, level=0, indent=0.0):
    return Paragraph(text, kind, None, [0, len(text)], 0, level, indent)


# -- the writers, on paragraphs made by hand (fast) ---------------------------------------------
def test_markdown_of_each_kind():
    paras = [para("heading", "Field guide", 1), para("heading", "1.1 Start", 2),
             para("paragraph", "Words of a paragraph."),
             para("item", "1. First step.", 0), para("item", "- a detail", 1),
             para("item", "2. Second step.", 0),
             para("code", "$ pumpctl status\npump-1 running"),
             para("paragraph", "# not a heading"), para("paragraph", "3. not an item")]
    assert outputs.markdown(paras) == (
        "# Field guide\n\n## 1.1 Start\n\nWords of a paragraph.\n\n"
        "1. First step.\n   - a detail\n2. Second step.\n\n"
        "```\n$ pumpctl status\npump-1 running\n```\n\n\\# not a heading\n\n3\\. not an item\n")


def test_jsonl_records_have_the_documented_fields():
    line = outputs.jsonl([Paragraph("Text", "paragraph", [1, 2], [5, 9], 1, 0, 3.0, 10.0)])
    assert json.loads(line) == {"text": "Text", "kind": "paragraph", "pages": [1, 2],
                                "chars": [5, 9], "breaks_joined": 1, "level": 0}
    assert line.endswith("\n") and line.count("\n") == 1


def test_nesting_follows_the_indent_within_a_list():
    items = [para("item", "- a", indent=0), para("item", "- b", indent=1.8),
             para("item", "- c", indent=3.6), para("item", "- d", indent=1.8),
             para("item", "- e", indent=0), para("paragraph", "p"),
             para("item", "- f", indent=1.8)]  # a new list starts at level 0 wherever it sits
    assert [p.level for p in outputs._blocks(items) if p.kind == "item"] == [0, 1, 2, 1, 0, 0]


def test_consecutive_code_lines_are_one_block():
    out = outputs._blocks([para("code", "a = 1"), para("code", "b = 2"), para("paragraph", "x"),
                           para("code", "c")])
    assert [(p.kind, p.text) for p in out] == [("code", "a = 1\nb = 2"), ("paragraph", "x"),
                                               ("code", "c")]


def test_unknown_format_is_bad_input(client):
    r = client.post("/api/merge", json={"text": "a\nb", "format": "docx"})
    assert r.status_code == 400 and "markdown" in r.get_json()["error"]


# -- on a PDF, with the default model -------------------------------------------------------------
@pytest.fixture(scope="module")
def guide_doc(gemma):
    return score_pdf(gemma, GUIDE, detail="breaks")


def words(text):
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.model
def test_the_sample_pdf_is_the_one_the_tests_typeset(tmp_path):
    pdfs.structured(tmp_path / "guide.pdf")  # invariant: the same bytes every time
    assert (tmp_path / "guide.pdf").read_bytes() == GUIDE.read_bytes()


@pytest.mark.model
def test_paragraphs_of_a_structured_pdf(guide_doc, tmp_path):
    truth = pdfs.structured(tmp_path / "guide.pdf")
    got = outputs.paragraphs(guide_doc)
    assert [p.kind for p in got] == [t[0] for t in truth]
    assert [words(p.text) for p in got] == [words(t[-1]) for t in truth]
    items = [p.level for p in got if p.kind == "item"]
    assert items == [t[1] for t in truth if t[0] == "item"]
    across = got[-2]  # the paragraph that runs over the page break
    assert across.pages == [1, 2] and across.breaks_joined == 6
    assert [p.level for p in got if p.kind == "heading"] == [1, 2, 2]
    for p in got:  # each record points at its lines in the extracted text
        start, end = p.chars
        assert words(guide_doc.text[start:end]) == words(p.text)


@pytest.mark.model
def test_the_three_formats_agree(guide_doc):
    text = outputs.render(guide_doc, fmt="text")
    assert text == decide.merged(guide_doc)  # the default, unchanged
    md = outputs.render(guide_doc, fmt="markdown")
    assert md.startswith("# Field Guide to the Harbour Valley Pump Station\n\n## 1.1 Before")
    assert "\n1. Check the three valves" in md and "\n   - Open the inlet valve" in md
    assert "```\n$ pumpctl status --all\npump-1 running 41.2 l/s\n" in md
    records = [json.loads(line) for line in outputs.render(guide_doc, fmt="jsonl").splitlines()]
    assert [r["text"] for r in records] == [p.text for p in outputs.paragraphs(guide_doc)]
    assert {r["kind"] for r in records} == {"heading", "paragraph", "item", "code"}


@pytest.mark.model
def test_cli_and_batch_write_each_format(run_cli, tmp_path, guide_doc):
    md = run_cli("merge", str(GUIDE), "--format", "markdown")
    assert md.returncode == 0 and md.stdout.decode() == outputs.render(guide_doc, fmt="markdown")
    out = tmp_path / "out"
    batch = run_cli("batch", str(GUIDE), "-o", str(out), "--format", "jsonl")
    assert batch.returncode == 0, batch.stderr
    written = (out / "en-field-guide.pdf.jsonl").read_text(encoding="utf-8")
    assert written == outputs.render(guide_doc, fmt="jsonl")
    again = run_cli("batch", str(GUIDE), "-o", str(out), "--format", "jsonl")
    assert b"1 skipped" in again.stderr  # resumed: the format is part of what makes it current
    other = run_cli("batch", str(GUIDE), "-o", str(out), "--format", "markdown")
    assert b"1 ok" in other.stderr and (out / "en-field-guide.pdf.md").is_file()


@pytest.mark.model
def test_the_api_writes_a_finished_job_in_each_format(smollm_path, tmp_path):
    from app import create_app

    app = create_app({"TESTING": True, "MODEL": str(smollm_path), "SAMPLES_DIR": str(tmp_path)})
    client = app.test_client()
    r = client.post("/api/jobs", data={"file": (GUIDE.open("rb"), "guide.pdf")},
                    content_type="multipart/form-data")
    url = r.get_json()["url"]
    client.get(f"{url}/events").get_data()  # until it ends
    doc = client.get(f"{url}/result").get_json()
    overrides = {str(b["i"]): "keep" for b in doc["breaks"]}  # keep everything: one per line
    got = client.post(f"{url}/merge", json={"format": "jsonl", "overrides": overrides}).get_json()
    lines = [json.loads(x) for x in got["merged"].splitlines()]
    assert got["format"] == "jsonl" and got["joined"] == 0
    assert all(r["breaks_joined"] == 0 for r in lines) and lines[-1]["pages"] == [2, 2]
    md = client.post(f"{url}/merge", json={"format": "markdown"}).get_json()["merged"]
    assert "```\n$ pumpctl status --all" in md
    assert client.post(f"{url}/merge", json={"format": "pdf"}).status_code == 400
    merged = client.post("/api/merge", json={"text": "1. one\n2. two", "format": "markdown"})
    assert merged.get_json()["merged"] == "1. one\n2. two\n"


@pytest.mark.model
def test_the_python_api_in_a_fresh_interpreter(smollm_path, tmp_path):
    code = f"""
import scorer
model = scorer.load_model({str(smollm_path)!r})
print(scorer.merge_pdf({str(GUIDE)!r}, model=model, format="markdown"), end="")
paras = scorer.paragraphs({str(GUIDE)!r}, model=model)
print("KINDS", [p.kind for p in paras])
print("TEXT", scorer.merge_text("A line that wraps in\\nthe middle.", model=model))
try:
    scorer.merge_pdf("missing.pdf", model=model)
except scorer.ScorerError as exc:
    print("ERROR", exc)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "```\n$ pumpctl status --all" in done.stdout
    assert "KINDS ['heading', 'heading', 'paragraph'" in done.stdout
    assert "TEXT A line that wraps in" in done.stdout
    assert "ERROR input file not found: missing.pdf" in done.stdout


@pytest.mark.model
def test_the_python_api_warns_of_a_pdf_page_left_unread(smollm, tmp_path):
    """A page pdfminer cannot parse is left out of the output (pdf/reader.py): the API says so
    with a PagesLeftOut warning, which a pipeline may turn into an error."""
    import scorer

    path = tmp_path / "broken.pdf"
    pdfs.unparsable_page(path)
    with pytest.warns(scorer.PagesLeftOut, match="broken.pdf: page 2 of 2 could not be read"):
        merged = scorer.merge_pdf(path, model=smollm, cutoff=0)
    assert merged.split("\n") == pdfs.EN_PARA
    with warnings.catch_warnings():
        warnings.simplefilter("error", scorer.PagesLeftOut)
        with pytest.raises(scorer.PagesLeftOut):
            scorer.paragraphs(path, model=smollm)


@pytest.mark.model
def test_the_documented_example_runs(tmp_path):
    """docs/python-api.md's example, run as it is written (in the checkout's folder)."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    example = page.split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "heading [1, 1] Field Guide to the Harbour Valley Pump Station" in done.stdout


@pytest.mark.model
def test_a_figure_s_labels_are_one_figure_apart_from_the_prose(tmp_path, smollm):
    prose, labels = pdfs.beside_a_figure(tmp_path / "figure.pdf")
    doc = score_pdf(smollm, tmp_path / "figure.pdf", detail="breaks")
    paras = outputs.paragraphs(doc, decide.Policy())
    assert paras[0].kind == "figure" and paras[0].text == "\n".join(labels)
    assert all(p.kind == "paragraph" for p in paras[1:])
    assert not any(label in p.text for p in paras[1:] for label in labels)
    assert outputs.markdown(paras).startswith("\n".join(labels) + "\n\n")
