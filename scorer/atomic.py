"""Writing outputs safely: a file atomically (into a temporary file beside it, then renamed over
it), and the checks that refuse an unwritable target before any work is spent.

An interrupted write leaves the old file (or none), never half a file. Every failure is a
ScorerError naming the path (errors.py), never a traceback.
"""

import os
import tempfile
from pathlib import Path

from .errors import BadInput, ScorerError


def write_atomic(path, chunks) -> None:
    """Write `chunks` (a str, or an iterable of str written one by one) to `path`."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ScorerError(f"cannot write {path}: {exc.strerror}") from None
    try:
        os.fchmod(fd, 0o644)  # an output like any other file (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for chunk in [chunks] if isinstance(chunks, str) else chunks:
                fh.write(chunk)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ScorerError(f"cannot write {path}: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_file_target(path) -> None:
    """Refuse a file path that cannot be written: a folder, or a missing or unwritable folder."""
    path = Path(path)
    if path.is_dir():
        raise BadInput(f"{path} is a folder: give a file name to write to")
    if not path.parent.is_dir():
        raise BadInput(f"cannot write {path}: the folder {path.parent} does not exist")
    _probe(path.parent)


def check_folder_target(folder) -> None:
    """Make sure `folder` exists (created if missing) and can be written in."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"{folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create the folder {folder}: {exc.strerror}") from None
    _probe(folder)


PROBE_BYTES = 64 * 1024  # a full disk still makes empty files: the probe writes this much


def _probe(folder) -> None:
    """Write PROBE_BYTES in `folder` and sync them: no permission, a read-only or a full file
    system fails here, before any work."""
    try:
        with tempfile.TemporaryFile(dir=folder) as fh:
            fh.write(b"\0" * PROBE_BYTES)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise BadInput(f"cannot write in {folder}: {exc.strerror}") from None
