"""A request's input, checked: the text or the uploaded file, the options, the format, JSON.

Each refuses bad input with a BadInput or TooLarge that says what to send instead.
"""

from pathlib import Path

from flask import current_app, request

from .. import decide, outputs
from ..document import DEFAULT_MODE, MODES
from ..errors import BadInput, TooLarge
from ..inputs import check_text_name, decode_text, is_pdf, load_json
from ..service import PdfFile


def text_request():
    """(text or PdfFile, options) from a JSON body or a multipart upload ('file' + fields)."""
    if request.files:
        upload = request.files.get("file")
        if upload is None:
            raise BadInput("the upload has no 'file' field")
        name = upload_name(upload.filename)
        data = upload.read()
        fields = request.form
        if is_pdf(name, data):
            return PdfFile(data, name, request.remote_addr or ""), options(fields)
        check_text_name(name)
        if not data:
            raise BadInput(f"{name} is empty (0 bytes)")
        text = decode_text(data, name)
    else:
        fields = json_body()
        if not isinstance(fields, dict):
            raise BadInput('send JSON like {"text": "..."} or upload a file')
        text = fields.get("text")
        if not isinstance(text, str):
            raise BadInput("'text' must be a string")
    return within_limit(text), options(fields)


def request_fields():
    """The request's fields: the upload's form, else the JSON body."""
    return request.form if request.files else json_body()


def within_limit(text: str) -> str:
    limit = current_app.config["MAX_CHARS"]
    if len(text) > limit:
        raise TooLarge(f"the text has {len(text):,} characters; the limit is {limit:,}")
    return text


def short_only(source):
    """A text short enough to wait for (SYNC_MAX_CHARS); a PDF passes (its length is unknown)."""
    limit = current_app.config["SYNC_MAX_CHARS"]
    if isinstance(source, str) and len(source) > limit:
        raise TooLarge(f"the text has {len(source):,} characters; this route waits for texts "
                       f"of up to {limit:,}: send longer ones to /api/jobs, which reports "
                       "progress and can be cancelled")
    return source


def options(fields) -> dict:
    """The scorer's keyword arguments from the request's fields: mode and the policy."""
    mode = fields.get("mode") or DEFAULT_MODE
    if mode not in MODES:
        raise BadInput(f"unknown mode {mode!r}; use one of {', '.join(MODES)}")
    policy = decide.policy(fields.get("decide"), fields.get("cutoff"), fields.get("overrides"))
    return {"mode": mode, "policy": policy}


def output_format(fields) -> str:
    fmt = (fields or {}).get("format") or "text"
    if fmt not in outputs.FORMATS:
        raise BadInput(f"unknown format {fmt!r}; use one of {', '.join(outputs.FORMATS)}")
    return fmt


def json_body():
    """The request's JSON, or None when it is not sent as JSON; JSON that cannot be read is bad
    input that says why (inputs.load_json), never a server error."""
    if not request.is_json:
        return None
    return load_json(request.get_data(), "the request's JSON")


def upload_name(filename) -> str:
    """An upload's file name as we show it: the last part of whatever path the client sent
    ("../../etc/x.pdf" is x.pdf), or "upload" when that names no file."""
    name = Path((filename or "").replace("\\", "/")).name
    return name if name not in ("", ".", "..") else "upload"
