"""Line breaks as text: which newlines are candidates, how to join them, percentiles, merging.

Pure functions over text and numbers. Does not: run the model (prefill.py), build documents
(document.py) or decide which breaks to join (decide.py).

Vocabulary:
  candidate  a newline with text on both sides (a single newline between two non-blank lines);
             newlines next to a blank line are paragraph breaks and always kept
  joiner     what replaces a joined candidate: "" between CJK/full-width characters, after a
             word hyphenated across lines ("well-" + "known" -> "well-known": the hyphen is
             kept, never guessed away) or next to whitespace; " " between other characters
  percentile where a break's P(newline) ranks within its own document (0-100, mean rank)
"""

import re
import unicodedata

import numpy as np
from pdfminer.fontmetrics import FONT_METRICS

SHORT = 0.85  # a line filled less than this share of the column is "short"
TIMES = FONT_METRICS["Times-Roman"][1]  # character -> glyph width, thousandths of an em
HYPHENS = "-\u2010\u00ad"  # hyphen-minus, hyphen, soft hyphen
# A line that starts a list item or a numbered heading: "- ", "– ", "— " (French lists), "• ", "1.",
# "1.2 ", "3)", "（二）", "一、", "第三条", "a) ". Numbers have at most 3 digits so that a wrapped
# "2026. The" is no item.
ITEM_START = re.compile(r"^\s*(?:[-–—•●○▪■◆*·]\s|\(?\d{1,3}(?:\.\d{1,3})*[.)、．]\s*(?!\d)"
                        r"|\d{1,3}(?:\.\d{1,3})+\s"
                        r"|[（(][一二三四五六七八九十\d]{1,3}[)）]|[一二三四五六七八九十]{1,3}、"
                        r"|第[一二三四五六七八九十百\d]{1,4}[条章节款]|[a-zA-Z][.)]\s)")

# A line that opens a section: "5.1 Title", "2.2.7 ", "Chapter 1", "Appendix B", "Part II",
# "第三章", "一、", "（二）". The break after it is kept when the line is short and ends no
# sentence or clause (decide.forced_keeps): a heading, not the first line of a paragraph.
HEADING_START = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,3})+\.?\s+\S"
                           r"|(?:chapter|appendix|part|section)\s+(?:\d{1,3}|[ivxlc]{1,6}|[a-z])\b"
                           r"|第[一二三四五六七八九十百\d]{1,4}[章节篇部]|[一二三四五六七八九十]{1,3}、"
                           r"|[（(][一二三四五六七八九十]{1,3}[)）])", re.IGNORECASE)
FULL_STOPS = tuple(".!?。！？")  # a sentence ends for good (a formula may follow a colon)
SENTENCE_END = FULL_STOPS + tuple(":;：；")
CLAUSE_END = tuple(",，、")


def ends_sentence(line: str) -> bool:
    return line.rstrip().endswith(SENTENCE_END)


def is_wide(ch: str) -> bool:
    """CJK ideographs, kana, hangul and full-width forms (incl. 。，：) take no spaces between them."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _nearest_letter(chars) -> str:
    return next((ch for ch in chars if ch.isalpha()), "")


def joiner(left_line: str, right_line: str) -> str:
    """The text that replaces a joined newline between two lines.

    Letters decide: when the characters at the break are not both narrow letters (digits,
    punctuation: "218,604,|337"), the nearest letters on each side say whether the text is CJK.
    """
    if not left_line or not right_line:
        return ""
    left, right = left_line[-1], right_line[0]
    if left.isspace() or right.isspace() or is_wide(left) or is_wide(right):
        return ""
    if left in HYPHENS and len(left_line) > 1 and left_line[-2].isalpha():
        return ""
    if cut_address(left_line, right_line) or cut_name(left_line, right_line):
        return ""
    if not (left.isalpha() and right.isalpha()):
        near = _nearest_letter(reversed(left_line)) + _nearest_letter(right_line)
        if any(is_wide(ch) for ch in near):
            return ""
    return " "


# A URL or a path at the end of a line ("https://www.", "/usr/share/doc/") ...
ADDRESS_END = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.|(?:^|\s)/[\w.~-]+/)\S*$", re.IGNORECASE)
ADDRESS_CHARS = "/.?=#&%_~"  # ... that the next line's first word goes on with


def cut_address(left_line: str, right_line: str) -> bool:
    """Is a URL or path cut by this break? The line ends inside one and the next line's first
    word has an address's punctuation ("debian.org/doc", not "for")."""
    words = right_line.split(maxsplit=1)
    return (bool(words) and bool(ADDRESS_END.search(left_line))
            and any(ch in ADDRESS_CHARS for ch in words[0]))


def cut_name(left_line: str, right_line: str) -> bool:
    """Is a name cut by this break: the line ends in an underscore and a hyphen, and the next
    line goes on with a letter ("\\l__draw_-" + "path_use_stroke_bool")? LaTeX sets expl3's
    names, in a package's manual and its index, so that they may break after an underscore,
    with a hyphen that is none of the name's; verbatim code never ends a line so."""
    return (len(left_line) > 1 and left_line[-1] in HYPHENS and left_line[-2] == "_"
            and right_line[:1].isalpha())


# a contents, index or change-history entry's end: dot leaders, then its page numbers
NUMBER = r"[\dIVXLCivxlc]+(?:[–-][\dIVXLCivxlc]+)?"  # a page number, or a range of pages
LEADER_RUN = r"(?:(?:\.\s?){4,}|(?:\s\.){2,})"
ONE_DOT = r"(?<=\S)\s\.\s+(?=\d)"  # a narrow column's last: "syntax diagrams . 8"
LEADERS = re.compile(rf"(?:{LEADER_RUN}\s*|{ONE_DOT}){NUMBER}(?:,\s*{NUMBER})*\s*$")
# (four dots or more, or two spaced ones: a narrow column's "Drawing curves . . 24", or one
# spaced on both sides before an arabic page number, where no room was left for more)
ENTRY_WORDS = 4  # a line of this many words or more, then a lowercase rest: one entry wrapped
ENTRY_LINES = 3  # a contents or index entry wraps over this many lines at most


def ends_entry(line: str) -> bool:
    """Does `line` end a contents, index or change-history entry: dot leaders run to its page
    numbers ("1.2 Syntax . . . . . 5", "\\newbox . . . 761, 864", "Drawing curves . . 24",
    "syntax diagrams . 8")? The next line is another entry (or no entry at all), never the rest
    of this one."""
    return bool(LEADERS.search(line))


PAGES = re.compile(rf"{NUMBER}(?:,\s*{NUMBER})*,?")  # a line of page numbers only


def entry_wraps(lines) -> list:
    """Per break between consecutive `lines`: is it a wrap inside a contents or index entry? Before
    an entry's last line (ends_entry) that visibly goes on from the one before (_goes_on),
    whatever came before (a change history's version, "v1.1", stands before its entries); inside
    an entry set on two to ENTRY_LINES lines between two others, the line before it ending one,
    when each of its next lines visibly goes on from the one before. Or inside an index entry's
    page numbers (_pages_go_on). Where a candidate break's neighbours are not consecutive lines (a
    blank line between), `lines` stands for them as they are (decide.forced_keeps)."""
    ends = [ends_entry(line) for line in lines]
    out = []
    for k, (before, after) in enumerate(zip(lines, lines[1:])):
        before, after = before.strip(), after.strip()
        out.append(_pages_go_on(before, after, bool(out) and out[-1])
                   or (ends[k + 1] and not ends[k] and _goes_on(before, after)))
    for first, ended in enumerate(ends):
        last = next((k for k in range(first + 1, min(len(lines), first + 1 + ENTRY_LINES))
                     if ends[k]), None)
        if not ended or last is None or last - first < 2:
            continue
        entry = [line.strip() for line in lines[first + 1:last + 1]]
        if all(_goes_on(before, after) for before, after in zip(entry, entry[1:])):
            out[first + 1:last] = [True] * (last - first - 1)
    return out


def _pages_go_on(before: str, after: str, went_on: bool) -> bool:
    """Do an index entry's page numbers go on from `before` to `after`: `before` ends them on a
    comma after its leaders ("\\alph . . 134, 140,"), or is more of them so ended that went on
    from such a line (`went_on`; not a listing's numbers), and `after` is only page numbers
    ("141, 145")?"""
    return (before.endswith(",") and bool(PAGES.fullmatch(after)) and any(map(str.isdigit, after))
            and (ends_entry(before[:-1]) or (went_on and bool(PAGES.fullmatch(before)))))


def _goes_on(before: str, after: str) -> bool:
    """Does `after` visibly go on with the entry `before` began: it opens on the leaders
    ("\\interfootnotelinepenalty" + ". . . . 543"), or `before` ends on a hyphen ("verba-" +
    "tim notation . . . 2"), or `after` opens lowercase after a `before` of ENTRY_WORDS words
    or more ("Did similar for the bullet and" + "centered dot . . . 28") or numbered as a
    section ("2.14.1 The environment" + "routines . . . 39")? Not after an index's letter ("S"
    + "schur . . . 4"), a group's heading ("environments:", "Cronologia delle modifiche",
    "keywords" + its subentries) or an entry with its page numbers but no leaders ("linkcolor
    14, 1089"), nor before a numbered line (an entry of its own); and `before`, not finished,
    has no leaders (two columns of an index read across: "procnamekeys ..... 49 T")."""
    if (len(before) <= 2 or before[-1] in ":" or before[-1].isdigit() or starts_item(after)
            or re.search(LEADER_RUN, before)):
        return False
    return (after.startswith(".") or before[-1] in HYPHENS
            or (starts_lower(after)
                and (len(before.split()) >= ENTRY_WORDS or bool(HEADING_START.match(before)))))


def starts_item(line: str) -> bool:
    """Does this line start a list item or a numbered heading?"""
    return bool(ITEM_START.match(line))


def display_width(line: str) -> int:
    return sum(2 if is_wide(ch) else 1 for ch in line)


def full_width(text, width=display_width) -> float:
    """The `width` (display width) most full lines of `text` reach: the 90th percentile of its
    non-blank lines'."""
    widths = [width(line.rstrip()) for line in text.split("\n") if line.strip()]
    return max(1.0, float(np.percentile(widths, 90))) if widths else 1.0


def text_fills(text, pairs, width=display_width) -> np.ndarray:
    """How full each break's line is, from characters alone: its `width` over full_width."""
    full = full_width(text, width)
    return np.array([width(before.rstrip()) / full for before, _ in pairs])


def glyph_width(line: str) -> int:
    """`line`'s width set in a proportional font, in thousandths of an em: Times-Roman's glyphs
    (pdfminer's metrics), a CJK character one em, any other 500: "ill" is not "mmm"."""
    return sum(1000 if is_wide(ch) else TIMES.get(ch, 500) for ch in line)


def text_room(text, pairs, width=glyph_width) -> np.ndarray:
    """What a full line would have left after each break's line and the next line's first word
    with the space before it (a CJK line's first character, no space), in shares of a full
    line (full_width), all in `width`: above 0 the word would have fit, so a typesetter that
    fills its lines did not wrap there. From characters alone; clipped to [-0.5, 1]."""
    full = full_width(text, width)
    out = []
    for before, after in pairs:
        words = after.split()
        word = words[0] if words else ""
        if word and is_wide(word[0]):
            word, space = word[0], ""
        else:
            space = " "
        out.append((full - width(before.rstrip() + space + word)) / full)
    return np.clip(np.array(out, dtype=np.float64), -0.5, 1.0)


def cuts_word(line: str) -> bool:
    """Does `line` end in a letter and a hyphen: a word cut that goes on on the next line?"""
    return len(line) > 1 and line[-1] in HYPHENS and line[-2].isalpha()


def looks_like_heading(line: str, fill: float, bigger: bool = False,
                       goes_on: bool = False) -> bool:
    """A line that ends no sentence or clause nor in a word cut by a hyphen (cuts_word: "1.2 The
    abbreviated verba-" goes on) and is short (`fill` of its column below SHORT)
    and opens like a section (HEADING_START) or, in a PDF, is set bigger than the body text; or
    both numbered and set bigger, however full (it may fill a narrow column), unless the next
    line goes on in its size (`goes_on`: the heading wraps)."""
    end = line.rstrip()
    if not end or end.endswith(SENTENCE_END + CLAUSE_END) or cuts_word(end):
        return False
    numbered = bool(HEADING_START.match(line))
    if fill < SHORT:
        return numbered or bigger
    return numbered and bigger and not goes_on


def starts_lower(line: str) -> bool:
    """Does `line` start with a lower-case Latin letter (it goes on from the line before)?"""
    first = line.lstrip()[:1]
    return first.isascii() and first.islower()


BULLET_GLYPHS = "•●○▪■◆"  # marks that only ever open a list item


NUMBER_START = re.compile(r"^\s*(\(?)(\d{1,3})[.)、．]\s")  # "1. ", "(2) ", "3、"


def item_starts(text: str, offsets, fills) -> list:
    """Per candidate newline: does the line after it start a list item or a numbered heading,
    surely enough to keep the break whatever else says? A bullet glyph always; a number, a
    letter or a dash ("3.0 ", "1.", "– ") only after a line that is short or ends a sentence
    or clause, or that starts the item numbered one before ("1. one" + "2. two"): after a full
    line that ends neither, it is a wrapped line that happens to begin so ("3.0 (quilt)的源码中"),
    left to the decider (which weighs starts_item as evidence).
    `fills`: how full each line before is (decide.fills)."""
    out = []
    for (before, after), fill in zip(line_pairs(text, offsets), fills):
        finished = fill < SHORT or before.rstrip().endswith(SENTENCE_END + CLAUSE_END)
        out.append(starts_item(after) and (after.lstrip()[:1] in BULLET_GLYPHS or finished
                                           or _numbered_next(before, after)))
    return out


def _numbered_next(before: str, after: str) -> bool:
    """Does `after` start with the number that follows the one `before` starts with ("1." then
    "2.", "(3)" then "(4)")?"""
    a, b = NUMBER_START.match(before), NUMBER_START.match(after)
    return bool(a and b) and a.group(1) == b.group(1) and int(b.group(2)) == int(a.group(2)) + 1


def line_pairs(text: str, offsets) -> list:
    """(line before, line after) of each newline at `offsets`."""
    out = []
    for i in offsets:
        start = text.rfind("\n", 0, i) + 1
        end = text.find("\n", i + 1)
        out.append((text[start:i], text[i + 1:end if end >= 0 else len(text)]))
    return out


def candidates(text: str) -> list:
    """Char offsets of the candidate newlines (text on both sides), in order."""
    out = []
    lines = text.split("\n")
    offset = 0
    for k in range(len(lines) - 1):
        offset += len(lines[k])
        if lines[k].strip() and lines[k + 1].strip():
            out.append(offset)
        offset += 1
    return out


def joiners(text: str, offsets) -> list:
    """The joiner of each candidate newline at `offsets`."""
    return [joiner(before, after) for before, after in line_pairs(text, offsets)]


def join_segments(text: str, offsets, joins) -> list:
    """Split `text` at the candidate newlines: the segments of the joined text, in order.

    Segment k > 0 starts with the joiner that replaces newline k-1, so that every former
    newline falls exactly between two segments (and so on a token boundary when each segment
    is tokenized on its own).
    """
    segments, start, prefix = [], 0, ""
    for i, join in zip(offsets, joins):
        segments.append(prefix + text[start:i])
        start, prefix = i + 1, join
    segments.append(prefix + text[start:])
    return segments


def percentiles(values) -> np.ndarray:
    """Percentile (0-100) of each value within `values`, by mean rank; NaN stays NaN.

    With n finite values the smallest gets 50/n and the largest 100 - 50/n; ties share.
    """
    values = np.asarray(values, dtype=np.float64)
    out = np.full(len(values), np.nan)
    ok = np.flatnonzero(~np.isnan(values))
    if len(ok) == 0:
        return out
    uniq, inverse, counts = np.unique(values[ok], return_inverse=True, return_counts=True)
    below = np.concatenate(([0], np.cumsum(counts)[:-1]))
    mean_rank = below + (counts + 1) / 2.0  # 1-based
    out[ok] = 100.0 * (mean_rank[inverse] - 0.5) / len(ok)
    return out


def merge(text: str, offsets, joins, decisions, unhyphen=None) -> str:
    """Replace each candidate newline decided 'join' by its joiner, and drop the hyphen before
    it where `unhyphen` says so (hyphen.py); nothing else changes."""
    parts, start = [], 0
    for k, (i, join, decision) in enumerate(zip(offsets, joins, decisions)):
        if decision == "join":
            parts.append(text[start:i - 1] if unhyphen and unhyphen[k] else text[start:i])
            parts.append(join)
            start = i + 1
    parts.append(text[start:])
    return "".join(parts)
