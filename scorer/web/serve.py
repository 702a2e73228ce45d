"""`prefill-lens serve` and `python app.py`: the web app on waitress (Flask's development server
with the debugger only when asked for, never in production).

    prefill-lens serve [--host 127.0.0.1] [--port 5000] [--model PATH] [--compare-model PATH]
                       [--sample NAME]

Waitress reads every request whole before a thread takes it, and holds at most 100
connections: one machine with 100 slow uploads would hold them all. So a client address may
hold CONNECTIONS_PER_CLIENT connections (more are closed at once), and a request must arrive
whole within REQUEST_READ_S (a client that trickles it byte by byte is cut off); the caps on
streams and waiting requests (limits.py) are sized to the threads. Behind a reverse proxy
(PROXY_HOPS) every connection is the proxy's: the connection cap is left to it.
"""

import time
from collections import Counter

from ..errors import ScorerError


def serve(args) -> None:
    from . import create_app
    from .pages import score_default_sample

    config = {"DEFAULT_SAMPLE": args.sample}
    if args.model:
        config["MODEL"] = args.model
    if args.weights:
        config["WEIGHTS"] = args.weights
    if args.compare_model:
        config["COMPARE_MODEL"] = args.compare_model
    app = create_app(config)
    size_to_threads(app.config, args.threads)
    if args.host not in ("0.0.0.0", "::"):  # the name it is reached by is allowed
        app.config["ALLOWED_HOSTS"] = [*app.config["ALLOWED_HOSTS"], args.host]
    try:
        model = app.extensions["scorer"].model  # load now, not on the first request
        if app.extensions["compare"] is not None:
            compare = app.extensions["compare"].model
            print(f"compared with: {compare.info['file']}", flush=True)
        if app.config["DEFAULT_SAMPLE"]:
            print(f"scoring {app.config['DEFAULT_SAMPLE']}, which the page opens with", flush=True)
            score_default_sample(app)
    except ScorerError as exc:
        raise SystemExit(f"error: {exc}") from None
    print(f"Prefill Lens on http://{args.host}:{args.port}/  (model: {model.info['file']})",
          flush=True)
    if args.debug:
        app.run(host=args.host, port=args.port, threaded=True, debug=True, use_reloader=False)
    else:
        make_server(app, args.host, args.port, args.threads).run()


def size_to_threads(cfg, threads) -> None:
    """Streams and waiting requests may take a third of the threads each: the page, its files
    and job polls always find one."""
    for cap in ("MAX_STREAMS", "MAX_SYNC"):
        cfg[cap] = min(cfg[cap], max(1, threads // 3))


def make_server(app, host, port, threads=16):
    """The waitress server for `app`, its connections held to the limits above (call .run())."""
    from waitress import create_server

    cfg = app.config
    server = create_server(app, host=host, port=port, threads=threads, ident="prefill-lens",
                           channel_timeout=cfg["REQUEST_READ_S"])
    if cfg["PROXY_HOPS"]:  # every connection comes from the proxy, which guards its clients
        return server
    listeners = getattr(server, "map", None) or server._map
    for listener in [server, *listeners.values()]:
        if hasattr(listener, "channel_class"):
            listener.channel_class = _limited_channel(cfg["CONNECTIONS_PER_CLIENT"],
                                                      cfg["REQUEST_READ_S"])
    return server


def _limited_channel(per_client, read_s):
    from waitress.channel import HTTPChannel

    open_now = Counter()  # client address -> connections open

    class LimitedChannel(HTTPChannel):
        def __init__(self, server, sock, addr, adj, map=None):
            self.client = addr[0] if isinstance(addr, tuple) else str(addr)
            self.counted, self.read_started = True, time.monotonic()
            open_now[self.client] += 1  # the asyncore loop is one thread: no lock needed
            super().__init__(server, sock, addr, adj, map)
            if open_now[self.client] > per_client:
                self.handle_close()

        def received(self, data):
            if self.request is None:  # a new request starts here
                self.read_started = time.monotonic()
            elif time.monotonic() - self.read_started > read_s:
                self.will_close = True  # closed by the loop: it trickled for too long
                return False
            return super().received(data)

        def del_channel(self, map=None):
            if self.counted:
                self.counted = False
                open_now[self.client] -= 1
                if open_now[self.client] <= 0:
                    del open_now[self.client]
            super().del_channel(map)

    return LimitedChannel
