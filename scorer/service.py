"""A scoring service: one model, scoring behind its lock, and a bounded cache of documents.

What long-lived callers (the web app) use instead of calling document.score directly: the same
text asked twice (say, after moving nothing but the cutoff) is answered from the cache.
Does not: know about HTTP.
"""

import hashlib
import threading
from collections import OrderedDict

from .breaks import DEFAULT_CUTOFF
from .document import DEFAULT_MODE, score
from .model import load_model


class Scorer:
    def __init__(self, model_path=None, cache_size=16):
        self.model_path = model_path
        self.cache_size = cache_size
        self._cache = OrderedDict()  # (text sha256, mode, detail) -> Document, least recent first
        self._cache_lock = threading.Lock()

    @property
    def model(self):
        return load_model(self.model_path)  # loaded once per process, then shared

    def document(self, text, mode=DEFAULT_MODE, detail="full"):
        key = (hashlib.sha256(text.encode("utf-8")).hexdigest(), mode, detail)
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        doc = score(self.model, text, mode=mode, detail=detail)
        with self._cache_lock:
            self._cache[key] = doc
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return doc

    def score(self, text, mode=DEFAULT_MODE, cutoff=DEFAULT_CUTOFF) -> dict:
        """The full Document as a JSON-ready dict (every token, top-5 alternatives)."""
        doc = self.document(text, mode)
        return doc.to_dict(cutoff, vocab=self.model.vocab_bytes)

    def merge(self, text, mode=DEFAULT_MODE, cutoff=DEFAULT_CUTOFF, overrides=None) -> dict:
        """Merged text at `cutoff`, with hand overrides {char offset: 'join'|'keep'} applied."""
        doc = self._cached_any_detail(text, mode)
        decisions = doc.decisions(cutoff, overrides)
        return {"merged": doc.merged(cutoff, overrides), "joined": decisions.count("join"),
                "kept": decisions.count("keep"), "breaks": len(decisions)}

    def _cached_any_detail(self, text, mode):
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        with self._cache_lock:
            for (k, m, _), doc in reversed(self._cache.items()):
                if k == key and m == mode:
                    return doc
        return self.document(text, mode, detail="breaks")
