"""Man pages set by groff (scorer/evaluate/manpages.py; groff's PDF writer is a dev tool that
`make test` installs): read back whole, their running heads gone, and labelled exactly."""

import random

import pytest

from scorer.align import BREAK, WRAP, twin_labels
from scorer.evaluate import manpages
from scorer.pdf import read_pdf
from tests.pdfs import WORDS


LIGATURES = ("official", "flag", "defined", "fifo", "office", "flows")


def prose(rng, sentences: int) -> str:
    """Sentences of words drawn at random, some with ligatures (fi, fl): no two lines alike
    (those would be running heads)."""
    return " ".join(" ".join(rng.choice(WORDS + list(LIGATURES)) for _ in range(14)).capitalize()
                    + "." for _ in range(sentences))


def man_page(name: str, seed: int, paragraphs: int) -> str:
    """A man page: paragraphs (eight a page or so), a tagged list."""
    rng = random.Random(seed)
    paragraphs = "\n.PP\n".join(prose(rng, 4) for _ in range(paragraphs))
    return (f'.TH {name.upper()} 7 2026-12-01 "Prefill Lens" "Test Manual"\n'
            f".SH NAME\n{name} \\- a page of the test manual\n"
            f".SH DESCRIPTION\n{paragraphs}\n"
            ".SH ERRORS\n.TP\n.B EBADF\n" + prose(rng, 2) + "\n"
            ".TP\n.B EINVAL\n" + prose(rng, 2) + "\n")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """(PDF, text with a line per paragraph) of two man pages set one after the other, of
    about four pages and two: the second's head is on too few pages to be furniture by count."""
    root = tmp_path_factory.mktemp("man")
    sources = []
    for seed, (name, paragraphs) in enumerate((("alpha", 30), ("beta", 12))):
        sources.append(root / f"{name}.7")
        sources[-1].write_text(man_page(name, seed, paragraphs))
    pdf = root / "pages.pdf"
    pdf.write_bytes(manpages.groff(sources, "pdf", "-dpaper=a4", "-P-pa4"))
    text = manpages.groff(sources, "utf8", "-rLL=3000n", "-rIN=1n", "-P-cbou").decode()
    return read_pdf(pdf), [line.strip() for line in text.splitlines() if line.strip()]


def test_each_pages_running_head_goes_and_no_text_is_lost(pages):
    """Every word groff sets, in order, ligatures whole; the heads, which change with the man
    page, on no page; the feet (the same on every page but their number) neither."""
    pdf, text = pages
    assert pdf.pages >= 5
    heads = [line["text"] for line in pdf.source()["removed"] if "Test Manual" in line["text"]]
    assert {h.split()[0] for h in heads} == {"ALPHA(7)", "BETA(7)"} and len(heads) == pdf.pages
    set_words = [w for line in text if "Test Manual" not in line and "Prefill Lens" not in line
                 for w in line.split() if w not in ("-", "−")]
    words = [w for w in " ".join(line.text for line in pdf.body).replace("- ", "").split()
             if w not in ("-", "−", "–")]
    assert words == set_words and sum(w.lower().strip(".") in LIGATURES for w in words) > 100


def test_a_tag_stands_apart_and_paragraphs_are_labelled(pages):
    pdf, text = pages
    lines = [line.text for line in pdf.body]
    labels = twin_labels(lines, "\n\n".join(text))
    assert labels.count(WRAP) > 50 and labels.count(BREAK) > 25
    tag = lines.index("EBADF")
    assert labels[tag - 1] == labels[tag] == BREAK  # the tag is a line of its own
