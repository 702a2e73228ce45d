"""The Prefill Lens web app: a thin Flask layer over the engine, as a factory and blueprints.

    create_app(config=None, scorer=None) -> Flask app

Config comes from the settings table (settings.py), then PREFILL_LENS_* environment variables,
then `config`. The parts, one job each:
  security.py  allowed hosts, same-origin writes, security headers (before/after each request)
  limits.py    what one client may hold (streams, waiting requests), who owns a job
  parse.py     a request's text or upload, options, format and JSON, checked
  pages.py     the page, the report's shell, the samples
  scoring.py   /api/score, /api/merge, /api/labels: short texts, answered while you wait
  job_api.py   /api/jobs: long documents with progress (an event stream) and cancel
  serve.py     `prefill-lens serve` / `python app.py`: waitress, or Flask's debugger
Every error leaves as {"error": message} with its status (errors.py: 400 bad input, 413 too
large, 422 unreadable PDF, 503 model unavailable or busy).
Does not: score, decide or read PDFs itself (service.py and the engine below it do).
"""

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from .. import report, settings
from ..errors import ScorerError
from ..hybrid import read_weights
from ..pdfguard import Guard
from ..service import Scorer


def create_app(config=None, scorer=None) -> Flask:
    static, templates, _ = report.assets()
    app = Flask(__name__, static_folder=str(static), template_folder=str(templates))
    app.config.from_mapping(settings.web_defaults())
    app.config.from_prefixed_env(settings.ENV_PREFIX.rstrip("_"))
    if config:
        app.config.update(config)
    app.extensions["scorer"] = scorer or scorer_from(app.config)
    # a second model for the page's side-by-side view (None without COMPARE_MODEL)
    app.extensions["compare"] = (scorer_from(app.config, app.config["COMPARE_MODEL"])
                                 if app.config["COMPARE_MODEL"] else None)

    from . import job_api, limits, pages, scoring, security

    security.init_app(app)
    limits.init_app(app)
    app.register_error_handler(ScorerError, scorer_error)
    app.register_error_handler(HTTPException, http_error)
    for blueprint in (pages.bp, scoring.bp, job_api.bp):
        app.register_blueprint(blueprint)
    if app.config["PROXY_HOPS"]:  # behind a proxy: the client is the one it names
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXY_HOPS"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    return app


def scorer_from(cfg, model=None) -> Scorer:
    """The scoring service a config asks for (one model: `model`, else MODEL; PDFs read within
    the web's limits)."""
    guard = Guard(cfg["MAX_PAGES"], cfg["MAX_CHARS"], cfg["PDF_SECONDS"], cfg["PDF_MEMORY_MB"],
                  raise_seconds="the setting PREFILL_LENS_PDF_SECONDS",
                  raise_memory="the setting PREFILL_LENS_PDF_MEMORY_MB")
    weights = read_weights(cfg["WEIGHTS"]) if cfg["WEIGHTS"] else None
    return Scorer(model or cfg["MODEL"], cfg["CACHE_SIZE"], guard, max_active=cfg["MAX_ACTIVE"],
                  idle_timeout=cfg["JOB_IDLE_S"], pdf_readers=cfg["PDF_READERS"],
                  keep=cfg["JOB_KEEP_S"], max_jobs=cfg["MAX_JOBS"],
                  jobs_per_client=cfg["JOBS_PER_CLIENT"], weights=weights)


def scorer_error(exc):
    return jsonify(error=str(exc)), exc.status


def http_error(exc):
    if isinstance(exc, RequestEntityTooLarge):
        from flask import current_app

        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return jsonify(error=f"the upload is too large (limit {limit:,} bytes)"), 413
    return jsonify(error=exc.description), exc.code
