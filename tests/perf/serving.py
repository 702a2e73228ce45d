"""What a shared server does under load, measured side by side in one run (not a test).

    .venv/bin/python -m tests.perf.serving [--model PATH] [--reps 3]

Prints: a short text's time alone and while a 30,000-character document is being scored (the
ratio is what matters), how long a cancel takes to stop the work, how long each PDF bomb takes
to be refused and how much the server's memory grew meanwhile, and the documents per minute one
server process scores when several arrive at once.
"""

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from app import create_app
from scorer.bench import bench_text
from scorer.jobs import CANCELLED
from scorer.service import Scorer
from tests import pdfs
from tests.conftest import EN_SAMPLE, SAMPLES, PeakRss


def timed(scorer, text) -> float:
    started = time.monotonic()
    scorer.job(text)
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
    args = parser.parse_args()
    scorer = Scorer(args.model)
    print(f"model {scorer.model.info['file']}")
    waits(scorer, args.reps)
    throughput(scorer, 6)
    bombs(args.model)


if __name__ == "__main__":
    main()
