"""Reading a PDF within limits, whoever asks: the CLI, the batch, the web app, the Python API.

A PDF is a program: 30 KB can run millions of operators, a 600 KB stream can inflate to
hundreds of MB. So a PDF is read (pdf.read_pdf) in a child Python process whose address space is
capped, which is killed at one deadline for the whole file (not per page: a hundred pages
sharing one slow content stream must not multiply it), and which is refused more pages or more
characters than the limits. Whatever the file does, the caller's memory is untouched, the
answer comes in time, and the error says which limit was hit and how to raise it.

The child is an interpreter of its own (`python -m scorer.pdfguard MB`), not a multiprocessing
child: it runs from daemonic worker processes too (the batch's pool, Ray actors), and never
copies the caller's model. It reads one PDF after another (its start costs about half a second,
which a batch of small PDFs would pay per file); requests and answers are length-prefixed
pickles over its stdin and stdout. A reader that hits a limit is killed, never reused.

Does not: parse PDFs itself (pdf.py) or decide anything.
"""

import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from .errors import ScorerError, TooLarge
from .inputs import Guard, read_bytes, shown
from .pdf import PdfText, check_pdf_bytes, read_pdf
from .settings import DEFAULT

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)
HEADER = struct.Struct("<Q")  # the length of the pickle that follows
MAX_READS = 200  # a reader is replaced after this many PDFs (what a PDF library leaks stays bounded)


def read_pdf_guarded(source, name: str = None, guard: Guard = Guard()) -> PdfText:
    """pdf.read_pdf on a path or bytes, in a guarded child process."""
    if isinstance(source, (str, Path)):
        name = name or shown(Path(source).name)
        data = read_bytes(source, guard)
    else:
        data, name = source, name or "the PDF"
    check_pdf_bytes(data[:1024], len(data), name)  # the common mistakes, without a child
    reader = _Reader.take(guard.memory_mb)
    try:
        kind, value = reader.read(pickle.dumps((data, name, guard)), guard.seconds)
    except TimeoutError:
        reader.kill()
        raise TooLarge(f"{name} took more than {guard.seconds:g} s to read and was stopped (a "
                       f"PDF this slow is likely malformed or hostile; to allow more time: "
                       f"{guard.raise_seconds})") from None
    except OSError:  # no answer: the child died (out of memory, or a crash in a library)
        reader.kill()
        kind, value = "memory", None
    if kind == "memory":
        reader.kill()  # a reader that ran out of memory is not used again
    else:
        reader.give_back()
    if kind == "done":
        return value
    if kind == "error":
        raise value
    raise TooLarge(f"{name} needs more than {guard.memory_mb:,} MB of memory to read and was "
                   f"stopped (likely a decompression bomb), or it crashed the PDF reader (to "
                   f"allow more memory: {guard.raise_memory})")


class _Reader:
    """One child interpreter that reads PDFs one after another (starting Python and pdfplumber
    costs about half a second: a batch of small PDFs would pay it per file). A reader that hits
    a limit is killed; an idle one waits in the pool for the next PDF of the same memory limit."""

    _idle = {}  # memory_mb -> [_Reader]
    _lock = threading.Lock()

    def __init__(self, memory_mb):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (PACKAGE_PARENT, os.environ.get("PYTHONPATH")) if p)}
        self.memory_mb, self.reads = memory_mb, 0
        self.child = subprocess.Popen([sys.executable, "-m", "scorer.pdfguard", str(memory_mb)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, env=env)

    @classmethod
    def take(cls, memory_mb):
        with cls._lock:
            idle = cls._idle.get(memory_mb, [])
            while idle:
                reader = idle.pop()
                if reader.child.poll() is None:
                    return reader
        return cls(memory_mb)

    def give_back(self):
        self.reads += 1
        if self.reads >= MAX_READS:
            return self.kill()
        with self._lock:
            self._idle.setdefault(self.memory_mb, []).append(self)
        return None

    def kill(self):
        self.child.kill()
        self.child.wait()
        for pipe in (self.child.stdin, self.child.stdout):
            pipe.close()

    def read(self, request: bytes, seconds: float) -> tuple:
        """Send one request, wait at most `seconds` for its answer: (kind, value)."""
        deadline = time.monotonic() + seconds
        writer = threading.Thread(target=self._send, args=(request,), daemon=True)
        writer.start()  # a big PDF fills the pipe: the child reads while we wait
        header = self._receive(HEADER.size, deadline)
        answer = self._receive(HEADER.unpack(header)[0], deadline)
        writer.join()
        return pickle.loads(answer)

    def _send(self, request):
        try:
            self.child.stdin.write(HEADER.pack(len(request)) + request)
            self.child.stdin.flush()
        except OSError:
            pass  # the child died: the reading side says so

    def _receive(self, n, deadline) -> bytes:
        fd, out = self.child.stdout.fileno(), bytearray()
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(n - len(out), 1 << 20))
            if not chunk:
                raise OSError("the reader died")
            out += chunk
        return bytes(out)


def _child(memory_mb: int) -> None:
    """The child's side: cap the address space, then read PDFs until stdin closes, answering
    each with one pickle on stdout."""
    import resource

    limit = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # a library's print cannot spoil an answer
    requests = sys.stdin.buffer
    while True:
        header = requests.read(HEADER.size)
        if len(header) < HEADER.size:
            return  # the parent is gone, or done with us
        try:
            data, name, guard = pickle.loads(requests.read(HEADER.unpack(header)[0]))
            result = ("done", read_pdf(data, guard.max_pages, name=name,
                                       max_chars=guard.max_chars))
        except ScorerError as exc:
            result = ("error", exc)
        except MemoryError:
            result = ("memory", None)
        try:
            answer = pickle.dumps(result)
        except MemoryError:
            answer = pickle.dumps(("memory", None))
        answers.write(HEADER.pack(len(answer)) + answer)
        answers.flush()
        if result[0] == "memory":
            return


if __name__ == "__main__":
    _child(int(sys.argv[1]))
