"""The Prefill Lens web app: a thin Flask layer over the engine (scorer/).

Views parse input, call the scorer, and return JSON; every error leaves through one handler as
{"error": message} with the right status (400 bad input, 413 too large, 422 unreadable PDF,
503 model unavailable).

    python app.py [--host 127.0.0.1] [--port 5000] [--model PATH] [--sample NAME]
"""

import argparse
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorer import decide
from scorer.document import DEFAULT_MODE, MODES, decode_input
from scorer.errors import BadInput, ScorerError, TooLarge
from scorer.service import PdfFile, Scorer

ROOT = Path(__file__).resolve().parent

DEFAULTS = {
    "MODEL": None,  # GGUF path; None: $PREFILL_LENS_MODEL, else the packaged Gemma 3 270M
    "MAX_CHARS": 200_000,  # longest text scored in one request
    "MAX_CONTENT_LENGTH": 20 * 1024 * 1024,  # bytes of one request body (uploads included)
    "SAMPLES_DIR": str(ROOT / "samples"),
    "DEFAULT_SAMPLE": "",  # a file name in SAMPLES_DIR that the page loads and scores on open
    "CACHE_SIZE": 16,  # scored documents kept for repeated requests
    "MAX_PAGES": 500,  # longest PDF accepted
}


def create_app(config=None, scorer=None):
    """Layered config: DEFAULTS, then PREFILL_LENS_* environment variables, then `config`."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("PREFILL_LENS")
    if config:
        app.config.update(config)
    app.extensions["scorer"] = scorer or Scorer(app.config["MODEL"], app.config["CACHE_SIZE"],
                                                app.config["MAX_PAGES"])
    samples_dir = Path(app.config["SAMPLES_DIR"])

    def current_scorer():
        return app.extensions["scorer"]

    @app.errorhandler(ScorerError)
    def scorer_error(exc):
        return jsonify(error=str(exc)), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc):
        if isinstance(exc, RequestEntityTooLarge):
            limit = app.config["MAX_CONTENT_LENGTH"]
            return jsonify(error=f"the upload is too large (limit {limit:,} bytes)"), 413
        return jsonify(error=exc.description), exc.code

    @app.get("/")
    def index():
        return render_template("index.html", default_sample=app.config["DEFAULT_SAMPLE"],
                               policy=decide.defaults(), deciders=decide.DECIDERS, modes=MODES,
                               default_mode=DEFAULT_MODE)

    @app.post("/api/score")
    def api_score():
        source, options = read_text_request()
        chunks = current_scorer().score(source, **options)
        return Response(chunks, mimetype="application/json")  # streamed, never parsed back

    @app.post("/api/merge")
    def api_merge():
        source, options = read_text_request()
        return jsonify(current_scorer().merge(source, **options))

    @app.get("/api/samples")
    def api_samples():
        return jsonify([{"name": p.name, "chars": len(p.read_text(encoding="utf-8"))}
                        for p in sorted(samples_dir.glob("*.txt"))])

    @app.get("/api/samples/<name>")
    def api_sample(name):
        path = samples_dir / name
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            return jsonify(error=f"no sample named {name!r}"), 404
        return jsonify(name=name, text=path.read_text(encoding="utf-8"))

    def read_text_request():
        """(text or PdfFile, options) from a JSON body or a multipart upload ('file' + fields)."""
        if request.files:
            upload = request.files.get("file")
            if upload is None:
                raise BadInput("the upload has no 'file' field")
            name = upload.filename or "upload"
            data = upload.read()
            fields = request.form
            if Path(name).suffix.lower() == ".pdf" or data[:5] == b"%PDF-":
                return PdfFile(data, name), parse_options(fields)
            text = decode_input(data, name)
        else:
            fields = request.get_json(silent=True)
            if not isinstance(fields, dict):
                raise BadInput('send JSON like {"text": "..."} or upload a file')
            text = fields.get("text")
            if not isinstance(text, str):
                raise BadInput("'text' must be a string")
        if len(text) > app.config["MAX_CHARS"]:
            raise TooLarge(f"the text has {len(text):,} characters; the limit is "
                              f"{app.config['MAX_CHARS']:,}")
        return text, parse_options(fields)

    return app


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
    args = parser.parse_args(argv)
    app = create_app({"MODEL": args.model, "DEFAULT_SAMPLE": args.sample})
    try:
        model = app.extensions["scorer"].model  # load now, not on the first request
    except ScorerError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"Prefill Lens on http://{args.host}:{args.port}/  (model: {model.info['file']})")
    app.run(host=args.host, port=args.port, threaded=True)


if __name__ == "__main__":
    main()
