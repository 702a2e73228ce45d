"""/api/jobs: long documents scored as jobs (jobs.py), with progress and cancel; with a second
model (COMPARE_MODEL), POST /api/jobs/<id>/compare scores a finished job's document with it as a
job of its own (the same routes serve it).

An open event stream holds one of the server's threads for as long as it is open, so streams
are capped in all and per client (limits.ClientSlots); past the cap the client is told to poll
/api/jobs/<id>, which the page does. Anyone with a job's link reads it; only the browser that
started it cancels, compares or merges it (limits.check_owner).
"""

import json

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for

from .. import decide, labelfile, teach
from ..errors import BadInput
from ..jobs import DONE, ENDED
from ..service import merged
from .limits import check_owner, client, owner, waits_for_scoring
from .parse import json_body, options, output_format, text_request

bp = Blueprint("jobs", __name__)


def find_job(job_id) -> tuple:
    """(the scoring service that runs it, the job): the model's, or the second model's (a
    comparison); 404 when neither knows it."""
    ext = current_app.extensions
    for scorer in (ext["scorer"], ext["compare"]):
        job = scorer.scheduler.get(job_id) if scorer is not None else None
        if job is not None:
            return scorer, job
    abort(404, f"no job {job_id!r} (finished jobs are kept for a while, then forgotten)")


def finished_job(job_id) -> tuple:
    scorer, job = find_job(job_id)
    if job.state != DONE:
        abort(404, f"the job is {job.state}" + (f": {job.error}" if job.error else ""))
    return scorer, job


@bp.post("/api/jobs")
def api_job_submit():
    source, opts = text_request()
    job = current_app.extensions["scorer"].submit(source, opts["mode"], owner=owner(),
                                                   client=client())
    return jsonify(id=job.id, url=url_for("jobs.api_job", job_id=job.id)), 202


@bp.get("/api/jobs/<job_id>")
def api_job(job_id):
    scorer, job = find_job(job_id)
    return jsonify(job.view(scorer.scheduler.position(job)))


@bp.delete("/api/jobs/<job_id>")
def api_job_cancel(job_id):
    scorer, job = find_job(job_id)
    check_owner(job, "cancel")
    scorer.scheduler.cancel(job)
    return jsonify(job.view(scorer.scheduler.position(job)))


@bp.post("/api/jobs/<job_id>/compare")
def api_job_compare(job_id):
    """The finished job's document (its text, and a PDF's layout) scored by the second model:
    a new job, 202 {id, url}; 404 when the server has no second model."""
    compare = current_app.extensions["compare"]
    if compare is None:
        abort(404, "this server has no second model to compare with (serve --compare-model)")
    _, job = finished_job(job_id)
    check_owner(job, "compare")
    other = compare.submit_like(job.result, job.name, owner=owner(), client=client())
    return jsonify(id=other.id, url=url_for("jobs.api_job", job_id=other.id)), 202


@bp.post("/api/jobs/<job_id>/learn")
@waits_for_scoring
def api_job_learn(job_id):
    """The hybrid fitted on the analyst's labels of a finished job's document:
    {"labels": {"<offset>": "join"/"keep"}} -> {id, url: a finished job holding the document
    decided by the fitted weights (or by the ones before, when the fit is not better), weights:
    the weights file, summary: the cross-validated figures in words}."""
    scorer, job = finished_job(job_id)
    check_owner(job, "learn from")
    fields = json_body()
    if not isinstance(fields, dict):
        raise BadInput('send JSON like {"labels": {"1234": "join", "1300": "keep"}}')
    labels = labelfile.from_page(fields.get("labels"), job.result.text)
    new, weights = scorer.learn(job, labels, owner(), client())
    return jsonify(id=new.id, url=url_for("jobs.api_job", job_id=new.id), weights=weights,
                   summary=teach.summary(weights))


@bp.get("/api/jobs/<job_id>/events")
def api_job_events(job_id):
    """Server-sent events: the job's state on every change until it ends (a comment line every
    15 s keeps proxies from closing the stream)."""
    (scorer, job), cfg = find_job(job_id), current_app.config
    sched = scorer.scheduler
    streams, who = current_app.extensions["streams"], client()
    if not streams.take(who, cfg["MAX_STREAMS"], cfg["STREAMS_PER_CLIENT"]):
        return jsonify(error="too many open event streams; ask for the job's state at "
                             f"{url_for('jobs.api_job', job_id=job_id)} instead"), 429
    position = sched.position  # the stream outlives the request context

    def events():
        version = job.version
        yield f"data: {json.dumps(job.view(position(job)))}\n\n"
        while job.state not in ENDED:
            seen = sched.wait(job, version, timeout=15)
            if seen == version:
                yield ": still working\n\n"
                continue
            version = seen
            yield f"data: {json.dumps(job.view(position(job)))}\n\n"

    response = Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    response.call_on_close(lambda: streams.give(who))  # however the stream ends
    return response


@bp.get("/api/jobs/<job_id>/result")
def api_job_result(job_id):
    scorer, job = finished_job(job_id)
    policy = decide.policy(request.args.get("decide"), request.args.get("cutoff"))
    chunks = scorer.result_json(job, policy)
    return Response(chunks, mimetype="application/json")


@bp.post("/api/jobs/<job_id>/merge")
def api_job_merge(job_id):
    """A finished job's document merged as a policy decides it, in a format:
    {"format", "decide", "cutoff", "overrides"} -> {"merged", "format", counts}."""
    _, job = finished_job(job_id)
    check_owner(job, "merge")
    fields = json_body()
    if not isinstance(fields, dict):
        raise BadInput('send JSON like {"format": "markdown"}')
    return jsonify(merged(job.result, options(fields)["policy"], output_format(fields)))
