"""The shareable report: one self-contained HTML file of a scored document, for someone who will
never install anything. It opens from disk with no server and fetches nothing (its own CSP
says so): the page's view (templates/_view.html, static/view.js and the modules it imports,
static/style.css) inlined, the document's JSON embedded. Colours, legend, histogram, tooltips,
the slider, the labels' scores and the merged text work as on the page.

  html(doc, policy, name, vocab)   the report of a scored Document
  shell()                          the same with an empty data slot (MARKER), which the page fills
                                   with the document it holds (app.py serves it)

Does not: score or decide (the embedded JavaScript decides, as on the page).
"""

import json
import re
from functools import lru_cache
from pathlib import Path

from . import __version__, contract, decide

MARKER = "__PREFILL_LENS_REPORT_DATA__"
# the page's modules in dependency order; report.js is the entry
MODULES = ("policy.js", "render.js", "labels.js", "dom.js", "cells.js", "charts.js", "view.js",
           "report.js")
IMPORT = re.compile(r"^import\s[^;]*;\n", re.M)  # `import {...} from './x.js';`, one or more lines
TOP_LEVEL = re.compile(r"^(?:async )?(?:function\*?|const|let|class) ([A-Za-z_$][\w$]*)", re.M)
EXPORT = re.compile(r"^export (?=(?:async )?function |const |class )", re.M)


def assets() -> tuple:
    """(static folder, templates folder, samples folder): the checkout's, else the installed
    package's copy (pyproject.toml maps them to scorer.static, .templates and .samples)."""
    package = Path(__file__).resolve().parent
    checkout = package.parent
    root = checkout if (checkout / "static" / "view.js").is_file() else package
    return root / "static", root / "templates", root / "samples"


def bundle(static) -> str:
    """The modules as one classic script (file:// pages cannot import modules): imports
    dropped, exports made plain, the whole in one function scope."""
    parts = []
    for name in MODULES:
        source = (static / name).read_text(encoding="utf-8")
        parts.append(f"// --- {name}\n" + EXPORT.sub("", IMPORT.sub("", source)))
    script = "(() => {\n'use strict';\n" + "\n".join(parts) + "\n})();\n"
    names = TOP_LEVEL.findall(script)  # one scope now: a name declared twice would shadow
    if len(names) != len(set(names)):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise RuntimeError(f"modules declare the same top-level name: {', '.join(twice)}")
    if re.search(r"</script|import\s*\{|^export ", script, re.I | re.M):
        raise RuntimeError("a module did not bundle cleanly (a stray import, export or </script>)")
    return script


@lru_cache(maxsize=1)
def shell() -> str:
    """The report with MARKER where the data goes."""
    import jinja2

    static, templates, _ = assets()
    env = jinja2.Environment(loader=jinja2.FunctionLoader(
        lambda name: (templates / name).read_text(encoding="utf-8")), autoescape=True)
    return env.get_template("report.html").render(
        style=(static / "style.css").read_text(encoding="utf-8"), script=bundle(static),
        data=MARKER, policy=decide.defaults(), deciders=decide.DECIDERS, version=__version__)


def embed_json(json_text: str) -> str:
    """JSON text made safe inside <script>: `<` only ever appears in JSON strings, where
    \\u003c means the same (static/embed.js does the same, on tests/fixtures/embedding.json)."""
    return json_text.replace("<", "\\u003c")


def fill_shell(shell_html: str, json_text: str) -> str:
    """The report shell with its data slot filled, the data taken literally."""
    return shell_html.replace(MARKER, embed_json(json_text), 1)


def data_json(doc_json: str, policy: decide.Policy, name: str) -> str:
    """What the report embeds: the policy, the hand decisions, the name and the document."""
    head = json.dumps({"policy": {**decide.defaults(), "decider": policy.by,
                                           "cutoff": policy.cutoff},
                                "overrides": {str(i): d for i, d in policy.overrides.items()},
                                "name": name}, ensure_ascii=False)
    return head[:-1] + ', "doc": ' + doc_json + "}"


def html(doc, policy=decide.Policy(), name="document", vocab=None) -> str:
    """The report of `doc` (a Document scored with detail "full" for per-token tooltips)."""
    doc_json = "".join(contract.iter_json(doc, policy, vocab))
    return fill_shell(shell(), data_json(doc_json, policy, name))
