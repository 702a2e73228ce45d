"""PDF -> lines with layout: what the model cannot see, read from the page.

Does: open a PDF with pdfplumber (clear errors for empty, non-PDF, corrupt, encrypted, too long
and image-only files), extract text lines with their geometry (x0, x1, top, bottom, dominant
font size, page, the column their page's text spans), mark running headers/footers and page
numbers (removed from the text by default, kept in the JSON with a flag), table rows and the
lines of code blocks (nearly all glyphs monospaced: code, preformatted text; never merged; a
prose line with a command or URL inline stays prose), and describe each line break by layout
features. Pages of two columns, or parts of pages, are read column by column, and pages of
three or four columns set as prose.
Does not: decide anything (decide.py).

One file per step, each rule in one place:
  glyphs.py     a glyph's character read from its name where pdfminer has none (TeX's fonts)
  lines.py      characters to text lines: glyphs on their baselines (scripts too), monospaced
                fonts, text side by side, CJK gaps, a page's parts (page_part)
  turned.py     a page set sideways (a landscape table), read turned upright
  regions.py    columns (gutter, gutters, sidebar), parts of a page in columns, tables that are grids
  tables.py     tables set without rules: rows whose cells leave the same strips empty
  figures.py    drawings and the text drawn on them (labels, no body lines); lines beside them
  order.py      reading order: region by region, down each column, spanning bands in place,
                notes in a margin before the paragraph they stand beside
  furniture.py  running headers and footers, page numbers, line numbers in a margin
  layout.py     the Line, list markers and tags, code blocks, column edges, hanging lines, a
                break's features
  reader.py     opening the PDF, each page's lines, PdfText (the body's text and layout)
"""

from .layout import FAR_IN, Line, break_features, line_json
from .lines import is_monospace
from .reader import DEFAULT_MAX_PAGES, PdfText, check_pdf_bytes, read_pdf
from .regions import gutter, gutters

__all__ = ["DEFAULT_MAX_PAGES", "FAR_IN", "Line", "PdfText", "break_features", "check_pdf_bytes",
           "gutter", "gutters", "is_monospace", "line_json", "read_pdf"]
