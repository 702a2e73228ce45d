"""PDF ingestion on PDFs the tests generate: lines, layout, furniture, tables, bad files."""

import pdfplumber
import pytest

from tests import pdfs
from scorer.document import score_pdf
from scorer import contract, decide
from scorer.errors import ScorerError, TooLarge, UnreadablePdf
from scorer.pdf import read_pdf


@pytest.fixture(scope="module")
def report_pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "report.pdf"
    pdfs.report(path)
    return path


def test_body_lines_are_exact_and_furniture_is_removed(report_pdf):
    pdf = read_pdf(report_pdf)
    assert pdf.pages == 2 and pdf.empty_pages == 0
    assert [line.text for line in pdf.body] == pdfs.expected_report_lines()
    removed = [line.text for line in pdf.lines if line.repeated]
    assert sorted(removed) == sorted(["Harbour Valley Water Board - Annual Report"] * 2
                                     + ["Page 1 of 2", "Page 2 of 2"])
    assert "Annual Report" not in pdf.text and "Page 1" not in pdf.text


def test_layout_of_lines_and_tables(report_pdf):
    body = read_pdf(report_pdf).body
    heading, first = body[0], body[1]
    assert heading.size == 16 and first.size == 11
    table_rows = [line for line in body if line.table]
    assert [line.text for line in table_rows] == [" ".join(r) for r in pdfs.TABLE]
    assert all(line.column_x0 == pytest.approx(pdfs.LEFT, abs=1) for line in body)
    assert body[-1].page == 2 and body[-2].page == 1


@pytest.mark.model
def test_break_features_travel_with_the_document(report_pdf, gemma):
    doc = score_pdf(gemma, report_pdf, detail="breaks")
    data = contract.to_dict(doc)
    breaks = data["breaks"]
    lines = pdfs.expected_report_lines()
    assert len(breaks) == len(lines) - 1
    by_next = {lines[k + 1]: b for k, b in enumerate(breaks)}
    assert by_next[pdfs.EN_PARA2[1]]["layout"]["page_break"] is True
    assert by_next[pdfs.BULLETS[0]]["layout"]["bullet_next"] is True
    assert by_next[pdfs.EN_PARA[0]]["layout"]["size_change"] == -5
    # every break next to a table row is kept as a row, whatever the percentile says
    table_breaks = [b for b in breaks if b["layout"]["table"]]
    assert table_breaks and all(b["forced"] == "keep" and b["decision"] == "keep" for b in table_breaks)
    merged = decide.merged(doc, decide.Policy("percentile", 100))
    for row in pdfs.TABLE:
        assert "\n" + " ".join(row) in merged or merged.startswith(" ".join(row))
    assert data["source"]["type"] == "pdf" and len(data["source"]["removed"]) == 4


def test_words_without_space_glyphs_are_not_glued(tmp_path):
    path = tmp_path / "spaced.pdf"
    words = pdfs.spaced_words(path)
    with pdfplumber.open(path) as raw:  # the problem, with pdfplumber's defaults
        assert " " not in raw.pages[0].extract_text()
    assert read_pdf(path).text == words


@pytest.mark.parametrize("kind, make, message, status", pdfs.BAD_PDFS)
def test_bad_pdfs_get_clear_errors(tmp_path, kind, make, message, status):
    path = tmp_path / "bad.pdf"
    make(path)
    with pytest.raises(ScorerError, match=message) as caught:
        read_pdf(path)
    assert caught.value.status == status


def test_page_limit_is_configurable(tmp_path):
    path = tmp_path / "three.pdf"
    pdfs.pages(path, 3)
    with pytest.raises(TooLarge, match="has 3 pages; the limit is 2"):
        read_pdf(path, max_pages=2)


def test_image_only_error_counts_pages(tmp_path):
    path = tmp_path / "scan.pdf"
    pdfs.image_only(path)
    with pytest.raises(UnreadablePdf, match="any of its 2 pages"):
        read_pdf(path)


@pytest.mark.model
def test_real_debian_pdf_has_no_glued_words_and_no_running_headers():
    import re

    from scorer.evaluate.corpus import fetch_debian_doc as fetch

    pdf_path, twin = fetch("developers-reference")
    pdf = read_pdf(pdf_path)
    text = pdf.text
    assert pdf.pages > 100
    assert "Debian Developer’s Reference, Release" not in text  # running header, every page
    assert not re.search(r"(?m)^\d+ Chapter \d+\. ", text)  # running footer with folio
    vocab = set(re.findall(r"[A-Za-z]+", twin))
    words = re.findall(r"[A-Za-z]+", text)
    glued = [w for w in words if w not in vocab and any(
        w[:k] in vocab and w[k:] in vocab for k in range(2, len(w) - 1))]
    assert len(words) > 40_000
    assert len(glued) < len(words) / 1000, glued[:20]


@pytest.mark.model
def test_code_lines_are_never_merged(tmp_path, smollm):
    path = tmp_path / "code.pdf"
    pdfs.with_code(path)
    body = read_pdf(path).body
    assert [line.text for line in body if line.code] == [c.strip() for c in pdfs.CODE]
    doc = score_pdf(smollm, path, detail="breaks")
    merged = decide.merged(doc, decide.Policy("percentile", 100)).split("\n")  # join everything that may be joined
    for code in pdfs.CODE:
        assert code.strip() in merged
    assert sum("code" in why for _, why in doc.forced.values()) == 4


def test_letter_spaced_cjk_gets_no_spaces(tmp_path):
    path = tmp_path / "cjk.pdf"
    text = pdfs.spaced_cjk(path)
    assert read_pdf(path).text == text


def test_a_page_range_reads_only_those_pages(tmp_path):
    path = tmp_path / "five.pdf"
    pdfs.pages(path, 5)
    some = read_pdf(path, pages=(2, 3))
    assert some.pages == 5  # the document's length, as always
    assert {line.page for line in some.lines} == {2, 3}
    assert [line.page for line in read_pdf(path, pages=(4, 99)).lines][-1] == 5


def test_max_chars_applies_to_a_pdfs_text(tmp_path):
    path = tmp_path / "report.pdf"
    pdfs.report(path)
    with pytest.raises(TooLarge, match="more than 100 characters"):
        read_pdf(path, max_chars=100)
    assert read_pdf(path, max_chars=100_000).lines  # under the limit: read as before
