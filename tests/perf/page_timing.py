"""Time from clicking Score to a rendered page, in headless Chromium, with the real model.

Not a test (no timed assertions in tests): run it by hand and quote the median.

    .venv/bin/python -m tests.perf.page_timing [--runs 5] [--sample NAME] [--model PATH]

The app runs with its document cache off, so every click pays for a full prefill.
"""

import argparse
import statistics
import threading
from pathlib import Path

from werkzeug.serving import make_server

from app import create_app

ROOT = Path(__file__).resolve().parents[2]

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sample", default="zh-shareholder-resolution.txt")
    parser.add_argument("--model")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    app = create_app({"MODEL": args.model, "CACHE_SIZE": 0})
    app.extensions["scorer"].model  # load before timing
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    text = (ROOT / "samples" / args.sample).read_text(encoding="utf-8")
    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{httpd.server_port}/")
        page.fill("#text", text)
        for _ in range(args.runs):
            page.evaluate("document.querySelector('#doc').replaceChildren()")
            started = page.evaluate("performance.now()")
            page.click("#score")
            page.wait_for_function("document.querySelectorAll('#doc span').length > 0 && "
                                   "!document.querySelector('#score').disabled", timeout=300_000)
            times.append((page.evaluate("performance.now()") - started) / 1000)
        browser.close()
    httpd.shutdown()
    print(f"{args.sample}: Score -> rendered, {len(times)} runs: "
          + ", ".join(f"{t:.2f}" for t in times) + f" s; median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
