"""The page, the report's shell and the samples it offers."""

from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template

from .. import decide, report
from ..document import DEFAULT_MODE, MODES

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    compare = current_app.extensions["compare"]
    return render_template("index.html", default_sample=current_app.config["DEFAULT_SAMPLE"],
                           compare=Path(compare.model_path).name if compare else None,
                           policy=decide.defaults(), deciders=decide.DECIDERS, modes=MODES,
                           default_mode=DEFAULT_MODE, report_marker=report.MARKER)


def score_default_sample(app) -> None:
    """Score the sample the page opens with now (`serve` does at start-up): the first visitor
    sees it at once, from the cache, instead of watching it being scored."""
    name = app.config["DEFAULT_SAMPLE"]
    with app.app_context():
        text = samples().get(name) if name else None
    if text is not None:
        app.extensions["scorer"].run_job(text, DEFAULT_MODE)


@bp.get("/api/report-shell")
def report_shell():
    """The HTML report with an empty data slot: the page fills in the document it holds (so a
    report can be made as long as the page is open, whatever the server forgot)."""
    return Response(report.shell(), mimetype="text/html")


def samples() -> dict:
    """name -> text of every regular .txt file inside SAMPLES_DIR (no links, nothing
    undecodable)."""
    folder = Path(current_app.config["SAMPLES_DIR"] or report.assets()[2])
    out = {}
    for path in sorted(folder.glob("*.txt")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            out[path.name] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


@bp.get("/api/samples")
def api_samples():
    return jsonify([{"name": name, "chars": len(text)} for name, text in samples().items()])


@bp.get("/api/samples/<name>")
def api_sample(name):
    text = samples().get(name)
    if text is None:
        return jsonify(error=f"no sample named {name!r}"), 404
    return jsonify(name=name, text=text)
