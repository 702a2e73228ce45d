"""Reading a PDF within limits, whoever asks: the CLI, the batch, the web app, the Python API.

A PDF is a program: 30 KB can run millions of operators, a 600 KB stream can inflate to
hundreds of MB. So a PDF is read (pdf.read_pdf) in a child Python process whose address space is
capped, which is killed at one deadline for the whole file (not per page: a hundred pages
sharing one slow content stream must not multiply it), and which is refused more pages or more
characters than the limits. Whatever the file does, the caller's memory is untouched, the
answer comes in time, and the error says which limit was hit and how to raise it.

The child is a fresh interpreter (`python -m scorer.pdfguard`), not a multiprocessing child: it
runs from daemonic worker processes too (the batch's pool, Ray actors), and never copies the
caller's model. Its input and answer are pickles over its stdin and stdout.

Does not: parse PDFs itself (pdf.py) or decide anything.
"""

import os
import pickle
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import ScorerError, TooLarge
from .pdf import DEFAULT_MAX_PAGES, PdfText, check_pdf_bytes, read_pdf

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)


@dataclass(frozen=True)
class Guard:
    """Limits for reading one PDF. `seconds` bounds the whole read; `memory_mb` the child's
    address space (Python and pdfplumber take about 150 MB of it before the first page)."""
    max_pages: int = DEFAULT_MAX_PAGES
    max_chars: int = None
    seconds: float = 120.0
    memory_mb: int = 2048
    # how to raise each limit, named in its error: CLI options here, settings in the web app
    raise_seconds: str = "--pdf-timeout SECONDS"
    raise_memory: str = "--pdf-memory MB"


def read_pdf_guarded(source, name: str = None, guard: Guard = Guard()) -> PdfText:
    """pdf.read_pdf on a path or bytes, in a guarded child process."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        name = name or path.name
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ScorerError(f"cannot read {path}: {exc.strerror}") from None
    else:
        data, name = source, name or "the PDF"
    check_pdf_bytes(data[:1024], len(data), name)  # the common mistakes, without a child
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (PACKAGE_PARENT, os.environ.get("PYTHONPATH")) if p)}
    child = subprocess.Popen([sys.executable, "-m", "scorer.pdfguard"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        answer, _ = child.communicate(pickle.dumps((data, name, guard)), timeout=guard.seconds)
    except subprocess.TimeoutExpired:
        raise TooLarge(f"{name} took more than {guard.seconds:g} s to read and was stopped (a "
                       f"PDF this slow is likely malformed or hostile; to allow more time: "
                       f"{guard.raise_seconds})") from None
    finally:
        child.kill()
        child.wait()
    try:
        kind, value = pickle.loads(answer)
    except Exception:  # no answer: the child died (out of memory, or a crash in a library)
        kind, value = "memory", None
    if kind == "done":
        return value
    if kind == "error":
        raise value
    raise TooLarge(f"{name} needs more than {guard.memory_mb:,} MB of memory to read and was "
                   f"stopped (likely a decompression bomb), or it crashed the PDF reader (to "
                   f"allow more memory: {guard.raise_memory})")


def _child() -> None:
    """The child's side: cap the address space, read, answer with one pickle on stdout."""
    import resource

    answer = os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # a library's print cannot spoil the answer
    data, name, guard = pickle.load(sys.stdin.buffer)
    limit = guard.memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        result = ("done", read_pdf(data, guard.max_pages, name=name, max_chars=guard.max_chars))
    except ScorerError as exc:
        result = ("error", exc)
    except MemoryError:
        result = ("memory", None)
    try:
        answer.write(pickle.dumps(result))
    except MemoryError:
        answer.write(pickle.dumps(("memory", None)))
    answer.close()


if __name__ == "__main__":
    _child()
