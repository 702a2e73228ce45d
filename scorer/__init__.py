"""Prefill Lens engine: one prefill pass of a small GGUF model -> where a line break is a layout wrap.

The package is a pure library (it never imports Flask). The pieces, one concern per file:
  model.py     find and load a GGUF model, one lock per model
  prefill.py   one prefill pass in windows; per-token log-probabilities, memory bounded
  chars.py     byte-level tokens <-> whole characters (cells)
  breaks.py    newline candidates, joiners, percentiles, merging (text mechanics)
  hybrid.py    the hybrid's evidence: logistic regression over model and layout features
  decide.py    the decision policy: deciders, defaults, overrides, forced keeps, reasons
  baseline.py  keep-all, join-all, layout rules, the 2-gram statistics (for comparison)
  document.py  text -> Document (tokens, cells, breaks and their evidence)
  contract.py  a Document as streamed JSON: the data contract
  errors.py    every error, with its HTTP status and exit status
  jobs.py      documents scored in turns on one model: progress, cancel, abandonment
  service.py   jobs for texts and guarded PDFs + a bounded cache of documents (what servers call)
  pdf.py       PDF -> lines with layout, running headers/footers, tables, break features
  pdfguard.py  a PDF read in a child process within limits (time, memory, pages, characters)
  batch.py     many files -> merged text + scores, atomic and resumable, worker processes
  raybatch.py  the same batch on Ray actors (optional: only `--engine ray` imports it)
  bench.py     our prefill next to bare llama.cpp on the same tokens
  atomic.py    write a file atomically
  evaluate/    labelled breaks (Debian PDFs + their plain-text twins), every method, training
  outputs.py   a decided Document as paragraphs (kind, pages, place): text, Markdown, JSON Lines
  pipeline.py  the Python API below: merge_text, merge_pdf, merge_file, paragraphs
  cli.py       `python -m scorer ...` and the `prefill-lens` command

The Python API (docs/python-api.md):

    import scorer
    model = scorer.load_model()                        # load once, reuse
    print(scorer.merge_pdf("report.pdf", model=model, format="markdown"))
    for para in scorer.paragraphs("report.pdf", model=model):
        print(para.kind, para.pages, para.text)
"""

__version__ = "0.2.0"

from .errors import ModelUnavailable, ScorerError  # noqa: E402  (the errors users catch)

__all__ = ["ModelUnavailable", "ScorerError", "Paragraph", "load_model", "merge_file",
           "merge_pdf", "merge_text", "paragraphs", "paragraphs_of_text", "__version__"]


def __getattr__(name):
    """The Python API (pipeline.py), imported on first use: `import scorer` stays light for
    the processes that need only a part of it (the guarded PDF reader's child)."""
    if name in __all__:
        from . import pipeline
        return getattr(pipeline, name)
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
