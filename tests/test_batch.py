"""Batch mode: mixed good and bad inputs, name collisions, resume, --force, atomic writes, workers."""

import io
import json

import pytest

from tests import pdfs
from scorer import batch


@pytest.fixture
def inbox(tmp_path):
    root = tmp_path / "in"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "a" / "notes.txt").write_text("first wrapped\nline of notes\n\nsecond", encoding="utf-8")
    (root / "b" / "notes.txt").write_text("股东大会\n决议公告\n", encoding="utf-8")
    pdfs.report(root / "report.pdf")
    (root / "empty.pdf").write_bytes(b"")
    pdfs.encrypted(root / "locked.pdf")
    (root / "ignored.md").write_text("not an input")
    return root


def outputs(outdir):
    return sorted(p.name for p in outdir.iterdir())


@pytest.mark.model
def test_mixed_folder(inbox, tmp_path, smollm_path):
    out = tmp_path / "out"
    log = io.StringIO()
    summary = batch.run([str(inbox)], out, smollm_path, stream=log)
    assert (summary["files"], summary["ok"], summary["failed"]) == (5, 3, 2)
    reasons = {f["input"].split("/")[-1]: f["reason"] for f in summary["failures"]}
    assert "empty" in reasons["empty.pdf"] and "password" in reasons["locked.pdf"]
    assert summary["pages"] == 2 and summary["tokens"] > 0
    names = outputs(out)
    assert "report.pdf.txt" in names and "summary.json" in names
    assert len([n for n in names if n.startswith("notes-") and n.endswith(".txt.txt")]) == 2
    assert not [n for n in names if n.endswith(".tmp")]
    saved = json.loads((out / "summary.json").read_text())
    assert saved["ok"] == 3 and len(saved["failures"]) == 2
    assert "3 ok, 2 failed" in log.getvalue()
    report = json.loads((out / "report.pdf.json").read_text())
    assert report["batch"]["input_sha256"] and report["source"]["type"] == "pdf"
    assert (out / "report.pdf.txt").read_text() == batch_merge(report)


def batch_merge(doc):
    text = doc["text"]
    for b in reversed(doc["breaks"]):
        if b["decision"] == "join":
            text = text[:b["i"]] + b["joiner"] + text[b["i"] + 1:]
    return text


@pytest.mark.model
def test_resume_skips_done_files_and_force_redoes_them(inbox, tmp_path, smollm_path):
    out = tmp_path / "out"
    batch.run([str(inbox / "a"), str(inbox / "report.pdf")], out, smollm_path, stream=io.StringIO())
    # an interrupted run: one file's marker (its .json, written last) never got written
    (out / "report.pdf.json").unlink()
    again = batch.run([str(inbox / "a"), str(inbox / "report.pdf")], out, smollm_path,
                      stream=io.StringIO())
    assert (again["ok"], again["skipped"]) == (1, 1)
    assert [r["input"].split("/")[-1] for r in again["results"]] == ["report.pdf"]
    # a changed input is redone; --force redoes everything
    (inbox / "a" / "notes.txt").write_text("changed\ntext", encoding="utf-8")
    changed = batch.run([str(inbox / "a"), str(inbox / "report.pdf")], out, smollm_path,
                        stream=io.StringIO())
    assert (changed["ok"], changed["skipped"]) == (1, 1)
    forced = batch.run([str(inbox / "a"), str(inbox / "report.pdf")], out, smollm_path,
                       force=True, stream=io.StringIO())
    assert (forced["ok"], forced["skipped"]) == (2, 0)


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path):
    target = tmp_path / "x.txt"
    target.write_text("old")
    with pytest.raises(TypeError):
        batch.write_atomic(target, ["half", 12345])  # the second chunk fails
    assert target.read_text() == "old" and outputs(tmp_path) == ["x.txt"]


def test_globs_and_missing_inputs(inbox, tmp_path):
    assert [p.name for p in batch.expand([str(inbox / "*.pdf")])] == \
        ["empty.pdf", "locked.pdf", "report.pdf"]
    with pytest.raises(batch.ScorerError, match="no such file"):
        batch.expand([str(tmp_path / "nothing-*.pdf")])


@pytest.mark.model
def test_two_workers_give_the_same_outputs(inbox, tmp_path, smollm_path):
    one, two = tmp_path / "one", tmp_path / "two"
    batch.run([str(inbox)], one, smollm_path, workers=1, stream=io.StringIO())
    summary = batch.run([str(inbox)], two, smollm_path, workers=2, stream=io.StringIO())
    assert summary["workers"] == 2 and summary["ok"] == 3
    for name in outputs(one):
        if name.endswith(".txt"):
            assert (one / name).read_text() == (two / name).read_text()


@pytest.mark.model
def test_cli_batch_exit_status(run_cli, inbox, tmp_path, smollm_path):
    result = run_cli("batch", str(inbox / "a"), str(inbox / "empty.pdf"), "-o",
                     str(tmp_path / "out"), "--model", str(smollm_path))
    assert result.returncode == 1  # a file failed: the summary says which
    assert "1 ok, 1 failed" in result.stderr.decode()


@pytest.mark.model
def test_every_bad_pdf_is_listed_and_the_batch_goes_on(tmp_path, smollm_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for kind, make, _, _ in pdfs.BAD_PDFS:
        make(folder / f"{kind}.pdf")
    pdfs.report(folder / "zz-good.pdf")
    pdfs.unparsable_page(folder / "zz-one-page-unread.pdf")  # read, less a page: a warning
    stream = io.StringIO()
    summary = batch.run([str(folder)], tmp_path / "out", smollm_path, workers=2, stream=stream)
    assert (summary["ok"], summary["failed"]) == (2, len(pdfs.BAD_PDFS))
    assert [w["input"].split("/")[-1] for w in summary["warnings"]] == ["zz-one-page-unread.pdf"]
    assert summary["warnings"][0]["warning"].startswith("page 2 of 2 could not be read")
    assert "  warning: " in stream.getvalue() and "page 2 of 2" in stream.getvalue()
    inputs = [f["input"] for f in summary["failures"]]
    assert inputs == sorted(inputs)  # by input, whichever worker finished first
    reasons = {f["input"].split("/")[-1]: f["reason"] for f in summary["failures"]}
    for kind, _, fragment, _ in pdfs.BAD_PDFS:
        assert fragment in reasons[f"{kind}.pdf"]


@pytest.mark.model
def test_output_folder_errors(run_cli, inbox, tmp_path):
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    for outdir, fragment in ((a_file, "is a file"), ("/sys/prefill-out", "cannot create")):
        result = run_cli("batch", str(inbox / "a"), "-o", str(outdir), "--model", "/no/model.gguf")
        err = result.stderr.decode()
        assert result.returncode == 2 and err.startswith("error: ") and fragment in err, err


@pytest.mark.model
def test_summary_is_printed_even_when_summary_json_cannot_be_written(run_cli, inbox, tmp_path,
                                                                       smollm_path):
    out = tmp_path / "out"
    (out / "summary.json").mkdir(parents=True)  # a folder where the file should go
    result = run_cli("batch", str(inbox / "a"), "-o", str(out), "--model", str(smollm_path),
                     "--workers", "1")
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert "batch: 1 ok, 0 failed" in err and "error: cannot write" in err and "summary.json" in err
