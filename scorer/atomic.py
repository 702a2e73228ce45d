"""Write a file atomically: into a temporary file beside it, then rename over it.

An interrupted write leaves the old file (or none), never half a file.
"""

import os
import tempfile
from pathlib import Path


def write_atomic(path, chunks) -> None:
    """Write `chunks` (a str, or an iterable of str written one by one) to `path`."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for chunk in [chunks] if isinstance(chunks, str) else chunks:
                fh.write(chunk)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
