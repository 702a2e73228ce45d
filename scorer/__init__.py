"""Prefill Lens engine: one prefill pass of a small GGUF model -> where a line break is a layout wrap.

The modules and what each does: the README's "Where things live" (the one map).

The Python API (docs/python-api.md):

    import scorer
    model = scorer.load_model()                        # load once, reuse
    print(scorer.merge_pdf("report.pdf", model=model, format="markdown"))
    for para in scorer.paragraphs("report.pdf", model=model):
        print(para.kind, para.pages, para.text)
"""

__version__ = "0.2.0"

from .errors import ModelUnavailable, PagesLeftOut, ScorerError  # noqa: E402  (what users catch)

__all__ = ["ModelUnavailable", "PagesLeftOut", "ScorerError", "Guard", "Paragraph", "load_model",
           "merge_file", "merge_pdf", "merge_text", "paragraphs", "paragraphs_of_text",
           "__version__"]


def __getattr__(name):
    """The Python API (pipeline.py), imported on first use: `import scorer` stays light for
    the processes that need only a part of it (the guarded PDF reader's child)."""
    if name in __all__:
        from . import pipeline
        return getattr(pipeline, name)
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
