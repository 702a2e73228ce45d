"""`prefill-lens serve` and `python app.py`: the web app on waitress (Flask's development server
with the debugger only when asked for, never in production).

    prefill-lens serve [--host 127.0.0.1] [--port 5000] [--model PATH] [--compare-model PATH]
                       [--sample NAME]
"""

from ..errors import ScorerError


def serve(args) -> None:
    from . import create_app

    config = {"DEFAULT_SAMPLE": args.sample}
    if args.model:
        config["MODEL"] = args.model
    if args.compare_model:
        config["COMPARE_MODEL"] = args.compare_model
    app = create_app(config)
    # streams must leave threads for everything else (the page, samples, merges)
    app.config["MAX_STREAMS"] = min(app.config["MAX_STREAMS"], max(1, args.threads // 2))
    if args.host not in ("0.0.0.0", "::"):  # the name it is reached by is allowed
        app.config["ALLOWED_HOSTS"] = [*app.config["ALLOWED_HOSTS"], args.host]
    try:
        model = app.extensions["scorer"].model  # load now, not on the first request
        if app.extensions["compare"] is not None:
            compare = app.extensions["compare"].model
            print(f"compared with: {compare.info['file']}", flush=True)
    except ScorerError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"Prefill Lens on http://{args.host}:{args.port}/  (model: {model.info['file']})",
          flush=True)
    if args.debug:
        app.run(host=args.host, port=args.port, threaded=True, debug=True, use_reloader=False)
    else:
        from waitress import serve as waitress_serve

        waitress_serve(app, host=args.host, port=args.port, threads=args.threads,
                       ident="prefill-lens")
