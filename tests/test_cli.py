"""`python -m scorer` as a user runs it: real model, real files, errors as one clear line."""

import json

import pytest

from tests import pdfs
from tests.conftest import ZH_SAMPLE

pytestmark = pytest.mark.model  # every test here loads a real model


def one_line_error(result, fragment):
    err = result.stderr.decode("utf-8")
    assert result.returncode == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert fragment in err, err


def test_merge_sample_joins_some_and_keeps_the_rest(run_cli):
    result = run_cli("merge", str(ZH_SAMPLE))
    assert result.returncode == 0, result.stderr
    merged = result.stdout.decode("utf-8")
    original = ZH_SAMPLE.read_text(encoding="utf-8")
    assert 0 < merged.count("\n") < original.count("\n")
    assert merged.replace("\n", "") == original.replace("\n", "")  # CJK joins add nothing


def test_score_json_says_what_produced_it(run_cli, smollm_path, tmp_path):
    out = tmp_path / "doc.json"
    result = run_cli("score", "-", "--model", str(smollm_path), "--mode", "as-is", "-o", str(out),
                     stdin="第一行\n第二行\n".encode())
    assert result.returncode == 0, result.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["model"]["file"] == smollm_path.name and len(doc["model"]["sha256"]) == 64
    assert doc["engine"]["version"] and doc["mode"] == "as-is"
    assert set(doc["settings"]) >= {"window", "overlap", "batch"}
    assert doc["timings"]["total_s"] > 0
    assert "".join(c["ch"] for c in doc["cells"]) == "第一行\n第二行\n"


def test_pdf_input(run_cli, smollm_path, tmp_path):
    path = tmp_path / "report.pdf"
    pdfs.report(path)
    result = run_cli("merge", str(path), "--model", str(smollm_path), "--cutoff", "0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8").split("\n") == pdfs.expected_report_lines()


def test_a_page_left_unread_is_a_warning_on_stderr(run_cli, smollm_path, tmp_path):
    path = tmp_path / "broken.pdf"
    pdfs.unparsable_page(path)
    result = run_cli("merge", str(path), "--model", str(smollm_path), "--cutoff", "0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode("utf-8").split("\n") == pdfs.EN_PARA
    err = result.stderr.decode("utf-8")
    assert f"warning: {path}: page 2 of 2 could not be read (PSSyntaxError" in err, err


@pytest.mark.parametrize("args, stdin, fragment", [
    (["merge", "-"], b"", "empty"),
    (["merge", "-"], b"abc\x00def", "U+0000"),
    (["merge", "-"], b"\xff\xfeabc", "not valid UTF-8"),
    (["merge", "no/such/file.txt"], None, "not found"),
    (["merge", "-", "--model", "/no/such/model.gguf"], b"text", "/no/such/model.gguf"),
    (["merge", "-", "--cutoff", "140"], b"text", "between 0 and 100"),
    (["merge", "-", "--cutoff", "nan"], b"text", "between 0 and 100"),
])
def test_bad_input_is_one_clear_line(run_cli, args, stdin, fragment):
    one_line_error(run_cli(*args, stdin=stdin), fragment)


@pytest.mark.parametrize("content, fragment", [
    (b"not a model at all, just text" * 100, "not a GGUF"),
    (b"GGUF" + b"\x00" * 100, "truncated"),
])
def test_bad_model_files(run_cli, tmp_path, content, fragment):
    model = tmp_path / "bad.gguf"
    model.write_bytes(content)
    one_line_error(run_cli("merge", "-", "--model", str(model), stdin=b"a\nb"), fragment)


def test_truncated_real_model(run_cli, tmp_path, smollm_path):
    model = tmp_path / "cut.gguf"
    with open(smollm_path, "rb") as fh:
        model.write_bytes(fh.read(3_000_000))
    one_line_error(run_cli("merge", "-", "--model", str(model), stdin=b"a\nb"), "corrupt")


@pytest.mark.parametrize("kind, make, fragment, status", pdfs.BAD_PDFS)
def test_bad_pdf_in_cli(run_cli, tmp_path, kind, make, fragment, status):
    path = tmp_path / f"{kind}.pdf"
    make(path)
    one_line_error(run_cli("merge", str(path)), fragment)


def test_max_pages_flag(run_cli, tmp_path):
    path = tmp_path / "three.pdf"
    pdfs.pages(path, 3)
    one_line_error(run_cli("merge", str(path), "--max-pages", "2"), "the limit is 2")


@pytest.mark.parametrize("target, fragment", [
    ("{tmp}/no/such/folder/out.txt", "does not exist"),
    ("{tmp}", "is a folder"),
    ("/sys/out.txt", "cannot write in /sys"),  # refused even to root
])
def test_unwritable_output_is_refused_before_scoring(run_cli, tmp_path, target, fragment):
    result = run_cli("merge", "-", "--model", "/no/such/model.gguf", "-o",
                     target.format(tmp=tmp_path), stdin=b"a\nb")
    one_line_error(result, fragment)  # the missing model was never reached


def test_closed_or_full_stdout_is_one_clear_line(smollm_path, tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    command = Path(sys.executable).with_name("prefill-lens")
    text = tmp_path / "in.txt"
    text.write_text("one line\nand another\n", encoding="utf-8")
    for redirect, fragment in ((">&-", "standard output is closed"),
                               ("> /dev/full", "No space left on device")):
        result = subprocess.run(["bash", "-c", f'"$0" merge "$1" --model "$2" {redirect}',
                                 str(command), str(text), str(smollm_path)],
                                capture_output=True, timeout=300)
        one_line_error(result, fragment)
