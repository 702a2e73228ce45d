"""Real PDFs that no one here wrote: Debian documentation packages ship a PDF and a plain-text
twin of the same document. Fetched from Debian's package archive on first use (apt-get
download + dpkg -x), cached outside the repository, never committed."""

import gzip
import os
import subprocess
import tempfile
from pathlib import Path

CACHE = Path(os.environ.get("PREFILL_LENS_CACHE", Path.home() / ".cache" / "prefill-lens")) / "debian"
DOCS = {
    "developers-reference": ("usr/share/developers-reference/developers-reference.pdf",
                             "usr/share/developers-reference/developers-reference.txt.gz"),
}


def fetch(package: str) -> tuple:
    """(pdf path, twin text) of a Debian documentation package, downloading it once."""
    pdf_rel, txt_rel = DOCS[package]
    root = CACHE / package
    pdf, txt = root / pdf_rel, root / txt_rel
    if not (pdf.is_file() and txt.is_file()):
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)  # apt's sandbox user must be able to write there
            got = subprocess.run(["apt-get", "download", package], cwd=tmp,
                                 capture_output=True, timeout=600)
            if got.returncode != 0:  # a fresh machine may have no package lists yet
                subprocess.run(["apt-get", "update"], check=True, capture_output=True, timeout=600)
                subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                               capture_output=True, timeout=600)
            deb = next(Path(tmp).glob(f"{package}_*.deb"))
            subprocess.run(["dpkg", "-x", str(deb), str(root)], check=True, timeout=600)
    with gzip.open(txt, "rt", encoding="utf-8") as fh:
        return pdf, fh.read()
