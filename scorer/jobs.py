"""Jobs: documents scored in turns on one model, with progress, cancel and abandonment.

Does: keep jobs (queued -> running -> done | failed | cancelled) and run the prefill of up to
`max_active` of them in turns, each in its own llama.cpp context, in one scheduler thread. A
job's first `quick_s` seconds of work go ahead of the turns of jobs that have had more (the
least served first), and a longer job's turn ends after the micro-batch under way when such a
job is there or one waits to start: a short text asked while a long document runs finishes in
about its solo time plus one micro-batch, not after the long one, nor in turns with it. Past
that, jobs take turns of about `turn_s` (round robin). A client
(an address) runs at most `max_active` - 1 documents at once and the next to start is one of the
client with the fewest running, so one client's queue never holds up another's. A cancelled
job stops within one micro-batch; a job nobody has asked about for `idle_timeout` seconds is
cancelled; finished jobs are forgotten `keep` seconds after they end. Waiters (a request, an
event stream) are woken on every change.
Does not: know about HTTP (app.py), read PDFs or cache documents (service.py).
"""

import secrets
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from .errors import Busy, ScorerError, TooMany
from .settings import DEFAULT

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
TURN_S = 0.5  # a turn runs steps until it has taken this long (one micro-batch usually does)
QUICK_S = 3.0  # a job's first seconds of work go ahead of longer jobs' turns (short texts)
ENDED = (DONE, FAILED, CANCELLED)


@dataclass(eq=False)
class Job:
    id: str
    name: str = ""  # what the user sent (an upload's file name), for messages and the result
    state: str = QUEUED
    stage: str = ""  # what it does now: "reading" (a PDF), "prefill" (tokens), "asking"
    # (the cascade's readings), "hyphens"
    done: int = 0  # of the stage's work: tokens read, hyphens read
    total: int = 0  # the stage's work in all (0 until known)
    error: str = None
    exception: object = None  # the ScorerError it failed with (its .status for HTTP)
    result: object = None  # the Document, once done
    version: int = 0  # bumped on every change, for waiters
    created: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    ended: float = None
    steps: object = None  # the running generator (document.score_steps)
    make: object = None  # (model, llama ctx) -> that generator; set when the job may start
    finish: object = None  # Document -> Document, run when it is done (cache it, name it)
    context: object = None  # the llama.cpp context it runs in
    cancelled: bool = False
    served: float = 0.0  # seconds of work it has had (its turns)
    owner: str = ""  # the token of the browser that started it (web/limits.py); "": the server
    client: str = ""  # the address it came from (JOBS_PER_CLIENT)

    def view(self, queue_position=None) -> dict:
        """What a client is told about it."""
        return {"id": self.id, "state": self.state, "name": self.name,
                "progress": {"stage": self.stage, "done": self.done, "total": self.total},
                "queue_position": queue_position, "error": self.error}


class Scheduler:
    def __init__(self, get_model, max_active=DEFAULT["MAX_ACTIVE"],
                 idle_timeout=DEFAULT["JOB_IDLE_S"], keep=DEFAULT["JOB_KEEP_S"],
                 max_jobs=DEFAULT["MAX_JOBS"], turn_s=TURN_S,
                 jobs_per_client=DEFAULT["JOBS_PER_CLIENT"], quick_s=QUICK_S):
        self.get_model = get_model  # called in the scheduler thread: loads the model once
        self.turn_s = turn_s
        self.quick_s = quick_s
        self.max_active = max_active
        self.idle_timeout = idle_timeout
        self.keep = keep
        self.max_jobs = max_jobs
        self.jobs_per_client = jobs_per_client
        self._jobs = {}  # id -> Job
        self._waiting = deque()  # jobs that may start, in order
        self._active = deque()  # running jobs; the left one takes the next turn
        self._contexts = []  # free llama.cpp contexts, reused
        self._cv = threading.Condition()
        self._thread = None

    # -- what callers use ----------------------------------------------------------------------
    def new(self, name="", owner="", client="") -> Job:
        """A queued job that cannot start yet (its input is still being read); refused when the
        server, or `client` (an address), has as many under way as it may."""
        with self._cv:
            self._forget_old()
            under_way = [j for j in self._jobs.values() if j.state not in ENDED]
            if len(under_way) >= self.max_jobs:
                raise Busy(f"the server has {self.max_jobs} documents queued or running; "
                           "try again in a while")
            if client and sum(j.client == client for j in under_way) >= self.jobs_per_client:
                raise TooMany(f"you have {self.jobs_per_client} documents queued or running; "
                              "wait for one to finish or cancel one")
            job = Job(id=secrets.token_urlsafe(9), name=name, owner=owner, client=client)
            self._jobs[job.id] = job
            return job

    def start(self, job, make, finish=None) -> None:
        """Let `job` run: make(model, ctx) gives its generator of (done, total) steps."""
        with self._cv:
            if job.state != QUEUED:
                return  # cancelled while its input was read
            job.make, job.finish = make, finish
            self._waiting.append(job)
            self._change(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="scheduler", daemon=True)
                self._thread.start()

    def finished(self, job, result) -> None:
        """End `job` at once with a result found elsewhere (a cached document)."""
        with self._cv:
            job.result = result
            job.done = job.total = len(result.ids)
            self._end(job, DONE)

    def set_stage(self, job, stage) -> None:
        """Say what a job does before its steps start (reading its PDF)."""
        with self._cv:
            job.stage, job.done, job.total = stage, 0, 0
            self._change(job)

    def fail(self, job, exc) -> None:
        with self._cv:
            self._fail(job, exc)

    def get(self, job_id) -> Job:
        """The job (None if unknown); asking counts as interest in it."""
        with self._cv:
            job = self._jobs.get(job_id)
            if job is not None:
                job.seen = time.monotonic()
            return job

    def position(self, job) -> int:
        """How many jobs wait before it (None once it runs or ended)."""
        with self._cv:
            waiting = [j for j in self._waiting if j.state == QUEUED]
            return waiting.index(job) if job in waiting else None

    def cancel(self, job) -> None:
        """Stop it: at once if it has not started, else within one micro-batch."""
        with self._cv:
            if job.state in ENDED:
                return
            job.cancelled = True
            if job.state == QUEUED:
                self._end(job, CANCELLED)
            self._cv.notify_all()

    def wait(self, job, version=None, timeout=None) -> int:
        """Block until `job` has ended (version None) or changed since `version`, or `timeout`
        seconds passed; waiting counts as interest in it. Returns its version."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while (job.state not in ENDED) if version is None else (job.version == version):
                job.seen = time.monotonic()
                left = 5.0 if deadline is None else min(5.0, deadline - time.monotonic())
                if left <= 0:
                    break
                self._cv.wait(left)
            job.seen = time.monotonic()
            return job.version

    # -- the scheduler thread ------------------------------------------------------------------
    def _loop(self):
        while True:
            with self._cv:
                self._reap()
                while len(self._active) < self.max_active:
                    job = self._next_waiting()
                    if job is None:
                        break
                    self._waiting.remove(job)
                    self._active.appendleft(job)  # a new job takes the next turn
                if not self._active:
                    self._cv.wait(1.0)
                    continue
                job = self._next_turn()
            self._turn(job)

    def _next_turn(self):
        """The job whose turn it is (callers hold self._cv): a cancelled one (its turn ends it,
        freeing its place at once), else the least served of those still within their first
        quick_s seconds of work, else the next in round robin."""
        for job in self._active:
            if job.cancelled:
                return job
        quick = [j for j in self._active if self._quick(j)]
        if quick:
            return min(quick, key=lambda j: j.served)
        job = self._active[0]
        self._active.rotate(-1)
        return job

    def _yield_turn(self, job) -> bool:
        """Should `job`, past its quick seconds, end its turn now (callers hold self._cv): a
        job still within them is running, or a waiting one could start."""
        if self._quick(job):
            return False
        if any(self._quick(j) for j in self._active if j is not job):
            return True
        return len(self._active) < self.max_active and self._next_waiting() is not None

    def _quick(self, job) -> bool:
        """Is `job` still within its first quick_s seconds of work?"""
        return job.served < self.quick_s

    def _turn(self, job):
        """Steps of `job` for about turn_s (one micro-batch, or its start and its first
        micro-batch, or its last one and its end), or fewer when another's turn comes first
        (_yield_turn)."""
        try:
            model = self.get_model()
            if job.cancelled:
                raise _Cancel
            if job.steps is None:
                job.context = self._contexts.pop() if self._contexts else model.new_context()
                job.steps = job.make(model, job.context.ctx)
                with self._cv:
                    job.state = RUNNING
                    self._change(job)
            started = last = time.perf_counter()
            with model.lock:
                while not job.cancelled:
                    step = next(job.steps)  # (done, total) or (done, total, stage)
                    now = time.perf_counter()
                    with self._cv:
                        job.served += now - last
                        job.done, job.total = step[:2]
                        job.stage = step[2] if len(step) > 2 else "prefill"
                        self._change(job)
                        if now - started >= self.turn_s or self._yield_turn(job):
                            break
                    last = now
        except StopIteration as end:
            try:
                result = end.value if job.finish is None else job.finish(end.value)
            except Exception as exc:
                with self._cv:
                    self._fail(job, ScorerError(f"unexpected {type(exc).__name__}: {exc}"))
                return
            with self._cv:
                job.result = result
                self._end(job, DONE)
        except _Cancel:
            with self._cv:
                self._end(job, CANCELLED)
        except ScorerError as exc:
            with self._cv:
                self._fail(job, exc)
        except Exception as exc:  # never let one document stop the scheduler
            with self._cv:
                self._fail(job, ScorerError(f"unexpected {type(exc).__name__}: {exc}"))

    # -- bookkeeping (callers hold self._cv) ---------------------------------------------------
    def _next_waiting(self):
        """The waiting job to start next: of the client with the fewest jobs running, first come
        first served among equals; a client runs at most max_active - 1 at once, so one turn is
        always there for someone else's (a short text never waits behind another's queue)."""
        for job in [j for j in self._waiting if j.state != QUEUED]:
            self._waiting.remove(job)  # ended while it waited (cancelled)
        running = Counter(j.client for j in self._active)
        share = max(1, self.max_active - 1)
        ready = [j for j in self._waiting if running[j.client] < share]
        return min(ready, key=lambda j: running[j.client], default=None)

    def _change(self, job):
        job.version += 1
        self._cv.notify_all()

    def _fail(self, job, exc):
        job.error, job.exception = str(exc), exc
        self._end(job, FAILED)

    def _end(self, job, state):
        if job.state in ENDED:
            return
        job.state, job.ended = state, time.monotonic()
        if job.steps is not None:
            job.steps.close()  # stops the prefill and frees its batch
            job.steps = None
        if job.context is not None:
            self._contexts.append(job.context)  # its KV cache is cleared by the next pass
            job.context = None
        if job in self._active:
            self._active.remove(job)
        if state == CANCELLED and job.error is None:
            job.error = "cancelled"
        self._change(job)

    def _reap(self):
        """Cancel the jobs nobody asked about for idle_timeout seconds."""
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if job.state not in ENDED and now - job.seen > self.idle_timeout:
                job.cancelled = True
                job.error = (f"cancelled: nobody asked about it for {self.idle_timeout:g} s "
                             "(the page was closed?)")
                if job.state == QUEUED:
                    self._end(job, CANCELLED)

    def _forget_old(self):
        now = time.monotonic()
        for job_id in [i for i, j in self._jobs.items() if j.ended and now - j.ended > self.keep]:
            del self._jobs[job_id]


class _Cancel(Exception):
    pass
