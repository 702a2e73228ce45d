"""`prefill-lens eval --docs wild`: PDFs the project did not make, measured without labels.

The corpus: every PDF of a few Debian documentation packages that no check reserves (TeX Live's
documentation and publishers' journal samples, set by LaTeX in many classes, one and two
columns, with figures, tables and footnotes; R's and Octave's manuals, gnuplot's, Maxima's, a
DocBook-XSL and an AMC manual), fetched as .deb files (corpus.fetch_package), deduplicated by
content, those of at most MAX_PAGES pages, a sample of `count` spread evenly over the packages;
and pages of HTML documentation (HTML_PACKAGES: Sphinx, asciidoc, mkdocs and Doxygen sites)
printed by Chromium with their own stylesheets.

Without labels, a kept wrap shows itself: a prose paragraph of the output that ends
mid-sentence (a lowercase letter, a comma or a hyphen before its end), and more surely one whose
next paragraph opens lowercase (the other half of the sentence). Code and tables are left out
for every tool, and Markdown's marks taken off, so a heading ends as ours does. Per PDF, for
ours (the default: hybrid, cascade) and for the peers installed (PyMuPDF's text blocks,
pymupdf4llm's Markdown paragraphs, firecrawl's pdf-inspector's Markdown paragraphs): both
shares, seconds a page, and failures; for ours also the share of breaks each layout rule
forces (heading, list item, table row, code), the pages read in columns, and the pages whose
body is forced line by line as table rows. Then the overall figures and the worst PDFs by our share, to look at.
`eval --docs papers` measures the journals' sample papers of PAPERS so.
Does not: label, train or tune anything; PACKAGES hold no document reserved for the
independent check (DEVELOPERS.md).
"""

import contextlib
import gzip
import hashlib
import io
import json
import multiprocessing
import os
import re
import subprocess
import time
from pathlib import Path

from ..decide import (CODE_KEEP, CUT_JOIN, DISPLAY_JOIN, ENTRY_JOIN, ENTRY_KEEP, FIGURE_KEEP,
                      FORMULA_JOIN, HEADING_KEEP, ITEM_KEEP, TABLE_KEEP)
from ..errors import ScorerError
from .corpus import CACHE, fetch_package

PACKAGES = ("texlive-publishers-doc", "texlive-science-doc", "texlive-humanities-doc",
            "texlive-latex-recommended-doc", "r-doc-pdf", "octave-doc", "gnuplot-doc",
            "maxima-doc", "auto-multiple-choice-doc-pdf", "docbook-xsl-doc-pdf")
# HTML documentation (Sphinx, asciidoc, mkdocs, Doxygen themes: sidebars, code, admonitions,
# figures, tables), each page printed to PDF by Chromium with its own stylesheet
HTML_PACKAGES = ("sphinx-doc", "python-flask-doc", "python-jinja2-doc", "python-pytest-doc",
                 "git-doc", "mkdocs-doc", "doxygen-doc")
HTML_BYTES = (6_000, 200_000)  # pages smaller (an index stub) or larger are left out
MAX_PAGES = 120  # longer PDFs are left out (whole manuals: a run stays within the hour)
UNPACKED = CACHE.parent / "wild"  # the .pdf.gz files, unpacked
FORCED = {HEADING_KEEP: "heading", ITEM_KEEP: "item", TABLE_KEEP: "table", CODE_KEEP: "code",
          FIGURE_KEEP: "figure", ENTRY_KEEP: "entry", ENTRY_JOIN: "entry joined",
          CUT_JOIN: "cut word joined", FORMULA_JOIN: "formula joined",
          DISPLAY_JOIN: "display joined"}
OURS, PYMUPDF, PYMUPDF4LLM, INSPECTOR = "ours", "PyMuPDF blocks", "pymupdf4llm", "pdf-inspector"
# `eval --docs papers`: journals' sample papers and templates of texlive-publishers-doc that the
# wild sample does not hold (two columns, displayed formulas, floats, first-page notes), under
# its LaTeX documentation folder
PAPERS_ROOT = "usr/share/doc/texlive-doc/latex"
PAPERS = tuple(f"{name}.pdf" for name in (
    "aastex/sample631", "acmart/samples/sample-acmtog", "acmart/samples/sample-sigconf",
    "acmart/samples/sample-sigplan", "afparticle/afpsample", "aiaa/template_advanced",
    "aomart/aomsample", "apa7/samples/shortsample", "articleingud/articleingud",
    "asmeconf/asmeconf-template", "asmejour/asmejour-template", "elsarticle/elstest-3pd",
    "elsarticle/elstest-5p", "erdc/sample", "estcpmm/sample",
    "hagenberg-thesis/examples/HgbArticle/main",
    "ieeetran/testflow_doc", "ijmart/ijmsample", "jwjournal/jwjournal-demo-en",
    "nwejm/examples/sample", "oup-authoring-template/oup-authoring-template",
    "philosophersimprint/sample", "prociagssymp/TestprocIAGssymp", "prtec/PRTEC19-template",
    "quantumarticle/quantum-template", "resphilosophica/rpsample",
    "revtex4-1/sample/aip/aipsamp", "revtex4-1/sample/aps/apssamp"))


def documents(count: int) -> list:
    """Up to `count` PDFs of PACKAGES (paths), spread evenly over the packages, in a fixed
    order."""
    import pypdfium2

    by_package, seen = [], set()
    for package in PACKAGES:
        found = []
        root = fetch_package(package)
        for path in sorted([*root.rglob("*.pdf"), *root.rglob("*.pdf.gz")]):
            if not path.is_file():
                continue
            data = path.read_bytes()
            if path.suffix == ".gz":  # Debian compresses some: unpacked once beside the cache
                data = gzip.decompress(data)
                path = UNPACKED / f"{hashlib.sha256(data).hexdigest()[:12]}-{path.stem}"
                if not path.is_file():
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            try:
                with pypdfium2.PdfDocument(str(path)) as pdf:
                    pages = len(pdf)
            except Exception:  # noqa: BLE001 -- a PDF pdfium cannot open is still a document
                pages = 1
            if pages <= MAX_PAGES:
                found.append(path)
        by_package.append(found)
    picked = []
    while len(picked) < count and any(by_package):
        for found in by_package:  # one from each package in turn, every k-th to spread
            if found and len(picked) < count:
                picked.append(found.pop(len(found) // 2))
    return sorted(picked)


def papers() -> list:
    """The PAPERS (paths) that texlive-publishers-doc holds."""
    root = fetch_package("texlive-publishers-doc") / PAPERS_ROOT
    return [root / name for name in PAPERS if (root / name).is_file()]


def printed_pages(count: int) -> list:
    """Up to `count` pages of HTML_PACKAGES printed to PDF by Chromium (with its own header and
    footer, as a user's print would), spread evenly over the packages; printed once into the
    cache. A page Chromium fails on is left out."""
    from .typeset import chromium, print_to_pdf

    if not count or chromium() is None:
        return []
    by_package = []
    for package in HTML_PACKAGES:
        root = fetch_package(package)
        pages = sorted(p for p in root.rglob("*.html") if p.is_file() and not p.is_symlink()
                       and HTML_BYTES[0] <= p.stat().st_size <= HTML_BYTES[1]
                       and p.name not in ("genindex.html", "search.html", "py-modindex.html"))
        by_package.append(pages[::max(1, len(pages) // max(1, count // len(HTML_PACKAGES) + 1))])
    picked = []
    while len(picked) < count and any(by_package):
        for pages in by_package:
            if pages and len(picked) < count:
                picked.append(pages.pop(0))
    out = []
    for page in picked:
        name = hashlib.sha256(str(page).encode()).hexdigest()[:12]
        pdf = UNPACKED / "html" / f"{name}-{page.parent.name}-{page.stem}.pdf"
        if not pdf.is_file():
            pdf.parent.mkdir(parents=True, exist_ok=True)
            try:
                print_to_pdf(page.as_uri(), pdf)
            except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                continue
        if pdf.is_file() and pdf.stat().st_size:
            out.append(pdf)
    return out


def ends_mid_sentence(paragraph: str) -> bool:
    """Does a paragraph end as a wrap would: on a lowercase letter, a comma or a hyphen?"""
    text = paragraph.rstrip()
    return bool(text) and (text[-1].islower() or text[-1] in ",-")


def opens_lowercase(paragraph: str) -> bool:
    """Does a paragraph open as the rest of a sentence would: on a lowercase letter of any
    script (breaks.starts_lower, for a line, knows Latin only)?"""
    text = paragraph.lstrip()
    return bool(text) and text[0].islower()


def wraps_kept(paragraphs) -> int:
    """Paragraphs that end mid-sentence and whose next one opens lowercase: the two halves of a
    sentence kept apart. Stricter than ends_mid_sentence alone, which also counts a heading, a
    signature or a list entry that ends on a lowercase letter."""
    return sum(ends_mid_sentence(a) and opens_lowercase(b)
               for a, b in zip(paragraphs, paragraphs[1:]))


FENCED = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|>\s*)|[*_`]+|<br>")
INLINE_TAGS = re.compile(r"</?(?:sup|sub|u|b|i|em|strong|span)\b[^>]*>")  # pymupdf4llm's
# superscripts, subscripts and underlines


def _blank_split(markdown: str) -> list:
    """Markdown's prose paragraphs as plain text: blocks between blank lines, fenced code and
    table rows left out (the engine's code and tables are left out too), emphasis and heading
    marks taken off, so that a heading "### **9.4 Nonlinear Constraints**" ends as ours does,
    and inline HTML tags too: "K<sup>∗</sup>" ends on its star, as ours does, not on ">"."""
    out = []
    for block in re.split(r"\n\s*\n", FENCED.sub("", markdown)):
        lines = [ln for ln in block.splitlines() if ln.strip() and not ln.lstrip().startswith("|")]
        text = " ".join(MARKUP.sub(" ", INLINE_TAGS.sub("", ln)).strip() for ln in lines)
        if text.strip():
            out.append(" ".join(text.split()))
    return out


def pymupdf_paragraphs(path) -> list:
    import pymupdf

    with pymupdf.open(str(path)) as pdf:
        return [" ".join(block[4].split()) for page in pdf
                for block in page.get_text("blocks") if block[6] == 0 and block[4].strip()]


def pymupdf4llm_paragraphs(path) -> list:
    import pymupdf4llm

    return _blank_split(pymupdf4llm.to_markdown(str(path), show_progress=False))


def inspector_paragraphs(path) -> list:
    import pdf_inspector

    result = pdf_inspector.process_pdf(str(path))
    return _blank_split(getattr(result, "markdown", None) or "")


PEERS = ((PYMUPDF, pymupdf_paragraphs), (PYMUPDF4LLM, pymupdf4llm_paragraphs),
         (INSPECTOR, inspector_paragraphs))

_worker = {}


def _init(model_path, threads):
    from ..model import load_model

    _worker["model"] = load_model(model_path, threads=threads)


def measure_one(path) -> dict:
    """One PDF's row: per tool its paragraphs, those ending mid-sentence and its seconds; for
    ours the forced breaks by rule, the pages read as two columns or as a table."""
    from .. import decide, outputs
    from ..document import score_pdf_text
    from ..pdfguard import read_pdf_guarded

    row = {"pdf": str(path), "pages": 0, "tools": {}}
    started = time.perf_counter()
    try:
        pdf = read_pdf_guarded(path)
        doc = score_pdf_text(_worker["model"], pdf, Path(path).name, detail="cascade")
        paras = [p.text for p in outputs.paragraphs(doc, decide.Policy())
                 if p.kind not in ("code", "table", "figure")]
        seconds = time.perf_counter() - started
        row["pages"] = pdf.pages
        forced = {rule: 0 for rule in FORCED.values()}
        for _, why in doc.forced.values():
            rule = FORCED.get(why, "other")
            forced[rule] = forced.get(rule, 0) + 1
        pages, rows = {}, {}  # page -> its body lines; its breaks kept as table rows
        for line in pdf.body:
            pages.setdefault(line.page, []).append(line)
        for line, at in zip(pdf.body, doc.break_at):
            why = doc.forced.get(at, (None, ""))[1]
            rows.setdefault(line.page, []).append(FORCED.get(why) == "table")
        row.update(breaks=len(doc.break_at), forced=forced,
                   two_columns=sum(any(ln.region for ln in lines) for lines in pages.values()),
                   table_pages=sum(len(kept) >= 10 and sum(kept) >= 0.8 * len(kept)
                                   for kept in rows.values()))
        row["tools"][OURS] = _tool_row(paras, seconds)
    except ScorerError as exc:
        row["tools"][OURS] = {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 -- one PDF never stops the measurement
        row["tools"][OURS] = {"error": f"unexpected {type(exc).__name__}: {exc}"}
    for name, peer in PEERS:
        started = time.perf_counter()
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # pymupdf4llm's own messages
                paras = peer(path)
        except ImportError:
            continue
        except Exception as exc:  # noqa: BLE001 -- a peer's failure is a row of its own
            row["tools"][name] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
            continue
        row["tools"][name] = _tool_row(paras, time.perf_counter() - started)
    return row


def _tool_row(paras, seconds) -> dict:
    return {"paragraphs": len(paras), "mid": sum(map(ends_mid_sentence, paras)),
            "wraps": wraps_kept(paras), "seconds": round(seconds, 3)}


def measure(paths, model_path=None, workers=2) -> list:
    threads = max(1, len(os.sched_getaffinity(0)) // workers)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers, initializer=_init, initargs=(model_path, threads)) as pool:
        return list(pool.imap(measure_one, paths))


def summary(rows) -> str:
    """The overall figures per tool, ours in detail, and the 20 worst PDFs by our share."""
    tools = [OURS] + [name for name, _ in PEERS if any(name in r["tools"] for r in rows)]
    pages = sum(r["pages"] for r in rows)
    out = [f"wild corpus: {len(rows)} PDFs, {pages:,} pages read by ours",
           "mid-sentence: prose paragraphs (code and tables left out) ending on a lowercase "
           "letter, comma or hyphen; wraps kept: those whose next paragraph opens lowercase",
           f"{'tool':16} {'paragraphs':>10} {'mid-sentence':>13} {'at/below '+PYMUPDF4LLM:>22}"
           f" {'wraps kept':>10} {'at/below':>12} {'s/page':>7} {'failed':>6}"]
    for tool in tools:
        ok = [r for r in rows if "paragraphs" in r["tools"].get(tool, {})]
        n = sum(r["tools"][tool]["paragraphs"] for r in ok)
        mid = sum(r["tools"][tool]["mid"] for r in ok)
        wraps = sum(r["tools"][tool].get("wraps", 0) for r in ok)
        secs = sum(r["tools"][tool]["seconds"] for r in ok)
        read = sum(r["pages"] for r in ok) or 1
        both = [r for r in ok if "paragraphs" in r["tools"].get(PYMUPDF4LLM, {})]
        mid_ok = sum(_share(r, tool) <= _share(r, PYMUPDF4LLM) for r in both)
        wraps_ok = sum(_share(r, tool, "wraps") <= _share(r, PYMUPDF4LLM, "wraps") for r in both)
        failed = sum("error" in r["tools"].get(tool, {}) for r in rows)
        out.append(f"{tool:16} {n:>10,} {mid / max(n, 1):>12.1%} {mid_ok:>12} of {len(both):<6}"
                   f" {wraps / max(n, 1):>10.1%} {wraps_ok:>5} of {len(both):<3}"
                   f" {secs / read:>7.3f} {failed:>6}")
    ours = [r for r in rows if "forced" in r]
    breaks = sum(r["breaks"] for r in ours) or 1
    forced = {}
    for r in ours:
        for rule, n in r["forced"].items():
            forced[rule] = forced.get(rule, 0) + n
    out.append("ours, breaks forced by each layout rule: " + ", ".join(
        f"{rule} {n / breaks:.1%}" for rule, n in sorted(forced.items())))
    out.append(f"ours, pages read as two columns: {sum(r['two_columns'] for r in ours)}; pages "
               f"whose body is forced line by line as table rows: "
               f"{sum(r['table_pages'] for r in ours)}")
    out.append("the 20 worst PDFs by our share of paragraphs ending mid-sentence (ours / "
               f"{PYMUPDF4LLM} / {PYMUPDF}; wraps kept, ours / {PYMUPDF4LLM}):")
    for r in sorted(ours, key=lambda r: -_share(r, OURS))[:20]:
        out.append(f"  {_share(r, OURS):6.1%} / {_share(r, PYMUPDF4LLM):6.1%} / "
                   f"{_share(r, PYMUPDF):6.1%}; {_share(r, OURS, 'wraps'):6.1%} / "
                   f"{_share(r, PYMUPDF4LLM, 'wraps'):6.1%}  {r['pages']:>3} p  "
                   f"{Path(r['pdf']).name}"
                   f"{'  TABLE PAGES ' + str(r['table_pages']) if r['table_pages'] else ''}")
    for r in rows:
        for tool, result in r["tools"].items():
            if "error" in result:
                out.append(f"  failed: {tool}: {Path(r['pdf']).name}: {result['error']}")
    return "\n".join(out)


def _share(row, tool, what="mid") -> float:
    result = row["tools"].get(tool, {})
    return result.get(what, 0) / result["paragraphs"] if result.get("paragraphs") else 0.0


def main(args) -> None:
    paths = (papers() if args.docs == "papers"
             else documents(args.wild_pdfs) + printed_pages(args.wild_html))
    rows = measure(paths, args.model)
    print(summary(rows))
    if args.json:
        from ..atomic import write_atomic

        write_atomic(args.json, json.dumps(rows, indent=1))
