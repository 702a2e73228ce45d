"""`prefill-lens` (or `python -m scorer`): the engine from the command line.

  score INPUT   the Document as JSON (tokens, cells, breaks) on stdout or -o FILE
  merge INPUT   the merged text on stdout or -o FILE
  report INPUT  one self-contained HTML file: the page's view of INPUT, offline (report.py)
  batch IN...    many files -> OUTDIR/<name>.txt, .json [, .html] and summary.json (batch.py)
  eval          decisions against labelled breaks, next to baselines (evaluate/); with
                --labels FILE DOC...: against an analyst's labels (labelfile.py)
  bench         our prefill next to bare llama.cpp on the same tokens (see bench.py)

INPUT is a .txt or .pdf path, or `-` for standard input (text). Errors: one line on stderr and
the error's exit status (errors.py; 2 for bad input).
Does not: hold any logic of its own beyond reading input and writing output.
"""

import argparse
import os
import sys
from pathlib import Path

from . import contract, decide
from .atomic import check_file_target, write_atomic
from .decide import DECIDERS, DEFAULT_CUTOFF
from .document import DEFAULT_MODE, DEFAULT_TOP_K, DETAILS, MODES, decode_input, score, score_pdf
from .errors import BadInput, ScorerError
from .model import DEFAULT_WINDOW, ENV_MODEL, load_model
from .pdf import DEFAULT_MAX_PAGES
from .outputs import FORMATS, render
from .pdfguard import Guard
from .prefill import DEFAULT_OVERLAP


def read_input(name: str) -> str:
    """The text of INPUT: a file path, or '-' for standard input."""
    if name == "-":
        return decode_input(sys.stdin.buffer.read(), "standard input")
    path = Path(name)
    if not path.exists():
        raise ScorerError(f"input file not found: {path}")
    if path.is_dir():
        raise ScorerError(f"input is a folder, not a file: {path}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ScorerError(f"cannot read {path}: {exc.strerror}") from exc
    return decode_input(data, str(path))


def check_output(out) -> None:
    """Refuse, before any scoring, an output that cannot be written."""
    if out is not None:
        check_file_target(out)
    elif sys.stdout is None:
        raise BadInput("standard output is closed: write to a file with -o FILE")


def write_output(chunks, out):
    """Write text chunks to stdout, or atomically to `out` (temp file + rename)."""
    if out is not None:
        return write_atomic(out, chunks)
    try:
        for chunk in chunks:
            sys.stdout.write(chunk)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _silence_stdout()
        raise ScorerError(f"cannot write to standard output: {exc.strerror}") from None
    return None


def _silence_stdout():
    """What is still buffered for a broken stdout goes nowhere (no second error at exit)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="prefill-lens", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("input", help="a .txt or .pdf file, or - for standard input")
    common.add_argument("--model", help=f"GGUF file (default: ${ENV_MODEL}, else Gemma 3 270M)")
    common.add_argument("--mode", choices=MODES, default=DEFAULT_MODE, help="context mode")
    common.add_argument("--decide", choices=DECIDERS,
                        help="what decides: the hybrid of model and layout evidence (default) "
                             "or the percentile at --cutoff (default when --cutoff is given)")
    common.add_argument("-o", "--output", help="write here instead of stdout")
    add_pdf_limits(common)
    p_score = sub.add_parser("score", parents=[common], help="the document as JSON")
    p_score.add_argument("--top-k", type=int, default=DEFAULT_TOP_K, help="alternatives per token")
    p_score.add_argument("--detail", choices=DETAILS, default="full",
                         help="full: every token; breaks: only what the breaks need (faster)")
    p_score.add_argument("--cutoff", type=float, help=f"percentile, 0-100 (default {DEFAULT_CUTOFF:g}); implies --decide percentile")
    p_merge = sub.add_parser("merge", parents=[common], help="the merged text")
    add_format(p_merge)
    p_merge.add_argument("--cutoff", type=float, help=f"percentile, 0-100 (default {DEFAULT_CUTOFF:g}); implies --decide percentile")
    p_report = sub.add_parser("report", parents=[common],
                              help="one HTML file with the page's view, for anyone, offline")
    p_report.add_argument("--cutoff", type=float, help=f"percentile, 0-100 (default {DEFAULT_CUTOFF:g}); implies --decide percentile")
    p_batch = sub.add_parser("batch", help="many PDFs/texts -> OUTDIR/<name>.txt and .json")
    p_batch.add_argument("inputs", nargs="+", help="files, folders or glob patterns")
    p_batch.add_argument("-o", "--outdir", required=True, help="folder for the outputs")
    p_batch.add_argument("--workers", type=int, default=min(2, len(os.sched_getaffinity(0))),
                         help="processes, each with its own model and cores/N threads (default: "
                              "2, measured fastest on 2 cores, by a little)")
    p_batch.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    p_batch.add_argument("--mode", choices=MODES, default=DEFAULT_MODE, help="context mode")
    p_batch.add_argument("--cutoff", type=float, help=f"percentile, 0-100 (default {DEFAULT_CUTOFF:g}); implies --decide percentile")
    p_batch.add_argument("--decide", choices=DECIDERS, help="as for merge")
    add_pdf_limits(p_batch)
    add_format(p_batch)
    p_batch.add_argument("--force", action="store_true", help="redo inputs already done")
    p_batch.add_argument("--report", action="store_true",
                         help="also OUTDIR/<name>.html, the shareable report (every token is "
                              "scored for its tooltips: slower)")
    p_batch.add_argument("--engine", choices=("local", "ray"), default="local",
                         help="local: worker processes here (default); ray: Ray actors, on a "
                              "cluster (--address) or a Ray runtime started here")
    p_batch.add_argument("--address", help="the Ray cluster to join (host:port of its head, or "
                                           "ray://...; default: $RAY_ADDRESS, else start Ray here)")
    p_eval = sub.add_parser("eval", help="decisions vs labelled breaks, next to baselines")
    p_eval.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    p_eval.add_argument("--docs", choices=("all", "samples", "debian", "typeset"), default="all",
                        help="the samples with true paragraphs, Debian's PDF + text twins, their "
                             "text typeset here in other styles, or all")
    p_eval.add_argument("--labels", help="an analyst's labels (JSON Lines, saved by the page): "
                                         "evaluate on the documents given after it instead")
    p_eval.add_argument("documents", nargs="*", help="with --labels: the labelled .txt/.pdf files")
    p_eval.add_argument("--split", choices=("all", "dev", "held-out"), default="all",
                        help="which Debian documents (dev: what training sees; held-out: never)")
    p_eval.add_argument("--train", action="store_true",
                        help="write the hybrid's weights, fitted on the dev documents, to "
                             "scorer/hybrid.json")
    p_eval.add_argument("--details", action="store_true", help="also print every document's rows")
    p_eval.add_argument("--structure", action="store_true",
                        help="only the Markdown's fidelity: headings and list items found, next "
                             "to pymupdf4llm's (requirements-eval.txt), with seconds per page")
    p_eval.add_argument("--json", help="also write the rows (per document and pooled) as JSON here")
    p_eval.add_argument("--samples", help="folder of samples with expected/ (default: the checkout's)")
    p_bench = sub.add_parser("bench", help="our prefill next to bare llama.cpp (one table)")
    p_bench.add_argument("--model", help="GGUF file (default: the packaged Gemma 3 270M)")
    p_bench.add_argument("--chars", type=int, default=2000, help="characters of mixed text")
    p_bench.add_argument("--reps", type=int, default=3, help="repetitions; the median is shown")
    p_bench.add_argument("--window", type=int, default=DEFAULT_WINDOW, help="tokens per window")
    p_bench.add_argument("--overlap", type=int, default=DEFAULT_OVERLAP, help="tokens of overlap")
    p_bench.add_argument("--json", help="also write the rows as JSON here")
    p_bench.add_argument("--samples", help="folder of texts to bench on (default: the checkout's samples)")
    p_bench.add_argument("--row", choices=("ref-A", "ref-B", "breaks-only", "full"),
                         help=argparse.SUPPRESS)
    return parser


def add_pdf_limits(parser) -> None:
    """The limits a PDF is read within (pdfguard.py): a PDF is a program, and may be a bomb."""
    parser.add_argument("--max-pages", type=int, default=DEFAULT_MAX_PAGES,
                        help="refuse PDFs with more pages (default %(default)s)")
    parser.add_argument("--pdf-timeout", type=float, default=Guard.seconds, metavar="SECONDS",
                        help="stop reading a PDF after this long, all pages together "
                             "(default %(default)g)")
    parser.add_argument("--pdf-memory", type=int, default=Guard.memory_mb, metavar="MB",
                        help="memory a PDF may take to read (default %(default)s)")


def add_format(parser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text: the merged text (default); markdown: headings, lists, code "
                             "blocks; jsonl: one paragraph a line with its kind and pages")


def pdf_guard(args) -> Guard:
    if args.max_pages < 1 or args.pdf_timeout <= 0 or args.pdf_memory < 256:
        raise BadInput("--max-pages must be at least 1, --pdf-timeout above 0 and --pdf-memory "
                       "at least 256 (MB)")
    return Guard(args.max_pages, seconds=args.pdf_timeout, memory_mb=args.pdf_memory)


def samples_folder(value=None) -> Path:
    """--samples: the folder given, else the samples of the checkout this package runs from."""
    path = Path(value) if value else Path(__file__).resolve().parent.parent / "samples"
    if not path.is_dir():
        raise BadInput(f"no samples folder at {path}: pass --samples DIR")
    return path


def run(args) -> None:
    if args.command == "bench" or (args.command == "eval" and not args.labels):
        args.samples = samples_folder(args.samples)
    if args.command == "bench":
        from . import bench
        return bench.main(args)
    if args.command == "eval":
        from . import evaluate
        return evaluate.main(args)
    policy = decide.policy(args.decide, args.cutoff)
    if args.command == "batch":
        from . import batch
        if args.workers < 1:
            raise ScorerError("--workers must be at least 1")
        if args.address and args.engine != "ray":
            raise BadInput("--address is for --engine ray")
        summary = batch.run(args.inputs, args.outdir, args.model, args.workers, args.mode,
                            args.force, policy=policy, engine=args.engine, address=args.address,
                            report=args.report, guard=pdf_guard(args), fmt=args.format)
        if summary["failed"]:
            raise SystemExit(1)
        return None
    if args.command == "score" and not 0 <= args.top_k <= 50:
        raise ScorerError("--top-k must be between 0 and 50")
    check_output(args.output)
    guard = pdf_guard(args)
    detail = {"score": getattr(args, "detail", None), "report": "full"}.get(args.command, "breaks")
    top_k = {"score": getattr(args, "top_k", 0), "report": DEFAULT_TOP_K}.get(args.command, 0)
    if args.input != "-" and Path(args.input).suffix.lower() == ".pdf":
        path = Path(args.input)
        if not path.is_file():
            raise ScorerError(f"input file not found: {path}")
        model = load_model(args.model)
        doc = score_pdf(model, path, mode=args.mode, detail=detail, top_k=top_k, guard=guard)
    else:
        text = read_input(args.input)
        model = load_model(args.model)
        doc = score(model, text, mode=args.mode, detail=detail, top_k=top_k)
    if args.command == "score":
        vocab = model.vocab_bytes if top_k and detail == "full" else None
        write_output(contract.iter_json(doc, policy, vocab), args.output)
    elif args.command == "report":
        from . import report
        name = "standard input" if args.input == "-" else Path(args.input).name
        write_output([report.html(doc, policy, name, model.vocab_bytes)], args.output)
    else:
        write_output([render(doc, policy, args.format)], args.output)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run(args)
    except ScorerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (| head): not an error of ours
        _silence_stdout()
        return 1
    return 0
