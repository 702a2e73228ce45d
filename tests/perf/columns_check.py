"""Which pages of the eval's Debian documents are taken for two columns or more, whole or in
part (pdf.regions.page_regions), and how many are found to hold a table (pdf.regions.table_boxes:
a grid). Every page of each document, not only the eval's ranges: a single-column document
should have no two-column page at all.

Not a test (it reads every page of the four PDFs, minutes): run it by hand after changing the
column or table rules.

    .venv/bin/python -m tests.perf.columns_check
"""

import pdfplumber

from scorer.evaluate.corpus import DOCS, fetch_debian_doc
from scorer.pdf.regions import page_regions, ruled_tables, table_boxes


def main():
    for package in DOCS:
        path, _ = fetch_debian_doc(package)
        columns, more, tables = [], [], 0
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                ruled = ruled_tables(page)
                cuts = [cut for _, _, cut in page_regions(page, ruled) if cut]
                if cuts:
                    columns.append(page.page_number)
                if any(len(cut) > 1 for cut in cuts):  # gutters(): three or more
                    more.append(page.page_number)
                tables += bool(table_boxes(ruled))
                page.close()
            n = len(pdf.pages)
        print(f"{package}: {n} pages, two columns or more on {len(columns)} {columns[:10]}, "
              f"three or more on {len(more)} {more[:10]}, a table on {tables}")


if __name__ == "__main__":
    main()
