"""The Prefill Lens web app: a thin Flask layer over the engine (scorer/).

Views parse input, call the scorer, and return JSON; every error leaves through one handler as
{"error": message} with the error's status (scorer/errors.py: 400 bad input, 413 too large,
422 unreadable PDF, 503 model unavailable or busy). Long documents are jobs with progress and
cancel (scorer/jobs.py); several share the model in turns. Requests must name an allowed host
and state-changing ones must come from the page's own origin.

    python app.py [--host 127.0.0.1] [--port 5000] [--model PATH] [--sample NAME] [--debug]
"""

import argparse
import json
import threading
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, abort, jsonify, render_template, request, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorer import decide, labelfile, outputs, report
from scorer.document import DEFAULT_MODE, MODES, decode_input
from scorer.errors import BadInput, ScorerError, TooLarge
from scorer.jobs import DONE, ENDED
from scorer.pdfguard import Guard
from scorer.service import PdfFile, Scorer

ROOT = Path(__file__).resolve().parent

DEFAULTS = {
    "MODEL": None,  # GGUF path; None: $PREFILL_LENS_MODEL, else the packaged Gemma 3 270M
    "MAX_CHARS": 200_000,  # longest text scored in one request (a PDF's text too)
    # longest text /api/score and /api/merge wait for: a client that gives up on a waiting
    # request cannot be told from one still waiting, so long texts go through /api/jobs
    "SYNC_MAX_CHARS": 20_000,
    "MAX_CONTENT_LENGTH": 20 * 1024 * 1024,  # bytes of one request body (uploads included)
    "SAMPLES_DIR": str(ROOT / "samples"),
    "DEFAULT_SAMPLE": "",  # a file name in SAMPLES_DIR that the page loads and scores on open
    "CACHE_SIZE": 16,  # scored documents kept for repeated requests
    "MAX_PAGES": 500,  # longest PDF accepted
    "PDF_SECONDS": 20.0,  # reading one PDF may take this long, all its pages together
    "PDF_MEMORY_MB": 1536,  # address space of the child process that reads a PDF
    "MAX_ACTIVE": 3,  # documents scored in turns at once (each holds a llama.cpp context)
    "JOB_IDLE_S": 60.0,  # a job nobody asks about for this long is cancelled
    # an open event stream holds one of the server's threads (16 under waitress): at most this
    # many in all and from one client; past that the page polls instead
    "MAX_STREAMS": 8,
    "STREAMS_PER_CLIENT": 4,
    # the Host header must name one of these (DNS rebinding); "*" allows any
    "ALLOWED_HOSTS": ["localhost", "127.0.0.1", "::1"],
}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def create_app(config=None, scorer=None):
    """Layered config: DEFAULTS, then PREFILL_LENS_* environment variables, then `config`."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("PREFILL_LENS")
    if config:
        app.config.update(config)
    cfg = app.config
    app.extensions["scorer"] = scorer or Scorer(
        cfg["MODEL"], cfg["CACHE_SIZE"],
        Guard(cfg["MAX_PAGES"], cfg["MAX_CHARS"], cfg["PDF_SECONDS"], cfg["PDF_MEMORY_MB"],
              raise_seconds="the setting PREFILL_LENS_PDF_SECONDS",
              raise_memory="the setting PREFILL_LENS_PDF_MEMORY_MB"),
        max_active=cfg["MAX_ACTIVE"], idle_timeout=cfg["JOB_IDLE_S"])
    samples_dir = Path(cfg["SAMPLES_DIR"])
    streams = StreamSlots()

    def current_scorer():
        return app.extensions["scorer"]

    @app.errorhandler(ScorerError)
    def scorer_error(exc):
        return jsonify(error=str(exc)), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc):
        if isinstance(exc, RequestEntityTooLarge):
            limit = cfg["MAX_CONTENT_LENGTH"]
            return jsonify(error=f"the upload is too large (limit {limit:,} bytes)"), 413
        return jsonify(error=exc.description), exc.code

    @app.before_request
    def only_our_host_and_origin():
        host = urlsplit(f"//{request.host}").hostname or ""
        allowed = cfg["ALLOWED_HOSTS"]
        if isinstance(allowed, str):  # from the environment: "a.example,b.example"
            allowed = [h.strip() for h in allowed.split(",")]
        if "*" not in allowed and host not in allowed:
            abort(400, f"host {host!r} is not served here; set PREFILL_LENS_ALLOWED_HOSTS")
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            site = request.headers.get("Sec-Fetch-Site")
            origin = request.headers.get("Origin")
            if (site and site not in ("same-origin", "none")) or \
                    (origin and urlsplit(origin).netloc != request.host):
                abort(403, "cross-site requests are refused")

    @app.after_request
    def security_headers(response):
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.get("/")
    def index():
        return render_template("index.html", default_sample=cfg["DEFAULT_SAMPLE"],
                               policy=decide.defaults(), deciders=decide.DECIDERS, modes=MODES,
                               default_mode=DEFAULT_MODE, report_marker=report.MARKER)

    @app.get("/api/report-shell")
    def report_shell():
        """The HTML report with an empty data slot: the page fills in the document it holds
        (so a report can be made as long as the page is open, whatever the server forgot)."""
        return Response(report.shell(), mimetype="text/html")

    def short_only(source):
        if isinstance(source, str) and len(source) > cfg["SYNC_MAX_CHARS"]:
            raise TooLarge(f"the text has {len(source):,} characters; this route waits for texts "
                           f"of up to {cfg['SYNC_MAX_CHARS']:,}: send longer ones to /api/jobs, "
                           "which reports progress and can be cancelled")
        return source

    @app.post("/api/score")
    def api_score():
        source, options = read_text_request()
        source = short_only(source)
        chunks = current_scorer().score(source, **options)
        return Response(chunks, mimetype="application/json")  # streamed, never parsed back

    @app.post("/api/merge")
    def api_merge():
        source, options = read_text_request()
        source = short_only(source)
        fields = json_body() if not request.files else request.form
        return jsonify(current_scorer().merge(source, **options, fmt=parse_format(fields)))

    # -- jobs: long documents, with progress and cancel ------------------------------------------
    @app.post("/api/jobs")
    def api_job_submit():
        source, options = read_text_request()
        job = current_scorer().submit(source, options["mode"])
        return jsonify(id=job.id, url=url_for("api_job", job_id=job.id)), 202

    def find_job(job_id):
        job = current_scorer().scheduler.get(job_id)
        if job is None:
            abort(404, f"no job {job_id!r} (finished jobs are kept for a while, then forgotten)")
        return job

    def job_view(job):
        return job.view(current_scorer().scheduler.position(job))

    @app.get("/api/jobs/<job_id>")
    def api_job(job_id):
        return jsonify(job_view(find_job(job_id)))

    @app.delete("/api/jobs/<job_id>")
    def api_job_cancel(job_id):
        job = find_job(job_id)
        current_scorer().scheduler.cancel(job)
        return jsonify(job_view(job))

    @app.get("/api/jobs/<job_id>/events")
    def api_job_events(job_id):
        """Server-sent events: the job's state on every change until it ends (a comment line
        every 15 s keeps proxies from closing the stream)."""
        job = find_job(job_id)
        scheduler = current_scorer().scheduler
        client = request.remote_addr or "?"
        if not streams.take(client, cfg["MAX_STREAMS"], cfg["STREAMS_PER_CLIENT"]):
            return jsonify(error="too many open event streams; ask for the job's state at "
                                 f"{url_for('api_job', job_id=job_id)} instead"), 429

        def events():
            version = job.version
            yield f"data: {json.dumps(job_view(job))}\n\n"
            while job.state not in ENDED:
                seen = scheduler.wait(job, version, timeout=15)
                if seen == version:
                    yield ": still working\n\n"
                    continue
                version = seen
                yield f"data: {json.dumps(job_view(job))}\n\n"

        response = Response(events(), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.call_on_close(lambda: streams.give(client))  # however the stream ends
        return response

    @app.get("/api/jobs/<job_id>/result")
    def api_job_result(job_id):
        job = find_job(job_id)
        if job.state != DONE:
            abort(404, f"the job is {job.state}" + (f": {job.error}" if job.error else ""))
        policy = decide.policy(request.args.get("decide"), request.args.get("cutoff"))
        return Response(current_scorer().result_json(job, policy), mimetype="application/json")

    @app.post("/api/jobs/<job_id>/merge")
    def api_job_merge(job_id):
        """A finished job's document merged as a policy decides it, in a format:
        {"format", "decide", "cutoff", "overrides"} -> {"merged", "format", counts}."""
        job = find_job(job_id)
        if job.state != DONE:
            abort(404, f"the job is {job.state}" + (f": {job.error}" if job.error else ""))
        fields = json_body()
        if not isinstance(fields, dict):
            raise BadInput('send JSON like {"format": "markdown"}')
        policy = parse_options(fields)["policy"]
        doc, fmt = job.result, parse_format(fields)
        decisions = decide.of(doc, policy)
        return jsonify(merged=outputs.render(doc, policy, fmt), format=fmt,
                       joined=decisions.count("join"), kept=decisions.count("keep"),
                       breaks=len(decisions))

    # -- labels: an analyst's saved decisions, or a truth text, for the scored document --------
    @app.post("/api/labels")
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

    # -- samples -------------------------------------------------------------------------------
    def samples() -> dict:
        """name -> text of every regular .txt file inside SAMPLES_DIR (no links, nothing
        undecodable)."""
        out = {}
        for path in sorted(samples_dir.glob("*.txt")):
            if path.is_symlink() or not path.is_file():
                continue
            try:
                out[path.name] = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        return out

    @app.get("/api/samples")
    def api_samples():
        return jsonify([{"name": name, "chars": len(text)} for name, text in samples().items()])

    @app.get("/api/samples/<name>")
    def api_sample(name):
        text = samples().get(name)
        if text is None:
            return jsonify(error=f"no sample named {name!r}"), 404
        return jsonify(name=name, text=text)

    def read_text_request():
        """(text or PdfFile, options) from a JSON body or a multipart upload ('file' + fields)."""
        if request.files:
            upload = request.files.get("file")
            if upload is None:
                raise BadInput("the upload has no 'file' field")
            name = upload_name(upload.filename)
            data = upload.read()
            fields = request.form
            if Path(name).suffix.lower() == ".pdf" or data[:5] == b"%PDF-":
                return PdfFile(data, name, request.remote_addr or ""), parse_options(fields)
            if Path(name).suffix.lower() not in ("", ".txt", ".text"):
                raise BadInput(f"{name}: only .txt and .pdf files can be scored")
            if not data:
                raise BadInput(f"{name} is empty (0 bytes)")
            text = decode_input(data, name)
        else:
            fields = json_body()
            if not isinstance(fields, dict):
                raise BadInput('send JSON like {"text": "..."} or upload a file')
            text = fields.get("text")
            if not isinstance(text, str):
                raise BadInput("'text' must be a string")
        return within_limit(text), parse_options(fields)

    def within_limit(text):
        if len(text) > cfg["MAX_CHARS"]:
            raise TooLarge(f"the text has {len(text):,} characters; the limit is "
                           f"{cfg['MAX_CHARS']:,}")
        return text

    return app


def parse_format(fields) -> str:
    fmt = (fields or {}).get("format") or "text"
    if fmt not in outputs.FORMATS:
        raise BadInput(f"unknown format {fmt!r}; use one of {', '.join(outputs.FORMATS)}")
    return fmt


class StreamSlots:
    """Event streams open now, in all and per client: each holds a server thread while open."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = Counter()  # client address -> streams

    def take(self, client, total, per_client) -> bool:
        with self.lock:
            if sum(self.open.values()) >= total or self.open[client] >= per_client:
                return False
            self.open[client] += 1
            return True

    def give(self, client) -> None:
        with self.lock:
            self.open[client] -= 1
            if self.open[client] <= 0:
                del self.open[client]


def json_body():
    """The request's JSON, or None when it is not JSON; too deeply nested JSON is bad input,
    not a server error."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise BadInput("the JSON is nested too deeply") from None


def upload_name(filename) -> str:
    """An upload's file name as we show it: the last part of whatever path the client sent
    ("../../etc/x.pdf" is x.pdf), or "upload" when that names no file."""
    name = Path((filename or "").replace("\\", "/")).name
    return name if name not in ("", ".", "..") else "upload"


def parse_options(fields) -> dict:
    """The scorer's keyword arguments from the request's fields: mode and the policy."""
    mode = fields.get("mode") or DEFAULT_MODE
    if mode not in MODES:
        raise BadInput(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    policy = decide.policy(fields.get("decide"), fields.get("cutoff"), fields.get("overrides"))
    return {"mode": mode, "policy": policy}


def main(argv=None):
    parser = argparse.ArgumentParser(description="Prefill Lens web app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    parser.add_argument("--sample", default="", help="sample file the page opens with")
    parser.add_argument("--threads", type=int, default=16, help="request threads (waitress)")
    parser.add_argument("--debug", action="store_true",
                        help="Flask's development server with the debugger (never in production)")
    args = parser.parse_args(argv)
    config = {"MODEL": args.model, "DEFAULT_SAMPLE": args.sample}
    app = create_app(config)
    # streams must leave threads for everything else (the page, samples, merges)
    app.config["MAX_STREAMS"] = min(app.config["MAX_STREAMS"], max(1, args.threads // 2))
    if args.host not in ("0.0.0.0", "::"):  # the name it is reached by is allowed
        app.config["ALLOWED_HOSTS"] = [*app.config["ALLOWED_HOSTS"], args.host]
    try:
        model = app.extensions["scorer"].model  # load now, not on the first request
    except ScorerError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"Prefill Lens on http://{args.host}:{args.port}/  (model: {model.info['file']})",
          flush=True)
    if args.debug:
        app.run(host=args.host, port=args.port, threaded=True, debug=True, use_reloader=False)
    else:
        from waitress import serve

        serve(app, host=args.host, port=args.port, threads=args.threads, ident="prefill-lens")


if __name__ == "__main__":
    main()
