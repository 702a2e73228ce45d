"""An analyst's labels: which breaks of one document should be joined and which kept.

The page saves its hand decisions as JSON Lines, one labelled break a line:

    {"doc": "<sha256 of the document's text>", "offset": 1234,
     "context": "…end of the line⏎start of the next…", "label": "join"}

`doc` and `offset` (the break's character offset, as in the JSON's breaks) say which break;
`context` is for people reading the file. One file may hold several documents.
A truth text (the expected paragraphs, one per line; blank lines ignored) gives the same labels.

Does: read a labels file for one document (every bad line named), and label a text against its
truth. Does not: write labels (the page does, static/labels.js), score or decide.
"""


from .align import BREAK, paragraph_labels
from .breaks import candidates
from .decide import DECISIONS
from .errors import BadInput, TooLarge
from .inputs import load_json, text_hash

# A truth text is the document's paragraphs: not much longer than the document itself. Longer
# ones are refused before aligning (aligning costs up to lines x truth length).
TRUTH_SLACK = 2.0
TRUTH_SLACK_CHARS = 10_000


def valid_unicode(value: str, what: str) -> str:
    """`value`, refused (BadInput) when it holds a lone surrogate ("\\ud800" is valid JSON but
    no character)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadInput(f"{what} contains a lone surrogate U+{ord(value[exc.start]):04X} at "
                       f"character {exc.start}, which is not valid Unicode") from None
    return value


def read(jsonl: str, text: str) -> tuple:
    """({offset: 'join'/'keep'} for `text`, how many labels are for other documents).

    Refuses (BadInput) a line that is not a label, a label for an offset of this document that
    is not a break, and a file with no label for this document."""
    valid_unicode(jsonl, "the labels file")
    key, breaks = text_hash(text), set(candidates(text))
    labels, others = {}, 0
    for n, line in enumerate(jsonl.splitlines(), 1):
        if not line.strip():
            continue
        row = load_json(line, f"labels line {n}")
        if not isinstance(row, dict) or not isinstance(row.get("doc"), str):
            raise BadInput(f'labels line {n}: expected {{"doc", "offset", "label"}}')
        offset, label = row.get("offset"), row.get("label")
        if label not in DECISIONS:
            raise BadInput(f"labels line {n}: label must be one of {', '.join(DECISIONS)}, "
                           f"not {label!r}")
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise BadInput(f"labels line {n}: offset must be a whole number")
        if row["doc"] != key:
            others += 1
            continue
        if offset not in breaks:
            raise BadInput(f"labels line {n}: no line break to decide at offset {offset} of "
                           "this document")
        labels[offset] = label
    if not labels:
        raise BadInput(f"none of the labels is for this document ({others} for other documents; "
                       "a label names its document by the sha256 of its text)")
    return labels, others


def from_page(labels, text: str) -> dict:
    """{offset: 'join'/'keep'} from the page's labels ({"<offset>": decision}, as JSON sends
    them), each a break of `text`; BadInput naming the first that is not."""
    if not isinstance(labels, dict):
        raise BadInput('labels must be an object like {"1234": "join"}')
    breaks, out = set(candidates(text)), {}
    for key, label in labels.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 12
                and int(key) in breaks):
            raise BadInput(f"labels: {str(key)[:20]!r} is not the offset of a break of this text")
        if label not in DECISIONS:
            raise BadInput(f"labels: the label at {key} must be one of {', '.join(DECISIONS)}")
        out[int(key)] = label
    return out


def from_truth(text: str, truth: str) -> dict:
    """{offset: 'join'/'keep'} for the breaks of `text` that align with `truth`, its expected
    paragraphs one per line: a break inside a paragraph is a wrap (join), one between two
    paragraphs a real end (keep). Whitespace, quotes and dashes may differ; breaks whose lines
    are not found in the truth stay unlabelled."""
    valid_unicode(truth, "the truth text")
    if len(truth) > TRUTH_SLACK * len(text) + TRUTH_SLACK_CHARS:
        raise TooLarge(f"the truth text has {len(truth):,} characters, far more than the "
                       f"document's {len(text):,}: give this document's paragraphs, one per line")
    got = {i: ("keep" if lab == BREAK else "join")
           for i, lab in zip(candidates(text), paragraph_labels(text, truth)) if lab is not None}
    if not got:
        raise BadInput("the truth text does not line up with this document: give its "
                       "paragraphs, one per line")
    return got
