"""Short texts answered while the client waits: the scored document, the merged text, and an
analyst's labels (a labels file or a truth text) read against the document.
Longer texts go through /api/jobs (job_api.py): a waiting client that gave up cannot be told
from one still waiting."""

from flask import Blueprint, Response, current_app, jsonify

from .. import labelfile
from ..errors import BadInput
from .limits import client, waits_for_scoring
from .parse import json_body, output_format, request_fields, short_only, text_request, within_limit

bp = Blueprint("scoring", __name__)


def scorer():
    return current_app.extensions["scorer"]


@bp.post("/api/score")
@waits_for_scoring
def api_score():
    source, options = text_request()
    chunks = scorer().score_json(short_only(source), **options, client=client())
    return Response(chunks, mimetype="application/json")  # streamed, never parsed back


@bp.post("/api/merge")
@waits_for_scoring
def api_merge():
    source, options = text_request()
    fmt = output_format(request_fields())
    return jsonify(scorer().merge(short_only(source), **options, fmt=fmt, client=client()))


@bp.post("/api/labels")
def api_labels():
    """{"text", "labels": JSON Lines} or {"text", "truth": paragraphs one per line} ->
    {"labels": {offset: "join"/"keep"}, "others": labels for other documents}."""
    fields = json_body()
    if not isinstance(fields, dict) or not isinstance(fields.get("text"), str):
        raise BadInput('send JSON like {"text": "...", "labels": "..."} or {"text", "truth"}')
    text = labelfile.valid_unicode(within_limit(fields["text"]), "the text")
    if isinstance(fields.get("labels"), str):
        labels, others = labelfile.read(fields["labels"], text)
    elif isinstance(fields.get("truth"), str):
        labels, others = labelfile.from_truth(text, fields["truth"]), 0
    else:
        raise BadInput("give 'labels' (JSON Lines) or 'truth' (the expected paragraphs)")
    return jsonify(labels={str(i): d for i, d in sorted(labels.items())}, others=others)
