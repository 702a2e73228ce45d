"""What every request passes through: the Host header must name an allowed host (against DNS
rebinding), a request that changes state must come from the page's own origin, and every answer
carries the security headers (a strict CSP: the page runs only its own scripts).

Flask 3.1's TRUSTED_HOSTS would refuse a wrong host too, but with a message that does not say
which setting to change; ALLOWED_HOSTS also takes "*" and a comma list from the environment.
"""

from urllib.parse import urlsplit

from flask import abort, current_app, request

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def init_app(app) -> None:
    app.before_request(only_our_host_and_origin)
    app.after_request(security_headers)


def allowed_hosts(value) -> list:
    """ALLOWED_HOSTS as a list; from the environment it is "a.example,b.example"."""
    if isinstance(value, str):
        return [h.strip() for h in value.split(",")]
    return list(value)


def only_our_host_and_origin():
    host = urlsplit(f"//{request.host}").hostname or ""
    allowed = allowed_hosts(current_app.config["ALLOWED_HOSTS"])
    if "*" not in allowed and host not in allowed:
        abort(400, f"host {host!r} is not served here; set PREFILL_LENS_ALLOWED_HOSTS")
    if request.method not in SAFE_METHODS:
        site = request.headers.get("Sec-Fetch-Site")
        origin = request.headers.get("Origin")
        if (site and site not in ("same-origin", "none")) or \
                (origin and urlsplit(origin).netloc != request.host):
            abort(403, "cross-site requests are refused")


def security_headers(response):
    response.headers.update(SECURITY_HEADERS)
    return response
