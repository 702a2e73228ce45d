"""`python -m scorer batch`: many PDFs and text files -> merged text + scores, safely.

Does: expand files, folders and globs into inputs; give each a unique output name (inputs of
the same name from different folders do not collide); skip inputs already done with the same
content and settings unless forced; score each in one of N workers, each with its own model:
processes on this machine (the local engine) or Ray actors (raybatch.py); write every output
from the driver, atomically (temp file + rename); never let one bad file stop the batch;
report progress on a terminal, and a summary (summary.json and stderr). Each input is handled by batchfile.py, whichever
engine runs it (ENGINES).
Does not: decide anything itself (decide.py does).
"""

import glob
import hashlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

from . import decide, outputs
from .atomic import check_folder_target, write_atomic
from .batchfile import BatchFile, failed_row, score_path
from .document import DEFAULT_MODE
from .errors import BadInput, ScorerError
from .hybrid import WEIGHTS_FILE, read_weights
from .inputs import SUFFIXES, shown
from .model import load_model, sha256_file
from .pdfguard import Guard



def expand(inputs) -> list:
    """Files, folders (searched recursively) and glob patterns -> sorted unique input files."""
    found, missing = [], []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found += [p for p in path.rglob("*") if _a_file(p) and p.suffix.lower() in SUFFIXES]
        elif _a_file(path):  # a pipe or device too: it fails as one input, with its reason
            found.append(path)
        else:
            matches = [Path(m) for m in glob.glob(item, recursive=True) if _a_file(Path(m))]
            if not matches:
                missing.append(item)
            found += matches
    if missing:
        raise ScorerError(f"no such file, folder or match: {', '.join(map(shown, missing))}")
    unique = {p.resolve(): p for p in found}
    return [unique[k] for k in sorted(unique)]


def _a_file(path: Path) -> bool:
    """Anything there but a folder (a broken link is not there)."""
    return path.exists() and not path.is_dir()


def stamp_of(path: Path, settings: dict, model_path) -> dict:
    """What makes an input's outputs current: its content's hash and the settings; a
    ScorerError when it cannot be read (the batch reads regular files only: a pipe's content
    cannot be hashed and then read again)."""
    if not path.is_file():
        raise ScorerError(f"{shown(path)} is not a regular file (a pipe or a device): the batch "
                          "reads files")
    try:
        digest = sha256_file(path)
    except OSError as exc:
        raise ScorerError(f"cannot read {shown(path)}: {exc.strerror}") from None
    return {"input_sha256": digest, **settings, "model": model_path and str(model_path) or
            "default"}


WORKER_MB = 1024  # what one worker holds: its model, its llama.cpp context, its PDF reader


def worker_count(workers: int, engine="local", address=None, stream=sys.stderr) -> int:
    """`workers`, lowered to what this machine can run (each a process with a model) when the
    workers run here; says so on `stream` when it lowers it."""
    if workers < 1:
        raise BadInput("--workers must be at least 1")
    if engine == "ray" and address:
        return workers  # a cluster's own resources decide
    cores = len(os.sched_getaffinity(0))
    free_mb = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    most = max(1, min(cores, free_mb // WORKER_MB))
    if workers > most:
        stream.write(f"batch: --workers {workers} lowered to {most} ({cores} cores, "
                     f"{free_mb:,} MB free, about {WORKER_MB:,} MB a worker)\n")
    return min(workers, most)


def output_names(files) -> dict:
    """Path -> output base name: the file name, plus a short hash of its folder when two
    inputs share a name."""
    counts = {}
    for path in files:
        counts[path.name] = counts.get(path.name, 0) + 1
    names = {}
    for path in files:
        name = path.name
        if counts[name] > 1:
            folder = hashlib.sha256(os.fsencode(path.resolve().parent)).hexdigest()[:8]
            name = f"{path.stem}-{folder}{path.suffix}"
        names[path] = shown(name)  # a name that is not UTF-8 gets \x escapes in its outputs' names
    return names


def is_done(outdir: Path, name: str, stamp: dict) -> bool:
    suffix = outputs.SUFFIXES[stamp.get("format", "text")]
    meta, txt = outdir / f"{name}.json", outdir / f"{name}{suffix}"
    if not (meta.is_file() and txt.is_file()):
        return False
    if stamp.get("report") and not (outdir / f"{name}.html").is_file():
        return False
    try:
        with meta.open(encoding="utf-8") as fh:
            return json.load(fh).get("batch") == stamp
    except (OSError, ValueError):
        return False


# -- the local engine: worker processes here ---------------------------------------------
_worker = {}


def _init_worker(model_path, threads):
    _worker["model"] = load_model(model_path, **({"threads": threads} if threads else {}))


def process(item) -> dict:
    return score_path(_worker["model"], item)


def local_rows(items, model_path=None, workers=1, address=None):
    """The local engine: N worker processes with their own model and cores/N threads each."""
    if workers <= 1:
        _init_worker(model_path, None)
        yield from map(process, items)
        return
    threads = max(1, len(os.sched_getaffinity(0)) // workers)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(model_path, threads)) as pool:
        yield from pool.imap_unordered(process, items)


def ray_rows(items, model_path=None, workers=2, address=None):
    """The Ray engine (raybatch.py, imported only when asked for: Ray is heavy and optional)."""
    from . import raybatch
    yield from raybatch.rows(items, model_path, workers, address)


ENGINES = {"local": local_rows, "ray": ray_rows}  # engine -> its rows(items, model, workers, address)


def write_outputs(outdir: Path, row) -> dict:
    """The driver writes a finished row's outputs, the .json last (it marks the input done)."""
    txt, meta, html = row.pop("txt", None), row.pop("json", None), row.pop("html", None)
    suffix = row.pop("suffix", ".txt")
    if row["ok"]:
        try:
            write_atomic(outdir / f"{row['output']}{suffix}", txt)
            if html is not None:
                write_atomic(outdir / f"{row['output']}.html", html)
            write_atomic(outdir / f"{row['output']}.json", meta)
        except ScorerError as exc:
            row.update(ok=False, reason=str(exc))
    return row


# -- driver ---------------------------------------------------------------------------------
class Progress:
    """One line on a terminal: files, pages and tokens per second, ETA. Silent otherwise."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.stream = total, stream
        self.enabled = stream.isatty()
        self.started = time.perf_counter()
        self.done = self.pages = self.tokens = 0

    def update(self, row):
        self.done += 1
        self.pages += row["pages"]
        self.tokens += row["tokens"]
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        self.stream.write(f"\r[{self.done}/{self.total}] files · {self.pages / elapsed:.1f} pages/s"
                          f" · {self.tokens / elapsed:,.0f} tokens/s · ETA {eta:,.0f} s   ")
        self.stream.flush()

    def close(self):
        if self.enabled:
            self.stream.write("\n")


def run(inputs, outdir, model_path=None, workers=1, mode=DEFAULT_MODE, force=False,
        stream=sys.stderr, policy=decide.Policy(), engine="local", address=None,
        report=False, guard=Guard(), fmt="text", weights=None) -> dict:
    """The batch: `engine` "local" (processes here) or "ray" (raybatch.py); same outputs.
    `report`: also OUTDIR/<name>.html, the shareable report (report.py); `guard`: the limits
    each PDF is read within (a bomb is one failed input, not a stuck batch); `fmt`: the merged
    output as OUTDIR/<name>.txt, .md or .jsonl (outputs.py); `weights`: the hybrid's weights
    file (`prefill-lens train`; None: the shipped ones)."""
    if fmt not in outputs.FORMATS:
        raise BadInput(f"unknown format {fmt!r}; use one of {', '.join(outputs.FORMATS)}")
    if engine not in ENGINES:
        raise BadInput(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    files = expand(inputs)
    if not files:
        raise ScorerError("no .pdf or .txt inputs found")
    workers = worker_count(workers, engine, address, stream)
    outdir = Path(outdir)
    check_folder_target(outdir)  # before any work: a missing folder is made, a bad one refused
    family = read_weights(weights) if weights else None  # refused before any work
    settings = {"cutoff": policy.cutoff, "mode": mode, "by": policy.by,  # new weights: redone
                "weights": sha256_file(Path(weights) if weights else WEIGHTS_FILE)[:16]}
    if report:
        settings["report"] = True
    if fmt != "text":
        settings["format"] = fmt
    model_file = load_model(model_path).info if workers == 1 and engine == "local" else None
    names = output_names(files)
    items, skipped, rows = [], [], []
    for path in files:
        try:
            stamp = stamp_of(path, settings, model_path)
        except ScorerError as exc:
            rows.append(failed_row(BatchFile(path, names[path], {}, mode, policy), str(exc)))
            continue
        if not force and is_done(outdir, names[path], stamp):
            skipped.append(shown(path))
        else:
            items.append(BatchFile(path, names[path], stamp, mode, policy, report, guard, fmt,
                                   family))
    started = time.perf_counter()
    progress = Progress(len(items), stream)
    for row in ENGINES[engine](items, model_path, workers, address):
        rows.append(write_outputs(outdir, row))
        progress.update(row)
    progress.close()
    wall = time.perf_counter() - started
    ok = [r for r in rows if r["ok"]]
    by_input = sorted(rows, key=lambda r: r["input"])  # whatever order the workers finished in
    summary = {
        "files": len(files), "ok": len(ok), "failed": len(rows) - len(ok), "skipped": len(skipped),
        "pages": sum(r["pages"] for r in ok), "chars": sum(r["chars"] for r in ok),
        "tokens": sum(r["tokens"] for r in ok), "wall_s": round(wall, 3),
        "tokens_per_s": round(sum(r["tokens"] for r in ok) / wall, 1) if rows else 0.0,
        "pages_per_s": round(sum(r["pages"] for r in ok) / wall, 3) if rows else 0.0,
        "engine": engine, "workers": workers, "settings": settings,
        "model": model_file["file"] if model_file else str(model_path or "default"),
        "failures": [{"input": r["input"], "reason": r["reason"]} for r in by_input if not r["ok"]],
        "warnings": [{"input": r["input"], "warning": w}
                     for r in by_input if r["ok"] for w in r.get("warnings", [])],
        "results": by_input, "skipped_inputs": skipped,
    }
    stream.write(readable(summary))  # first: the per-file summary even if the disk is full
    write_atomic(outdir / "summary.json", json.dumps(summary, ensure_ascii=False, indent=1))
    return summary


def readable(summary) -> str:
    lines = [f"batch: {summary['ok']} ok, {summary['failed']} failed, {summary['skipped']} "
             f"skipped (already done) of {summary['files']} files; {summary['pages']} pages, "
             f"{summary['chars']:,} characters, {summary['tokens']:,} tokens in "
             f"{summary['wall_s']:.1f} s ({summary['tokens_per_s']:,.0f} tokens/s, "
             f"{summary['pages_per_s']:.2f} pages/s, {summary['workers']} worker(s))"]
    lines += [f"  failed: {f['input']}: {f['reason']}" for f in summary["failures"]]
    lines += [f"  warning: {w['input']}: {w['warning']}" for w in summary["warnings"]]
    return "\n".join(lines) + "\n"
