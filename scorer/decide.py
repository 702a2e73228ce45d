"""The decision policy: which candidate breaks are joined, and why. Its one home in Python.

Per break, in this order:
  1. a hand override (char offset -> "join"/"keep") wins;
  2. else a keep the layout forces: before a list item or a numbered heading, after a contents
     entry, table rows, code; or a forced join: inside a contents entry wrapped, and where a
     line ends in a word cut by a hyphen that the next line goes on lowercase;
  3. else the decider: "hybrid" joins when its P(join) > THRESHOLD; "percentile" joins when the
     break's P(newline) ranks below the cutoff within its document (no evidence: keep).
The hybrid is a cascade: it asks the model only at breaks where the model's evidence, within
its usual range, could change the decision (hybrid.asks); elsewhere the layout decides. So
with the hybrid a text need not be read whole (detail_for).
A request that names a cutoff but no decider asks for the percentile.

Does: the deciders and their defaults, the order above, the reason each decision gives, and
reading a request's decider / cutoff / overrides into a Policy (for the CLI and the API alike).
Does not: compute evidence (document.py, hybrid.py) or change text (breaks.merge does).
The page follows the same rules in static/policy.js; tests/fixtures/decisions.json holds the
cases both languages must pass.
"""

import math
from dataclasses import dataclass, field

from . import breaks as br
from .errors import BadInput

DECIDERS = ("hybrid", "percentile")
DEFAULT_DECIDER = "hybrid"  # model + layout evidence; README, "How well it works"
DEFAULT_CUTOFF = 34.0  # percent, the value of the original experiment
THRESHOLD = 0.5  # the hybrid joins when P(join) is above this
DECISIONS = ("join", "keep")
FIGURE_KEEP = "text drawn on a figure (its labels): kept as it is"
ENTRY_KEEP = "the line ends a contents or index entry (dot leaders to its page number)"
ENTRY_JOIN = ("a contents or index entry wrapped: its next line ends it, or goes on with its"
              " pages (breaks.entry_wraps)")
CUT_JOIN = "a word cut by a hyphen goes on lowercase on the next line"
FORMULA_JOIN = ("a displayed formula inside a sentence: the sentence runs into it, or goes on "
                "after it lowercase")
DISPLAY_JOIN = ("a line displayed alone inside a sentence (set in, a name or a phrase): the "
                "sentence runs into it and goes on after it lowercase")
CODE_KEEP = "code or preformatted text (monospaced): kept as it is"
HEADING_KEEP = "the line is a heading"
ITEM_KEEP = "the next line starts a list item or a numbered heading"
TABLE_KEEP = "a table row: kept as a row"


def defaults() -> dict:
    """What the page is handed: it decides by the same rules with the same numbers."""
    return {"decider": DEFAULT_DECIDER, "cutoff": DEFAULT_CUTOFF, "threshold": THRESHOLD}


@dataclass(frozen=True)
class Policy:
    by: str = DEFAULT_DECIDER
    cutoff: float = DEFAULT_CUTOFF
    overrides: dict = field(default_factory=dict)  # char offset -> "join" | "keep"


def policy(decide=None, cutoff=None, overrides=None) -> Policy:
    """The Policy a request asks for (CLI flags or API fields), checked; a cutoff alone means
    the percentile decides."""
    by = decide or ("percentile" if cutoff is not None else DEFAULT_DECIDER)
    if by not in DECIDERS:
        raise BadInput(f"unknown decider {by!r}; use one of {', '.join(DECIDERS)}")
    if cutoff is None:
        cutoff = DEFAULT_CUTOFF
    try:
        cutoff = float(cutoff)
    except (TypeError, ValueError, OverflowError):  # a 400-digit integer overflows a float
        raise BadInput("'cutoff' must be a number between 0 and 100") from None
    if not 0 <= cutoff <= 100:  # NaN fails this too
        raise BadInput("'cutoff' must be a number between 0 and 100")
    overrides = overrides or {}
    if not isinstance(overrides, dict) or any(v not in DECISIONS for v in overrides.values()):
        raise BadInput("'overrides' must map break offsets to 'join' or 'keep'")
    try:
        overrides = {int(k): v for k, v in overrides.items()}
    except (TypeError, ValueError):
        raise BadInput("'overrides' keys must be character offsets") from None
    return Policy(by, cutoff, overrides)


def detail_for(pol: Policy) -> str:
    """How much of the text the model must read for `pol` (document.py's details): the hybrid
    only around the breaks it asks about, the percentile every break (it ranks them all)."""
    return "cascade" if pol.by == "hybrid" else "breaks"


def by_hybrid(p_join) -> str:
    return "join" if p_join is not None and p_join > THRESHOLD else "keep"


def by_percentile(percentile, cutoff=DEFAULT_CUTOFF) -> str:
    """'join' when the break is among the least expected (percentile below the cutoff)."""
    if percentile is None or math.isnan(percentile):
        return "keep"
    return "join" if percentile < cutoff else "keep"


def decisions(offsets, percentile, p_join, forced, pol: Policy = Policy()) -> list:
    """'join'/'keep' per break. offsets: char offset per break; percentile, p_join: numbers per
    break; forced: char offset -> (decision, why) for the breaks the layout forces."""
    if pol.by not in DECIDERS:
        raise BadInput(f"unknown decider {pol.by!r}; use one of {', '.join(DECIDERS)}")
    said = ([by_hybrid(q) for q in p_join] if pol.by == "hybrid"
            else [by_percentile(p, pol.cutoff) for p in percentile])
    return [pol.overrides.get(i) or forced.get(i, (None,))[0] or d for i, d in zip(offsets, said)]


def of(doc, pol: Policy = Policy()) -> list:
    """The decisions for a Document."""
    return decisions(doc.break_at, doc.percentile, doc.p_join, doc.forced, pol)


def merged(doc, pol: Policy = Policy()) -> str:
    """The Document's text with its joined breaks replaced by their joiners (a line-end hyphen
    the model found to split one word goes too)."""
    return br.merge(doc.text, doc.break_at, doc.joins, of(doc, pol), doc.unhyphen)


def reason(pol: Policy, decision, i, logp, percentile, p_join, forced, evidence,
           asked=True) -> str:
    """Why break at char offset `i` was decided so, in one line."""
    if i in pol.overrides:
        return f"set by hand: {decision}"
    if i in forced:
        return forced[i][1]
    if pol.by == "hybrid":
        top = sorted((e for e in evidence if e[1] is not None), key=lambda e: -abs(e[2]))[:2]
        return (f"hybrid: P(join)={p_join:.2f} {'>' if decision == 'join' else '<='} {THRESHOLD:g}; "
                + ("" if asked else "the layout decides (the model could not change it); ")
                + "most weight: " + ", ".join(f"{name} {c:+.1f}" for name, _, c in top))
    if logp is None or math.isnan(logp):
        return "no evidence (nothing precedes this newline): kept"
    sign = "<" if decision == "join" else ">="
    return (f"P(newline)={math.exp(logp):.2g} is at percentile {percentile:.0f}, "
            f"{sign} cutoff {pol.cutoff:g}")


def fills(text, pairs, layout=None) -> list:
    """How full the line before each break is: from the PDF's layout, else from the text."""
    return [f["fill"] for f in layout] if layout is not None else br.text_fills(text, pairs)


def heading_lines(text, offsets, layout=None) -> list:
    """Per break: is the line before it a heading (br.looks_like_heading: how full the line is
    from the PDF, else from the text; in a PDF also a short line set bigger)? Not surely when the
    next line looks like its tail: in a PDF, set in its size and opening lower-case; in a text,
    _heading_tail."""
    pairs = br.line_pairs(text, offsets)
    if layout is None:
        tails = br.text_fills(text, [(after, "") for _, after in pairs])
        return [br.looks_like_heading(before, fill) and not _heading_tail(after, tail)
                for (before, after), fill, tail in zip(pairs, br.text_fills(text, pairs), tails)]
    out = []
    for (before, after), feats in zip(pairs, layout):
        bigger = feats.get("bigger", False)
        goes_on = bigger and feats.get("size_change", -1) >= 0  # the next line in its size
        # and opening lower-case: the heading's tail, or a paragraph set in that size
        tail = goes_on and br.starts_lower(after)
        out.append(br.looks_like_heading(before, feats["fill"], bigger, goes_on) and not tail)
    return out


def _heading_tail(line, fill) -> bool:
    """Does `line` (filled `fill`) look like the end of a heading wrapped over two lines
    ("1.6.4. Global substitution with regular" + "expressions"): it starts lower-case, is short
    and ends no sentence or clause? Then the break before it is the decider's to weigh."""
    return (br.starts_lower(line) and fill < br.SHORT
            and not line.rstrip().endswith(br.SENTENCE_END + br.CLAUSE_END))


def forced_keeps(text, offsets, layout=None) -> dict:
    """Breaks kept whatever the evidence: char offset -> ("keep", why). Before a list item or a
    numbered heading, after a heading (heading_lines) or a contents or index entry
    (br.ends_entry); with a PDF's layout (one dict per break), also before a line after a list
    marker drawn as a shape, and table rows (not a wrap inside one cell: the layout's `cell`),
    code (not where a name is cut: breaks.cut_name) and the text drawn on a figure. Two kinds
    of break are joined whatever the evidence, ("join", why): inside a contents or index entry
    wrapped (before its last line, or between two others), or inside an index entry's page
    numbers (br.entry_wraps),
    unless a keep other than a heading's or code's holds there; and after a word cut by a
    hyphen (br.cuts_word) that the next line goes on lowercase, unless a keep holds there; and,
    with a PDF's layout, around a displayed formula (the layout's `formula`: a line set in a
    math font) inside a sentence: before it, where the line before ends no sentence, and after
    it, where the next line goes on lowercase ("where x is ..."), unless a keep holds there
    (but a formula's short line read as a heading); and on both sides of a name displayed
    alone inside a sentence (the layout's `display_next`: pdf.layout.set_off), where the line
    before ends on a letter or a comma and the line after goes on lowercase, unless a keep
    holds before it or an item's line hangs there."""
    out = {i: ("keep", HEADING_KEEP)
           for i, heading in zip(offsets, heading_lines(text, offsets, layout)) if heading}
    pairs = br.line_pairs(text, offsets)
    full = fills(text, pairs, layout)
    item = ("keep", ITEM_KEEP)
    out.update({i: item for i, starts in zip(offsets, br.item_starts(text, offsets, full))
                if starts})
    out.update({i: ("keep", ENTRY_KEEP) for i, (before, _) in zip(offsets, pairs)
                if br.ends_entry(before)})
    for i, feats, (before, after) in zip(offsets, layout or [], pairs):
        if feats.get("marker_next"):  # a list marker drawn as a shape, not a glyph
            out[i] = item
        if feats["table"] and not feats.get("cell"):  # a cell's own wraps are weighed
            out[i] = ("keep", TABLE_KEEP)
        elif feats["code"] and not br.cut_name(before, after):
            out[i] = ("keep", CODE_KEEP)
        elif feats.get("figure"):
            out[i] = ("keep", FIGURE_KEEP)
    lines = [before for before, _ in pairs] + [after for _, after in pairs[-1:]]
    for i, wrap in zip(offsets, br.entry_wraps(lines)):
        # a numbered entry's first line looks like a heading; an index's, set in a monospaced
        # font, like code
        if wrap and out.get(i, ("", None))[1] in (None, CODE_KEEP, HEADING_KEEP):
            out[i] = ("join", ENTRY_JOIN)
    for i, (before, after) in zip(offsets, pairs):
        # "Ap-" + "ply These Terms": on the development documents 156 such breaks, every one
        # labelled a wrap; a keep already forced (a table's row, an item "a) ...") stands
        if i not in out and br.cuts_word(before.rstrip()) and br.starts_lower(after):
            out[i] = ("join", CUT_JOIN)
    for i, feats, (before, after) in zip(offsets, layout or [], pairs):
        into = feats.get("formula_next") and not before.rstrip().endswith(br.FULL_STOPS)
        out_of = feats.get("formula") and br.starts_lower(after)
        kept = out.get(i, ("", None))[1]
        if (into or out_of) and (kept is None or kept == HEADING_KEEP and feats.get("formula")):
            out[i] = ("join", FORMULA_JOIN)
    for k, feats in enumerate((layout or [])[:-1]):
        (before, _), (_, after) = pairs[k], pairs[k + 1]
        around = offsets[k], offsets[k + 1]
        ends = before.rstrip()[-1:]
        hangs = feats.get("hanging") or layout[k + 1].get("hanging")  # an item's next lines
        if (feats.get("display_next") and not hangs and (ends.isalpha() or ends == ",")
                and br.starts_lower(after) and around[0] not in out
                and out.get(around[1], ("", HEADING_KEEP))[1] == HEADING_KEEP):
            out.update({i: ("join", DISPLAY_JOIN) for i in around})
    return out
