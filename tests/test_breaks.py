"""Pure break logic: candidates, joiners, percentiles and merging (decisions: test_decide.py)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import breaks as br


@pytest.mark.parametrize("left, right, expected", [
    ("中文", "文本", ""),
    ("证券代码：", "900948", ""),
    ("江南大道18", "88号", ""),  # digits inside Chinese text
    ("股份总数（股）：218,604,", "337", ""),
    ("the quick", "brown fox", " "),
    ("chapter 12", "13 apples", " "),
    ("well-", "known", ""),  # the hyphen stays: "well-known"
    ("a -", "b", " "),  # a dash, not a hyphenated word
    ("ends with space ", "next", ""),
    ("使用Python", "语言", ""),
    ("board", "　　全角缩进", ""),
    ("see https://www.", "debian.org/doc/ for more", ""),  # a URL cut at the line end
    ("at https://salsa.debian.org/debian/live", "-build.git now", ""),
    ("in /usr/share/doc/", "live-build/examples", ""),
    ("see https://www.debian.org/doc/", "for the manuals", " "),  # the URL ended there
    ("visit https://debian.org.", "Then read", " "),
    ("the file /etc/fstab", "lists them", " "),
    ("\\l__draw_-", "path_use_stroke_bool", ""),  # an expl3 name LaTeX cut after its "_"
    ("x_-", "1", " "),
])
def test_joiner(left, right, expected):
    assert br.joiner(left, right) == expected


def test_candidates_skip_blank_lines_and_edges():
    text = "a\nb\n\nc\n  \nd\ne\n"
    assert br.candidates(text) == [1, 11]
    assert br.candidates("") == []
    assert br.candidates("\n\n") == []


def test_join_segments_put_joiners_at_segment_starts():
    text = "one\ntwo\n中\n文"
    offsets = br.candidates(text)
    joins = br.joiners(text, offsets)
    assert joins == [" ", "", ""]
    assert br.join_segments(text, offsets, joins) == ["one", " two", "中", "文"]


def test_percentiles():
    got = br.percentiles([3.0, 1.0, 2.0, np.nan])
    assert got[:3] == pytest.approx([100 * 2.5 / 3, 100 * 0.5 / 3, 100 * 1.5 / 3])
    assert np.isnan(got[3])
    tied = br.percentiles([1.0, 1.0])
    assert tied[0] == tied[1] == 50.0
    assert br.percentiles([]).shape == (0,)


lines = st.text(alphabet=st.sampled_from(list("ab -中文。\u3000é😀\t")), max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(lines, min_size=1, max_size=12), st.data())
def test_merge_never_loses_or_alters_other_characters(parts, data):
    text = "\n".join(parts)
    offsets = br.candidates(text)
    joins = br.joiners(text, offsets)
    decisions = data.draw(st.lists(st.sampled_from(["join", "keep"]),
                                   min_size=len(offsets), max_size=len(offsets)))
    merged = br.merge(text, offsets, joins, decisions)
    n_joined = decisions.count("join")
    assert merged.count("\n") == text.count("\n") - n_joined
    assert len(merged) == len(text) - n_joined + sum(
        len(j) for j, d in zip(joins, decisions) if d == "join")
    strip = lambda s: "".join(ch for ch in s if not ch.isspace())  # noqa: E731
    assert strip(merged) == strip(text)
    kept = [i for i, d in zip(offsets, decisions) if d == "keep"]
    assert br.merge(text, offsets, joins, ["keep"] * len(offsets)) == text
    assert len(kept) == merged.count("\n") - (text.count("\n") - len(offsets))


@pytest.mark.parametrize("line, expected", [
    ("1.出席会议的股东", True), ("（二）关于议案", True), ("一、会议召开", True), ("第三条 总则", True),
    ("- Fewer interruptions", True), ("• item", True), ("2.3 Registering", True), ("a) first", True),
    ("– a nested item", True), ("— Pourquoi ai-je besoin de ce paquet ?", True),
    ("—and an unspaced dash goes on", False),
    ("2026. The board met", False), ("12.5% of the water", False), ("3.14159 is pi", False),
    ("审议结果：通过", False), ("88号公司总部", False), ("the next line", False),
])
def test_starts_item(line, expected):
    assert br.starts_item(line) is expected


def test_room_says_whether_the_next_word_would_have_fit_in_glyph_widths():
    """text_room: a line that ends a paragraph before a word that would have fit on it reads room
    above 0, a wrap below; measured in glyphs, not characters ("mmm" is wider than "ill"); a CJK
    line's next character counts without a space."""
    body = "x" * 60
    text = "\n".join([body] * 8 + ["m" * 54 + ".", "Then more text", "i" * 54 + ".", "Then more text",
                                   body, "Wrapped"])
    pairs = br.line_pairs(text, br.candidates(text))
    room = br.text_room(text, pairs)
    by_line = {before: r for (before, _), r in zip(pairs, room)}
    assert by_line["i" * 54 + "."] > 0 > by_line["m" * 54 + "."]  # same characters, other widths
    assert by_line[body] < 0  # a full line: "Wrapped" would not have fit
    assert np.all((room >= -0.5) & (room <= 1.0))
    cjk = "\n".join(["这是一个很长的中文句子用来测试"] * 6 + ["这是一个很长的中文句子用来", "测试"])
    cjk_pairs = br.line_pairs(cjk, br.candidates(cjk))
    cjk_room = br.text_room(cjk, cjk_pairs)
    assert cjk_room[-1] > 0 > cjk_room[0]  # two characters short: "测" fits; a full line: it does not
    assert br.glyph_width("mmm") > br.glyph_width("ill") and br.glyph_width("中") == 1000
