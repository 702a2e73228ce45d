"""A scoring service: one model, scoring behind its lock, and a bounded cache of documents.

What long-lived callers (the web app) use instead of calling document.score directly: the same
text asked twice (say, after moving nothing but the cutoff) is answered from the cache.
Does not: know about HTTP, or decide anything itself (decide.py).
"""

import hashlib
import os
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass

from . import breaks as br
from . import contract, decide
from .document import DEFAULT_MODE, score, score_pdf
from .model import load_model


@dataclass(frozen=True)
class PdfFile:
    """An uploaded PDF: its bytes and its name (for messages)."""
    data: bytes
    name: str


def _key(source) -> str:
    if isinstance(source, PdfFile):
        return "pdf:" + hashlib.sha256(source.data).hexdigest()
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _score_any(model, source, mode, detail, max_pages=None):
    if not isinstance(source, PdfFile):
        return score(model, source, mode=mode, detail=detail)
    from .pdf import check_pdf_bytes
    check_pdf_bytes(source.data[:1024], len(source.data), source.name)
    fd, tmp = tempfile.mkstemp(suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(source.data)
        doc = score_pdf(model, tmp, mode=mode, detail=detail, max_pages=max_pages)
        doc.source["file"] = source.name
        return doc
    finally:
        os.unlink(tmp)


class Scorer:
    def __init__(self, model_path=None, cache_size=16, max_pages=None):
        self.model_path = model_path
        self.cache_size = cache_size
        self.max_pages = max_pages
        self._cache = OrderedDict()  # (text sha256, mode, detail) -> Document, least recent first
        self._cache_lock = threading.Lock()

    @property
    def model(self):
        return load_model(self.model_path)  # loaded once per process, then shared

    def document(self, source, mode=DEFAULT_MODE, detail="full"):
        """The Document of `source` (text, or a PdfFile), from the cache when it is there."""
        key = (_key(source), mode, detail)
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        doc = _score_any(self.model, source, mode, detail, self.max_pages)
        with self._cache_lock:
            self._cache[key] = doc
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return doc

    def score(self, source, mode=DEFAULT_MODE, policy=decide.Policy()):
        """The full Document as JSON text in pieces (contract.py): scored now, written as sent."""
        doc = self.document(source, mode)
        return contract.iter_json(doc, policy, vocab=self.model.vocab_bytes)

    def merge(self, source, mode=DEFAULT_MODE, policy=decide.Policy()) -> dict:
        """The merged text as the policy decides it, with the counts."""
        doc = self._cached_any_detail(source, mode)
        decisions = decide.of(doc, policy)
        return {"merged": br.merge(doc.text, doc.break_at, doc.joins, decisions),
                "joined": decisions.count("join"), "kept": decisions.count("keep"),
                "breaks": len(decisions)}

    def _cached_any_detail(self, source, mode):
        key = _key(source)
        with self._cache_lock:
            for (k, m, _), doc in reversed(self._cache.items()):
                if k == key and m == mode:
                    return doc
        return self.document(source, mode, detail="breaks")
