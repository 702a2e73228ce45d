"""What one client may hold of a shared server, and who owns a job.

A client is an address (behind a proxy every request has the proxy's: see docs/serving.md).
Each request that holds a server thread for long is counted against a cap in all and one per
client (ClientSlots): an event stream for as long as it is open (MAX_STREAMS,
STREAMS_PER_CLIENT), a request that waits for its scoring (MAX_SYNC, SYNC_PER_CLIENT). Past a
cap the answer is 429 at once, so the page, its static files and job polls always find a thread
(`serve` sizes the caps to its threads). Jobs queued or running are capped per client by the
scheduler (JOBS_PER_CLIENT, jobs.py).

A job can be read by anyone who holds its link (sharing a result is useful); it can be
cancelled, compared or merged again only by the browser that started it: the one whose cookie
OWNER_COOKIE (a random token, HttpOnly, SameSite=Strict) matches the job's owner.
Does not: score or read input (service.py, parse.py).
"""

import secrets
import threading
from collections import Counter
from functools import wraps

from flask import abort, current_app, g, jsonify, request

OWNER_COOKIE = "prefill_lens_owner"


def client() -> str:
    return request.remote_addr or "?"


class ClientSlots:
    """Requests of one kind under way now, in all and per client."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = Counter()  # client address -> requests under way

    def take(self, who, total, per_client) -> bool:
        with self.lock:
            if sum(self.open.values()) >= total or self.open[who] >= per_client:
                return False
            self.open[who] += 1
            return True

    def give(self, who) -> None:
        with self.lock:
            self.open[who] -= 1
            if self.open[who] <= 0:
                del self.open[who]


def init_app(app) -> None:
    app.extensions["streams"] = ClientSlots()
    app.extensions["sync"] = ClientSlots()
    app.after_request(_set_owner_cookie)


def waits_for_scoring(view):
    """A view that holds its thread while a document is scored: at most MAX_SYNC of them at
    once, SYNC_PER_CLIENT for one client; past that 429, saying what to do instead."""
    @wraps(view)
    def limited(*args, **kwargs):
        slots, cfg, who = current_app.extensions["sync"], current_app.config, client()
        if not slots.take(who, cfg["MAX_SYNC"], cfg["SYNC_PER_CLIENT"]):
            return jsonify(error="too many requests waiting for their scoring at once; wait for "
                                 "yours to finish, or send long work to /api/jobs"), 429
        try:
            return view(*args, **kwargs)
        finally:
            slots.give(who)
    return limited


def owner() -> str:
    """This browser's owner token: its cookie's, else a new one (sent back with the answer)."""
    token = request.cookies.get(OWNER_COOKIE, "")
    if len(token) != 24 or not token.replace("-", "").replace("_", "").isalnum():
        token = g.setdefault("new_owner", secrets.token_urlsafe(18))
    return token


def check_owner(job, doing: str) -> None:
    """403 unless this browser started `job` (a job without an owner was made by the server)."""
    if job.owner and request.cookies.get(OWNER_COOKIE) != job.owner:
        abort(403, f"only the browser that started this job can {doing} it (anyone with its "
                   "link can read it)")


def _set_owner_cookie(response):
    if "new_owner" in g:
        response.set_cookie(OWNER_COOKIE, g.new_owner, httponly=True, samesite="Strict",
                            secure=request.is_secure)
    return response
