"""PDF ingestion on PDFs the tests generate: lines, layout, furniture, tables, bad files."""

import re

import pdfplumber
import pytest

from tests import pdfs
from scorer.document import score_pdf
from scorer import contract, decide, hybrid
from scorer.errors import ScorerError, TooLarge, UnreadablePdf
from scorer.breaks import SHORT
from scorer.pdf import gutter, order, read_pdf
from scorer.pdf.lines import on_their_baselines, page_part
from scorer.pdf.turned import sideways as turned_way


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


def test_frames_and_shaded_boxes_are_not_tables(tmp_path):
    """A browser prints a web page's borders and backgrounds as rectangles, and pdfplumber
    finds a "table" in a frame around the text: its prose was kept line by line (a printed
    page with a bordered body had no line joined). A table has text in two columns and rows."""
    path = tmp_path / "framed.pdf"
    rows = pdfs.framed(path)
    body = read_pdf(path).body
    assert [line.text for line in body if line.table] == rows
    assert [line.text for line in body if not line.table] == pdfs.EN_PARA + pdfs.EN_PARA2 * 2


def test_boxes_nested_in_boxes_are_no_table(tmp_path):
    """A documentation theme's body in a box in a box (Doxygen's printed pages had every prose
    line forced as a table row): cells that start at two x but never stand apart across are
    no grid. A real table beside them still is one (test above)."""
    path = tmp_path / "nested.pdf"
    body = pdfs.nested_boxes(path)
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        assert pdf.pages[0].find_tables()  # pdfplumber sees a "table"
    lines = read_pdf(path).body
    assert [ln.text for ln in lines][1:-1] == body
    assert not any(ln.table for ln in lines)


def test_a_ruled_layout_with_a_cell_of_prose_is_no_table(tmp_path):
    """Navigation links beside the body's prose, in the cells of a ruled layout: a cell of
    many wrapped lines is a box of the page, not a table's cell; its lines are prose, and the
    two boxes are read apart."""
    path = tmp_path / "sidebar.pdf"
    links, body = pdfs.sidebar_in_a_table(path)
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        assert pdf.pages[0].find_tables()
    lines = read_pdf(path).body
    assert not any(ln.table for ln in lines)
    # read box by box, never across: the links, then the body (was "Home The pumping...")
    assert [ln.text for ln in lines] == ["A project's manual", *links, *body]


def test_a_sidebar_beside_the_body_is_read_apart(tmp_path):
    """A shaded panel down the page's edge (a CV's contacts and skills, at a leading of its
    own) and the wider body beside it are two columns of unequal width: the panel is read
    whole, then the body (its lines were read between the body's, one of each in turn). Lines
    on the body's rows, as a description list's terms stand beside their text, are no panel:
    each is read with the body's line on its row."""
    path = tmp_path / "panel.pdf"
    panel, body = pdfs.sidebar_panel(path)
    assert [ln.text for ln in read_pdf(path).body] == panel + body
    panel, body = pdfs.sidebar_panel(path, paired=True)
    assert read_pdf(path).body[0].text == f"{panel[0]} {body[0]}"


def test_a_ruled_table_with_wrapped_cells_stays_a_table(tmp_path):
    """Several rows of several cells are a table even where a cell wraps its text over many
    lines (the prose rule is for a layout's boxes, side by side in one row at most)."""
    path = tmp_path / "wrapped.pdf"
    names = pdfs.wrapped_cells(path)
    lines = read_pdf(path).body
    assert len(lines) >= 15 and all(ln.table for ln in lines)
    assert [ln.text.split()[0] for ln in lines if ln.text.startswith(("/dev", "getrandom"))] == names


def test_a_table_cell_s_wrapped_lines_are_weighed_its_rows_kept(tmp_path):
    """A wrap inside one cell of a table (a description over five lines) is the decider's to
    weigh, measured in its cell (it fills the cell); the break before the next row is kept as
    a row. Every break of a table was kept, so a manual's option tables kept each cell's text
    line by line (AMC's scoring parameters: 20 to 30 wraps a manual)."""
    path = tmp_path / "wrapped.pdf"
    pdfs.wrapped_cells(path)
    pdf = read_pdf(path)
    layout = pdf.break_layout()
    rows = [k for k, line in enumerate(pdf.body[1:]) if line.text.startswith(("/dev", "get"))]
    assert rows == [4, 9] and all(layout[k]["table"] for k in range(len(layout)))
    assert [k for k, f in enumerate(layout) if not f["cell"]] == rows
    assert min(f["fill"] for k, f in enumerate(layout) if k not in rows) > 0.8
    assert all(f["indent_next"] == 0 for k, f in enumerate(layout) if k not in rows)
    offsets = [k for k, ch in enumerate(pdf.text) if ch == "\n"]
    forced = decide.forced_keeps(pdf.text, offsets, layout)
    assert sorted(offsets.index(i) for i, (_, why) in forced.items() if "table" in why) == rows


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


def test_a_page_pdfminer_cannot_parse_is_left_out_and_said(tmp_path):
    """One page whose content stream pdfminer cannot parse no longer sinks the whole file (all
    of TeX's l3backend test file was "corrupt" for its page 11): the other pages are read, and
    the source names the page left out, with a warning for the output's reader."""
    path = tmp_path / "broken.pdf"
    pdfs.unparsable_page(path)
    pdf = read_pdf(path)
    assert pdf.text.split("\n") == pdfs.EN_PARA and "Lost" not in pdf.text
    assert [page for page, _ in pdf.unreadable] == [2] and "PSSyntaxError" in pdf.unreadable[0][1]
    source = pdf.source()
    assert source["unreadable_pages"] == [2] and len(source["warnings"]) == 1
    assert source["warnings"][0].startswith("page 2 of 2 could not be read (PSSyntaxError")
    assert read_pdf(tmp_path / "broken.pdf", pages=(1, 1)).source()["warnings"] == []


def test_a_part_of_a_page_may_reach_off_its_paper_or_hold_nothing(tmp_path):
    """Cropping a page to a column or a band of rows: a column whose words run off the paper's
    edge (a landscape exam set on portrait paper: uantwerpendocs') and a band between rows
    that overlap (unicode-math's table of symbols) made pdfplumber raise, and the whole file
    was "corrupt or truncated (ValueError)". A part reaching off the page holds what is in it;
    a part with no area holds nothing."""
    path = tmp_path / "report.pdf"
    pdfs.report(path)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        x0, top, x1, bottom = page.bbox
        wide = page_part(page, (x1 / 2, top, x1 + 200, bottom))  # beyond the right edge
        assert wide.chars and len(wide.chars) == sum(ch["x1"] > x1 / 2 for ch in page.chars)
        for empty in ((x0, 300.0, x1, 299.9), (x0, 300.0, x1, 300.0), (200.0, top, 100.0, bottom)):
            assert page_part(page, empty).chars == []


def test_a_pdf_is_read_a_page_at_a_time(tmp_path, monkeypatch):
    """pdfplumber keeps each page's parsed objects until the file is closed: reledmac's manual
    (458 pages) passed the reader's 2 GB and was refused as a likely bomb (157 MB now). When
    a page is read, no page before it holds its objects."""
    from scorer.pdf import reader

    path = tmp_path / "five.pdf"
    pdfs.pages(path, 5, "A page of text, read and let go.")
    held, real = [], reader.lines_of_page

    def spy(page, number):
        held.append(sum(hasattr(other, "_objects") for other in page.pdf.pages))
        return real(page, number)

    monkeypatch.setattr(reader, "lines_of_page", spy)
    assert read_pdf(path).pages == 5 and held == [0] * 5


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


@pytest.mark.parametrize("name, mono", [
    ("FINIAV+CMTT9", True), ("SFTT1000", True), ("LMMono10-Regular", True), ("pcrr8r", True),
    ("NimbusMonL-Regu", True), ("Courier-Bold", True), ("SourceCodePro-Regular", True),
    ("NLLXHG+CMR10", False), ("SFRM1000", False), ("CMSS10", False), ("Helvetica", False),
    ("ABCDEF+Calibri", False), ("TCRM1000", False)])
def test_a_typewriter_face_is_known_by_its_name_tex_families_too(name, mono):
    from scorer.pdf import is_monospace

    assert is_monospace(name) is mono


@pytest.mark.parametrize("fixed", [True, False])
def test_a_font_whose_glyphs_all_advance_alike_is_monospaced_whatever_its_name(tmp_path, fixed):
    path = tmp_path / "nameless.pdf"
    pdfs.nameless_font(path, fixed=fixed)
    body = read_pdf(path).body
    assert [ln.text for ln in body] == [t.strip() for t in pdfs.NAMELESS_CODE]
    assert [ln.code for ln in body] == [fixed] * 3


def test_code_in_a_nameless_type3_font_is_monospaced_line_by_line(tmp_path):
    """Old dvips output sets a page in Type 3 bitmap fonts, none of them named: pdfplumber
    calls the typewriter face and the roman alike "unknown", their widths pooled differ, and a
    BibTeX entry set in typewriter was weighed as prose (jurarsp's manual: 56 wraps kept)."""
    path = tmp_path / "type3.pdf"
    pdfs.type3_fonts(path)
    body = read_pdf(path).body
    assert _fontnames(path) == {"unknown"}
    assert [ln.text for ln in body if ln.code] == [t.strip() for t in pdfs.NAMELESS_CODE]
    assert [ln.text for ln in body if not ln.code] == pdfs.EN_PARA + pdfs.EN_PARA2


def _fontnames(path) -> set:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return {ch["fontname"] for ch in pdf.pages[0].chars}


def test_the_body_size_is_the_prose_size_however_many_code_lines_are_smaller(tmp_path):
    path = tmp_path / "manual.pdf"
    pdfs.small_code(path)
    pdf = read_pdf(path)
    assert sum(ln.code for ln in pdf.body) == 12 and pdf.body[0].size == 11
    assert not any(f["bigger"] for f in pdf.break_layout()[:2])  # the prose is the body


def test_a_listing_numbered_in_the_text_font_is_code_to_its_braces(tmp_path):
    """A documented package numbers its code lines in the text font: the number's glyphs
    took "497 type .initial:n = bachelor," under the 90 % of monospaced glyphs a code line
    has, and a brace alone, "494 {", to a quarter; they were weighed as prose (njuthesis'
    implementation, l3 packages')."""
    path = tmp_path / "listing.pdf"
    listing = pdfs.numbered_listing(path)
    body = read_pdf(path).body
    assert [ln.text for ln in body if ln.code] == listing
    assert [ln.text for ln in body if not ln.code] == pdfs.EN_PARA


def test_inline_code_is_prose_and_a_code_block_is_code(tmp_path):
    path = tmp_path / "inline.pdf"
    pdfs.inline_code(path)
    lines = read_pdf(path).body
    assert [ln.text for ln in lines] == ["".join(t for _, t in spans) for spans in pdfs.INLINE_CODE]
    assert lines[0].mono > 0.6  # mostly monospaced, yet prose
    assert [ln.code for ln in lines] == [False, False, True, True, True, False]
    layout = read_pdf(path).break_layout()
    assert not layout[0]["code"]  # the prose may be joined across the inline command
    assert all(f["code"] for f in layout[1:5])  # the block and its edges are kept


def test_two_columns_read_down_each_column_and_on_over_the_page(tmp_path):
    path = tmp_path / "columns.pdf"
    order = pdfs.two_column(path)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == order
    layout = pdf.break_layout()
    first_right = order.index(next(t for t in order if t.startswith("030")))
    assert layout[first_right - 1]["page_break"]  # the left column's foot: a new column
    fills = [f["fill"] for f in layout if not f["page_break"]][1:]  # each column's own width
    assert min(fills) > 0.8  # ragged right; measured against the page they would be about 0.45


@pytest.mark.parametrize("n, options", [
    (3, {}), (3, {"ragged": True}), (3, {"gutter": 8, "ragged": True}),
    (4, {"landscape": True}), (4, {"landscape": True, "ragged": True})])
def test_three_or_four_columns_are_read_down_each_column(tmp_path, n, options):
    """Octave's reference cards (three and four columns) were read across, a line of each
    column in turn."""
    path = tmp_path / "columns.pdf"
    order = pdfs.columns(path, n, **options)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == order
    assert pdf.body[0].region in (0, 1)  # the title: across the columns, or in the first
    assert {line.region for line in pdf.body[1:]} == set(range(1, n + 1))


def test_an_index_in_three_columns_is_read_down_each_column(tmp_path):
    """An index's columns start their rows at two x: its entries at the edge, their wrapped
    page numbers set in, and under half at either one; its pages were read across, an entry
    of each column on one line, and kept as a table's rows."""
    path = tmp_path / "index.pdf"
    order = pdfs.index_columns(path)
    assert [ln.text for ln in read_pdf(path).body] == order


def test_an_index_of_commands_is_read_in_columns_code_aligned_so_is_not(tmp_path):
    """A package's index sets its commands in a monospaced font, more than half the page's
    glyphs (musuos, ionumbers): a page mostly monospaced was taken for code, whose aligned
    columns are no page columns, and the index was read across as a table's rows. Rows that end
    on page numbers after dot leaders say index; the same page without them stays read across."""
    path = tmp_path / "index.pdf"
    rows = pdfs.command_index(path)
    def read(path):
        return [" ".join(line.text.split()) for line in read_pdf(path).body]

    assert read(path) == [" ".join(entry.split()) for column in zip(*rows) for entry in column]
    rows = pdfs.command_index(path, leaders=False)
    assert read(path) == [" ".join(row) for row in rows]


def test_an_index_under_a_paragraph_is_read_in_its_columns_a_table_so_set_is_not(tmp_path):
    """An index in three columns under the paragraph that opens it (jura, ionumbers, a
    thesis's last page) was read across: only a whole page was looked at for three columns,
    and a part of one for two. A run of rows that leave two bands empty is now a part of the
    page in columns where its columns read as an index (rows that end on page numbers after
    dot leaders); the same part without them (a table of three columns: units, numbers)
    stays read across, row by row, and the paragraph above stays whole either way. Rows set
    below the page's foot (a Chinese reference's glyphs stand there) are read with no error."""
    path = tmp_path / "index.pdf"
    first, rows = pdfs.index_under_text(path)
    def read(path):
        return [" ".join(line.text.split()) for line in read_pdf(path).body]

    down = [" ".join(entry.split()) for column in zip(*rows) for entry in column]
    assert read(path) == first + down
    first, rows = pdfs.index_under_text(path, leaders=False)
    assert read(path) == first + [" ".join(row) for row in rows]
    first, rows = pdfs.index_under_text(path, below=pdfs.HEIGHT)  # all of it off the page's foot
    assert read(path)[:len(first)] == first  # read, with no error


def test_a_table_of_centred_cells_is_read_row_by_row(tmp_path):
    """Centred cells of three lengths start a column's rows at three x, two of them within a
    few ems: two thirds of the rows, as an index's entries and their wraps start at two, but
    short of the three quarters an index has (a HEP package's table of symbols was read down
    its columns when half sufficed)."""
    path = tmp_path / "centred.pdf"
    rows = pdfs.centred_cells(path)
    assert [ln.text for ln in read_pdf(path).body] == rows


def test_a_table_of_short_cells_is_not_read_as_columns(tmp_path):
    path = tmp_path / "cells.pdf"
    rows = pdfs.short_cells(path)
    assert [line.text for line in read_pdf(path).body] == rows


def test_short_bulleted_items_in_two_columns_are_read_down_each_column(tmp_path):
    """A glossary of short items set in two columns (a physics package's particle names): its
    lines fill half their column or less, as a table's cells do, so the page was read across,
    an item of each column on one line. Lists on both sides of the gutter say columns; the
    same short texts without bullets, side by side, are still a table's rows read across."""
    path = tmp_path / "listed.pdf"
    order = pdfs.listed_columns(path)
    assert [ln.text for ln in read_pdf(path).body] == order
    table = tmp_path / "pairs.pdf"
    rows = pdfs.listed_columns(table, bullets=False)
    assert [ln.text.split() for ln in read_pdf(table).body] == [f"{a} {b}".split() for a, b in rows]


@pytest.mark.parametrize("columns", [3, 4])
def test_a_table_without_rules_keeps_its_rows_and_weighs_its_wrapped_cells(tmp_path, columns):
    """A table set without rules between its columns (booktabs', a font table's) was read as
    prose, every row a short line: its rows were weighed as wraps, and kept or joined at
    random. Its rows are a table's now; a cell whose text wraps under itself is in the same
    cell as the row before, weighed as a ruled table's cell is. A definition list's term
    and description, two cells side by side, stay prose (their next lines go on the
    description), and so do the paragraphs around them."""
    path = tmp_path / "unruled.pdf"
    first, table, listed, last = pdfs.unruled_table(path, columns=columns)
    pdf = read_pdf(path)
    body = pdf.body
    assert [ln.text for ln in body if ln.table] == table
    assert [ln.text for ln in body if not ln.table] == first + listed + last
    wrapped = next(k for k, ln in enumerate(body) if ln.text == "version for the screen")
    assert body[wrapped].in_cell and body[wrapped].cell == body[wrapped - 1].cell
    offsets = [k for k, ch in enumerate(pdf.text) if ch == "\n"]
    forced = decide.forced_keeps(pdf.text, offsets, pdf.break_layout())
    kept = sorted(offsets.index(i) for i, (_, why) in forced.items() if "table" in why)
    first = body.index(next(ln for ln in body if ln.table))
    rows = range(first - 1, first + len(table))  # into the table, between rows, out of it
    assert kept == [k for k in rows if k != wrapped - 1]


def test_a_table_whose_first_column_names_groups_of_rows_is_a_table(tmp_path):
    """isomath's table of packages names a math style once, on its group's first row; the
    group's other rows start in the second column. That first column held a cell in fewer than
    half the rows, and the whole table was read as prose, each row a short line ending
    lowercase, kept or joined at random. A sparse first column whose rows' next cell starts
    where the group's other rows do is a grouped table's."""
    first, table, last = pdfs.grouped_table(tmp_path / "grouped.pdf")
    body = read_pdf(tmp_path / "grouped.pdf").body
    assert [ln.text for ln in body if ln.table] == table
    assert [ln.text for ln in body if not ln.table] == first + last


def test_a_table_under_headers_centred_above_its_columns_is_a_table(tmp_path):
    """A browser centres an HTML table's headers above their columns (mkdocs' options tables).
    A description wrapped over two lines, the row's other cells midway between them, then
    started left of its centred header, across the strip that header left empty: the table
    ended at the header, and its rows were read as prose, their wraps kept at random. That
    strip is only the header's: a cell's text may cross it, and the table holds."""
    first, table, last = pdfs.centred_header_table(tmp_path / "centred.pdf")
    body = read_pdf(tmp_path / "centred.pdf").body
    assert [ln.text for ln in body if ln.table] == table
    assert [ln.text for ln in body if not ln.table] == first + last
    lines = {ln.text: ln for ln in body}
    one, two = lines["Remove old files from the site folder before"], lines["building (the default)."]
    assert one.in_cell and two.in_cell and one.cell == two.cell


@pytest.mark.parametrize("runs_on, note_runs_on", [(True, False), (False, False), (True, True)])
def test_a_footnote_is_read_after_the_paragraph_that_runs_on_to_the_next_page(
        tmp_path, runs_on, note_runs_on):
    """A page's footnote, read in place, stood between the two halves of a sentence that runs
    on to the next page (45 wild PDFs: LaTeX manuals, R's): both breaks around it were kept. It
    is read after that paragraph ends, the rest of a note that runs on too with it; where the
    page's text ends a sentence, it stays in place."""
    path = tmp_path / "notes.pdf"
    (one, two), (note, rest) = pdfs.footnoted(path, runs_on=runs_on, note_runs_on=note_runs_on)
    body = [line.text for line in read_pdf(path).body]
    if runs_on:
        assert body == one + two[:4] + note + rest + two[4:]
    else:
        assert body == one + note + two + rest


def test_columns_numbered_line_by_line_in_their_margins_are_read_down_each_column(tmp_path):
    """reledpar's parallel texts: each line of the left column numbered before it, each of
    the right column after it ("7R"), a gap wider than a word's between a line and its
    number. Those gaps made every line look like a table's row of cells, and the page was
    read across, a line of each column in turn; a line's number in the margin (a short
    number opening or ending the row) now leaves the row's gaps uncounted."""
    path = tmp_path / "numbered.pdf"
    order = pdfs.numbered_columns(path)
    body = read_pdf(path).body
    assert [line.region for line in body] == [1] * (len(order) // 2) + [2] * (len(order) // 2)
    texts = [re.sub(r"^\d+ | \d+R$", "", line.text) for line in body]
    assert texts == order


def test_a_footnote_at_a_column_s_foot_is_read_after_the_paragraph_that_runs_on(tmp_path):
    """A journal's first page sets its notes at the foot of the left column (elsarticle's
    sample: funding, the corresponding author), and the sentence above them runs on at the top
    of the right column: read in place, the notes stood between its halves. A column ends as a
    page does: its notes are read after the paragraph that goes on. A star that pdfplumber
    cannot map ("(cid:63)") marks a note as "∗" does, and so does TeX's star read by its
    glyph's name, "⋆" (elsarticle's title notes stood between the halves again once it was)."""
    path = tmp_path / "notes.pdf"
    left, right, note = pdfs.column_footnote(path)
    assert [line.text for line in read_pdf(path).body] == left + right[:3] + note + right[3:]
    assert order.FOOTNOTE_MARK.match("(cid:63)This document is the results of the research")
    assert order.FOOTNOTE_MARK.match("⋆This document is the results of the research")


def test_a_contents_list_set_with_gaps_is_no_table_its_wrapped_entries_are_joined(tmp_path):
    """LaTeX sets a narrow contents list's numbers in boxes and stops its leaders short of the
    page numbers (mdwtools' manuals): gaps as wide as a table's between cells, down every
    entry. Its entries were taken as an unruled table's rows and an entry wrapped over two
    lines kept apart as two rows. A run of lines half of which end entries is a contents list:
    each entry's end is kept, and its wrap joined (one dot of leaders too, where the title left
    room for no more)."""
    path = tmp_path / "contents.pdf"
    drawn, entries = pdfs.boxed_contents(path)
    pdf = read_pdf(path)
    assert [ln.text for ln in pdf.body] == drawn and not any(ln.table for ln in pdf.body)
    offsets = [k for k, ch in enumerate(pdf.text) if ch == "\n"]
    forced = decide.forced_keeps(pdf.text, offsets, pdf.break_layout())
    expected = [why for entry in entries for why in
                [("join", decide.ENTRY_JOIN)] * (len(entry) - 1) + [("keep", decide.ENTRY_KEEP)]]
    assert [forced.get(i) for i in offsets] == expected[:-1]


def test_prose_over_squared_paper_is_no_table(tmp_path):
    """An exam's page draws an answer grid of light grey 14-pt squares under its text
    (uantwerpendocs): pdfplumber found the grid a table of 1,984 cells and every line of the
    page was kept as a table's row. Cells that cut words (a word's glyphs on both sides of an
    edge, no space between) are no table's."""
    path = tmp_path / "squared.pdf"
    drawn = pdfs.squared_paper(path)
    body = read_pdf(path).body
    assert [line.text for line in body] == drawn and not any(line.table for line in body)


def test_keys_beside_what_they_mean_are_a_table_names_beside_prose_are_not(tmp_path):
    """Octave's reference card, R's lists of functions, a glossary: two columns, short keys
    beside descriptions of a line each, were prose; every description ends lowercase and the
    next key opens lowercase, and each row was measured as a wrap kept. They are a table's rows
    now, a description that goes on under itself in its cell. Names set in the margin beside a
    justified paragraph's lines (a package's manual naming its commands) stay prose."""
    first, rows, last = pdfs.key_table(tmp_path / "keys.pdf")
    body = read_pdf(tmp_path / "keys.pdf").body
    assert [ln.text for ln in body if ln.table] == rows
    assert [ln.text for ln in body if not ln.table] == first + last
    wrapped = next(ln for ln in body if ln.text == "own contents")
    assert wrapped.in_cell
    first, _, last = pdfs.key_table(tmp_path / "named.pdf", margin_names=True)
    body = read_pdf(tmp_path / "named.pdf").body
    assert [ln.text for ln in body] == first + last
    assert sum(bool(ln.gaps) for ln in body) >= 3 and not any(ln.table for ln in body)


def test_prose_with_numbers_and_notes_beside_some_lines_is_no_table(tmp_path):
    """Line numbers and side notes on the baselines of some of a paragraph's lines make those
    lines look like a table's rows, the lines between like a cell's wrapped text: more wrapped
    lines than rows, it is prose."""
    pdfs.numbered_prose(tmp_path / "numbered.pdf")
    pdf = read_pdf(tmp_path / "numbered.pdf")
    assert sum(bool(ln.gaps) for ln in pdf.body) == 4
    assert not any(ln.table for ln in pdf.body)


@pytest.mark.parametrize("kind, options", [
    ("ragged", {"ragged": True}),
    ("overflow", {"overflow": (3, 12, 40)}),
    ("ragged with overflow", {"ragged": True, "overflow": (5, 33, 45)}),
    ("one column, then two", {"intro": 12, "per_column": 24}),
    ("one column, then two, 8 pt apart", {"intro": 12, "per_column": 24, "gutter": 0}),
    ("a caption across, mid-page", {"across": 12}),
    ("ragged with a caption across", {"ragged": True, "across": 15, "per_column": 26}),
    ("rows offset, overflow", {"overflow": (3, 12, 40), "offset": 6}),
    ("ragged, rows offset, overflow", {"ragged": True, "overflow": (5, 33, 45), "offset": 4}),
    ("a description list on the right", {"hang": 25}),
    ("macros' names hung into the gutter", {"outdent": (33, 41, 50)}),
])
def test_ragged_columns_and_a_line_into_the_gutter_never_interleave(tmp_path, kind, options):
    """Ragged-right columns, a long path running from the left column into the gutter, a page
    that changes from one column to two, a figure's caption across both mid-page: each column
    still read down to its foot (or to the caption), never line by line across the two. With
    the right column's rows set between the left's (Octave's reference card), the path is no
    line across: the columns were cut into bands there, and the right column's lines that the
    bands' edges crossed were read twice, once whole and once in pieces. A right column whose
    rows start at two x, a description list's (NRC's guide), is a column too; so are columns
    under an em apart below the one-column part (LaTeX's gap is 10 pt, less the glyphs' own
    margins). A word that the right column hangs into the gutter across the column's edge
    (a macro's name) is read whole in it, not cut in two at the edge ("\\add" / "ress")."""
    path = tmp_path / "columns.pdf"
    order = pdfs.two_column(path, **options)
    assert [line.text for line in read_pdf(path).body] == order


def test_justified_columns_with_displays_are_read_down_each_column(tmp_path):
    """A journal's two justified columns with a display every few lines (elsarticle's and
    revtex's sample papers): the formulas, centred, start where the column's lines do not, and
    the gap before their numbers is wider than a word gap, so the columns looked like a
    table's cells and the page was read across, a line of each column in turn. Full lines of
    prose, from a column's edge to its end, on both sides of the gutter say columns."""
    path = tmp_path / "journal.pdf"
    order = pdfs.displayed_columns(path)
    assert [line.text for line in read_pdf(path).body] == order


def test_a_contents_in_two_narrow_columns_under_an_abstract_is_read_down_each(tmp_path):
    """A manual's contents set in two columns 10 pt apart under its title and abstract (the
    listings package's): the chapters' lines, a title and a page number set flush right, have
    a gap wider than a word's, as a table's cells do, and the columns' glyphs stand under an
    em apart. The page was read across, an entry of each column in turn."""
    path = tmp_path / "contents.pdf"
    order = pdfs.contents_columns(path, gutter=10)
    assert [line.text for line in read_pdf(path).body] == order


def test_a_heading_after_two_columns_end_is_read_after_both(tmp_path):
    """ltxdoc's change history in two columns, then the index's heading after a blank: the
    heading leaves the middle of the page empty, so it went on the part in columns and was read
    at the left column's end, between its last line and the right column's first (an entry
    wrapped from one to the other). A blank of 1.5 em across the page with fewer rows than a
    part needs after it, each on one side, ends the part: the heading is read after both
    columns. A footnote set in the two columns after such a blank goes on them."""
    path = tmp_path / "columns.pdf"
    for notes in (False, True):
        order = pdfs.columns_then_heading(path, notes=notes)
        assert [line.text for line in read_pdf(path).body] == order


def test_columns_with_footnote_marks_and_inline_code_are_read_down_each_column(tmp_path):
    """A footnote mark on every line is a row of glyphs of its own, and a word in Courier has a
    box of another height: rowed by their tops, they made the gutter's checks see short rows
    and lines cut in two (a journal's two columns, mnras's guide, were read across)."""
    path = tmp_path / "marks.pdf"
    order = pdfs.two_column(path, marks=True)
    with pdfplumber.open(path) as pdf:
        assert all(gutter(page) is not None for page in pdf.pages)
    numbers = [line.text[:3] for line in read_pdf(path).body[1:]]
    assert numbers == [line[:3] for line in order[1:]]


def test_a_part_of_a_page_holds_each_glyph_once(tmp_path):
    """Cut through the middle of a line, the page's two parts hold each of its glyphs once,
    whole (pdfplumber's crop gives the line to both, each glyph cut to its side)."""
    from scorer.pdf.order import part_of

    path = tmp_path / "report.pdf"
    pdfs.report(path)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        line = page.extract_text_lines()[3]
        middle = (line["top"] + line["bottom"]) / 2
        x0, top, x1, bottom = page.bbox
        parts = [part_of(page, (x0, top, x1, middle)), part_of(page, (x0, middle, x1, bottom))]
        texts = [[ln["text"] for ln in part.extract_text_lines()] for part in parts]
        assert sum(t.count(line["text"]) for t in texts) == 1
        assert sum(len(part.chars) for part in parts) == len(page.chars)
        cropped = [page.crop((x0, top, x1, middle)), page.crop((x0, middle, x1, bottom))]
        assert sum(len(part.chars) for part in cropped) > len(page.chars)  # what it mends


def test_a_single_column_page_has_no_gutter(tmp_path):
    import pdfplumber

    for make in (pdfs.report, pdfs.with_code, pdfs.inline_code):
        path = tmp_path / f"{make.__name__}.pdf"
        make(path)
        with pdfplumber.open(path) as pdf:
            assert all(gutter(page) is None for page in pdf.pages), make.__name__


def test_running_headers_go_a_chapter_title_stays_and_no_text_is_lost(tmp_path):
    import pdfplumber

    path = tmp_path / "book.pdf"
    body = pdfs.book(path)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == body  # "Chapter 1" is no page number
    removed = [line["text"] for line in pdf.source()["removed"]]
    assert len(removed) == 5 and all(text.endswith(str(n)) for text, n in zip(removed, range(2, 7)))
    # every line on every page is in the text or in the removed list
    with pdfplumber.open(path) as doc:
        every = [raw["text"] for page in doc.pages for raw in page.extract_text_lines()]
    assert sorted(every) == sorted(body + removed)


def test_text_repeated_amid_each_page_s_text_is_no_running_head(tmp_path):
    """A form filled once a page keeps its notice at one height on every page: read as a
    running head (the same text at the same height on half the pages or more), the notice was
    lost from every page. Text that stands between the page's own text above and below it
    is the text's; the running head and foot still go."""
    path = tmp_path / "filled.pdf"
    order = pdfs.filled_twice(path)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == order
    assert [line["text"] for line in pdf.source()["removed"]] == [
        "Harbour Valley Water Board - Annual Report", "Page 1 of 2",
        "Harbour Valley Water Board - Annual Report", "Page 2 of 2"]


@pytest.mark.parametrize("turn", [90, -90])
def test_a_page_set_sideways_is_read_turned_upright(tmp_path, turn):
    """A landscape table on a portrait page (LaTeX's sidewaystable: aastex's sample, OUP's
    template) draws its glyphs turned a quarter: read as they lie, each word was a line of its
    own spelled backwards ("snoitavresbo"). Most of the page's glyphs turned one way, the page is
    read turned with them: its caption, its paragraph and its table's rows in order, after
    the running head that stands upright on it."""
    path = tmp_path / "sideways.pdf"
    upright, turned = pdfs.sideways(path, turn)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.lines] == upright + turned
    rows = [line for line in pdf.body if line.text in turned[-len(pdfs.TABLE):]]
    assert len(rows) == len(pdfs.TABLE) and all(line.table for line in rows)


def test_a_few_turned_glyphs_leave_the_page_as_it_stands(tmp_path):
    """One turned label beside upright prose (a chart's axis) turns nothing: the prose reads as
    it stands and the label stays on the page."""
    path = tmp_path / "label.pdf"
    upright, turned = pdfs.turned_label(path)
    with pdfplumber.open(path) as opened:
        assert turned_way(opened.pages[0]) == 0
    texts = [line.text for line in read_pdf(path).lines]
    assert [text for text in texts if text in upright] == upright
    assert sorted("".join(texts).replace(" ", "")) == sorted("".join(upright + turned).replace(" ", ""))


def test_a_logo_s_lowered_letter_stays_in_its_line(tmp_path):
    """TeX's logo lowers its "E" half an ex: in a title set big, that is more than pdfplumber's
    row tolerance, and "Using T X at home" and "E" were two lines (60 wild PDFs' titles). A
    letter of the line's size a little off its baseline, inside its width, is the line's; one
    set a line lower, past its end, stays a line of its own."""
    path = tmp_path / "logo.pdf"
    pdfs.logo_title(path)
    assert [line.text for line in read_pdf(path).lines] == [
        "Using TEX at home", "B", "The board's crews read every meter twice a year."]


def test_page_numbers_in_roman_numerals_are_furniture_a_letter_alone_is_not(tmp_path):
    """A front matter numbers its pages "i", "ii", "iii": each was a line of the body (R's
    manuals, theses), a paragraph of its own between two pages' lines. Roman numerals alone at
    a page's top or bottom are its number where another page's count with the pages at that
    height; an index's letter "C" alone at a page's top counts with nothing and stays."""
    path = tmp_path / "front.pdf"
    body = pdfs.front_matter(path)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == body
    assert [line["text"] for line in pdf.source()["removed"]] == ["i", "ii", "iii", "iv", "5"]


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


def test_pdfminer_baseline_reads_its_own_text_boxes_as_paragraphs(tmp_path):
    from scorer.baseline import pdfminer_boxes
    from scorer.evaluate.corpus import geometry

    path = tmp_path / "report.pdf"
    pdfs.report(path)
    pdf = read_pdf(path)
    got = dict(zip(((a.text, b.text) for a, b in zip(pdf.body, pdf.body[1:])),
                   pdfminer_boxes(path, 1, pdf.pages, geometry(pdf))))
    assert got[(pdfs.EN_PARA[0], pdfs.EN_PARA[1])] == "join"  # inside a paragraph
    assert got[(pdfs.EN_PARA[-1], pdfs.ZH_PARA[0])] == "keep"  # between two


@pytest.mark.parametrize("peer", ["PyMuPDF: text blocks", "pymupdf4llm: Markdown paragraphs"])
def test_peers_in_the_eval_read_their_own_paragraphs(tmp_path, peer):
    """The PDF tools a user would pick instead (evaluation-only): a paragraph's lines joined,
    two paragraphs kept apart, by each tool's own blocks or Markdown."""
    from scorer.evaluate import peers
    from scorer.evaluate.corpus import geometry

    path = tmp_path / "report.pdf"
    pdfs.report(path)
    pdf = read_pdf(path)
    decisions, per_page = peers.run(path, 1, pdf.pages, geometry(pdf),
                                    [line.text for line in pdf.body])[peer]
    got = dict(zip(((a.text, b.text) for a, b in zip(pdf.body, pdf.body[1:])), decisions))
    assert got[(pdfs.EN_PARA[0], pdfs.EN_PARA[1])] == "join"  # inside a paragraph
    assert got[(pdfs.EN_PARA[-1], pdfs.ZH_PARA[0])] == "keep"  # between two
    assert per_page > 0


def test_a_drawn_soft_hyphen_reads_as_a_hyphen(tmp_path):
    """Typst maps its hyphen glyph to U+00AD when the first hyphen it sets ends a line; every
    hyphen after it then extracts so. On a page every character was drawn: a hyphen."""
    path = tmp_path / "typst.pdf"
    pdfs.typst_paragraph(path, "Use a sort of documentation internationalization "
                               "characteristics, then the C.UTF-8 locale for a non-intuitive order.")
    with pdfplumber.open(path) as raw:
        assert "\u00ad" in raw.pages[0].extract_text()  # what the reader gets from this PDF
    lines = [line.text for line in read_pdf(path).body]
    assert not any("\u00ad" in line for line in lines)
    assert lines[0].endswith("-") and "C.UTF-8" in " ".join(lines) and "non-intuitive" in " ".join(lines)


def test_a_ligature_of_a_standard_font_keeps_its_word_whole(tmp_path):
    """groff sets Times with its "fi"/"fl" glyphs; pdfminer's own metrics have no width for
    them, so the letters after one were set too far left and a space opened in the word."""
    path = tmp_path / "ligatures.pdf"
    pdfs.ligatures(path)
    assert read_pdf(path).text == "See fifo(7) for the flag."


def test_a_tex_symbol_font_s_glyphs_are_read_by_their_names(tmp_path):
    """TeX's symbol fonts embedded with no ToUnicode map and no /Encoding: pdfminer drops the
    Type 1 program's names outside Adobe's list (the angle brackets, "(cid:104)") and reads a
    compact program's codes by the standard encoding ("\\ell" as "‘", "fi" as "(cid:12)", a
    wide tilde as "e"), and keeps the standard encoding's letter where an /Encoding names a
    glyph outside Adobe's list (jmgerdoc's "\\chapter*{hueberschrifti}"). hepnames' particle
    lists read "lepton-(cid:13)avour"."""
    path = tmp_path / "symbols.pdf"
    first = pdfs.tex_symbols(path)
    lines = [line.text for line in read_pdf(path).body]
    assert lines[0].startswith(first)
    assert "He." not in lines[0]  # the tilde's name says no character: no letter is made up
    assert lines[1] == "• An item ⟨of⟩ the list."


def test_side_by_side_cells_are_read_whole_row_by_row(tmp_path):
    """A table row whose right cell wraps to two lines centred beside a one-line left cell,
    read by height alone, puts the command between the two lines of its meaning (dblatex's
    command tables: the Debian reference's lines out of order against its twin). So does a
    wrapped cell between two one-line cells, which are one line around it (an HTML table
    printed by a browser: MkDocs' option tables)."""
    path = tmp_path / "side.pdf"
    order = pdfs.side_by_side(path)
    texts = [line.text for line in read_pdf(path).body]
    assert texts[:-1] == order
    # the superscript mark stays with its line (pdfplumber reads it into the line)
    assert texts[-1].replace(" ", "") in ("2Aclaimthatneedsasourceandgoesonafteritsmark.",
                                                   "Aclaimthatneedsasource2andgoesonafteritsmark.")


def _read_as_drawn(make, path, **options):
    """Draw a PDF with `make` (a tests/pdfs.py function), read it, check that its body is the
    lines as drawn; returns those lines and the breaks' layout features."""
    lines = make(path, **options)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == lines
    return lines, pdf.break_layout()


def test_a_wrap_inside_an_indented_block_reads_as_no_indent(tmp_path):
    """The next line's indent counts from the edge of the block the line before starts at: the
    quotation's wraps read 0 (they read 2 em from the column's edge), a paragraph's first-line
    indent 1.5 em, the quotation's first line 2 em."""
    lines, layout = _read_as_drawn(pdfs.indented_block, tmp_path / "block.pdf")
    indent = hybrid.block_indent(layout)
    starts = {3: 1.5, 7: 2.0}  # after each paragraph's "and so on.": the next one starts
    for k, value in enumerate(indent):
        assert value == pytest.approx(starts.get(k, 0.0), abs=0.1), (k, lines[k + 1])
    column = [f["indent_next"] for f in layout]
    assert column[8:] == pytest.approx([2.0] * 4, abs=0.1)  # from the column, a wrap reads 2 em


def test_a_block_going_on_over_a_page_reads_as_no_indent(tmp_path):
    """A page all in an indented block (a licence's clause, an item's text) finds its column's
    edge at the block; the next page's, back at the margin, made the block's next line read as
    a first-line indent after a full line. A line set where the line before it starts goes on
    its block, whatever page it is on; the paragraphs after it keep their indents."""
    lines, layout = _read_as_drawn(pdfs.indented_block, tmp_path / "across.pdf", across=True)
    assert layout[3]["page_break"] and layout[3]["fill"] > 0.9
    indent = hybrid.block_indent(layout)
    starts = {10: 1.5}  # the second paragraph's first line (the first's is less far in than
    # the quotation's last line: no indent from it, as on one page)
    for k, value in enumerate(indent):
        assert value == pytest.approx(starts.get(k, 0.0), abs=0.1), (k, lines[k + 1])


def test_a_line_that_hangs_from_a_marker_or_tag_reads_as_no_indent(tmp_path):
    """A list item's text and a man page's description hang from their dash (a French list's
    "— ") or tag: the next line lines up with the text after it, and goes on (no indent); a
    first-line indent of the same 1.5 em after a paragraph ending on a full line is one, and
    counts in indent_full."""
    lines, layout = _read_as_drawn(pdfs.hanging, tmp_path / "hanging.pdf")
    indent = hybrid.block_indent(layout)
    full = hybrid.indent_full(indent, [f["fill"] for f in layout])
    item, tag = lines.index(next(ln for ln in lines if ln.startswith("\u2014 "))), len(lines) - 3
    assert lines[tag].startswith("shm_open(3)")
    assert [k for k, f in enumerate(layout) if f["hanging"]] == [item, tag]
    assert layout[item]["indent_next"] == pytest.approx(1.5, abs=0.1)  # from the column's edge
    assert layout[tag]["indent_next"] == pytest.approx(9.0, abs=0.1)
    assert indent[2] == pytest.approx(1.5, abs=0.1) and full[2] == pytest.approx(1.5, abs=0.1)
    assert [k for k, v in enumerate(indent) if v] == [2]  # the one first-line indent
    assert not any(full[k] for k in range(len(full)) if k != 2)


def test_a_tag_of_several_words_set_apart_hangs_its_description(tmp_path):
    """R's manuals (Texinfo): "-d name (UNIX only) Run R through..." with the description's
    next lines under "(UNIX": its hanging indent is no new paragraph (a wrap was kept there,
    even after a hyphen)."""
    lines, layout = _read_as_drawn(pdfs.hanging, tmp_path / "hanging.pdf", two_words=True)
    tag = next(k for k, ln in enumerate(lines) if ln.startswith("-d name "))
    assert layout[tag]["hanging"] and layout[tag]["indent_next"] == pytest.approx(6.0, abs=0.1)
    assert hybrid.block_indent(layout)[tag] == 0.0


def test_a_description_hangs_a_little_further_in_or_far_across_from_its_term(tmp_path):
    """Octave's reference card sets a description's next line a few points further in than its
    first ("INTERRUPT (e.g. C-c) terminate current command" / "and return to top-level
    prompt" was kept, indent 11 em); a thesis class's tabular sets a macro's description 20 em
    across, beyond any tag ("\\msuabbrevfont Format of the abbreviation itself (de-" / "fault
    is \\bfseries)." was kept). Both hang: no indent, the item goes on."""
    lines, layout = _read_as_drawn(pdfs.hanging, tmp_path / "hanging.pdf", further=True)
    card = next(k for k, ln in enumerate(lines) if ln.startswith("INTERRUPT "))
    tabular = next(k for k, ln in enumerate(lines) if ln.startswith("\\msuabbrevfont "))
    assert layout[card]["indent_next"] == pytest.approx(9.7, abs=0.1)
    assert layout[tabular]["indent_next"] == pytest.approx(20.0, abs=0.1)
    assert layout[card]["hanging"] and layout[tabular]["hanging"]
    assert hybrid.block_indent(layout)[card] == hybrid.block_indent(layout)[tabular] == 0.0
    assert not layout[card - 1]["hanging"]  # the card's first line is not its term's wrap


@pytest.mark.parametrize("full, heading, leaders, flush, long_last",
                         [(3, False, False, False, False), (1, False, False, False, False),
                          (1, True, False, False, False), (1, False, True, False, False),
                          (1, False, False, True, False), (1, False, False, False, True)])
def test_a_hanging_paragraph_goes_on_after_its_full_first_line(tmp_path, full, heading, leaders,
                                                               flush, long_last):
    """A description list's items (and a LaTeX package manual's macros, described beside their
    names in the margin) set their first line full and the next lines 2 em in: those lines go on
    the item, no indent ("consecu-" / "tive" was kept, its indent read as a new paragraph's);
    the next item, back at the edge after a short line, is no hanging line. So with items of two
    lines, the second short and the next item back at the edge (AMC's options: "... (see for
    example auto-multiple-" / "choice-prepare(1))." was kept, read as a first-line indent); and
    the last such item, with no line below it on its page (l3pdfmanagement's "Title ... not
    pos-" / "sible, ..." ending a page was kept: the page's other items hang as far in) or a
    heading left of the list after it (parallel's
    "... the corresponding page is left" / "blank ..."). A last line run by dot leaders to its
    page number ends its entry as a short one would (jura's change history: "... ein-" /
    "gefügt . . . 12" was kept), and so does one whose text ends short before a default set
    flush right (xgalley's "... on the left-hand side" / "of the paragraph. Default: true").
    So does a last line nearly full in justified text, an em or more short of the edge the line
    before runs to (AMC's "ShuffleQuestions: If 1 ..., so that their order is different from
    one" / "sheet to the other. ... in your file." / "RandomSeed: ..." was kept)."""
    lines, layout = _read_as_drawn(pdfs.hanging_paragraphs, tmp_path / "hanging.pdf", full=full,
                                   heading=heading, leaders=leaders, flush=flush,
                                   long_last=long_last)
    indent = hybrid.block_indent(layout)
    item = full + 1  # an item's lines: the full ones and a short last one
    firsts = [9 + item * j for j in range(3)]  # each item's full first line, after the
    # paragraph's nine
    assert all(layout[k]["indent_next"] == pytest.approx(2.0 + 1.5 * heading, abs=0.1)
               for k in firsts)
    assert [k for k, f in enumerate(layout) if f["hanging"]] == firsts
    assert not any(indent[k] for k in firsts)
    assert [k for k in range(9, 9 + 3 * item - 1) if layout[k]["indent_next"] < 1 + 1.5 * heading] \
        == [9 + item * j - 1 for j in (1, 2)]


@pytest.mark.parametrize("capitals", [True, False])
@pytest.mark.parametrize("after", ["paragraph", "item"])
def test_an_item_s_last_line_hangs_when_the_next_paragraph_starts_at_its_indent(tmp_path, after,
                                                                                capitals):
    """A description list's item of two full lines, then a paragraph whose first line is set
    1.5 em in, less far than the item's 2 em (ntgclass: "<baselineskip> The normal value ...
    se-" / "lected. (The actual value will be ...)" was kept, its next line full, then "A
    number of commands ..."): the item's last line hangs, though it is not short; the
    paragraph's indent is no hanging line, nor is a numbered item set there (a list may follow
    a paragraph ending full). An item followed by the next item back at the edge, its last
    line full, says nothing where that line opens on a capital (it may be a first-line
    indent); opening lower-case, it goes on the item where another item of its page hangs as
    far in (AMC's options: "... This way, all that is" / "written in red will be ignored ..."
    was kept), and with no such item says nothing either."""
    lines, layout = _read_as_drawn(pdfs.hanging_paragraphs, tmp_path / "hanging.pdf", full=1,
                                   items=2, indented=after, capitals=capitals)
    first_item, last_item = 9, 9 + 2  # after the paragraph's nine lines: each item's first
    assert layout[first_item]["indent_next"] == pytest.approx(2.0, abs=0.1)
    assert layout[last_item]["indent_next"] == pytest.approx(2.0, abs=0.1)
    assert layout[last_item + 1]["indent_next"] == pytest.approx(1.5, abs=0.1)
    hanging = [k for k, f in enumerate(layout) if f["hanging"]]
    if after == "item":
        assert hanging == []
    else:
        assert hanging == ([last_item] if capitals else [first_item, last_item])


def test_an_item_s_nearly_full_last_line_hangs_only_in_justified_text(tmp_path):
    """In ragged text every line ends short of the edge, and a line set in after one that
    reached it, nine tenths full, then a line back at the edge, may be a first-line indent
    after a long heading (a thesis's "... to Test Spacing Behavior for Subsubsections" /
    "Quisque ullamcorper ..."): no hang there; justified, the same lines hang
    (test_a_hanging_paragraph_goes_on_after_its_full_first_line)."""
    for ragged in (False, True):
        lines, layout = _read_as_drawn(pdfs.hanging_paragraphs, tmp_path / "hanging.pdf",
                                       full=1, long_last=True, ragged=ragged)
        firsts = [9, 11, 13]  # before each item's last line
        assert all(layout[k]["indent_next"] == pytest.approx(2.0, abs=0.1) for k in firsts)
        assert [k for k in firsts if layout[k]["hanging"]] == ([] if ragged else firsts)


def test_a_short_line_set_in_at_a_page_s_end_hangs_only_as_far_in_as_its_items(tmp_path):
    """A short line set in from a full one, ending its page, with no other item on the page to
    say how far items hang, is no item's last line (a title page's centred date under a wider
    line was joined to it)."""
    lines, layout = _read_as_drawn(pdfs.hanging_paragraphs, tmp_path / "hanging.pdf", full=1,
                                   items=1)
    assert layout[-1]["indent_next"] == pytest.approx(2.0, abs=0.1)
    assert not any(f["hanging"] for f in layout)


def test_a_line_set_flush_right_is_measured_from_its_own_start(tmp_path):
    """A signature set flush right ends where a full line ends: it reads short (its own width),
    not full, so the break after it (before the date) is not taken for a wrap."""
    lines, layout = _read_as_drawn(pdfs.signed, tmp_path / "signed.pdf")
    fills = [f["fill"] for f in layout]
    assert min(fills[:3]) > 0.97  # the paragraph's wraps, from the column's edge
    assert fills[4] < SHORT and layout[4]["start_before"] > 0.5  # the signature


@pytest.mark.parametrize("urls", [1, 4])
def test_a_line_into_the_margin_leaves_the_page_s_fills_alone(tmp_path, urls):
    """A URL running far past a justified column's right edge made every line of its page
    look short (fill measured to the URL's end: 0.78 on a German Debian page, four wraps kept):
    the edge is the one the justified lines share. So with several such lines (4 of 17, as a
    DocBook reference's pages of XML run off the page), as long as twice as many share it."""
    lines, layout = _read_as_drawn(pdfs.overflowing, tmp_path / "overflow.pdf", urls=urls)
    fills = [f["fill"] for f in layout]
    out = range(8, 9 + urls)  # after "and so on." and after each URL
    wraps = [f for k, f in enumerate(fills) if k not in out]
    assert min(wraps) > 0.97 and fills[8] < 0.3  # "and so on." is short
    assert all(fills[k] > 1.2 for k in out[1:])  # a URL measures over full


def test_a_code_line_off_the_page_leaves_the_prose_s_fills_alone(tmp_path):
    """A ragged-right page's edge is the furthest its lines reach, but not a code line's: one
    running off the page (multitoc's manual) made every prose line of it read 0.6 full."""
    lines, layout = _read_as_drawn(pdfs.ragged_with_code, tmp_path / "ragged.pdf")
    code = lines.index(next(ln for ln in lines if ln.startswith("\\immediate")))
    prose = [k for k, line in enumerate(lines[:-1]) if k != code and line != "and so on."]
    assert min(layout[k]["fill"] for k in prose) > 0.85
    assert layout[code - 1]["fill"] < 0.3  # "and so on." is short
    assert layout[code]["code"] and layout[code]["fill"] > 1.2  # the code measures over full


def test_a_line_running_off_the_page_is_full(tmp_path):
    """Lines that all run off the page's right edge, none alike (a DocBook reference's contents,
    set without wrapping: 175 wraps of one PDF kept), reach as far as a reader sees: the page's
    edge. Measured to the furthest glyph off the page, each looked a tenth full."""
    lines, layout = _read_as_drawn(pdfs.off_the_page, tmp_path / "off.pdf")
    fills = [f["fill"] for f in layout]
    ends = [k for k, line in enumerate(lines[:-1]) if line == "and so on."]
    assert len(ends) == 2 and all(fills[k] < SHORT for k in ends)
    assert min(f for k, f in enumerate(fills) if k not in ends) > 0.97


def test_the_room_says_whether_the_next_word_would_have_fit(tmp_path):
    """Ragged right, no indent, no space between paragraphs, each last line well filled: the
    fill cannot tell a paragraph's end from a wrap, but the room can. A wrap's next word did
    not fit on its line (room below 0); after a paragraph's last line it would have (room
    above 0), wherever it fits in the column's measure (its longest line)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    drawn, ends = pdfs.ragged(tmp_path / "ragged.pdf")
    layout = _read_as_drawn(lambda path: pdfs.ragged(path)[0], tmp_path / "ragged.pdf")[1]
    room = [f["room"] for f in layout]
    width = max(stringWidth(line, "Helvetica", 10) for line in drawn)
    fits = [k for k in ends[:-1]
            if stringWidth(f"{drawn[k]} {drawn[k + 1].split()[0]}", "Helvetica", 10) < width]
    assert len(fits) >= 5 and min(layout[k]["fill"] for k in fits) < 0.9 < max(
        layout[k]["fill"] for k in fits)  # some ends as full as a wrap
    assert all(room[k] > 0 for k in fits)
    assert all(r < 0 for k, r in enumerate(room) if k not in ends)


def test_glyphs_on_a_baseline_stay_in_its_line_whatever_their_box(tmp_path):
    """Brackets from a font whose descriptor hangs their boxes 7 pt below the words' (TeX's math
    symbols around every argument of a package's manual: "⟨ ⟩ ⟨ ⟩" was read as a line of its own
    under each line that held them) stay in their line, where they stand; a raised footnote
    mark stays with its line too, and so does a subscript (a thesis's "a†_{q_i}": "q" and "i"
    were read as two lines between the body's, each break around them kept), and so does a
    word in a smaller font on its very baseline (metrix's manual's "me˘trix", 0.87 of the text's
    size: "... to customize" / "me˘trix" / "easily." were three lines)."""
    pdfs.hanging_glyphs(tmp_path / "hanging.pdf")
    lines = [ln.text for ln in read_pdf(tmp_path / "hanging.pdf").body]
    assert lines == ["The command takes {<name>}{<value>} and sets the name to the value xi given,",
                     "for the rest of the group; an empty <value> clears it.1 Nothing else changes."]


def _glyphs(text, x, top, size, baseline=700.0, advance=5.0) -> list:
    """pdfplumber's dicts for `text`, one glyph each `advance` points from `x`, on `baseline`
    (the PDF's y, up the page) with their boxes' top at `top` (down the page)."""
    return [{"text": ch, "x0": x + k * advance, "x1": x + (k + 1) * advance, "top": top,
             "bottom": top + size, "y0": baseline, "y1": baseline + size, "doctop": top,
             "size": size, "upright": True, "matrix": (size, 0, 0, size, x + k * advance, baseline)}
            for k, ch in enumerate(text)]


def test_a_stroke_drawn_in_glyphs_beside_lines_leaves_each_line_whole(tmp_path):
    """A big brace's extension beside an algorithm's block (pseudocode's manual: TeX's CMEX
    sets "\uf8f4" every 3 pt down the block) chained the lines beside it into one row of
    pdfplumber's, and their words were read interleaved, a glyph or two a line. Each piece of
    the stroke goes onto the line nearest it, and each line is read whole."""
    path = tmp_path / "stroke.pdf"
    drawn = pdfs.stroked_block(path)
    words = [line.text.lstrip("| ") for line in read_pdf(path).body]
    assert words == drawn


def test_a_sentence_running_through_a_displayed_formula_is_joined_around_it(tmp_path):
    """pdflatex's displayed formulas, each line set mostly in TeX's math fonts (cmmi, cmsy,
    cmex): the break into one where the sentence before it runs on ("is given by") and the
    break out of it where the sentence goes on lowercase ("where ...") are joined whatever the
    evidence (a formula's short, centred lines read as kept), and so are the breaks between
    its own lines; after a sentence's full stop, and before a sentence opening on a capital,
    the decider weighs the break. A prose line with a little math in it is no formula."""
    path = tmp_path / "formula.pdf"
    pdfs.displayed_formula(path)
    pdf = read_pdf(path)
    body = pdf.body
    text, layout = pdf.text, pdf.break_layout()
    offsets = [i for i, ch in enumerate(text) if ch == "\n"]
    forced = decide.forced_keeps(text, offsets, layout)
    joined = [forced.get(i) == ("join", decide.FORMULA_JOIN) for i in offsets]
    formula = [line.formula for line in body]
    first = formula.index(True)
    last = first + formula[first:].index(False) - 1
    assert body[first - 1].text.endswith("is given by") and body[last + 1].text.startswith("where")
    assert all(joined[first - 1:last + 1])  # into it, through its lines, out of it
    assert not any(formula[last + 1:last + 3])  # "where αi is the weight of the i-th sample"
    second = formula.index(True, last + 1)  # the numbered one
    assert body[second - 1].text.endswith("as follows.") and not joined[second - 1]
    assert not any(joined[second + 1:])  # "The difference stays small ..." opens on a capital


def test_a_name_displayed_alone_inside_a_sentence_is_joined_around_it(tmp_path):
    """An option's name displayed on a line of its own, set in, inside a sentence ("... with
    the option" / "double-check" / "which reads ..."): short and set in, it read as kept on
    both sides. Both breaks are joined where the sentence runs into it (no full stop before)
    and goes on after it lowercase; not where a sentence ends before it or a new one opens
    after it, nor around the lines of a quoted block (two lines set in)."""
    path = tmp_path / "displayed.pdf"
    pdfs.displayed_names(path)
    pdf = read_pdf(path)
    assert [line.text for line in pdf.body] == [text for _, text in pdfs.DISPLAYED]
    text, layout = pdf.text, pdf.break_layout()
    offsets = [i for i, ch in enumerate(text) if ch == "\n"]
    forced = decide.forced_keeps(text, offsets, layout)
    joined = [k for k, i in enumerate(offsets) if forced.get(i) == ("join", decide.DISPLAY_JOIN)]
    assert joined == [1, 2]  # into "double-check" and out of it; "single-check" is followed
    # by a capital, "strict-order" follows a full stop, the quoted block is two lines


def test_math_glyphs_at_a_column_s_edge_make_no_displayed_formula_unless_numbered():
    """A line set in math fonts is a displayed formula's where it stands 2 ems or more in from
    its column's edge, or opens on its number there; at the edge it is a program's line (a
    docstrip guard, "1507 <*report>") or a list's item, and no break is joined around it."""
    from scorer.pdf.layout import Line, displayed

    def line(text, x0, formula=True):
        return Line(text=text, page=1, x0=x0, x1=x0 + 80, top=100, bottom=110, size=10,
                    column_x0=72, column_x1=500, formula=formula)

    assert displayed(line("W = αi xi + β", 72 + 25))
    assert displayed(line("(3) W = αi xi + β", 72))
    assert not displayed(line("1507 ⟨∗report⟩", 72))
    assert not displayed(line("• C, C++", 72 + 5))
    assert not displayed(line("W = αi xi + β", 72 + 25, formula=False))


def test_a_smaller_word_on_a_line_s_baseline_joins_it_whole_but_no_margin_note_does():
    """On one baseline, a line in 10 pt and, in 9 pt with their boxes' tops 4 pt lower (pdfplumber
    rows them apart): a word right after the line's end joins the line (its box now the
    line's), and so does one that opens it, a space before its first glyph (metrix's
    "me˘trix relies only on ..." was two lines); a note in the margin before the line's
    start, its last glyphs 8 pt (less than an em) from it, stays where it is: a word moves
    whole or not at all."""
    line = _glyphs("theline" * 3, 100.0, 100.0, 10.0)
    after = _glyphs("word", 100.0 + 5 * len(line) + 2, 104.0, 9.0)
    note = _glyphs("\\macro", 57.0, 104.0, 9.0)  # ends 8 pt before the line's first glyph
    moved = on_their_baselines(line + after + note)
    assert [ch["top"] for ch in moved[len(line):len(line) + len(after)]] == [100.0] * len(after)
    assert [ch["top"] for ch in moved[len(line) + len(after):]] == [104.0] * len(note)
    opening = _glyphs("metrix", 67.5, 104.0, 9.0)  # ends 2.5 pt (a space) before it
    moved = on_their_baselines(opening + line)
    assert [ch["top"] for ch in moved[:len(opening)]] == [100.0] * len(opening)


def test_an_inline_fraction_is_no_script_its_words_stay_whole(tmp_path):
    """An inline fraction's numerator over its denominator, each smaller and off the line's
    baseline as scripts are, is not moved onto the line: read along it, their letters
    interleaved ("⌊choeuingthetr⌋" for counter over height). A subscript after it still is."""
    pdfs.inline_fraction(tmp_path / "fraction.pdf")
    lines = [ln.text for ln in read_pdf(tmp_path / "fraction.pdf").body]
    assert any("counter" in line for line in lines) and any("height" in line for line in lines)
    assert any(line.endswith("and of xi given here.") for line in lines)


def test_a_subtitle_set_close_under_a_title_is_no_script_of_it(tmp_path):
    """A smaller line set close under a bigger one (a subtitle 14 pt under a 24 pt title) is a
    line of its own: a subscript's baseline is less than its size below its line's."""
    _read_as_drawn(pdfs.title_and_subtitle, tmp_path / "title.pdf")


def test_cjk_prose_in_a_font_of_its_own_is_prose_not_code(tmp_path):
    """Every CJK glyph advances one em in any font: a document that sets its Chinese in a CJK
    font of its own (LibreOffice, Word) had all its prose taken for code and kept line by line."""
    pdfs.cjk_in_its_own_font(tmp_path / "cjk.pdf")
    lines = read_pdf(tmp_path / "cjk.pdf").body
    assert len(lines) == 3 and not any(line.code for line in lines)


def test_a_list_marker_drawn_as_a_shape_starts_an_item(tmp_path):
    """A browser prints a list's bullets as paths, not glyphs: each line after one is a list
    item, kept apart from the line before it."""
    pdfs.drawn_bullets(tmp_path / "list.pdf")
    pdf = read_pdf(tmp_path / "list.pdf")
    assert [line.marker for line in pdf.body] == [False] * 3 + [True] * 3 + [False] * 2
    offsets = [k for k, ch in enumerate(pdf.text) if ch == "\n"]
    forced = decide.forced_keeps(pdf.text, offsets, pdf.break_layout())
    assert [k for k, i in enumerate(offsets) if i in forced] == [2, 3, 4]
    assert [info["marker"] for info in pdf.line_info()] == [line.marker for line in pdf.body]


@pytest.mark.model
def test_drawn_list_items_are_markdown_items(tmp_path, smollm):
    from scorer.outputs import render

    pdfs.drawn_bullets(tmp_path / "list.pdf")
    markdown = render(score_pdf(smollm, tmp_path / "list.pdf"), fmt="markdown")
    assert "\n- new pumps in the northern district\n- a second inlet" in markdown, markdown


def test_a_table_reaching_into_a_gutter_keeps_its_page_read_across():
    """pdfplumber found only the middle column of a German reference's table of regular
    expressions (its box ends inside the empty band beside it), and that band was taken for a
    gutter: the table's cells were read down, its descriptions after them. A table that reaches
    into the band says no gutter; one inside a column (a journal's) says nothing."""
    from types import SimpleNamespace

    from scorer.pdf.regions import Ruled, _table_in_cut

    page = SimpleNamespace(bbox=(0.0, 0.0, 595.0, 842.0))
    band = [(261.7, 369.7)]
    middle = Ruled((213.0, 238.5, 364.0, 573.7), {}, set(), False)
    in_column = Ruled((57.0, 100.0, 250.0, 300.0), {}, set(), False)
    assert _table_in_cut(page, band, [middle])
    assert not _table_in_cut(page, band, [in_column])


def test_text_drawn_on_a_figure_is_no_body_line_and_lines_beside_it_end_at_it(tmp_path):
    """A paragraph wrapped around a figure whose labels stand on the baselines of the text
    beside it (AMC's grids of answer boxes beside its prose): pdfplumber read each label row
    into the body line beside it ("... repairs leaks 0 1 2 3"). The labels are lines of their
    own, placed before the paragraph and kept; the body's lines beside the figure fill their
    measure, which ends at the figure, not at the column's edge."""
    prose, labels = pdfs.beside_a_figure(tmp_path / "figure.pdf")
    pdf = read_pdf(tmp_path / "figure.pdf")
    assert [ln.text for ln in pdf.body if not ln.figure] == prose
    assert [ln.text for ln in pdf.body if ln.figure] == labels
    assert [ln.figure for ln in pdf.body] == [True] * len(labels) + [False] * len(prose)
    layout = pdf.break_layout()
    beside = range(len(labels), len(labels) + len(labels) - 1)  # breaks between lines beside it
    assert min(layout[k]["fill"] for k in beside) > 0.97
    offsets = [k for k, ch in enumerate(pdf.text) if ch == "\n"]
    forced = decide.forced_keeps(pdf.text, offsets, layout)
    figure = [offsets.index(i) for i, (_, why) in forced.items() if why == decide.FIGURE_KEEP]
    assert sorted(figure) == list(range(len(labels)))
    assert [info["figure"] for info in pdf.line_info()] == [ln.figure for ln in pdf.body]


def test_a_plot_s_points_drawn_as_dingbats_are_a_figure_of_their_column(tmp_path):
    """R's pdf() device draws a scatter plot's points as ZapfDingbats' circles: glyphs, not
    shapes. apa7's sample paper sets such a plot at the top of its right column: no figure was
    found, the points were read as rows of "l" among the body's lines and the page across,
    line by line. The points are a figure's shapes now, and no text: the page reads in its
    two columns, the plot's numbers before the right column's lines under it. The left
    column, a gutter away from the plot's ticks, does not wrap around it: its lines' ends stay
    its own and the plot's text is not read into it."""
    path = tmp_path / "plot.pdf"
    prose, labels = pdfs.plotted_columns(path)
    body = read_pdf(path).body
    assert [ln.text for ln in body] == prose[:30] + labels + prose[30:]
    assert [ln.figure for ln in body] == [False] * 30 + [True] + [False] * (len(prose) - 30)
    assert not any(ln.edge_x0 or ln.edge_x1 for ln in body)


def test_a_line_of_one_glyph_beyond_the_column_does_not_set_its_edge(tmp_path):
    """A CV sets an icon before each section of its sidebar, beyond the sidebar's text
    (FontAwesome's glyphs, read "(cid:339)"): the column ends where its lines of words do, not
    at an icon, and its wraps read full (limecv's sample: 0.65, and the model kept them)."""
    path = tmp_path / "icons.pdf"
    drawn, ends = pdfs.ragged(path, icons=True)
    pdf = read_pdf(path)
    assert [ln.text for ln in pdf.body] == drawn
    wraps = [features["fill"] for k, features in enumerate(pdf.break_layout())
             if k not in ends and "+" not in drawn[k:k + 2]]
    assert len(wraps) > 20 and min(wraps) > 0.85


@pytest.mark.parametrize("words, side, off", [(False, 56, 0), (True, 56, 0), (False, 100, 0),
                                             (True, 100, 0), (False, 100, 4), (True, 100, 4)])
def test_a_diagram_of_lines_and_marks_is_a_figure(tmp_path, words, side, off):
    """A Karnaugh map is a square divided by lines (pdfplumber finds a grid in it) with a
    digit in each cell and the variables' letters on bars beside it: drawn of lines alone, it
    is a figure because its labels are marks, and they are kept apart from the prose they
    stood between (karnaughmap's manual: "a a" / "b 0 1" read as paragraphs). The same lines
    holding words are no figure: every line stays in the body. A map of big cells is one too:
    its dividing lines, longer than a rule, were dropped as rules (kvdoc's and kvmap's maps
    were read as table rows, their letters among the cells' digits, "c 2 3 7 6"). A letter
    alone on its row a little further off its bar than a label's reach is the map's too
    (kvdoc's variables, 5.5 pt off: each was a paragraph of its own, "c" / "a")."""
    path = tmp_path / "map.pdf"
    prose, marks = pdfs.karnaugh_map(path, words=words, side=side, off=off)
    body = read_pdf(path).body
    if words:
        assert not any(ln.figure for ln in body)
        assert [ln.text for ln in body if ln.text in prose] == prose
    else:
        assert [ln.text for ln in body if not ln.figure] == prose
        assert [ln.text for ln in body if ln.figure] == marks
        assert [ln.text for ln in body][:3] == prose[:3]  # the map stands after the first


def test_a_diagram_on_a_page_of_its_own_is_a_figure(tmp_path):
    """A diagram printed on a page cropped to it (nwafuthesis' workflow, drawn in TikZ: boxes
    with names, arrows with words beside them) spans the whole page, and a drawing that wide
    and tall was taken for the page's frame or a ruler beside it: its names were read as 78
    paragraphs. Most of the page's text drawn on it, it is a figure; a frame round a page of
    prose stays none (test_shapes_that_make_no_figure_leave_every_line_in_the_body)."""
    drawn = pdfs.diagram_page(tmp_path / "diagram.pdf")
    body = read_pdf(tmp_path / "diagram.pdf").body
    assert body and all(ln.figure for ln in body)
    assert sorted(" ".join(ln.text for ln in body).split()) == sorted(drawn)


@pytest.mark.parametrize("make", ["decorated", "framed", "nested_boxes", "structured",
                                  "sidebar_in_a_table", "wrapped_cells", "drawn_bullets",
                                  "boxed_letters", "dingbat_marks"])
def test_shapes_that_make_no_figure_leave_every_line_in_the_body(tmp_path, make):
    """Drawn list bullets (two levels), a link's dotted underline, highlights, shaded panels,
    frames, boxes in boxes, ruled tables, letters framed one by one, and a dingbat font's
    check marks (glyphs, as a plot's points are) ticking a short list or filling a table's
    rows are no figures: no line is taken for a figure's labels, and the text reads as
    drawn, every mark kept."""
    drawn = getattr(pdfs, make)(tmp_path / "shapes.pdf")
    pdf = read_pdf(tmp_path / "shapes.pdf")
    assert not any(ln.figure for ln in pdf.lines)
    if make in ("decorated", "boxed_letters"):
        assert [ln.text for ln in pdf.body] == drawn
    if make == "dingbat_marks":
        mark = pdf.body[0].text.split()[0]
        assert [ln.text for ln in pdf.body] == [line.replace("{}", mark) for line in drawn]


@pytest.mark.parametrize("right, drop", [(False, 2.5), (True, 2.5), (False, 0.0)])
def test_notes_in_a_margin_are_read_before_the_paragraph_they_stand_beside(tmp_path, right, drop):
    """A LaTeX package manual sets the names of the macros it describes in the margin, each
    beside the line that names it (ltxdoc's \\DescribeMacro; a \\marginpar, a book's glosses
    alike). Read by height, each stood between two lines of a sentence and the breaks on both
    sides were kept (lni's guide, microtype's manual). They are read before their paragraph,
    whose lines stay together, and stay in the text. Set on the line's own baseline (l3doc's
    and hyperref's manuals: 2,792 lines of 176 wild PDFs), pdfplumber read each into its line,
    "\\note0a new driver offers also ...", inside the paragraph's sentence."""
    path = tmp_path / "notes.pdf"
    paragraphs, notes = pdfs.margin_notes(path, right=right, drop=drop)
    body = [ln.text for ln in read_pdf(path).body]
    assert body == [t for names, lines in zip(notes, paragraphs) for t in names + lines]


@pytest.mark.parametrize("options", [{}, {"every": 2, "right": True}, {"mono": True},
                                     {"cut": True}, {"restart": True}])
def test_line_numbers_in_a_margin_are_furniture(tmp_path, options):
    """Lines numbered in the margin, each number a little above its line's baseline (lineno's
    manual, a legal text, a critical edition's every fifth line): each number was read as a
    line of its own between two of the body's, and every break around one was kept. They are
    left out of the text as page numbers are; a numbered list and a number in the text stay.
    Numbers in a monospaced font make no code block of the line between two of them (lineno's
    "longtable.sty.)", mostly monospaced, was kept as code with the lines around it). A number
    out of the count (lineno's "18" read as "1" where a heading took its "8") goes with the
    others: it broke the count, and the page's 28 numbers were kept as lines. So does a count
    that starts again on the page (lineno's code lines "83" to "93", then its prose from "1":
    kept as lines, 55 wraps kept around them)."""
    _read_as_drawn(pdfs.line_numbers, tmp_path / "numbered.pdf", **options)
    pdf = read_pdf(tmp_path / "numbered.pdf")
    removed = [ln.text for ln in pdf.lines if ln.repeated]
    every = options.get("every", 1)
    numbers = [str(n) for n in range(every, 13, every)]
    if options.get("restart"):
        numbers = numbers[:6] + numbers[:6]
    assert removed == (numbers[:10] + ["1"] + numbers[11:] if options.get("cut") else numbers)
    assert not any(ln.code for ln in pdf.body)


def test_a_tag_set_flush_right_beside_each_line_is_no_column(tmp_path):
    """Texinfo sets each definition's category flush right on its signature's line ("int dim1
    (void) const" ... "[Method on DiagArray<T>]"). Ten such lines looked like two columns: the
    signatures, then the tags (liboctave's manual: each signature a paragraph of its own, the
    tags a column after them). A column of text does not say one thing on most of its lines:
    each line is read whole."""
    _read_as_drawn(pdfs.flush_right_tags, tmp_path / "tags.pdf")
    assert not any(line.region for line in read_pdf(tmp_path / "tags.pdf").body)
