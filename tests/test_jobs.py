"""The scheduler (scorer/jobs.py) with stand-in step generators: turns, progress, cancel,
abandonment, failure, a full queue. No model: what runs in each turn is not the point here
(tests/test_serving.py runs real documents through it)."""

import threading
import time
from types import SimpleNamespace

import pytest

from scorer.errors import Busy, TooLarge
from scorer.jobs import CANCELLED, DONE, FAILED, Scheduler


class StandIn:
    """What the scheduler needs of a model: a lock and fresh contexts."""

    def __init__(self):
        self.lock = threading.Lock()
        self.contexts = 0

    def new_context(self):
        self.contexts += 1
        return SimpleNamespace(ctx=self.contexts, close=lambda: None)


def steps(name, n, log, pause=0.01, closed=None):
    """A job of n micro-batches that logs each turn; returns its name as the 'document'."""
    try:
        for k in range(1, n + 1):
            time.sleep(pause)
            log.append(name)
            yield k, n
        return f"{name} done"
    finally:
        if closed is not None:
            closed.set()


def run(scheduler, make, finish=None):
    job = scheduler.new()
    scheduler.start(job, make, finish)
    return job


def stand_in():
    model = StandIn()
    return lambda: model


@pytest.fixture
def scheduler():
    return Scheduler(stand_in(), max_active=3, idle_timeout=30, turn_s=0.001)  # a step a turn


def test_a_short_job_goes_ahead_of_a_long_one():
    """A job within its first quick seconds of work runs before one that has had more: the
    short job's steps come one after another, and the long one resumes after them."""
    scheduler = Scheduler(stand_in(), max_active=3, idle_timeout=30, turn_s=0.001, quick_s=0.1)
    model = scheduler.get_model()
    log = []
    long = run(scheduler, lambda m, ctx: steps("long", 60, log))
    while len(log) < 20:  # about 0.2 s of work: past its quick seconds
        time.sleep(0.005)
    short = run(scheduler, lambda m, ctx: steps("short", 5, log))
    scheduler.wait(short)
    assert short.state == DONE and short.result == "short done"
    assert long.state != DONE  # the short one did not wait for the long one
    at = log.index("short")
    assert log[at:at + 5] == ["short"] * 5  # nor did it take turns with it
    scheduler.wait(long)
    assert long.result == "long done" and model.contexts == 2
    assert log[at + 5:] == ["long"] * (60 - at)


def test_jobs_past_their_quick_seconds_take_turns(scheduler):
    log = []
    scheduler.quick_s = 0  # every job has had its quick seconds: round robin
    long = run(scheduler, lambda m, ctx: steps("long", 40, log))
    while not log:
        time.sleep(0.005)
    other = run(scheduler, lambda m, ctx: steps("other", 5, log))
    scheduler.wait(other)
    assert long.state != DONE
    at = log.index("other")
    assert log[at:at + 9:2] == ["other"] * 5  # every other turn is the other job's
    scheduler.wait(long)


def test_a_long_turn_ends_after_its_micro_batch_when_a_short_job_comes():
    """Turns of 30 s: the short job still starts after the step under way, not the turn."""
    scheduler = Scheduler(stand_in(), max_active=3, idle_timeout=30, turn_s=30, quick_s=0.05)
    log = []
    long = run(scheduler, lambda m, ctx: steps("long", 10**6, log, pause=0.02))
    while len(log) < 10:
        time.sleep(0.005)
    started = time.monotonic()
    short = run(scheduler, lambda m, ctx: steps("short", 3, log))
    scheduler.wait(short, timeout=10)
    assert short.state == DONE and time.monotonic() - started < 2
    scheduler.cancel(long)
    scheduler.wait(long, timeout=10)
    assert long.state == CANCELLED


def test_progress_rises_to_the_total_and_the_finish_runs(scheduler):
    seen = []
    job = run(scheduler, lambda m, ctx: steps("a", 6, []), finish=lambda doc: doc.upper())
    version = -2
    while True:
        version = scheduler.wait(job, version, timeout=5)
        seen.append((job.done, job.total))
        if job.state == DONE:
            break
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1] == (6, 6)
    assert job.result == "A DONE"


def test_cancel_stops_a_running_job_within_a_turn(scheduler):
    closed = threading.Event()
    job = run(scheduler, lambda m, ctx: steps("x", 10**6, [], closed=closed))
    while job.done < 3:
        time.sleep(0.01)
    started = time.monotonic()
    scheduler.cancel(job)
    assert closed.wait(2) and time.monotonic() - started < 1.0
    scheduler.wait(job)
    assert job.state == CANCELLED and job.error == "cancelled"
    queued = scheduler.new()  # never started: cancelled at once
    scheduler.cancel(queued)
    assert queued.state == CANCELLED


def test_a_job_nobody_asks_about_is_cancelled():
    scheduler = Scheduler(stand_in(), idle_timeout=0.3)
    closed = threading.Event()
    job = run(scheduler, lambda m, ctx: steps("x", 10**6, [], closed=closed))
    assert closed.wait(5)
    assert job.state == CANCELLED and "nobody asked" in job.error
    watched = run(scheduler, lambda m, ctx: steps("y", 60, [], pause=0.02))
    scheduler.wait(watched)  # waiting is asking: it runs to the end (1.2 s > the timeout)
    assert watched.state == DONE


def test_a_failing_job_fails_alone(scheduler):
    def broken(m, ctx):
        yield 0, 10
        raise TooLarge("the document is too large")

    bad = run(scheduler, broken)
    good = run(scheduler, lambda m, ctx: steps("ok", 3, []))
    scheduler.wait(bad)
    scheduler.wait(good)
    assert bad.state == FAILED and bad.exception.status == 413 and "too large" in bad.error
    assert good.state == DONE


def test_a_full_queue_says_busy():
    scheduler = Scheduler(stand_in(), max_jobs=2)
    scheduler.new()
    scheduler.new()
    with pytest.raises(Busy) as caught:
        scheduler.new()
    assert caught.value.status == 503


def test_a_cancelled_job_ends_at_once_while_a_quick_one_runs():
    """Its place (and its client's share) is free at once, not when its turn next comes."""
    scheduler = Scheduler(stand_in(), max_active=3, idle_timeout=30, turn_s=0.001, quick_s=0.6)
    log = []
    old = run(scheduler, lambda m, ctx: steps("old", 10**6, log))
    while len(log) < 70:  # past its quick seconds
        time.sleep(0.005)
    new = run(scheduler, lambda m, ctx: steps("new", 10**6, log, pause=0.001))
    while "new" not in log:
        time.sleep(0.005)
    started = time.monotonic()
    scheduler.cancel(old)
    scheduler.wait(old, timeout=10)
    assert old.state == CANCELLED and time.monotonic() - started < 0.3
    assert new.served < scheduler.quick_s  # the quick job was still running
    scheduler.cancel(new)
    scheduler.wait(new, timeout=10)
