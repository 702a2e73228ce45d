"""The Prefill Lens web app, run from a checkout: `python app.py [--host ...] [--port ...]`, the
same as `prefill-lens serve ...`.

The app itself is the package scorer.web (create_app and its blueprints); this file only
starts it.
"""

import sys

from scorer.cli import main
from scorer.web import create_app  # noqa: F401  (tests and WSGI servers import it from here)

if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
