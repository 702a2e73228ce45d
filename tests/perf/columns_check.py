"""Which pages of the eval's Debian documents are taken for two columns or more, whole or in
part (pdf.regions.page_regions), how many are found to hold a table (pdf.regions.table_boxes:
a grid) and which hold a figure (pdf.figures.figures: a drawing with the text drawn on it),
with how many glyphs its labels take. Every page of each document, not only the eval's ranges:
a single-column document should have no two-column page at all. Then the pages in columns
and the figures of the typeset documents the eval has made (`eval --docs typeset`, in its
cache).

Not a test (it reads every page of the PDFs, minutes): run it by hand after changing the
column, table or figure rules.

    .venv/bin/python -m tests.perf.columns_check
"""

import pdfplumber

from scorer.evaluate.corpus import DOCS, fetch_debian_doc
from scorer.evaluate.typeset import TYPESET_CACHE
from scorer.pdf.figures import figures
from scorer.pdf.lines import page_glyphs
from scorer.pdf.regions import page_regions, ruled_tables, table_boxes


def main():
    for package in DOCS:
        path, _ = fetch_debian_doc(package)
        columns, more, tables, drawn = [], [], 0, {}
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                ruled = ruled_tables(page)
                cuts = [cut for _, _, cut in page_regions(page, ruled) if cut]
                if cuts:
                    columns.append(page.page_number)
                if any(len(cut) > 1 for cut in cuts):  # gutters(): three or more
                    more.append(page.page_number)
                tables += bool(table_boxes(ruled))
                _figures(page, ruled, drawn)
                page.close()
            n = len(pdf.pages)
        print(f"{package}: {n} pages, two columns or more on {len(columns)} {columns[:10]}, "
              f"three or more on {len(more)} {more[:10]}, a table on {tables}, "
              f"{_said(drawn)}")
    for path in sorted(TYPESET_CACHE.glob("*.pdf")):
        drawn, columns = {}, []
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                ruled = ruled_tables(page)
                if any(cut for _, _, cut in page_regions(page, ruled)):
                    columns.append(page.page_number)
                _figures(page, ruled, drawn)
                page.close()
        print(f"{path.name}: columns on {len(columns)} {columns[:10]}, {_said(drawn)}")


def _figures(page, ruled, drawn) -> None:
    """Count the page's figures' label glyphs into `drawn` (page -> glyphs)."""
    found = figures(page, page_glyphs(page), table_boxes(ruled))
    if found:
        drawn[page.page_number] = sum(len(fig.labels) for fig in found)


def _said(drawn) -> str:
    return (f"a figure on {len(drawn)} pages {sorted(drawn)[:10]}, "
            f"{sum(drawn.values())} glyphs drawn on them")


if __name__ == "__main__":
    main()
