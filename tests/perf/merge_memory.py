"""Peak memory of `prefill-lens merge` against the length of the text (not a test).

    .venv/bin/python -m tests.perf.merge_memory [--model PATH] [--chars 10000 100000 1000000]

Each size is a fresh process (its peak RSS from the kernel, os.wait4) merging mixed Chinese and
English text made from the samples (bench.bench_text); prints the peak and its ratio to the
first size's, with seconds. What should hold: memory flat in document length (the model, its
contexts and the logits buffers are the same size whatever the text; only the text's own arrays
grow).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorer.bench import bench_text
from tests.conftest import SAMPLES


def peak_mb(args) -> tuple:
    """(peak RSS in MB, seconds) of `prefill-lens ARGS` run to its end."""
    command = [str(Path(sys.executable).with_name("prefill-lens")), *args]
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {child.stderr.read().decode()}")
    return usage.ru_maxrss / 1024, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    parser.add_argument("--chars", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    args = parser.parse_args()
    first = None
    with tempfile.TemporaryDirectory() as folder:
        for n in args.chars:
            path = Path(folder) / f"text-{n}.txt"
            path.write_text(bench_text(n, SAMPLES), encoding="utf-8")
            mb, seconds = peak_mb(["merge", str(path), *(["--model", args.model]
                                                          if args.model else [])])
            first = first or mb
            print(f"{n:>9,} chars: peak RSS {mb:6.0f} MB ({mb / first:.2f}x the first), "
                  f"{seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
