"""What a shared server does under load, measured side by side in one run (not a test).

    .venv/bin/python -m tests.perf.serving [--model PATH] [--reps 3]

Prints: a short text's time alone and while a 30,000-character document is being scored (the
ratio is what matters), the same as the page sees it beside another user's 40-page PDF, how long a cancel takes to stop the work, how long each PDF bomb takes
to be refused and how much the server's memory grew meanwhile, the documents per minute one
server process scores when several arrive at once, how long the page and a short merge take
while more event streams are open than the server has threads, and how long a good PDF takes
while two many-page bombs hold the PDF readers.
"""

import argparse
import io
import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from app import create_app
from scorer.bench import bench_text
from scorer.jobs import CANCELLED
from scorer.errors import ScorerError
from scorer.service import PdfFile, Scorer
from tests import pdfs
from tests.conftest import EN_SAMPLE, SAMPLES, PeakRss, trickle


def timed(scorer, text) -> float:
    started = time.monotonic()
    scorer.run_job(text)
    return time.monotonic() - started


def waits(scorer, reps):
    short = EN_SAMPLE.read_text(encoding="utf-8") * 3
    timed(scorer, short + "\nwarm-up")
    solo = [timed(scorer, f"{short}\nsolo {k}") for k in range(reps)]
    shared, cancels = [], []
    for k in range(reps):
        long = scorer.submit(bench_text(30_000, SAMPLES) + f"\nlong {k}")
        while long.done == 0:
            scorer.scheduler.wait(long, long.version, timeout=60)
        shared.append(timed(scorer, f"{short}\nshared {k}"))
        started = time.monotonic()
        scorer.scheduler.cancel(long)
        while long.state != CANCELLED:
            time.sleep(0.005)
        cancels.append(time.monotonic() - started)
    s, m = statistics.median(solo), statistics.median(shared)
    print(f"short text ({len(short):,} chars): alone median {s:.2f} s, while a 30,000-char "
          f"document runs median {m:.2f} s ({m / s:.2f}x; runs {', '.join(f'{x:.2f}' for x in shared)})")
    print(f"cancel -> stopped: median {statistics.median(cancels) * 1000:.0f} ms "
          f"(max {max(cancels) * 1000:.0f} ms)")


def beside_pdf(model, reps):
    """The page's view of a short text (763 characters) asked alone, then while another user's
    40-page PDF is read and scored: polled every 50 ms as the page does, the result fetched.
    Prints the medians, the ratio, how long it sat queued, and how long its progress showed a
    stage at 100 % while work went on (the page says "going on" there; it should be short)."""
    app = create_app({"TESTING": True, "MODEL": model})
    mine, theirs = app.test_client(), app.test_client()
    short = EN_SAMPLE.read_text(encoding="utf-8")[:763]

    def follow(text):
        started = time.monotonic()
        url = mine.post("/api/jobs", json={"text": text}).get_json()["url"]
        seen = []
        while True:
            job = mine.get(url).get_json()
            p = job["progress"]
            seen.append((time.monotonic() - started, job["state"], p["done"], p["total"]))
            if job["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.05)
        assert mine.get(url + "/result").status_code == 200
        total = time.monotonic() - started
        queued = max((t for t, state, *_ in seen if state == "queued"), default=0.0)
        full = sum(b[0] - a[0] for a, b in zip(seen, seen[1:])
                   if a[1] == "running" and a[3] and a[2] >= a[3])
        return total, queued, full

    follow(short + "\nwarm-up")
    solo = [follow(f"{short}\nsolo {k}") for k in range(reps)]
    shared = []
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "book.pdf"
        pdfs.book(book, pages=40)
        for k in range(reps):
            r = theirs.post("/api/jobs", data={"file": (io.BytesIO(book.read_bytes()), f"b{k}.pdf")},
                            content_type="multipart/form-data")
            url = r.get_json()["url"]
            while theirs.get(url).get_json()["progress"]["stage"] != "prefill":
                time.sleep(0.05)  # the PDF read, its prefill under way
            time.sleep(1.0)
            shared.append(follow(f"{short}\nshared {k}"))
            theirs.delete(url)
    s, m = statistics.median(t for t, *_ in solo), statistics.median(t for t, *_ in shared)
    print(f"short text ({len(short)} chars) on the page: alone median {s:.2f} s, beside a 40-page "
          f"PDF median {m:.2f} s ({m / s:.2f}x; runs {', '.join(f'{t:.2f}' for t, *_ in shared)}); "
          f"queued at most {max(q for _, q, _ in shared):.2f} s; a stage shown at 100 % while "
          f"work went on: at most {max(f for *_, f in solo + shared):.2f} s")


def bombs(model):
    app = create_app({"TESTING": True, "MODEL": model})
    client = app.test_client()
    with tempfile.TemporaryDirectory() as tmp:
        for make in (pdfs.operator_bomb, pdfs.stream_bomb):
            path = Path(tmp) / f"{make.__name__}.pdf"
            make(path)
            started = time.monotonic()
            with PeakRss() as memory:
                r = client.post("/api/score",
                                data={"file": (io.BytesIO(path.read_bytes()), path.name)},
                                content_type="multipart/form-data")
            print(f"{make.__name__} ({path.stat().st_size / 1024:.0f} KB): {r.status_code} in "
                  f"{time.monotonic() - started:.1f} s, server RSS +{memory.growth:.0f} MB: "
                  f"{r.get_json()['error']}")


def streams(model, n=24, threads=16, capped=True):
    """`n` event streams held open on a real waitress server of `threads` threads, then the
    page and a short merge asked for beside them (medians of 3); `capped` False: as before the
    cap (the baseline)."""
    from waitress.server import create_server

    app = create_app({"MODEL": model})
    app.config["MAX_STREAMS"] = threads // 2 if capped else 10**6  # as app.main sets it
    app.config["STREAMS_PER_CLIENT"] = app.config["STREAMS_PER_CLIENT"] if capped else 10**6
    scorer = app.extensions["scorer"]
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}"
    long = scorer.submit(bench_text(30_000, SAMPLES))

    def timed_get(path, data=None):
        started = time.monotonic()
        req = urllib.request.Request(url + path, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
        except OSError:  # timed out: no thread answered
            return float("inf")
        return time.monotonic() - started

    def merge(k):  # another text each time: never answered from the cache
        return f'{{"text": "A line that wraps in\\nthe middle, number {k}."}}'.encode()

    before = [(timed_get("/"), timed_get("/api/merge", merge(k))) for k in range(3)]
    held, statuses = [], []
    for k in range(n):  # from 12 loopback addresses, as 12 users' tabs would
        conn = socket.create_connection(("127.0.0.1", server.effective_port), 5,
                                        source_address=(f"127.0.0.{10 + k % 12}", 0))
        conn.sendall(f"GET /api/jobs/{long.id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                     .encode())
        conn.settimeout(10)
        try:
            statuses.append(conn.recv(64).split(b" ")[1].decode())
        except OSError:
            statuses.append("no answer")
        held.append(conn)
    during = [(timed_get("/"), timed_get("/api/merge", merge(k))) for k in range(3, 6)]
    print(f"{'with' if capped else 'WITHOUT'} the cap, {n} event streams opened from 12 addresses on {threads} threads: {statuses.count('200')} streamed, "
          f"{statuses.count('429')} refused (the page polls); page median "
          f"{statistics.median(p for p, _ in before) * 1000:.0f} ms before, "
          f"{statistics.median(p for p, _ in during) * 1000:.0f} ms with them open; short merge "
          f"{statistics.median(m for _, m in before):.2f} s before, "
          f"{statistics.median(m for _, m in during):.2f} s with them open")
    for conn in held:
        conn.close()
    scorer.scheduler.cancel(long)
    server.close()


def bomb_beside_good_pdf(model):
    """Two 100-page bombs from one user; how long another user's good PDF takes meanwhile."""
    app = create_app({"TESTING": True, "MODEL": model})
    with tempfile.TemporaryDirectory() as tmp:
        bomb = Path(tmp) / "pages.pdf"
        pdfs.pages_bomb(bomb)
        goods = []
        for k in range(3):  # the same shape, other text: never answered from the cache
            goods.append(Path(tmp) / f"report-{k}.pdf")
            pdfs.text_pdf(goods[-1], [f"Line {n} of report {k}, which wraps in the middle of"
                                      for n in range(60)])

        def post(path, out, sender="127.0.0.2"):  # a loopback address, as a label
            started = time.monotonic()
            r = app.test_client().post(
                "/api/merge", data={"file": (io.BytesIO(path.read_bytes()), path.name)},
                content_type="multipart/form-data", environ_base={"REMOTE_ADDR": sender})
            out.append((time.monotonic() - started, r.status_code, r.get_json()))

        alone = []
        post(goods[0], [])  # warm-up: the model, a reader
        post(goods[1], alone)
        bombs, beside = [], []
        workers = [threading.Thread(target=post, args=(bomb, bombs)) for _ in range(2)]
        for w in workers:
            w.start()
        time.sleep(1.0)  # both readers busy
        post(goods[2], beside, sender="127.0.0.3")  # another user
        for w in workers:
            w.join()
        size = bomb.stat().st_size
    print(f"a good PDF alone {alone[0][0]:.1f} s ({alone[0][1]}), beside two 100-page bombs "
          f"({size / 1024:.0f} KB each) {beside[0][0]:.1f} s ({beside[0][1]}); "
          f"the bombs refused in {', '.join(f'{b[0]:.1f} s ({b[1]})' for b in bombs)}: "
          f"{bombs[0][2]['error'] if bombs else ''}")


def clients(model, limited=True, threads=16):
    """What one machine can do to everyone else, with the per-client limits (limits.py, serve.py,
    service.ReaderSlots) and, as the baseline in the same run, without them: the page's answer
    time from another address while 110 uploads trickle a byte every 2 s, and while 20 texts of
    3,000 characters wait for their scoring from one address; another address's short text
    while one address has filled the job queue; a good PDF's wait while bombs from three
    addresses come again and again."""
    from waitress.server import create_server

    from scorer.service import ReaderSlots
    from scorer.web.serve import make_server

    unlimited = {} if limited else {"MAX_SYNC": 10**6, "SYNC_PER_CLIENT": 10**6,
                                    "JOBS_PER_CLIENT": 10**6}
    app = create_app({"MODEL": model, **unlimited})
    if limited:
        server = make_server(app, "127.0.0.1", 0, threads)
    else:
        server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    threading.Thread(target=server.run, daemon=True).start()
    port, label = server.effective_port, "with" if limited else "WITHOUT"
    url = f"http://127.0.0.1:{port}"
    scorer = app.extensions["scorer"]
    scorer.run_job("warm\nup")

    def page_time(timeout=20):
        started = time.monotonic()
        try:
            with urllib.request.urlopen(url + "/", timeout=timeout) as r:
                r.read()
        except OSError:
            return float("inf")
        return time.monotonic() - started

    # 110 slow uploads from one address
    stop = threading.Event()
    tricklers = [threading.Thread(target=trickle, args=(port, "127.0.0.2", stop, 2.0),
                                  daemon=True) for _ in range(110)]
    for t in tricklers:
        t.start()
    time.sleep(3)
    slow = [page_time() for _ in range(3)]
    stop.set()
    # 20 waiting requests of 3,000 characters from one address
    answers = []

    def score(k):
        data = json.dumps({"text": bench_text(3_000, SAMPLES) + f"\nrequest {k}"}).encode()
        req = urllib.request.Request(url + "/api/score", data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                answers.append(r.status)
        except urllib.error.HTTPError as exc:
            answers.append(exc.code)
        except OSError:
            answers.append("no answer")

    scorers = [threading.Thread(target=score, args=(k,)) for k in range(20)]
    for t in scorers:
        t.start()
    busy = []
    while any(t.is_alive() for t in scorers):  # the page, every second while they wait
        time.sleep(1)
        busy.append(page_time(timeout=120))
    for t in scorers:
        t.join()
    # one address fills the queue; another's short text
    filler, refused = [], 0
    for k in range(scorer.scheduler.max_jobs):
        try:
            filler.append(scorer.submit(bench_text(30_000, SAMPLES) + f"\nfill {k}",
                                        client="10.0.0.1"))
        except ScorerError:
            refused += 1
    started = time.monotonic()
    try:
        scorer.run_job("A short text that\nwraps, from someone else.", client="10.0.0.2")
        other = f"{time.monotonic() - started:.1f} s"
    except Exception as exc:  # noqa: BLE001 -- the refusal is the point
        other = f"refused: {exc}"
    for job in filler:
        scorer.scheduler.cancel(job)
    # bombs from three addresses, again and again; a good PDF from a fourth
    ReaderSlots.SUSPECT_S = 600.0 if limited else 0.0
    with tempfile.TemporaryDirectory() as tmp:
        bomb, good = Path(tmp) / "pages.pdf", Path(tmp) / "good.pdf"
        pdfs.pages_bomb(bomb)
        pdfs.text_pdf(good, [f"Line {n} of a report, which wraps in the middle of" for n in
                             range(60)])
        end = time.monotonic() + 50

        def bomber(address):  # uploads a bomb again as soon as the last one was refused
            while time.monotonic() < end:
                try:
                    scorer.run_job(PdfFile(bomb.read_bytes(), "pages.pdf", address),
                                   client=address)
                except ScorerError:
                    pass

        for address in ("10.0.1.1", "10.0.1.2", "10.0.1.3"):
            threading.Thread(target=bomber, args=(address,), daemon=True).start()
        time.sleep(25)  # past the first round of bombs (20 s each)
        started = time.monotonic()
        scorer.run_job(PdfFile(good.read_bytes(), "good.pdf", "10.0.2.1"))
        good_wait = time.monotonic() - started
        time.sleep(max(0.0, end - time.monotonic() + 25))  # the bombers' last reads end
        ReaderSlots.SUSPECT_S = 600.0
    server.close()
    print(f"{label} the per-client limits, {threads} threads: the page from another address "
          f"while 110 uploads trickle from one: median {statistics.median(slow):.2f} s (runs "
          f"{', '.join(f'{x:.2f}' for x in slow)}); while 20 texts of 3,000 characters wait "
          f"from one address: median {statistics.median(busy):.2f} s, at most {max(busy):.2f} s "
          f"({answers.count(200)} "
          f"scored, {answers.count(429)} refused with 429); another address's short text while "
          f"one sent {len(filler) + refused} ({refused} refused): {other}; a good PDF while bombs come from three addresses: "
          f"{good_wait:.1f} s")


def truth_alignment(model=None):
    """The worst case a truth text can cost in a request now: a document at MAX_CHARS and a
    truth text as long as is allowed, once one that fits and once one that does not."""
    from scorer import labelfile
    from scorer.settings import DEFAULT

    lines = EN_SAMPLE.read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines * (DEFAULT["MAX_CHARS"] // len("\n".join(lines))))[:DEFAULT["MAX_CHARS"]]
    limit = int(labelfile.TRUTH_SLACK * len(text) + labelfile.TRUTH_SLACK_CHARS)
    fits = text.replace("\n", " ")[:limit]
    other = ("A paragraph that is not in the document at all, again and again.\n" * limit)[:limit]
    for label, truth in (("fits", fits), ("does not fit", other)):
        started = time.process_time()
        try:
            labelfile.from_truth(text, truth)
            outcome = "labels"
        except Exception as e:  # noqa: BLE001 -- the refusal is the point
            outcome = type(e).__name__
        print(f"truth text of {len(truth):,} chars that {label}, document of {len(text):,}: "
              f"{outcome} after {time.process_time() - started:.2f} s CPU")


def throughput(scorer, n):
    texts = [EN_SAMPLE.read_text(encoding="utf-8") + f"\ncopy {k}" for k in range(n)]
    started = time.monotonic()
    jobs = [scorer.submit(t) for t in texts]
    for job in jobs:
        scorer.scheduler.wait(job)
    wall = time.monotonic() - started
    tokens = sum(len(j.result.ids) for j in jobs)
    print(f"{n} documents of {len(texts[0]):,} chars submitted at once: {wall:.1f} s, "
          f"{60 * n / wall:.1f} documents/min, {tokens / wall:.0f} tokens/s (full detail)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--only", choices=("streams", "bombs", "truth", "clients", "beside"),
                        help="run only these rows")
    args = parser.parse_args()
    if args.only:
        rows = {"streams": [streams, lambda m: streams(m, capped=False)],
                "bombs": [bombs, bomb_beside_good_pdf], "truth": [truth_alignment],
                "clients": [clients, lambda m: clients(m, limited=False)],
                "beside": [lambda m: beside_pdf(m, args.reps)]}
        for row in rows[args.only]:
            row(args.model)
        return
    scorer = Scorer(args.model)
    print(f"model {scorer.model.info['file']}")
    waits(scorer, args.reps)
    beside_pdf(args.model, args.reps)
    throughput(scorer, 6)
    bombs(args.model)
    bomb_beside_good_pdf(args.model)
    streams(args.model)
    streams(args.model, capped=False)
    truth_alignment()
    clients(args.model)
    clients(args.model, limited=False)


if __name__ == "__main__":
    main()
