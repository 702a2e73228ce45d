"""Labels for evaluation from a plain-text twin: synthetic cases and a real Debian document."""

from collections import Counter

import pytest

from scorer.align import BREAK, WRAP, twin_labels

TWIN = """Title of the Document
*********************

The first paragraph is wrapped by the text
renderer at its own width, which differs from
the PDF's.

* a list item that is long enough to wrap in
  the twin as well
* the second item

   code line one
   code line two

A last paragraph with “curly quotes” – and a dash.
"""

PDF_LINES = [
    "Title of the Document",
    "The first paragraph is wrapped by the text renderer",
    "at its own width, which differs from the PDF's.",
    "• a list item that is long enough to wrap in the",
    "twin as well",
    "• the second item",
    "code line one",
    "code line two",
    "A last paragraph with \"curly quotes\" - and a",
    "dash.",
    "A line the twin does not have",
]


def test_labels_follow_the_twin_paragraphs():
    assert twin_labels(PDF_LINES, TWIN) == [
        BREAK,  # title | paragraph
        WRAP,
        BREAK,  # paragraph | list item
        WRAP,  # inside the item
        BREAK,  # item | item
        None,  # item | code: the twin's preformatted block (indented, no marker) says
        None,  # nothing about paragraphs (its lines were once labelled wrap: label noise)
        None,  # code | paragraph
        WRAP,  # quotes and dashes folded
        None,  # not in the twin: unlabelled
    ]


def test_hyphenated_line_end_still_aligns():
    twin = "A paragraph about recommendations and more words here.\n"
    # the layout's hyphen is not in the twin: dropped, the two lines meet inside one word
    assert twin_labels(["A paragraph about recom-", "mendations and more words here."], twin) == \
        [WRAP]


def test_a_line_the_twin_holds_only_far_ahead_does_not_carry_the_alignment_off():
    """A table header the twin sets elsewhere near (so not found there) and again far ahead:
    found there alone, it took the cursor past the paragraph that follows, which then got no
    label (debian-reference-de: 149 of 1,630 breaks labelled, now 551)."""
    filler = "\n\n".join(f"Filler paragraph number {k} of some length." for k in range(200))
    twin = ("First paragraph of the page goes on\nto its end here.\n\n"
            "|Package|Popcon|Size|Description|\n\n"
            "The next paragraph starts here and\nwraps once before it ends.\n\n"
            f"{filler}\n\nPackage Popcon Size Description\n\nAnother text entirely.\n")
    lines = ["First paragraph of the page goes on", "to its end here.",
             "Package Popcon Size Description", "The next paragraph starts here and",
             "wraps once before it ends."]
    assert twin_labels(lines, twin) == [WRAP, None, None, WRAP]


@pytest.mark.model
def test_real_debian_document_gets_many_labels():
    from scorer.evaluate.corpus import fetch_debian_doc as fetch
    from scorer.pdf import read_pdf

    pdf_path, twin = fetch("developers-reference")
    lines = [line.text for line in read_pdf(pdf_path).body]
    counts = Counter(twin_labels(lines, twin))
    assert counts[WRAP] > 500 and counts[BREAK] > 300
    assert counts[None] < 0.8 * len(lines)


def test_metrics_by_hand():
    from scorer.evaluate.metrics import metrics

    labels = [WRAP, WRAP, WRAP, BREAK, BREAK, None]
    decisions = ["join", "join", "keep", "keep", "join", "join"]
    m = metrics(labels, decisions)
    assert m["n"] == 5 and m["accuracy"] == 3 / 5
    assert (m["wrap_joined"], m["wrap_kept"], m["break_kept"], m["break_joined"]) == (2, 1, 1, 1)
    assert m["f1_join"] == 2 * 2 / (2 * 2 + 1 + 1) and m["f1_keep"] == 2 * 1 / (2 * 1 + 1 + 1)
    assert m["macro_f1"] == (m["f1_join"] + m["f1_keep"]) / 2


@pytest.mark.model
def test_eval_command_on_the_samples(run_cli, smollm_path):
    result = run_cli("eval", "--docs", "samples", "--model", str(smollm_path))
    assert result.returncode == 0, result.stderr
    table = result.stdout.decode("utf-8")
    summary, pooled = table.split("\n\n")[:2]
    assert "samples en (n=27)" in summary and "samples zh (n=61)" in summary
    for method in ("keep-all", "join-all", "rule: sentence end", "rule: short line",
                   "model as-is @34%", "model joined @34%", "percentile mode",
                   "DEFAULT: shipped hybrid"):
        assert summary.count(method) == 1 and pooled.count(method) == 2, table
    # trained rows need the dev documents: without them they are left out, not faked
    assert "2-gram" not in table and "layout only" not in table


@pytest.mark.model
def test_eval_refuses_to_train_without_dev_documents(run_cli, smollm_path):
    result = run_cli("eval", "--docs", "samples", "--train", "--model", str(smollm_path))
    assert result.returncode == 2 and b"--train needs" in result.stderr


def test_pooled_metrics_sum_the_documents():
    from scorer.evaluate.metrics import pooled

    rows = [{"split": "dev", "lang": "en", "method": "m", "wrap_joined": 3, "wrap_kept": 1,
             "break_kept": 2, "break_joined": 0},
            {"split": "dev", "lang": "en", "method": "m", "wrap_joined": 1, "wrap_kept": 1,
             "break_kept": 0, "break_joined": 2}]
    (row,) = pooled(rows)
    assert row["n"] == 10 and row["accuracy"] == 6 / 10
    assert (row["wrap_joined"], row["break_joined"]) == (4, 2)


def test_per_document_table_names_the_best_peer_and_its_cost():
    from scorer.evaluate.metrics import per_document

    def row(doc, method, f1, split="held-out", **more):
        return {"document": doc, "split": split, "method": method, "macro_f1": f1, "n": 9, **more}

    rows = [row("a", "DEFAULT: shipped hybrid + forced keeps", 0.97),
            row("a", "DEFAULT on the text alone (pasted)", 0.95), row("a", "rule: short line", 0.99),
            row("a", "pdfminer: layout analysis text boxes", 0.93, seconds_per_page=0.1),
            row("a", "PyMuPDF: text blocks", 0.96, seconds_per_page=0.02),
            row("a", "keep-all", 0.3),
            row("b", "DEFAULT: shipped hybrid + forced keeps", 0.5, "dev")]
    table = per_document(rows).splitlines()
    assert len(table) == 3  # header, rule, one held-out document
    assert table[0].endswith("| best peer | peers' s/page |")
    assert table[2].startswith("| a | 9 | 0.970 | 0.950 |")
    assert table[2].endswith("| 0.930 | 0.960 |  | PyMuPDF 0.960 | 0.100 / 0.020 |")


def test_paired_counts_breaks_only_one_method_gets_right():
    from types import SimpleNamespace

    import numpy as np

    from scorer.evaluate.corpus import Labelled
    from scorer.evaluate.methods import paired

    doc = Labelled("d", "en", "held-out", "a\nb\nc\nd", [WRAP, BREAK, WRAP], layout=[{}] * 3)
    prepared = [SimpleNamespace(doc=doc, ev={"fill": np.array([1.0, 0.2, 0.9])})]
    by_fill = {"features": ["fill"], "intercept": 0.0, "coef": [10.0], "mean": [0.5], "scale": [1.0]}
    keep_all = {"features": ["fill"], "intercept": -5.0, "coef": [0.0], "mean": [0.0], "scale": [1.0]}
    (row,) = paired(prepared, {"a": by_fill, "b": keep_all}, "a", "b")
    assert row["only_right"] == {"a": 2, "b": 0}  # two wraps only the fill rule joins


@pytest.mark.model
def test_evidence_cache_tells_two_models_of_one_name_apart(tmp_path, smollm_path):
    """Two different GGUFs saved under the same file name must not share cached scores."""
    import numpy as np

    from scorer.evaluate.evidence import scored
    from scorer.model import Model, default_model_path

    text = "The board met on Monday and\ndiscussed the budget.\nResults follow."
    models = []
    for folder, target in (("a", smollm_path), ("b", default_model_path())):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "model.gguf").symlink_to(target)
        models.append(Model(tmp_path / folder / "model.gguf"))
    try:
        assert models[0].info["file"] == models[1].info["file"] == "model.gguf"
        cache = tmp_path / "cache"
        first, second = (scored(m, text, "joined", cache=cache) for m in models)
        assert len(list(cache.glob("*.npz"))) == 4  # per model: the whole pass, the windows
        assert not np.allclose(first.logp_newline, second.logp_newline)
        assert not np.allclose(first.logp_window, second.logp_window)
        again = scored(models[1], text, "joined", cache=cache)  # now from the cache
        assert np.array_equal(again.logp_newline, second.logp_newline)
        assert np.array_equal(again.logp_window, second.logp_window)
        assert len(list(cache.glob("*.npz"))) == 4
    finally:
        for m in models:
            m.llama.close()


def test_markdown_structure_is_read_alike_for_every_method():
    from scorer.evaluate import structure

    md = ("# **1.4 Mouse operations**\n\nText.\n\n- Traditional Unix style\n   - use 3 buttons\n"
          "```\n# not a heading\n- not an item\n```\n2. Modern GUI style\n")
    keys = structure.markdown_keys(md)
    assert keys == {"heading": ["Mouseoperations"],
                    "item": ["TraditionalUnixs", "use3buttons", "ModernGUIstyle"]}
    # precision over what was found, recall over the truth, distinct keys
    assert structure.found(keys["item"] + ["Nosuchitem"], ["TraditionalUnixs", "ModernGUIstyle",
                                                           "Missed"]) == (2, 4, 2, 3)


def test_twin_truth_is_the_part_the_pages_hold():
    from scorer.evaluate import structure

    twin = ("1. Before\n\n" + "    A paragraph of the part before the pages read here.\n" * 9 + "\n"
            "1.4. Mouse operations\n\n    Mouse operations for text on this system mix two "
            "styles with twists:\n\n      * Traditional Unix style mouse operations\n\n"
            "          + use 3 buttons (click)\n\n2. Later\n")
    pages = ("1.4 Mouse operations\nMouse operations for text on this system mix two styles "
             "with twists:\n• Traditional Unix style mouse operations\n◦ use 3 buttons (click)")
    truth = structure.twin_truth(twin, pages)
    assert truth == {"heading": ["Mouseoperations"],
                     "item": ["TraditionalUnixs", "use3buttons(clic"]}


def test_a_twin_that_does_not_indent_its_body_has_no_heading_truth():
    """Every line of such a twin sits at the margin: none can be told for a heading."""
    from scorer.evaluate import structure

    twin = ("Chapter one\n\n" + "A paragraph of the twin, set at the margin like its headings.\n" * 3
            + "\n  * an item of a list\n")
    pages = "A paragraph of the twin, set at the margin like its headings.\n• an item of a list"
    truth = structure.twin_truth(twin, pages)
    assert truth["heading"] is None and truth["item"] == ["anitemofalist"]
    row = structure.report([{"document": "d", "method": "m", "s_per_page": 1.0,
                             "heading": {"precision": None, "recall": None, "found": 3,
                                         "truth": None}, "item": None}])
    assert "no truth (3 found)" in row


def test_reading_order_counts_lines_read_before_their_turn():
    """A two-column page read across puts right-column lines before their turn: counted."""
    from scorer.align import reading_order

    paras = [f"Paragraph {k} tells of the pumping station number {k} and its pumps." for k in range(6)]
    twin = "\n\n".join(paras)
    assert reading_order(paras, twin) == (6, 0, 6, 0)
    across = [paras[0], paras[3], paras[1], paras[4], paras[2], paras[5]]
    checked, wrong, _, prose_wrong = reading_order(across, twin)
    assert checked == 6 and wrong == 2 and prose_wrong == 2  # paragraphs 1 and 2, behind 3 and 4
    assert reading_order(["short", "not in the twin at all, but long enough"], twin) == (0, 0, 0, 0)


def test_a_floated_table_is_out_of_order_but_not_in_the_prose():
    """The twin draws a table as a grid where the source has it; the typesetter floats it
    below the next paragraph: its cells count out of order over all lines, not in the prose
    (and a grid is preformatted: no labels inside it)."""
    from scorer.align import WRAP, reading_order, twin_labels

    paras = [f"Paragraph {k} tells of the pumping station number {k} and its pumps."
             for k in range(4)]
    cells = [f"pump number {k} of the northern station" for k in range(3)]
    grid = "\n".join(["    +--------------------------------------+"]
                     + [f"    |{cell:38}|\n    |--------------------------------------|"
                        for cell in cells])
    # paragraphs indented as far as the grid (as debian-reference's text rendering sets both)
    twin = "\n\n".join(["    " + paras[0], "    " + paras[1], grid, "    " + paras[2],
                         "    " + paras[3]])
    floated = [paras[0], paras[1], paras[2]] + cells + [paras[3]]
    checked, wrong, prose_checked, prose_wrong = reading_order(floated, twin)
    assert (checked, prose_checked) == (7, 4)
    assert wrong == 1 and prose_wrong == 0  # paragraph 2 found before its place over all lines
    assert twin_labels(cells, twin) == [None, None]
    assert twin_labels(paras[:2], twin) == ["break"]
    across = [paras[1], paras[0], *cells, paras[2], paras[3]]
    assert reading_order(across, twin)[3] == 1  # prose read out of order still counts
    assert twin_labels(["Paragraph 0 tells of the pumping station", "number 0 and its pumps."],
                       twin) == [WRAP]


@pytest.mark.parametrize("paragraph, mid", [
    ("A sentence that ends.", False), ("a wrap kept in the middle of a", True),
    ("a list, then a comma,", True), ("a word split by a hyph-", True),
    ("Ends with a number 42", False), ("Éléments de réseau", True), ("第一章", False),
    ("", False), ("Trailing space after a wrap  ", True)])
def test_a_paragraph_ends_mid_sentence_as_a_kept_wrap_would(paragraph, mid):
    from scorer.evaluate.wild import ends_mid_sentence

    assert ends_mid_sentence(paragraph) is mid


def test_markdown_paragraphs_are_prose_blocks_as_plain_text():
    from scorer.evaluate.wild import _blank_split

    markdown = ("### **9.4 Nonlinear constraints**\n\nA _wrapped_\nparagraph.\n\n| a | b |\n"
                "| c | d |\n\n```\ncode line\n\nmore code\n```\n\n- item `name`\n\n> quoted, "
                "then<br>broken\n\nthe kaon K<sup>∗</sup>\n\nan <u>underlined</u> "
                "x<sub>i</sub>\n")
    assert _blank_split(markdown) == ["9.4 Nonlinear constraints", "A wrapped paragraph.",
                                      "- item name", "quoted, then broken", "the kaon K∗",
                                      "an underlined xi"]


def test_a_wrap_kept_is_a_paragraph_ending_mid_sentence_before_one_opening_lowercase():
    from scorer.evaluate.wild import wraps_kept

    assert wraps_kept(["It ran over the", "line and on.", "A heading ending lowercase",
                       "Then a sentence,", "and its rest.", "ends a list entry", ""]) == 2
    assert wraps_kept(["Signature (void) const", "Signature (int i) const"]) == 0



@pytest.mark.model
def test_a_wild_row_measures_ours_on_a_pdf_with_its_layout(smollm, tmp_path):
    from scorer.evaluate import wild
    from tests import pdfs

    path = tmp_path / "columns.pdf"
    pdfs.two_column(path, pages=2)
    wild._worker["model"] = smollm
    try:
        row = wild.measure_one(path)
    finally:
        wild._worker.clear()
    ours = row["tools"][wild.OURS]
    assert "error" not in ours, ours
    assert row["pages"] == 2 and row["two_columns"] == 2 and row["table_pages"] == 0
    assert ours["paragraphs"] >= 2 and row["breaks"] > 0
    assert set(wild.FORCED.values()) <= set(row["forced"])


def test_twin_pieces_find_a_page_read_across_and_xy_cut_reading_down(tmp_path):
    """The order measure that compares ways of reading a page whatever lines they make
    (orders.found_pieces): a two-column page read down each column by recursive XY-cut, or by
    Breuel's whitespace cover and reading order, holds every piece of its text in order;
    pdfplumber's own text, read across the page, breaks most of them (the other column's words
    inside each)."""
    from scorer.evaluate import orders
    from tests import pdfs

    path = tmp_path / "columns.pdf"
    twin = "\n\n".join(pdfs.two_column(path, pages=2))
    lines = orders.xy_cut_lines(path, 1, 2)
    down = orders.found_pieces(lines, twin)
    across = orders.found_pieces(orders.pdfplumber_lines(path, 1, 2), twin)
    asked = set(down) | set(across)
    assert len(asked) > 100
    assert orders.pieces_out(down, asked) == (0, 0)
    cover = orders.found_pieces(orders.whitespace_lines(path, 1, 2), twin)
    assert orders.pieces_out(cover, asked) == (0, 0)
    lost, _ = orders.pieces_out(across, asked)
    assert lost > len(asked) / 2
    assert orders.pieces_out(down, asked | {10 ** 6}) == (1, 0)  # a piece it does not hold
    second_page_first = orders.found_pieces(lines[len(lines) // 2:] + lines[:len(lines) // 2], twin)
    lost, out = orders.pieces_out(second_page_first, asked)
    assert lost <= 1 and len(asked) / 3 < out < len(asked) * 2 / 3
