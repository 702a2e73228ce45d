"""The reference pages that must not drift from the code: docs/cli.md is every subcommand's
--help, and docs/serving.md's settings table is settings.py's declaration. Written by
`python -m scorer.reference`; tests/test_structure.py fails when either is stale.
Does not: write anything else (the rest of docs/ is prose, written by people).
"""

import argparse
import re
from pathlib import Path

from . import settings

DOCS = Path(__file__).resolve().parent.parent / "docs"
WIDTH = 100
TABLE = re.compile(r"(<!-- settings table: begin -->\n).*?(<!-- settings table: end -->)", re.S)


def cli_markdown() -> str:
    from .cli import build_parser

    def fixed(parser):  # the same text whatever the terminal's width
        parser.formatter_class = lambda prog: argparse.HelpFormatter(prog, width=WIDTH)
        return parser

    parser = fixed(build_parser())
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = ["# The command line", "",
           "Every subcommand's `--help`, written by `python -m scorer.reference` (do not edit by "
           "hand). What the options do, with examples: [engine.md](engine.md).", "",
           "```", parser.format_help().rstrip(), "```", ""]
    for name, sub in subparsers.choices.items():
        out += [f"## prefill-lens {name}", "", "```", fixed(sub).format_help().rstrip(), "```", ""]
    return "\n".join(out)


def serving_markdown(current: str) -> str:
    """docs/serving.md with its settings table written from settings.py."""
    return TABLE.sub(lambda m: m.group(1) + settings.markdown_table() + m.group(2), current)


def main() -> None:
    (DOCS / "cli.md").write_text(cli_markdown(), encoding="utf-8")
    serving = DOCS / "serving.md"
    serving.write_text(serving_markdown(serving.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {DOCS / 'cli.md'} and the settings table of {serving}")


if __name__ == "__main__":
    main()
