"""The decision policy (scorer/decide.py) on the shared cases of tests/fixtures/decisions.json,
the same file the page's policy (static/policy.js) is tested on."""

import json
from pathlib import Path

import pytest

from scorer import breaks as br
from scorer import decide
from scorer.errors import BadInput

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "decisions.json").read_text("utf-8"))
CASES = GOLDEN["cases"]


def test_defaults_are_the_ones_the_page_is_handed():
    assert decide.defaults() == GOLDEN["defaults"]


@pytest.mark.parametrize("name", sorted(GOLDEN["texts"]))
def test_the_cases_breaks_are_what_the_engine_finds(name):
    """Offsets, joiners and forced keeps of each text are the engine's own."""
    text, brks = GOLDEN["texts"][name]["text"], GOLDEN["texts"][name]["breaks"]
    offsets = br.candidates(text)
    assert offsets == [b["i"] for b in brks]
    assert br.joiners(text, offsets) == [b["joiner"] for b in brks]
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i, (None,))[0] for i in offsets] == [b["forced"] for b in brks]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_decisions_and_merged_text(case):
    doc = GOLDEN["texts"][case["text"]]
    text, brks = doc["text"], doc["breaks"]
    offsets = [b["i"] for b in brks]
    nan = float("nan")
    percentile = [nan if b["percentile"] is None else b["percentile"] for b in brks]
    p_join = [b["p_join"] for b in brks]
    forced = {b["i"]: (b["forced"], "forced by the layout") for b in brks if b["forced"]}
    pol = decide.policy(case["decider"], case["cutoff"], case["overrides"])
    got = decide.decisions(offsets, percentile, p_join, forced, pol)
    assert got == case["decisions"]
    unhyphen = [b.get("unhyphen", False) for b in brks]
    assert br.merge(text, offsets, [b["joiner"] for b in brks], got, unhyphen) == case["merged"]


@pytest.mark.parametrize("request_", GOLDEN["requests"], ids=lambda r: json.dumps(r["ask"]))
def test_what_a_request_asks_for(request_):
    """A cutoff alone asks for the percentile (the CLI and the API read requests alike)."""
    ask = request_["ask"]
    args = (ask.get("decide"), ask.get("cutoff"), ask.get("overrides"))
    if "error" in request_:
        with pytest.raises(BadInput, match=request_["error"]):
            decide.policy(*args)
    else:
        pol = decide.policy(*args)
        assert (pol.by, pol.cutoff) == (request_["decider"], request_["cutoff"])


def test_reasons_say_who_decided():
    pol = decide.Policy("percentile", 34.0, {7: "join"})
    forced = {9: ("keep", "a table row: kept as a row")}
    assert decide.reason(pol, "join", 7, -1.0, 80.0, 0.1, forced, []) == "set by hand: join"
    assert decide.reason(pol, "keep", 9, -1.0, 10.0, 0.9, forced, []) == "a table row: kept as a row"
    assert "percentile 10, < cutoff 34" in decide.reason(pol, "join", 3, -5.0, 10.0, 0.9, {}, [])
    said = decide.reason(decide.Policy(), "keep", 3, -5.0, 10.0, 0.2, {},
                         [["fill", 0.4, -1.5], ["gap", 0.0, 0.1], ["short", 1, -2.0]])
    assert said == "hybrid: P(join)=0.20 <= 0.5; most weight: short -2.0, fill -1.5"


@pytest.mark.parametrize("text, kept_after", [
    ("5.1 The live-build package\nlive-build is a set of scripts that build live system images and\n"
     "more of the same paragraph goes on here.", [True, False]),
    ("2.2.7 aptitude の regex 式\naptitudeの検索式では正規表現を使えますが、ここでは説明を\n省きます。",
     [True, False]),
    ("一、会议召开情况\n本次股东大会由公司董事会召集，董事长主持会议，会议采用现场投票与网络\n投票相结合的方式。",
     [True, False]),
    ("Chapter 3\nthe story goes on in a long line that fills the whole width of this\ncolumn.",
     [True, False]),
    # not headings: a sentence ends, a clause goes on, a long numbered line wraps, a word cut
    # by a hyphen goes on
    ("5.1 is the version we ship.\nthe next one comes later and is a long, long line here.", [False]),
    ("2.3 Duties of the board, which include maintenance,\nand the reports of each quarter too.",
     [False]),
    ("2.3 Duties of the board and its cross-\ncommittees are described in the bylaws of 2019.",
     [False]),
    # a heading wrapped over two lines (the next line its short, lower-case tail): not surely
    ("A body line of the column, long enough to set the width, goes on.\n\n"
     "1.6.4. Global substitution with regular\nexpressions\nThe next paragraph is one line.",
     [False, False]),
])
def test_the_break_after_a_heading_is_kept(text, kept_after):
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i, ("", ""))[1] == "the line is a heading" for i in offsets] == kept_after


@pytest.mark.parametrize("text, kept", [
    # a wrapped line that happens to begin like an item, after a full line that ends nothing
    ("此前大家常用的是源码包格式，现在推荐的格式为源码格式的版本号为\n3.0 (quilt)的源码中包含上游的原始代码和补丁。", [False]),
    ("the version numbers of the upstream releases start from\n0.1 and grow with each release.", [False]),
    ("To start, copy the files of the template directory called\n1.ex and edit them as needed.", [False]),
    # items: after a line that ends a sentence or clause, or is short; a bullet glyph always
    ("The steps below build the package from its template in minutes:\n1. copy the template\n2. edit it",
     [True, True]),
    ("Nested lists use an en dash for their items, as here:\n– the first item\n– the second", [True, True]),
    ("a paragraph line that fills the whole width of the column\n• a bullet item", [True]),
    # the next number after a numbered line, however full that line is
    ("1. the first step of the list fills its line to the end\n2. the second step", [True]),
    ("(3) the third clause fills its line to the end of it\n(4) the fourth one", [True]),
    ("2. the second step of the list fills its line to the end\n3.0 (quilt) is a format", [False]),
])
def test_a_line_that_begins_like_an_item_is_forced_only_after_a_finished_line(text, kept):
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i, ("", ""))[1].startswith("the next line starts") for i in offsets] == kept


def test_the_break_after_a_contents_or_index_entry_is_kept():
    """Dot leaders run to a page number: the entry ends there, whatever the model makes of the
    next line ("1.2 Syntax . . . 5" + "1.3 An updated ..." is no wrap), a narrow column's one
    dot too ("syntax diagrams . 8"); the break inside an entry wrapped over two lines ("com-" +
    "mand . . . 8") is no keep, nor an ellipsis's, nor a decimal's ("== .9")."""
    text = ("1.2 Syntax . . . . . . . . . . 5\n1.3 An updated \\cline com-\nmand . . . . . . . 8\n"
            "\\newbox . . . . . . 761, 864–865\nAnother index entry . . . . xiv\n"
            "and so it went on... 5 times\n3.7.4 Drawing curves . . 24\nsyntax diagrams . 8\n"
            "\\abovedisplayskip . 316\nR> .3 + .6 == .9\nsection -2-1+.5 .5\nthe end")
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i, ("", ""))[1] == decide.ENTRY_KEEP for i in offsets] == [
        True, False, True, True, True, False, True, True, True, False, False]


def _break_layout(fill, table=False, code=False) -> dict:
    """The layout features forced_keeps reads of one break: a plain line's, unless `table` or
    `code`."""
    return {"fill": fill, "bigger": False, "size_change": 0.0, "table": table, "code": code}


@pytest.mark.parametrize("before, after, joined", [
    # the rest of an entry: its leaders, or after a hyphen, or lowercase after a long start
    ("\\interfootnotelinepenalty", ". . . . . . . . 543", True),
    ("1.2 The abbreviated verba-", "tim notation . . . . . . 2", True),
    ("Did similar for the bullet and", "centered dot. . . . . . . . 28", True),
    ("1.6.2 Customising syn-", "tax diagrams . . 9", True),  # a narrow column's leaders
    ("2.14.1 The environment", "routines . . . . . . 39", True),  # numbered, then lowercase
    # an index's letter, a group's heading and its subentries, an entry without leaders
    ("S", "schur . . . . . . . . . 4", False),
    ("environments:", "demo* . . . . . . . . 7", False),
    ("keywords", "classoffset . . . . . . . 30, 31", False),
    ("linkborderstyle (hypersetup key) 14, 1089", "linkcolor (key) . . . . . 97", False),
    # the next line is an entry of its own, or does not end as one
    ("A chapter's title without a page", "1.1 Its first section . . . . 3", False),
    ("An ordinary line of prose that runs on and", "on, with no leaders at all", False),
])
def test_a_contents_entry_wrapped_between_two_others_is_joined(before, after, joined):
    """Between two entries (dot leaders to a page number), a line that ends none and a next
    line that visibly finishes it are one entry: joined, whatever the model says (an index of
    macro names gives it nothing to read), over a code keep (LaTeX sets such an index in a
    monospaced font) and a heading's (a numbered entry looks like one); a table row's stands."""
    text = f"1 Introduction . . . . . . . 1\n{before}\n{after}\nthe end"
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert (forced.get(offsets[1]) == ("join", decide.ENTRY_JOIN)) == joined
    code = _break_layout(fill=0.5, code=True)
    forced = decide.forced_keeps(text, offsets, [code] * 3)
    assert (forced.get(offsets[1]) == ("join", decide.ENTRY_JOIN)) == joined
    plain = {**code, "code": False}  # "1.2 The abbreviated verba-" looks like a heading
    forced = decide.forced_keeps(text, offsets, [plain] * 3)
    assert (forced.get(offsets[1]) == ("join", decide.ENTRY_JOIN)) == joined
    row = {**code, "code": False, "table": True}
    forced = decide.forced_keeps(text, offsets, [code, row, code])
    assert forced.get(offsets[1]) == ("keep", "a table row: kept as a row")


@pytest.mark.parametrize("lines, joined", [
    (["\\alph . . . . . 134, 140,", "141, 145"], [True]),  # its page numbers go on
    (["\\newbox . . . . 2781, 2783, 2784,", "2785, 2787, 2820, 2834,", "2840, 2851"],
     [True, True]),  # and on
    (["\\count . . . . . . . xii, 4–7,", "9–11"], [True]),  # roman and ranges too
    (["\\alph . . . . . 134, 140,", "which were read"], [False]),  # words, not numbers
    (["\\alph . . . . . 134, 140", "141, 145"], [False]),  # the entry ended: no comma
    (["In 1998, 2001, 2004,", "2007 and 2010"], [False]),  # no leaders: prose
    (["the years were 1998, 2001,", "2004, 2007"], [False]),
    (["450, 390, 467, 654, 30, 542,", "357, 497, 493,", "446, 547"], [False, False]),  # data
])
def test_an_index_entry_s_page_numbers_wrapped_are_joined(lines, joined):
    """LaTeX's index of macros lists every page a name is used on: the list wraps after a
    comma, onto lines of nothing but numbers. The model has no words to read there; the page
    numbers going on after an entry's leaders are joined whatever it says. A listing's numbers,
    with no leaders before them, are not."""
    text = "\n".join(["\\begin . . . . . . . 1", *lines, "\\end . . . . . . . 2"])
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i) == ("join", decide.ENTRY_JOIN) for i in offsets[1:-1]] == joined


@pytest.mark.parametrize("entry, joined", [
    (["1.10.4 Configuring the", "alignment envi-", "ronments . . . . . 21"], [True, True]),
    (["\\newcommand and its star-", "red form", ". . . . . . 309"], [True, True]),
    # an index's letter, then a group's heading and its subentry; four lines are no entry
    (["T", "keywords", "classoffset . . . . . 3"], [False, False]),
    # two columns of an index read across: a line with leaders inside is no entry's first part
    (["procnamekeys ............. 49 T", "procnamestyle ............ 50 tex",
      "deletetexcs .............. 44"], [False, False]),
    # four lines are no entry between two others: only the break before its last is joined
    (["A title that runs on", "and on over one line", "and over another line", "and ends . . 5"],
     [False, False, True]),
])
def test_a_contents_entry_wrapped_over_three_lines_is_joined(entry, joined):
    """An entry of a narrow contents column may take three lines ("1.10.4 Configuring the" /
    "alignment envi-" / "ronments . . . 21", mdwtab's two-column contents): each break inside
    it is joined when each next line visibly goes on; the first line, numbered and short, is
    no heading there."""
    text = "\n".join(["1.10.3 A note on spacing . . . . 19", *entry, "the end"])
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert [forced.get(i) == ("join", decide.ENTRY_JOIN) for i in offsets[1:-1]] == joined


@pytest.mark.parametrize("before, after, joined", [
    ("General: Minor changes and", "clean-up . . . . . . . . . . 1", True),
    ("\\@greek: \\ifcase doesn't read its", "argument in braces . . . . 9", True),
    ("\\l__pdffield_pushbutton_appearance_-", "code_tl . . . . . 3, 253, 276", True),
    # a group's heading, one ending ":", a line of page numbers: the next entry is its own
    ("Neues KOMA-Schriftelement", "quotetext . . . . . . . . 16", False),
    ("pdfmanagement internal commands:", "pdfmanagement:Info . . . . 5", False),
    ("6, 7, 8, 9, 10, 11, 12", "dedication (env.) . . 3, 87", False),
])
def test_a_change_history_s_entry_wrapped_after_its_version_is_joined(before, after, joined):
    """A change history (LaTeX's doc class) sets each entry after its version ("v1.1"), not
    after another entry: an entry's last line (leaders to its page) that visibly goes on from
    the one before is joined whatever came before it, whatever the model says."""
    text = "\n".join(["Change History", "v1.1", before, after, "v2.0"])
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert (forced.get(offsets[2]) == ("join", decide.ENTRY_JOIN)) == joined


@pytest.mark.parametrize("before, after, joined", [
    ("A.3 Appendix: How to Ap-", "ply These Terms to Your New Programs", True),
    ("So, if the previ-", "ous example was (15), this will print", True),
    ("a compound like well-", "known goes on too", True),
    # no word cut: a dash after a space, a digit's minus; the next line opens uppercase or
    # starts an item
    ("the range is wide -", "very wide indeed", False),
    ("the value is 3-", "ish at most", False),
    ("the Anglo-", "Saxon chronicle", False),
    ("the steps are pre-", "a) first the one", False),
])
def test_a_word_cut_by_a_hyphen_that_goes_on_lowercase_is_joined(before, after, joined):
    """A line ending in a word cut by a hyphen ("Ap-" + "ply These Terms", a contents entry of
    the GPL; "previ-" + "ous", a description's line set in after its label: kept, read as a
    first-line indent) goes on: joined whatever the evidence (on the development documents all
    156 such breaks are wraps). A keep already forced stands: an item ("a) ..."), a table's row."""
    text = f"An opening line of prose.\n{before}\n{after}\nthe end"
    offsets = br.candidates(text)
    forced = decide.forced_keeps(text, offsets)
    assert (forced.get(offsets[1]) == ("join", decide.CUT_JOIN)) == joined
    row = _break_layout(fill=0.9, table=True)
    forced = decide.forced_keeps(text, offsets, [row] * 3)
    assert forced.get(offsets[1]) == ("keep", decide.TABLE_KEEP)


def test_a_code_line_whose_name_a_typesetter_cut_is_weighed():
    """A monospaced line is kept as it is, but not where it ends in a name LaTeX cut after an
    underscore and set a hyphen (an expl3 package's index: "\\__pdf_backend_PageResources_-"
    + "gpush:n . . . 309"): verbatim text never ends a line so, and the decider weighs it (in
    an index, the entry's last line joins it)."""
    text = ("\\l__draw_-\npath_use_stroke_bool\n\\__pdf_backend_PageResources_-\n"
            "gpush:n . . . . 309\nlast_-\n1")
    code = _break_layout(fill=0.8, code=True)
    forced = decide.forced_keeps(text, br.candidates(text), [code] * 5)
    assert ([forced.get(i, ("weighed",))[0] for i in br.candidates(text)]
            == ["weighed", "keep", "join", "keep", "keep"])


def test_a_pdf_line_set_bigger_is_a_heading_when_short_or_numbered():
    def f(fill, bigger, size_change=-2.0):
        return {"fill": fill, "bigger": bigger, "size_change": size_change, "table": False,
                "code": False}

    layout = [f(0.3, True), f(0.97, True), f(0.4, False), f(0.95, True), f(0.1, False),
              f(0.97, True, 0.0), f(0.5, True)]
    text = ("Overview\nA big opening line that wraps across the column\nand ends.\n"
            "2.4.1 A numbered heading that fills the column\nnext\n"
            "2.4.2 A numbered heading that fills the column and\ngoes on\nbody")
    forced = decide.forced_keeps(text, br.candidates(text), layout)
    assert [forced.get(i, ("", ""))[1] == "the line is a heading" for i in br.candidates(text)] == \
        [True, False, False, True, False, False, True]  # a wrapped heading: kept at its end


def test_a_short_line_set_bigger_that_goes_on_lower_case_in_its_size_is_the_deciders():
    def f(bigger, size_change):
        return {"fill": 0.7, "bigger": bigger, "size_change": size_change, "table": False,
                "code": False}

    # a paragraph set in a size above the body's: its short lines go on lower-case in that
    # size; a heading set bigger is followed by the body's size or by a capital
    text = ("Questions are drawn for each student, two of them at\nrandom, then shuffled.\n"
            "Overview\nthe body goes on in its own size.\nSetup\nStart the service.\nend")
    layout = [f(True, 0.0), f(True, 0.0), f(True, -2.0), f(False, 2.0), f(True, 0.0),
              f(False, 0.0)]
    forced = decide.forced_keeps(text, br.candidates(text), layout)
    assert [forced.get(i, ("", ""))[1] == "the line is a heading" for i in br.candidates(text)] == \
        [False, False, True, False, True, False]
