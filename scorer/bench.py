"""`python -m scorer bench`: our prefill next to bare llama.cpp, same tokens, same windows.

Rows (each run in its own process, so that its peak RSS is its own):
  ref-A        bare llama.cpp prefill asking for logits at no position but each window's last:
               the speed limit of this machine for this model
  ref-B        the same with logits at every position: what any per-token view must pay
  breaks-only  ours, what `merge` and `batch` run (logits only where the breaks need them)
  full         ours, what the page runs (every token's logprob and top-5, cells, breaks)
Each time is the median of --reps runs, each after a warm-up, the rows interleaved; ratios
are against ref-A (for breaks-only) and ref-B (for full). The text is the samples, Chinese and English, repeated.
Does not: assert anything; it measures and prints.
"""

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from . import breaks as br
from .document import score
from .model import load_model
from .prefill import DEFAULT_OVERLAP, decode, windows

ROWS = ("ref-A", "ref-B", "breaks-only", "full")


def bench_text(n_chars: int, samples: Path) -> str:
    """About n_chars of mixed Chinese/English text: the samples, alternating, cut at a line end."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(Path(samples).glob("*.txt"))]
    text, k = "", 0
    while len(text) < n_chars:
        text += parts[k % len(parts)]
        k += 1
    cut = text.rfind("\n", 0, n_chars)
    return text[:cut + 1] if cut > 0 else text[:n_chars]


def bare_prefill(model, ids, all_logits: bool, overlap=DEFAULT_OVERLAP) -> dict:
    """Reference: the same decode loop as ours (same windows, same batches), nothing reduced.

    ref-A asks for one logits row per window (the least llama.cpp allows a window to give),
    ref-B for every row; the rows are left untouched in llama.cpp's buffer. Returns the stats.
    """
    need = np.ones(len(ids), dtype=bool)
    if not all_logits:  # the last token of every window, so that no window is skipped
        need[:] = False
        for _, _, b in windows(len(ids), model.window, overlap, model.add_bos):
            need[b - 1] = True
    stats = {"windows": 0, "decoded": 0, "recomputed": 0}
    for _ in decode(model, np.asarray(ids, dtype=np.int32), need, overlap=overlap,
                    batch=model.batch, stats=stats):
        pass
    return stats


def peak_rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_once(row, model, text, ids, overlap) -> dict:
    if row in ("ref-A", "ref-B"):
        with model.lock:
            return bare_prefill(model, ids, all_logits=row == "ref-B", overlap=overlap)
    return score(model, text, detail="breaks" if row == "breaks-only" else "full",
                 overlap=overlap).stats


def run_row(row, model_path, n_chars, samples, window, overlap) -> dict:
    """Time one run of one row in this process, after a short untimed warm-up."""
    model = load_model(model_path, window=window)
    text = bench_text(n_chars, samples)
    ids = joined_tokens(model, text)  # exactly the tokens that ours decodes
    warm = bench_text(1000, samples)
    run_once(row, model, warm, joined_tokens(model, warm), overlap)
    started = time.perf_counter()
    stats = run_once(row, model, text, ids, overlap)
    seconds = time.perf_counter() - started
    return {"row": row, "model": model.info["file"], "chars": len(text), "tokens": len(ids),
            "seconds": seconds, "peak_rss_mb": peak_rss_mb(),
            "recomputed_share": stats["recomputed"] / max(1, len(ids)),
            "window": model.window, "overlap": overlap}


def joined_tokens(model, text):
    offsets = br.candidates(text)
    return model.tokenize_exact(br.join_segments(text, offsets, br.joiners(text, offsets)))[0]


def run_all(model_path, n_chars, samples, reps, window, overlap) -> list:
    """Rounds of one run per row, interleaved (A, B, ours, ours, A, ...) so that drift in the
    machine's speed hits every row alike; per row the median time and the largest peak RSS."""
    runs = {row: [] for row in ROWS}
    for _ in range(reps):
        for row in ROWS:
            cmd = [sys.executable, "-m", "scorer", "bench", "--row", row, "--chars", str(n_chars),
                   "--samples", str(samples), "--window", str(window), "--overlap", str(overlap)]
            cmd += ["--model", str(model_path)] if model_path else []
            out = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if out.returncode != 0:
                raise RuntimeError(f"bench row {row} failed: {out.stderr.strip()[-500:]}")
            runs[row].append(json.loads(out.stdout))
    results = []
    for row, rs in runs.items():
        seconds = statistics.median(r["seconds"] for r in rs)
        r = {**rs[0], "seconds": seconds, "reps": len(rs),
             "peak_rss_mb": max(x["peak_rss_mb"] for x in rs)}
        r["tok_s"], r["chars_s"] = r["tokens"] / seconds, r["chars"] / seconds
        results.append(r)
    return results


def table(results) -> str:
    by = {r["row"]: r for r in results}
    first = results[0]
    lines = [f"model {first['model']}, {first['chars']:,} chars, {first['tokens']:,} tokens, "
             f"window {first['window']}, overlap {first['overlap']} "
             f"({first['recomputed_share']:.1%} of tokens recomputed), median of {first['reps']}",
             f"{'row':<12} {'tok/s':>8} {'chars/s':>8} {'seconds':>8} {'peak RSS MB':>12} {'ratio':>14}"]
    for r in results:
        ref = {"breaks-only": "ref-A", "full": "ref-B"}.get(r["row"])
        ratio = f"{r['tok_s'] / by[ref]['tok_s']:.2f}x {ref}" if ref in by else ""
        lines.append(f"{r['row']:<12} {r['tok_s']:8.0f} {r['chars_s']:8.0f} {r['seconds']:8.2f} "
                     f"{r['peak_rss_mb']:12.0f} {ratio:>14}")
    return "\n".join(lines)


def main(args) -> None:
    if args.row:
        print(json.dumps(run_row(args.row, args.model, args.chars, args.samples, args.window,
                                 args.overlap)))
        return
    results = run_all(args.model, args.chars, args.samples, args.reps, args.window, args.overlap)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
