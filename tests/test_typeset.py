"""The typeset documents of the eval (scorer/evaluate/typeset.py): prose picked from a twin,
set in every style, read back in order and labelled exactly."""

import pytest

from scorer.evaluate import typeset
from scorer.align import BREAK, WRAP, twin_labels
from scorer.pdf import read_pdf

WORDS = ("pumps valves mains crews meters streets district station reservoir pressure winter "
         "spring budget council board network leaks repairs nights hours").split()


def prose(seed: int, sentences: int) -> str:
    """Sentences of varied words (no two lines of the typeset page alike: those would be
    taken for running headers)."""
    out = []
    for k in range(sentences):
        words = [WORDS[(seed * 7 + k * 5 + j * j) % len(WORDS)] for j in range(14)]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def wrapped(text: str, width: int = 70) -> str:
    import textwrap
    return "\n".join(textwrap.wrap(text, width))


TWIN = "\n\n".join([
    "Contents", "1.1. Pumps", "1.2. Valves",  # a table of contents: headings without text
    "1.3. The station",
    wrapped(prose(1, 4)),
    "  * a list item that is not prose",
    "    $ code --that is not prose",
    "1.4. Repairs",
    wrapped(prose(2, 3)),
    "A paragraph of two lines\nthat ends without a full stop",
] + [wrapped(prose(k, 4 + k % 3)) for k in range(3, 14)])


def test_prose_and_the_headings_right_before_it_are_picked():
    items = typeset.paragraphs(TWIN, 0.0, count=4)
    kinds = [kind for kind, _ in items]
    assert kinds == ["heading", "para", "heading", "para", "para", "para"]
    assert items[0][1] == "1.3. The station"
    assert all("\n" not in text for _, text in items)


@pytest.mark.parametrize("style", ["book", "two-column", "report", "typst",
                                   pytest.param("browser", marks=pytest.mark.browser)])
def test_every_style_reads_back_in_order_with_exact_labels(tmp_path, style):
    items = typeset.paragraphs(TWIN, 0.0, count=12)
    said = typeset.typeset(tmp_path / f"{style}.pdf", items, style, "en")
    pdf = read_pdf(tmp_path / f"{style}.pdf")
    lines = [ln.text for ln in pdf.body]
    assert " ".join(lines).replace(" ", "") == "".join(said).replace(" ", "")  # all, in order
    labels = twin_labels(lines, "\n\n".join(said))
    assert None not in labels
    assert labels.count(BREAK) == len(said) - 1 and labels.count(WRAP) > len(said)


def test_a_latex_article_reads_its_prose_in_order_beside_its_floats(tmp_path):
    """pdflatex's two columns 10 pt apart, a footnote, a figure drawn with its labels and a
    ruled table floated to a column's top beside the other column's prose, the last page's
    right column short: every paragraph read whole and in order once the floats' own text is
    taken out, the table's rows read as rows (not merged with the prose beside them)."""
    import re

    items = typeset.paragraphs(TWIN, 0.0, count=12)
    said = typeset.typeset(tmp_path / "latex.pdf", items, "latex", "en")
    lines = [ln.text for ln in read_pdf(tmp_path / "latex.pdf").body]
    assert "Marsh 12 140" in lines and "Roost Heron Plover" in lines

    def norm(text):  # no spaces, no digits (footnote marks, the table's numbers)
        return re.sub(r"[\s\d]", "", text)

    got = norm("".join(line[:-1] if line.endswith("-") else line for line in lines))
    floats = ["Figure 1: Kestrel hands its queue to Osprey through the relay.", "relay",
              "quorum", "Kestrel", "Osprey", "(cid:45)", "Table 1: Sightings of herons and plovers by roost.",
              "Roost", "Heron", "Plover", "Marsh", "Dune", "Estuary",
              *(note for after, note in typeset.LATEX_FOOTNOTES.items() if after <= 12)]
    for piece in floats:
        assert norm(piece) in got, piece
        got = got.replace(norm(piece), "", 1)
    assert got == norm("".join(said))


def test_an_office_document_reads_its_list_and_table_without_its_header(tmp_path):
    """LibreOffice Writer's PDF of a flat ODT: the header and the page numbers are furniture,
    the bulleted list's items are paragraphs of their own, the table's rows stay rows, and
    every other line is the prose, in order."""
    items = typeset.paragraphs(TWIN, 0.0, count=12)
    said = typeset.typeset(tmp_path / "office.pdf", items, "office", "en")
    lines = [ln.text for ln in read_pdf(tmp_path / "office.pdf").body]
    rows = [" ".join(row) for row in typeset.OFFICE_TABLE]
    assert [line for line in lines if line in rows] == rows
    assert not any("Curlew" in line or line.startswith("Page") for line in lines)
    prose = [line for line in lines if line not in rows]
    items_set = [line for line in prose if line.startswith("• ")]
    assert len(items_set) >= 3
    assert "".join(prose).replace("• ", "").replace(" ", "") == "".join(said).replace(" ", "")
    labels = twin_labels(prose, "\n\n".join(said))
    assert None not in labels and labels.count(BREAK) == len(said) - 1


def test_a_notice_has_a_title_numbered_headings_a_signature_and_a_date(tmp_path):
    items = [("heading", "1.2. 会议情况"), ("para", "本次会议由董事会召集，" * 11 + "会议合法有效。"),
             ("heading", "1.3. 表决结果"), ("para", "各项议案经表决获得通过，" * 9 + "特此公告。")]
    said = typeset.typeset(tmp_path / "n.pdf", items, "notice", "zh")
    assert said[0] == "关于文档维护工作的通知" and said[1] == "一、会议情况" and said[3] == "二、表决结果"
    lines = [ln.text for ln in read_pdf(tmp_path / "n.pdf").body]
    assert lines[-2:] == said[-2:]  # the signature and the date, each a line of its own
