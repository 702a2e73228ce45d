"""One input of a batch as a worker handles it, whichever engine runs the worker (batch.py's
processes here, raybatch.py's Ray actors): read its bytes, score them, and return a result row
with its outputs' text for the driver to write. A row never raises: one bad file never stops
the batch.
Does not: write files (the driver does) or choose an engine.
"""

import time
from dataclasses import dataclass
from pathlib import Path

from . import contract, decide, outputs, report
from .document import score, score_pdf
from .errors import ScorerError
from .inputs import decode_text, is_pdf, read_bytes, shown
from .pdfguard import Guard


@dataclass(frozen=True)
class BatchFile:
    path: Path  # the input, as given
    name: str  # base name of its outputs
    stamp: dict  # what makes its outputs current: input hash + settings (resume)
    mode: str
    policy: decide.Policy
    report: bool = False  # also the HTML report (report.py), which needs every token scored
    guard: Guard = Guard()  # the limits its PDF is read within (pdfguard.py)
    fmt: str = "text"  # what the merged output is written as (outputs.py)
    weights: dict = None  # the hybrid's weights file (hybrid.read_weights), None: the shipped


def read_file(item: BatchFile) -> bytes:
    """The input's bytes, within the item's limits (ScorerError: the caller makes a failed
    row)."""
    return read_bytes(item.path, item.guard)


def score_file(model, item: BatchFile, data: bytes) -> dict:
    """Score one input from its bytes: a result row with its outputs' text ("txt": the merged
    output in the item's format, "json", and "html" with a report) for the driver to write."""
    started = time.perf_counter()
    row = {"input": shown(item.path), "output": item.name, "ok": False, "pages": 0, "chars": 0,
           "tokens": 0}
    detail = "full" if item.report else decide.detail_for(item.policy)
    try:
        if is_pdf(item.path, data):
            doc = score_pdf(model, data, mode=item.mode, detail=detail,
                            name=shown(item.path.name), guard=item.guard, weights=item.weights)
        else:
            doc = score(model, decode_text(data, shown(item.path), item.guard.max_chars),
                        mode=item.mode, detail=detail, weights=item.weights)
        row["txt"] = outputs.render(doc, item.policy, item.fmt)
        row["suffix"] = outputs.SUFFIXES[item.fmt]
        if item.report:
            row["html"] = report.html(doc, item.policy, shown(item.path.name), model.vocab_bytes)
        row["json"] = "".join(contract.iter_json(doc, item.policy, extra={"batch": item.stamp}))
        row.update(ok=True, pages=doc.source.get("pages", 0), chars=len(doc.text),
                   tokens=len(doc.ids), warnings=doc.source.get("warnings", []))
    except ScorerError as exc:
        row["reason"] = str(exc)
    except Exception as exc:
        row["reason"] = f"unexpected {type(exc).__name__}: {exc}"
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


def failed_row(item: BatchFile, reason: str) -> dict:
    return {"input": shown(item.path), "output": item.name, "ok": False, "pages": 0, "chars": 0,
            "tokens": 0, "reason": reason, "seconds": 0.0}


def score_path(model, item: BatchFile) -> dict:
    """Read the input here, then score it (the local engine's workers)."""
    try:
        data = read_file(item)
    except ScorerError as exc:
        return failed_row(item, str(exc))
    return score_file(model, item, data)
