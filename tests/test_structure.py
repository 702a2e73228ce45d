"""The code's shape, as the README's map promises it: imports only point down (no cycle, even
through imports inside functions), the engine never imports the web layer, no web function
grows past a screen, and every default is declared once (settings.py)."""

import ast
import inspect
from pathlib import Path


from scorer import settings

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorer"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set:
    """The scorer modules `path` imports, anywhere in it (functions included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("scorer")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("scorer"):
                continue
            for alias in node.names:  # `from . import x` may name a module
                sub = f"{target}.{alias.name}"
                found.add(sub if (ROOT / (sub.replace(".", "/") + ".py")).is_file()
                          or (ROOT / sub.replace(".", "/")).is_dir() else target)
    found.discard(name)
    return found


def graph() -> dict:
    return {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


def cycles(edges: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_import_checker_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "scorer.align" in imports(PACKAGE / "labelfile.py")


def test_no_import_cycle_in_the_package():
    # the package's own __init__ lazily re-exports the Python API: not a layer of its own
    edges = {m: {i for i in deps if i != "scorer"} for m, deps in graph().items()}
    edges["scorer"] = set()
    assert cycles(edges) == []


def test_the_engine_never_imports_the_web_layer_or_the_evaluation():
    for module, deps in graph().items():
        if module.startswith(("scorer.web", "scorer.evaluate")) or module in ("scorer.cli",):
            continue
        upward = {d for d in deps if d.startswith(("scorer.web", "scorer.evaluate"))}
        assert not upward, f"{module} imports {upward}"


def test_the_agpl_peers_are_imported_by_the_evaluation_alone():
    """PyMuPDF and pymupdf4llm (AGPL) are the eval's peers, never part of the product."""
    for path in PACKAGE.rglob("*.py"):
        if module_name(path).startswith("scorer.evaluate"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [n for n in names if n.split(".")[0] in ("pymupdf", "fitz", "pymupdf4llm")], path


def test_no_web_function_is_longer_than_a_screen():
    for path in (PACKAGE / "web").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                assert length <= 80, f"{path.name}: {node.name} has {length} lines"


def test_every_default_is_the_settings_one():
    from scorer.jobs import Scheduler
    from scorer.pdfguard import Guard
    from scorer.service import Scorer

    d = settings.DEFAULT
    scheduler = inspect.signature(Scheduler).parameters
    assert (scheduler["max_active"].default, scheduler["idle_timeout"].default,
            scheduler["keep"].default, scheduler["max_jobs"].default) == \
        (d["MAX_ACTIVE"], d["JOB_IDLE_S"], d["JOB_KEEP_S"], d["MAX_JOBS"])
    scorer = inspect.signature(Scorer).parameters
    assert (scorer["cache_size"].default, scorer["max_active"].default,
            scorer["pdf_readers"].default) == (d["CACHE_SIZE"], d["MAX_ACTIVE"], d["PDF_READERS"])
    assert (Guard().max_pages, Guard().seconds, Guard().memory_mb) == \
        (d["MAX_PAGES"], d["OFFLINE_PDF_SECONDS"], d["OFFLINE_PDF_MEMORY_MB"])
    assert len({s.name for s in settings.SETTINGS}) == len(settings.SETTINGS)


def test_the_reference_pages_are_written_from_the_code():
    """docs/cli.md is the --help of every subcommand, docs/serving.md's settings table is
    settings.py: `python -m scorer.reference` rewrites both."""
    from scorer import reference

    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == reference.cli_markdown()
    serving = (ROOT / "docs" / "serving.md").read_text(encoding="utf-8")
    assert serving == reference.serving_markdown(serving)
    for s in settings.SETTINGS:
        assert f"`{s.env}`" in serving


def test_the_readme_fits_on_a_few_screens_and_keeps_its_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert "make run" in readme and "make test" in readme
    for link in ("docs/engine.md", "docs/cli.md", "docs/serving.md", "docs/evaluation.md",
                 "docs/cluster.md", "docs/data-contract.md", "docs/python-api.md"):
        assert link in readme and (ROOT / link).is_file()


def js_functions(path: Path):
    """(name, lines) of each top-level function of a module (each ends at the first `}` in
    column 0 after it: the style of static/)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines):
        head = line.removeprefix("export ").removeprefix("async ")
        if head.startswith("function"):
            end = next(k for k in range(n + 1, len(lines)) if lines[k] == "}")
            yield head.split("(")[0].split()[-1], end - n + 1


def test_no_function_of_the_page_is_longer_than_a_screen():
    seen = 0
    for path in (ROOT / "static").glob("*.js"):
        for name, length in js_functions(path):
            seen += 1
            assert length <= 80, f"{path.name}: {name} has {length} lines"
    assert seen > 20  # the checker sees the functions
