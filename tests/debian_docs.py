"""Real PDFs that no one here wrote: see scorer.evaluate.fetch_debian_doc (fetched once,
cached outside the repository, never committed)."""

from scorer.evaluate import fetch_debian_doc as fetch  # noqa: F401
