"""`python -m scorer bench`: our prefill next to bare llama.cpp, same tokens, same windows.

Rows (each run in its own process, so that its peak RSS is its own):
  ref-A        bare llama.cpp prefill asking for logits at no position but each window's last:
               the speed limit of this machine for this model
  ref-B        the same with logits at every position: what any per-token view must pay
  breaks-only  ours, what `merge` and `batch` run (logits only where the breaks need them)
  full         ours, what the page runs (every token's logprob and top-5, cells, breaks)
Each time is the median of --reps runs after one warm-up run; ratios are against ref-A (for
breaks-only) and ref-B (for full). The text is the samples, Chinese and English, repeated.
Does not: assert anything; it measures and prints.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from .document import score
from .model import load_model
from .prefill import DEFAULT_OVERLAP, windows

ROWS = ("ref-A", "ref-B", "breaks-only", "full")
SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def bench_text(n_chars: int) -> str:
    """About n_chars of mixed Chinese/English text: the samples, alternating, cut at a line end."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.txt"))]
    text, k = "", 0
    while len(text) < n_chars:
        text += parts[k % len(parts)]
        k += 1
    cut = text.rfind("\n", 0, n_chars)
    return text[:cut + 1] if cut > 0 else text[:n_chars]


def bare_prefill(model, ids, all_logits: bool, overlap=DEFAULT_OVERLAP) -> int:
    """Reference prefill through llama.cpp's low-level API; returns tokens decoded."""
    lib, ctx = model.lib, model.ctx
    memory = lib.llama_get_memory(ctx)
    batch = lib.llama_batch_init(model.batch, 0, 1)
    decoded = 0
    try:
        for c, _, b in windows(len(ids), model.window, overlap, model.add_bos):
            lib.llama_memory_clear(memory, True)
            seq = ([model.bos] if model.add_bos else []) + list(ids[c:b])
            for s in range(0, len(seq), model.batch):
                chunk = seq[s:s + model.batch]
                for k, tok in enumerate(chunk):
                    batch.token[k] = tok
                    batch.pos[k] = s + k
                    batch.n_seq_id[k] = 1
                    batch.seq_id[k][0] = 0
                    batch.logits[k] = all_logits or (s + k == len(seq) - 1)
                batch.n_tokens = len(chunk)
                if lib.llama_decode(ctx, batch) != 0:
                    raise RuntimeError("llama_decode failed")
                if all_logits:  # touch the block as a consumer would, without reducing it
                    lib.llama_get_logits(ctx)
                decoded += len(chunk)
    finally:
        lib.llama_batch_free(batch)
    return decoded


def peak_rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_row(row, model_path, n_chars, reps) -> dict:
    """Time one row in this process."""
    model = load_model(model_path)
    text = bench_text(n_chars)
    warm = score(model, text, detail="breaks")  # also gives the exact tokens ours decodes
    ids = warm.ids
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        if row == "ref-A":
            with model.lock:
                bare_prefill(model, ids, all_logits=False)
        elif row == "ref-B":
            with model.lock:
                bare_prefill(model, ids, all_logits=True)
        else:
            score(model, text, detail="breaks" if row == "breaks-only" else "full")
        times.append(time.perf_counter() - started)
    seconds = statistics.median(times)
    return {"row": row, "model": model.info["file"], "chars": len(text), "tokens": len(ids),
            "seconds": seconds, "tok_s": len(ids) / seconds, "chars_s": len(text) / seconds,
            "peak_rss_mb": peak_rss_mb(),
            "recomputed_share": warm.stats["recomputed"] / max(1, len(ids)),
            "window": model.window, "overlap": DEFAULT_OVERLAP, "reps": reps}


def run_all(model_path, n_chars, reps) -> list:
    results = []
    for row in ROWS:
        cmd = [sys.executable, "-m", "scorer", "bench", "--row", row, "--chars", str(n_chars),
               "--reps", str(reps)] + (["--model", str(model_path)] if model_path else [])
        env = {**os.environ, "PYTHONPATH": str(SAMPLES.parent)}
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"bench row {row} failed: {out.stderr.strip()[-500:]}")
        results.append(json.loads(out.stdout))
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
        print(json.dumps(run_row(args.row, args.model, args.chars, args.reps)))
        return
    results = run_all(args.model, args.chars, args.reps)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
