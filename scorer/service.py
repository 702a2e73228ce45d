"""A scoring service: one model shared by many users, documents scored in turns (jobs.py), PDFs
read in a guarded child process, and a bounded cache of scored documents.

What long-lived callers (the web app) use instead of calling document.score directly: the same
text asked twice (say, after moving nothing but the cutoff) is answered from the cache, and a
short document never waits for a long one to finish.
Does not: know about HTTP, or decide anything itself (decide.py).
"""

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from . import contract, decide, outputs, teach
from .document import DEFAULT_MODE, clean_text, score_steps, serves
from .errors import ScorerError, TooLarge
from .inputs import bytes_hash, text_hash
from .jobs import DONE, Scheduler
from .model import load_model
from .pdfguard import Guard, read_pdf_guarded
from .settings import DEFAULT


@dataclass(frozen=True)
class PdfFile:
    """An uploaded PDF: its bytes, its name (for messages and the result's `source`) and who
    sent it (an address: one sender's bombs cannot take every PDF reader from the others)."""
    data: bytes
    name: str
    sender: str = ""


class ReaderSlots:
    """PDF readers at once: `total` in all, and never all of them for one sender (behind a
    proxy every request has the proxy's address: the others still get one). A sender whose PDF
    hit a limit (a bomb, or a PDF too slow to read) in the last SUSPECT_S seconds takes a reader
    only while another stays free: bombs from a few addresses cannot hold every reader for
    long."""

    SUSPECT_S = 600.0

    def __init__(self, total):
        self.total, self.busy = total, {}  # sender -> readings under way
        self.per_sender = max(1, total - 1)
        self.suspects = {}  # sender -> when its last PDF hit a limit (time.monotonic)
        self.cv = threading.Condition()

    def _free_for(self, sender) -> bool:
        now = time.monotonic()
        suspect = now - self.suspects.get(sender, -self.SUSPECT_S) < self.SUSPECT_S
        keep_free = 1 if suspect and self.total > 1 else 0
        return (sum(self.busy.values()) < self.total - keep_free
                and self.busy.get(sender, 0) < self.per_sender)

    def take(self, sender, cancelled=lambda: False) -> bool:
        """Wait for a slot; False if `cancelled()` turned true meanwhile."""
        with self.cv:
            while not self._free_for(sender):
                if cancelled():
                    return False
                self.cv.wait(0.5)
            self.busy[sender] = self.busy.get(sender, 0) + 1
            return True

    def give(self, sender, hit_limit=False) -> None:
        with self.cv:
            self.busy[sender] -= 1
            if not self.busy[sender]:
                del self.busy[sender]
            if hit_limit:
                self.suspects[sender] = time.monotonic()
                for who in [w for w, t in self.suspects.items()
                            if time.monotonic() - t > self.SUSPECT_S]:
                    del self.suspects[who]
            self.cv.notify_all()


class Scorer:
    def __init__(self, model_path=None, cache_size=DEFAULT["CACHE_SIZE"], guard=Guard(),
                 max_active=DEFAULT["MAX_ACTIVE"], idle_timeout=DEFAULT["JOB_IDLE_S"],
                 pdf_readers=DEFAULT["PDF_READERS"], keep=DEFAULT["JOB_KEEP_S"],
                 max_jobs=DEFAULT["MAX_JOBS"], jobs_per_client=DEFAULT["JOBS_PER_CLIENT"],
                 weights=None):
        self.model_path = model_path
        self.weights = weights  # the hybrid's weights file (hybrid.read_weights), None: shipped
        self.cache_size = cache_size
        self.guard = guard
        self.scheduler = Scheduler(lambda: self.model, max_active=max_active,
                                   idle_timeout=idle_timeout, keep=keep, max_jobs=max_jobs,
                                   jobs_per_client=jobs_per_client)
        self._cache = OrderedDict()  # (content sha256, mode, detail) -> Document, oldest first
        self._cache_lock = threading.Lock()
        self._pdf_slots = ReaderSlots(pdf_readers)  # reader processes at once

    @property
    def model(self):
        return load_model(self.model_path)  # loaded once per process, then shared

    # -- jobs ----------------------------------------------------------------------------------
    def submit(self, source, mode=DEFAULT_MODE, detail="full", owner="", client=""):
        """A Job scoring `source` (text, or a PdfFile); bad text is refused here and now.
        `owner`, `client`: who started it (jobs.Job)."""
        if isinstance(source, PdfFile):
            key = "pdf:" + bytes_hash(source.data)
            job = self.scheduler.new(source.name, owner, client)
        else:
            source = clean_text(source)
            key = text_hash(source)
            job = self.scheduler.new("", owner, client)
        cached = self._cached(key, mode, detail)
        if cached is not None:
            self.scheduler.finished(job, cached)
        elif isinstance(source, PdfFile):
            threading.Thread(target=self._read_then_start, args=(job, source, key, mode, detail),
                             name=f"pdf {job.id}", daemon=True).start()
        else:
            self._start(job, source, None, {"type": "text"}, key, mode, detail)
        return job

    def submit_like(self, doc, name=None, detail="breaks", owner="", client=""):
        """A Job scoring what `doc` (a Document another model scored) holds: its text, its
        PDF's layout and lines, in its context mode; for a side-by-side view of two models."""
        job = self.scheduler.new(name, owner, client)
        key = "like:" + text_hash(doc.text) + (":pdf" if doc.layout is not None else "")
        cached = self._cached(key, doc.mode, detail)
        if cached is not None:
            self.scheduler.finished(job, cached)
        else:
            self._start(job, doc.text, doc.layout, doc.source, key, doc.mode, detail, doc.lines)
        return job

    def result_json(self, job, policy=decide.Policy()):
        """A finished job's Document as JSON text in pieces (contract.py); the upload's name is
        the job's (cached documents carry none: they may serve another user)."""
        doc = job.result
        extra = {"source": {**doc.source, "file": job.name}} if job.name else None
        vocab = self.model.vocab_bytes if doc.detail == "full" else None
        return contract.iter_json(doc, policy, vocab=vocab, extra=extra)

    def learn(self, job, labels, owner="", client="") -> tuple:
        """The hybrid fitted on `labels` ({offset: decision}) of a finished job's document,
        starting from the weights that decided it (teach.py): (a finished Job holding the
        document decided by the fitted weights, the weights file)."""
        doc, model = job.result, self.model
        item = teach.labelled(model, doc, labels, job.name or "the document")
        weights = teach.train([item], model.info, doc.weights,
                              name=f"learned from labels on {job.name or 'a text'}")
        new = self.scheduler.new(job.name, owner, client)
        self.scheduler.finished(new, teach.redecided(doc, weights, item))
        return new, weights

    def _start(self, job, text, layout, source, key, mode, detail, lines=None):
        def make(model, ctx):
            return score_steps(model, text, mode, detail, layout=layout, ctx=ctx,
                               weights=self.weights)

        def finish(doc):
            doc.source, doc.lines = source, lines
            with self._cache_lock:
                self._cache[(key, mode, detail)] = doc
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            return doc

        self.scheduler.start(job, make, finish)

    def _read_then_start(self, job, pdf_file, key, mode, detail):
        try:
            self.scheduler.set_stage(job, "waiting for a PDF reader")
            if not self._pdf_slots.take(pdf_file.sender, lambda: job.cancelled):
                return
            self.scheduler.set_stage(job, "reading")
            hit_limit = False
            try:
                pdf = read_pdf_guarded(pdf_file.data, pdf_file.name, self.guard)
            except TooLarge:
                hit_limit = True
                raise
            finally:
                self._pdf_slots.give(pdf_file.sender, hit_limit)
            self._start(job, pdf.text, pdf.break_layout(), pdf.source(), key, mode, detail,
                        pdf.line_info())
        except ScorerError as exc:
            self.scheduler.fail(job, exc)
        except Exception as exc:  # a thread's error must reach the job, not vanish
            self.scheduler.fail(job, ScorerError(f"unexpected {type(exc).__name__}: {exc}"))

    def _cached(self, key, mode, detail):
        with self._cache_lock:
            for (k, m, d), doc in reversed(self._cache.items()):
                if k == key and m == mode and serves(d, detail):
                    return doc  # a fuller document serves a merge too
        return None

    # -- one request, waiting for its answer ---------------------------------------------------
    def run_job(self, source, mode=DEFAULT_MODE, detail="full", client=""):
        """Submit and wait: the finished Job (raises its error if it failed)."""
        job = self.submit(source, mode, detail, client=client)
        self.scheduler.wait(job)
        if job.state != DONE:
            raise job.exception or ScorerError(job.error or job.state)
        return job

    def document(self, source, mode=DEFAULT_MODE, detail="full", client=""):
        return self.run_job(source, mode, detail, client).result

    def score_json(self, source, mode=DEFAULT_MODE, policy=decide.Policy(), client=""):
        """The full Document as JSON text in pieces: scored now, written as sent."""
        return self.result_json(self.run_job(source, mode, client=client), policy)

    def merge(self, source, mode=DEFAULT_MODE, policy=decide.Policy(), fmt="text",
              client="") -> dict:
        """The merged text as the policy decides it (in `fmt`: outputs.py), with the counts."""
        return merged(self.document(source, mode, decide.detail_for(policy), client), policy,
                      fmt)


def merged(doc, policy, fmt="text") -> dict:
    """A scored Document merged as `policy` decides, written in `fmt`, with the counts."""
    decisions = decide.of(doc, policy)
    return {"merged": outputs.render(doc, policy, fmt), "format": fmt,
            "joined": decisions.count("join"), "kept": decisions.count("keep"),
            "breaks": len(decisions)}
