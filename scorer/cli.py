"""`prefill-lens` (or `python -m scorer`): the engine from the command line.

  score INPUT   the Document as JSON (tokens, cells, breaks) on stdout or -o FILE
  merge INPUT   the merged text (or Markdown, or paragraphs as JSON Lines) on stdout or -o FILE
  report INPUT  one self-contained HTML file: the page's view of INPUT, offline (report.py)
  batch IN...   many files -> OUTDIR/<name>.txt, .json [, .html] and summary.json (batch.py)
  serve         the web app (web/), on waitress
  train DOC LABELS...  the hybrid's weights fitted to an analyst's labels (teach.py), for
                --weights FILE in score, merge, report, batch, serve and the Python API
  eval          decisions against labelled breaks, next to baselines (evaluate/); with
                --labels FILE DOC...: against an analyst's labels (labelfile.py)
  bench         our prefill next to bare llama.cpp on the same tokens (see bench.py)

INPUT is a .txt or .pdf path, or `-` for standard input (inputs.py decides which it is). Errors:
one line on stderr and the error's exit status (errors.py; 2 for bad input). Each subcommand is
an `add_<name>` (its options, from the shared helpers below) and a `run_<name>`; docs/cli.md is
written from their --help (reference.py).
Does not: hold any logic of its own beyond reading input and writing output.
"""

import argparse
import os
import sys
from pathlib import Path

from . import contract, decide
from .atomic import check_file_target, write_atomic
from .decide import DECIDERS, DEFAULT_CUTOFF
from .document import DEFAULT_MODE, DEFAULT_TOP_K, DETAILS, MODES, score, score_pdf
from .errors import BadInput, ScorerError
from .hybrid import read_weights
from .inputs import decode_text, is_pdf, read_bytes, shown
from .model import DEFAULT_WINDOW, ENV_MODEL, load_model
from .outputs import FORMATS, render
from .pdfguard import Guard
from .prefill import DEFAULT_OVERLAP
from .settings import DEFAULT


# -- options shared by several subcommands ---------------------------------------------------
def add_model(parser) -> None:
    parser.add_argument("--model", help=f"GGUF file (default: ${ENV_MODEL}, else the packaged "
                                        "Gemma 3 270M)")


def add_decision(parser) -> None:
    parser.add_argument("--mode", choices=MODES, default=DEFAULT_MODE, help="context mode")
    parser.add_argument("--decide", choices=DECIDERS,
                        help="what decides: the hybrid of model and layout evidence (default) "
                             "or the percentile at --cutoff (default when --cutoff is given)")
    parser.add_argument("--cutoff", type=float, help=f"percentile, 0-100 (default "
                        f"{DEFAULT_CUTOFF:g}); implies --decide percentile")
    parser.add_argument("--weights", metavar="FILE",
                        help="the hybrid's weights, fitted to a family of documents by "
                             "`prefill-lens train` (default: the shipped ones)")


def weights_of(args):
    """--weights: the weights file, checked (hybrid.read_weights), or None for the shipped."""
    return read_weights(args.weights) if args.weights else None


def add_limits(parser) -> None:
    """The limits an input is read within (inputs.py, pdfguard.py): a PDF is a program, and may
    be a bomb; a file may be /dev/zero."""
    parser.add_argument("--max-chars", type=int, default=DEFAULT["OFFLINE_MAX_CHARS"],
                        help="refuse texts (and PDFs' text) with more characters (default "
                             "%(default)s)")
    parser.add_argument("--max-pages", type=int, default=DEFAULT["MAX_PAGES"],
                        help="refuse PDFs with more pages (default %(default)s)")
    parser.add_argument("--max-pdf-mb", type=int, default=DEFAULT["OFFLINE_MAX_PDF_MB"],
                        metavar="MB", help="refuse larger PDF files (default %(default)s)")
    parser.add_argument("--pdf-timeout", type=float, default=DEFAULT["OFFLINE_PDF_SECONDS"],
                        metavar="SECONDS", help="stop reading a PDF after this long, all pages "
                                                "together (default %(default)g)")
    parser.add_argument("--pdf-memory", type=int, default=DEFAULT["OFFLINE_PDF_MEMORY_MB"],
                        metavar="MB", help="memory a PDF may take to read (default %(default)s)")


def add_format(parser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text: the merged text (default); markdown: headings, lists, code "
                             "blocks; jsonl: one paragraph a line with its kind and pages")


def add_one_input(parser) -> None:
    """INPUT, -o, the model, the decision and the PDF limits: score, merge, report."""
    parser.add_argument("input", help="a .txt or .pdf file, or - for standard input")
    parser.add_argument("-o", "--output", help="write here instead of stdout")
    add_model(parser)
    add_decision(parser)
    add_limits(parser)


def input_guard(args) -> Guard:
    """The limits the options ask for (Guard refuses nonsense: 0, NaN, inf, 1e300)."""
    return Guard(args.max_pages, args.max_chars, args.pdf_timeout, args.pdf_memory,
                 raise_seconds="--pdf-timeout SECONDS", raise_memory="--pdf-memory MB",
                 max_pdf_mb=args.max_pdf_mb)


# -- one input: score, merge, report -----------------------------------------------------------
def read_document(args, detail, top_k):
    """(model, Document) of INPUT: read first (a missing file is refused before the model
    loads), then scored; a PDF (inputs.is_pdf) within the --pdf-* limits, its warnings (pages
    that could not be read) on stderr."""
    check_output(args.output)
    guard, weights = input_guard(args), weights_of(args)
    name = "standard input" if args.input == "-" else shown(args.input)
    data = read_bytes(args.input, guard)
    if is_pdf(args.input, data):
        model = load_model(args.model)
        doc = score_pdf(model, data, mode=args.mode, detail=detail, top_k=top_k,
                        name=Path(name).name, guard=guard, weights=weights)
        for warning in doc.source.get("warnings", []):
            print(f"warning: {name}: {warning}", file=sys.stderr)
    else:
        text = decode_text(data, name, guard.max_chars)
        model = load_model(args.model)
        doc = score(model, text, mode=args.mode, detail=detail, top_k=top_k, weights=weights)
    return model, doc


def add_score(sub) -> None:
    parser = sub.add_parser("score", help="the document as JSON")
    add_one_input(parser)
    parser.add_argument("--top-k", type=int, default=DEFAULT_TOP_K, help="alternatives per token")
    parser.add_argument("--detail", choices=DETAILS, default="full",
                        help="full: every token; breaks: P(newline) at every break (faster); "
                             "cascade: only around the breaks the hybrid asks the model about "
                             "(what merge runs; no percentiles)")
    parser.set_defaults(run=run_score)


def run_score(args) -> None:
    if not 0 <= args.top_k <= 50:
        raise ScorerError("--top-k must be between 0 and 50")
    policy = decide.policy(args.decide, args.cutoff)
    model, doc = read_document(args, args.detail, args.top_k)
    vocab = model.vocab_bytes if args.top_k and args.detail == "full" else None
    write_output(contract.iter_json(doc, policy, vocab), args.output)


def add_merge(sub) -> None:
    parser = sub.add_parser("merge", help="the merged text")
    add_one_input(parser)
    add_format(parser)
    parser.set_defaults(run=run_merge)


def run_merge(args) -> None:
    policy = decide.policy(args.decide, args.cutoff)
    _, doc = read_document(args, decide.detail_for(policy), 0)
    write_output([render(doc, policy, args.format)], args.output)


def add_report(sub) -> None:
    parser = sub.add_parser("report", help="one HTML file with the page's view, for anyone, "
                                           "offline")
    add_one_input(parser)
    parser.set_defaults(run=run_report)


def run_report(args) -> None:
    from . import report

    policy = decide.policy(args.decide, args.cutoff)
    model, doc = read_document(args, "full", DEFAULT_TOP_K)
    name = "standard input" if args.input == "-" else shown(Path(args.input).name)
    write_output([report.html(doc, policy, name, model.vocab_bytes)], args.output)


# -- many inputs, the server, the measurements ------------------------------------------------
def add_batch(sub) -> None:
    parser = sub.add_parser("batch", help="many PDFs/texts -> OUTDIR/<name>.txt and .json")
    parser.add_argument("inputs", nargs="+", help="files, folders or glob patterns")
    parser.add_argument("-o", "--outdir", required=True, help="folder for the outputs")
    parser.add_argument("--workers", type=int, default=min(2, len(os.sched_getaffinity(0))),
                        help="processes, each with its own model and cores/N threads (default: "
                             "2, measured fastest on 2 cores, by a little; lowered to what the "
                             "cores and free memory can run, about 1 GB a worker)")
    add_model(parser)
    add_decision(parser)
    add_limits(parser)
    add_format(parser)
    parser.add_argument("--force", action="store_true", help="redo inputs already done")
    parser.add_argument("--report", action="store_true",
                        help="also OUTDIR/<name>.html, the shareable report (every token is "
                             "scored for its tooltips: slower)")
    parser.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local: worker processes here (default); ray: Ray actors, on a "
                             "cluster (--address) or a Ray runtime started here")
    parser.add_argument("--address", help="the Ray cluster to join (host:port of its head, or "
                                           "ray://...; default: $RAY_ADDRESS, else start Ray here)")
    parser.set_defaults(run=run_batch)


def run_batch(args) -> None:
    from . import batch

    if args.address and args.engine != "ray":
        raise BadInput("--address is for --engine ray")
    summary = batch.run(args.inputs, args.outdir, args.model, args.workers, args.mode,
                        args.force, policy=decide.policy(args.decide, args.cutoff),
                        engine=args.engine, address=args.address, report=args.report,
                        guard=input_guard(args), fmt=args.format, weights=args.weights)
    if summary["failed"]:
        raise SystemExit(1)


def add_serve(sub) -> None:
    parser = sub.add_parser("serve", help="the web app (needs prefill-lens[web])")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    add_model(parser)
    parser.add_argument("--sample", default="en-maintenance-report.txt",
                        help="sample the page opens with, scored (default %(default)s; \"\" for an "
                             "empty form)")
    parser.add_argument("--compare-model", metavar="GGUF", default=None,
                        help="a second model the page can score the same document with, to "
                             "show where the two disagree")
    parser.add_argument("--weights", metavar="FILE",
                        help="the hybrid's weights from `prefill-lens train` (default: the "
                             "shipped ones)")
    parser.add_argument("--threads", type=int, default=16, help="request threads (waitress)")
    parser.add_argument("--debug", action="store_true",
                        help="Flask's development server with the debugger (never in production)")
    parser.set_defaults(run=run_serve)


def run_serve(args) -> None:
    try:
        from .web.serve import serve
    except ModuleNotFoundError as exc:
        raise BadInput(f"the web app needs {exc.name}: pip install 'prefill-lens[web]'") from None
    serve(args)


def add_eval(sub) -> None:
    parser = sub.add_parser("eval", help="decisions vs labelled breaks, next to baselines")
    add_model(parser)
    parser.add_argument("--docs", choices=("all", "samples", "debian", "typeset", "wild",
                                           "papers"),
                        default="all",
                        help="the samples with true paragraphs, Debian's PDF + text twins, their "
                             "text typeset here in other styles (and man pages set by groff), "
                             "or all; wild: PDFs of Debian's documentation packages, measured "
                             "without labels next to the peers (evaluate/wild.py); papers: so, "
                             "journals' sample papers (two columns, formulas, floats)")
    parser.add_argument("--wild-pdfs", type=int, default=300, metavar="N",
                        help="with --docs wild: how many PDFs (default %(default)s)")
    parser.add_argument("--wild-html", type=int, default=60, metavar="N",
                        help="with --docs wild: how many pages of HTML documentation, printed "
                             "by Chromium with their own stylesheets, besides (default "
                             "%(default)s; 0: none)")
    parser.add_argument("--labels", help="an analyst's labels (JSON Lines, saved by the page): "
                                         "evaluate on the documents given after it instead")
    parser.add_argument("documents", nargs="*", help="with --labels: the labelled .txt/.pdf files")
    parser.add_argument("--split", choices=("all", "dev", "held-out"), default="all",
                        help="which Debian documents (dev: what training sees; held-out: never)")
    parser.add_argument("--train", action="store_true",
                        help="write the hybrid's weights, fitted on the dev documents, to "
                             "scorer/hybrid.json")
    parser.add_argument("--details", action="store_true", help="also print every document's rows")
    parser.add_argument("--structure", action="store_true",
                        help="only the Markdown's fidelity: headings and list items found, next "
                             "to pymupdf4llm's (requirements-eval.txt), with seconds per page")
    parser.add_argument("--json", help="also write the rows (per document and pooled) as JSON "
                                       "here")
    parser.add_argument("--samples", help="folder of samples with expected/ (default: the "
                                          "checkout's)")
    parser.set_defaults(run=run_eval)


def run_eval(args) -> None:
    from . import evaluate

    if not args.labels:
        args.samples = samples_folder(args.samples)
    evaluate.main(args)


def add_bench(sub) -> None:
    parser = sub.add_parser("bench", help="our prefill next to bare llama.cpp (one table)")
    add_model(parser)
    parser.add_argument("--chars", type=int, default=2000, help="characters of mixed text")
    parser.add_argument("--reps", type=int, default=3, help="repetitions; the median is shown")
    parser.add_argument("--window", type=int, default=DEFAULT_WINDOW, help="tokens per window")
    parser.add_argument("--overlap", type=int, default=DEFAULT_OVERLAP, help="tokens of overlap")
    parser.add_argument("--json", help="also write the rows as JSON here")
    parser.add_argument("--samples", help="folder of texts to bench on (default: the checkout's "
                                          "samples)")
    parser.add_argument("--row", choices=("ref-A", "ref-B", "breaks-only", "full"),
                        help=argparse.SUPPRESS)
    parser.set_defaults(run=run_bench)


def run_bench(args) -> None:
    from . import bench

    args.samples = samples_folder(args.samples)
    bench.main(args)


def add_train(sub) -> None:
    parser = sub.add_parser("train", help="the hybrid's weights fitted to your labels (a family "
                                          "of documents)")
    parser.add_argument("pairs", nargs="+", metavar="DOC LABELS",
                        help="documents (.pdf/.txt) each followed by its labels: a labels file "
                             "saved by the page (.jsonl) or a truth text (the paragraphs, one "
                             "per line); or folders holding NAME.pdf/.txt with NAME.labels.jsonl "
                             "or NAME.truth.txt")
    parser.add_argument("-o", "--output", required=True, help="the weights file to write")
    parser.add_argument("--weights", metavar="FILE",
                        help="start from these weights (default: the shipped ones)")
    add_model(parser)
    parser.add_argument("--mode", choices=MODES, default=DEFAULT_MODE, help="context mode")
    add_limits(parser)
    parser.set_defaults(run=run_train)


def run_train(args) -> None:
    import json

    from . import labelfile, teach

    check_output(args.output)
    guard, current = input_guard(args), weights_of(args)
    pairs = training_pairs(args.pairs)
    model, docs = None, []
    for doc_path, labels_path in pairs:
        data = read_bytes(doc_path, guard)
        marks = decode_text(read_bytes(labels_path, guard), shown(labels_path),
                            10 * guard.max_chars)
        name = shown(Path(doc_path).name)
        model = model or load_model(args.model)
        if is_pdf(doc_path, data):
            doc = score_pdf(model, data, mode=args.mode, detail="breaks", name=name,
                            guard=guard, weights=current)
        else:
            doc = score(model, decode_text(data, name, guard.max_chars), mode=args.mode,
                        detail="breaks", weights=current)
        if str(labels_path).endswith(".jsonl"):
            labels, _ = labelfile.read(marks, doc.text)
        else:
            labels = labelfile.from_truth(doc.text, marks)
        docs.append(teach.labelled(model, doc, labels, name))
        print(f"train: {name}: {len(labels)} labelled breaks", file=sys.stderr)
    weights = teach.train(docs, model.info, current, name=Path(args.output).stem)
    print(teach.summary(weights), file=sys.stderr)
    write_output([json.dumps(weights, indent=1)], args.output)


def training_pairs(items) -> list:
    """(document, labels) paths from `train`'s arguments: folders give their NAME.pdf/.txt
    with NAME.labels.jsonl or NAME.truth.txt; files come in pairs, a document then its
    labels."""
    pairs, files = [], []
    for item in items:
        path = Path(item)
        if not path.is_dir():
            files.append(path)
            continue
        for doc in sorted(p for p in path.iterdir() if p.suffix.lower() in (".pdf", ".txt")
                          and not p.name.endswith(".truth.txt")):
            found = [p for p in (doc.with_suffix(".labels.jsonl"), doc.with_suffix(".truth.txt"))
                     if p.is_file()]
            if found:
                pairs.append((doc, found[0]))
        if not pairs:
            raise BadInput(f"{shown(path)} holds no NAME.pdf/.txt with NAME.labels.jsonl or "
                           "NAME.truth.txt")
    if len(files) % 2:
        raise BadInput("give each document with its labels: DOC LABELS [DOC LABELS ...]")
    return pairs + list(zip(files[::2], files[1::2]))


SUBCOMMANDS = (add_score, add_merge, add_report, add_batch, add_serve, add_train, add_eval,
               add_bench)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="prefill-lens", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


# -- reading and writing -----------------------------------------------------------------------
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


def samples_folder(value=None) -> Path:
    """--samples: the folder given, else the samples of the checkout this package runs from."""
    path = Path(value) if value else Path(__file__).resolve().parent.parent / "samples"
    if not path.is_dir():
        raise BadInput(f"no samples folder at {path}: pass --samples DIR")
    return path


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
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
