"""End to end in a real browser: Debian's Chromium driven by Playwright, a real model behind it.

The app runs in a thread on 127.0.0.1 with SmolLM2 (its byte-level BPE splits Chinese characters
into byte tokens, which is what the hover must show) and opens with the Chinese sample scored.
"""

import json
import threading
from types import SimpleNamespace

import pytest

pytestmark = pytest.mark.browser
from werkzeug.serving import make_server

from app import create_app
from tests.conftest import EN_SAMPLE, ROOT, ZH_SAMPLE

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server(smollm_path):
    app = create_app({"MODEL": str(smollm_path), "DEFAULT_SAMPLE": ZH_SAMPLE.name})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    # Playwright's string predicates need eval, which the page's CSP forbids; the page itself
    # runs under its CSP in test_the_page_runs_under_its_own_csp
    context = browser.new_context(accept_downloads=True, bypass_csp=True)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server)
    yield pg
    context.close()
    assert not errors, errors


def joined_count(page):
    return int(page.locator("#counts").get_attribute("data-joined"))


def set_cutoff(page, value):
    page.eval_on_selector("#cutoff", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }",
                          value)


def download_text(page, button):
    with page.expect_download() as info:
        page.click(button)
    return open(info.value.path(), encoding="utf-8").read()


def test_the_page_runs_under_its_own_csp(browser, server):
    context = browser.new_context()
    pg = context.new_page()
    problems = []
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    pg.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    pg.goto(server)
    pg.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert pg.locator("#doc span.break").count() > 0
    context.close()
    assert not problems, problems


def test_sample_scores_and_hover_shows_byte_tokens(page):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.locator("#status").inner_text().startswith("Scored")
    doc_text = page.locator("#doc").inner_text()
    assert "\ufffd" not in doc_text and "证券代码" in doc_text
    split = page.locator("#doc span.split").first
    split.hover()
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    text = tip.inner_text()
    assert text.count("token #") >= 2, text
    assert "(product of its byte tokens)" in text and "bytes E" in text
    # a break cell's tooltip carries the model's evidence
    page.locator("#doc span.break").first.hover()
    assert "P(newline here)" in tip.inner_text() and "percentile" in tip.inner_text()


def test_slider_recolours_without_a_request_and_export_matches_cli(page, run_cli, smollm_path):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    page.select_option("#decider", "percentile")
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/" in r.url else None)
    at_default = joined_count(page)
    set_cutoff(page, 90)
    assert joined_count(page) > at_default
    set_cutoff(page, 0)
    assert joined_count(page) == 0
    assert requests == []  # the slider works from cached data
    page.locator("#cutoff").focus()
    page.keyboard.press("End")
    assert page.locator("#cutoff-value").inner_text() == "100"

    set_cutoff(page, 34)
    exported = download_text(page, "#download-txt")
    cli = run_cli("merge", str(ZH_SAMPLE), "--cutoff", "34", "--model", str(smollm_path))
    assert cli.returncode == 0, cli.stderr
    assert exported == cli.stdout.decode("utf-8")

    # a click overrides one break; the export follows and equals the engine's merge with it
    first_break = page.locator("#doc span.break").first
    offset = int(first_break.get_attribute("data-i"))
    before = joined_count(page)
    first_break.click()
    assert joined_count(page) != before
    flipped = "keep" if joined_count(page) < before else "join"
    exported = download_text(page, "#download-txt")
    want = page.evaluate("""async ([text, overrides]) => {
        const r = await fetch('/api/merge', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({text, cutoff: 34, overrides})});
        return (await r.json()).merged; }""", [ZH_SAMPLE.read_text(encoding="utf-8"), {str(offset): flipped}])
    assert exported == want
    scores = json.loads(download_text(page, "#download-json"))
    assert scores["cutoff"] == 34 and scores["overrides"] == {str(offset): flipped}


def test_the_page_opens_on_the_engines_default_decider(page, run_cli, smollm_path):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.locator("#decider").input_value() == "hybrid"  # the server's default
    assert "hybrid" in page.locator("#decider-note").inner_text()  # and the page says why
    assert page.locator("#cutoff").is_disabled()  # the slider is about the percentile only
    exported = download_text(page, "#download-txt")
    cli = run_cli("merge", str(ZH_SAMPLE), "--model", str(smollm_path))  # merge's default
    assert cli.returncode == 0, cli.stderr
    assert exported == cli.stdout.decode("utf-8")
    page.locator("#doc span.break").first.hover()
    tip = page.locator("#tip").inner_text()
    assert "P(join)" in tip and "hybrid evidence" in tip and "(by the hybrid)" in tip
    page.select_option("#decider", "percentile")
    assert not page.locator("#cutoff").is_disabled()


def test_document_text_is_never_html(page):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    payload = '<script>window.__xss = 1</script>\n<img src=x onerror="window.__xss = 2">'
    page.fill("#text", payload)
    page.click("#score")
    page.wait_for_function("n => document.querySelector('#status').textContent.startsWith(`Scored ${n} `)",
                           arg=len(payload), timeout=120_000)
    assert page.evaluate("window.__xss") is None
    assert page.locator("#doc img, #doc script").count() == 0
    assert "<script>window.__xss = 1</script>" in page.locator("#doc").inner_text()


def test_errors_are_shown(page):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    page.fill("#text", "   ")
    page.click("#score")
    assert page.locator("#status.error").inner_text()
    page.set_input_files("#file", files=[{"name": "bad.txt", "mimeType": "text/plain",
                                          "buffer": b"\xff\xfe\x00"}])
    page.click("#score")
    page.wait_for_selector("#status.error")
    assert "UTF-8" in page.locator("#status").inner_text()


def test_the_page_has_no_remote_resources():
    html = (ROOT / "templates" / "index.html").read_text()
    assert "http://" not in html and "https://" not in html


class SyntheticScorer:
    """Web-layer only: a large document of the right shape, instantly (no model involved)."""

    def __init__(self):
        from scorer.jobs import Scheduler

        self.scheduler = Scheduler(lambda: None)  # jobs end at once: nothing to schedule

    def submit(self, text, mode="joined", detail="full"):
        job = self.scheduler.new()
        self.scheduler.finished(job, SimpleNamespace(ids=[], doc=self.document(text, mode)))
        return job

    def result_json(self, job, policy=None):
        return iter([json.dumps(job.result.doc)])

    def document(self, text, mode):
        lines = text.split("\n")
        cells, breaks, offset = [], [], 0
        for k, line in enumerate(lines):
            cells += [{"ch": ch, "t": [], "logprob": -1.0, "shared": False} for ch in line]
            offset += len(line)
            if k < len(lines) - 1:
                cells.append({"ch": "\n", "t": [], "logprob": None, "shared": False})
                breaks.append({"i": offset, "token": -1, "logp": -0.01 * (k % 300), "p": None,
                               "logp_next": None, "percentile": 100.0 * (k % 300) / 300,
                               "joiner": " ", "decision": "keep", "reason": "", "context": mode,
                               "p_join": (k % 300) / 300, "hybrid": "keep", "evidence": []})
                offset += 1
        return {"text": text, "mode": mode, "model": {"file": "synthetic"}, "timings": {},
                "tokens": [], "cells": cells, "breaks": breaks}


def test_a_long_document_renders_and_stays_responsive(browser):
    app = create_app({"MAX_CHARS": 1_000_000}, scorer=SyntheticScorer())
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{httpd.server_port}/")
        text = "\n".join(f"line {k} of a long hard-wrapped document" for k in range(5000))
        page.eval_on_selector("#text", "(el, v) => { el.value = v; }", text)  # typing 200k chars is not the point
        page.click("#score")
        page.wait_for_selector("#result:not([hidden])", timeout=60_000)
        assert page.locator("#doc span.break").count() == 4999
        page.select_option("#decider", "percentile")
        set_cutoff(page, 50)
        assert joined_count(page) == sum(1 for k in range(4999) if 100.0 * (k % 300) / 300 < 50)
        page.locator("#doc span.break").nth(4000).hover()
        assert "P(newline here)" in page.locator("#tip").inner_text()
        page.close()
    finally:
        httpd.shutdown()


def test_pdf_upload_shows_layout_evidence(page, tmp_path):
    from tests import pdfs

    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    path = tmp_path / "report.pdf"
    pdfs.report(path)
    page.set_input_files("#file", str(path))
    page.click("#score")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Scored') && "
                           "document.querySelector('#meta').textContent.includes('candidate breaks') && "
                           "document.querySelector('#doc').textContent.includes('Pumping stations')",
                           timeout=120_000)
    assert "Annual Report" not in page.locator("#doc").inner_text()  # running header removed
    page.locator("#doc span.break").first.hover()
    tip = page.locator("#tip").inner_text()
    assert "layout:" in tip and "% full" in tip


def test_markdown_and_paragraph_downloads_are_the_engines(page, run_cli, smollm_path):
    guide = ROOT / "samples" / "en-field-guide.pdf"
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    page.set_input_files("#file", str(guide))
    page.click("#score")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Scored') && "
                           "document.querySelector('#doc').textContent.includes('pumpctl')",
                           timeout=120_000)
    cli = run_cli("merge", str(guide), "--format", "markdown", "--model", str(smollm_path))
    assert download_text(page, "#download-md") == cli.stdout.decode("utf-8")
    rows = [json.loads(line) for line in download_text(page, "#download-jsonl").splitlines()]
    assert rows[0]["kind"] == "heading" and rows[-1]["pages"] == [2, 2]
    # the hand decisions travel: the first break flipped, the paragraphs change with it
    page.locator("#doc span.break").first.click()
    after = [json.loads(line) for line in download_text(page, "#download-jsonl").splitlines()]
    assert after != rows


def test_a_long_upload_shows_progress_and_can_be_cancelled(page, tmp_path):
    from tests import pdfs

    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    long_pdf = tmp_path / "long-report.pdf"
    lines = EN_SAMPLE.read_text(encoding="utf-8").splitlines()
    pdfs.text_pdf(long_pdf, [line for line in lines if line.strip()] * 30)
    page.set_input_files("#file", str(long_pdf))
    page.click("#score")
    assert page.locator("#result").is_hidden()  # the old result is gone at once, not stale
    page.wait_for_function("document.querySelector('#progress').value > 0", timeout=120_000)
    first = page.eval_on_selector("#progress", "el => el.value")
    page.wait_for_function("v => document.querySelector('#progress').value > v", arg=first,
                           timeout=60_000)
    assert "tokens" in page.locator("#status").inner_text()
    assert "s left" in page.locator("#status").inner_text()
    page.click("#cancel")
    page.wait_for_function("document.querySelector('#status').textContent === 'Cancelled.'",
                           timeout=10_000)
    assert page.locator("#result").is_hidden() and page.locator("#cancel").is_hidden()

    small_pdf = tmp_path / "report.pdf"
    pdfs.report(small_pdf)
    page.set_input_files("#file", str(small_pdf))
    page.click("#score")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Scored')",
                           timeout=120_000)
    assert "Pumping stations" in page.locator("#doc").inner_text()
    with page.expect_download() as info:
        page.click("#download-txt")
    assert info.value.suggested_filename == "report.merged.txt"  # named after the document


def break_state(page, offset):
    return page.eval_on_selector(f'#doc span[data-i="{offset}"]',
                                 "el => [el.dataset.decision, getComputedStyle(el).backgroundColor]")


def test_colours_follow_the_decisions_and_the_legend_names_every_mark(page):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    for words in ("joined", "kept: a real paragraph end", "no evidence", "set by hand",
                  "kept by the layout", "surprising", "split over several byte tokens"):
        assert words in page.locator(".legend").inner_text()
    page.select_option("#decider", "percentile")
    # a break that the layout does not force, with a percentile between two slider steps
    target = page.evaluate("""() => [...document.querySelectorAll('#doc span.break:not(.forced)')]
        .map((el) => el.dataset.i)""")
    offset = int(target[len(target) // 2])
    page.locator(f'#doc span[data-i="{offset}"]').hover()
    pct = float(page.locator("#tip").inner_text().split("percentile: ")[1].split(" %")[0])
    low, high = int(pct), int(pct) + 1  # pct in [low, high): joined at `high`, kept at `low`
    set_cutoff(page, high)
    joined, red = break_state(page, offset)
    set_cutoff(page, low)  # at or just below the break's percentile: kept
    kept, green = break_state(page, offset)
    assert (joined, kept) == ("join", "keep") and red != green
    r, g, _ = (int(x) for x in red[red.index("(") + 1:-1].split(",")[:3])
    assert r > g  # red side
    r, g, _ = (int(x) for x in green[green.index("(") + 1:-1].split(",")[:3])
    assert g > r  # green side
    # the hybrid colours its own decisions
    page.select_option("#decider", "hybrid")
    for span in page.locator("#doc span.break").all()[:10]:
        decision, colour = span.evaluate("el => [el.dataset.decision, getComputedStyle(el).backgroundColor]")
        r, g, _ = (int(x) for x in colour[colour.index("(") + 1:-1].split(",")[:3])
        assert (r > g) == (decision == "join") or span.evaluate("el => el.classList.contains('forced')")


def test_keyboard_review_changes_the_export(page):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    # one Tab stop for the whole text, not one per break
    assert page.evaluate("[...document.querySelectorAll('#doc [tabindex]')].filter(e => e.tabIndex >= 0).length") == 0
    assert page.evaluate("document.querySelector('#doc').tabIndex") == 0
    before = download_text(page, "#download-txt")
    page.locator("#doc").focus()
    page.keyboard.press("n")  # the most doubtful break
    assert page.locator("#review").inner_text().startswith("1 of ")
    current = page.locator("#doc span.current")
    offset = int(current.get_attribute("data-i"))
    flip = "k" if current.get_attribute("data-decision") == "join" else "j"
    page.keyboard.press(flip)
    after = download_text(page, "#download-txt")
    assert after != before
    want = page.evaluate("""async ([text, overrides]) => {
        const r = await fetch('/api/merge', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({text, decide: 'hybrid', overrides})});
        return (await r.json()).merged; }""",
        [ZH_SAMPLE.read_text(encoding="utf-8"), {str(offset): "keep" if flip == "k" else "join"}])
    assert after == want  # the page's export is the engine's merge with that override
    page.locator("#doc").focus()  # the download button took the focus; keys work in the text
    page.keyboard.press("u")
    assert download_text(page, "#download-txt") == before
    page.locator("#doc").focus()
    page.keyboard.press("n")
    assert page.locator("#review").inner_text().startswith("2 of ")


def test_labels_saved_reloaded_and_scored_as_eval_scores_them(page, run_cli, smollm_path, tmp_path):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.locator("#scores").is_hidden()  # no labels yet: no scores
    page.locator("#doc").focus()
    for key in ("n", "k", "n", "j", "n", "k", "n", "j", "n", "j"):  # five breaks reviewed
        page.keyboard.press(key)
    assert page.locator("#scores").is_visible()
    assert "On your 5 labels" in page.locator("#scores-text").inner_text()
    assert page.locator("#f1curve polyline").count() == 1
    with page.expect_download() as info:
        page.click("#save-labels")
    assert info.value.suggested_filename == "zh-shareholder-resolution.labels.jsonl"
    labels = tmp_path / "labels.jsonl"
    info.value.save_as(labels)
    shown = float(page.locator("#scores-text").get_attribute("data-macro-f1"))

    page.reload()  # a new session: the labels come back from the file
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.locator("#scores").is_hidden()
    page.set_input_files("#labels-file", str(labels))
    page.wait_for_function("document.querySelector('#status').textContent.includes('5 labels loaded')")
    assert float(page.locator("#scores-text").get_attribute("data-macro-f1")) == shown
    assert page.locator("#doc span.break.override").count() == 5

    out = tmp_path / "eval.json"
    result = run_cli("eval", "--labels", str(labels), str(ZH_SAMPLE), "--model", str(smollm_path),
                     "--json", str(out))
    assert result.returncode == 0, result.stderr
    rows = json.loads(out.read_text())["documents"]
    default = next(r for r in rows if r["method"].startswith("DEFAULT"))
    assert default["n"] == 5 and abs(default["macro_f1"] - shown) < 1e-6

    # a truth text labels every break it lines up with; a bad file is a clear error
    page.set_input_files("#labels-file", str(ZH_SAMPLE.parent / "expected" / ZH_SAMPLE.name))
    page.wait_for_function("document.querySelector('#status').textContent.includes('from the truth text')")
    assert page.locator("#doc span.break.override").count() == page.locator("#doc span.break").count()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc": "x", "offset": 1, "label": "maybe"}\n')
    page.set_input_files("#labels-file", str(bad))
    page.wait_for_selector("#status.error")
    assert "label must be one of" in page.locator("#status").inner_text()


def merged_shown(pg):
    return pg.evaluate("document.querySelector('#merged').textContent")


def report_cells(pg):
    return pg.evaluate("[...document.querySelectorAll('#doc span[data-i]')].map((s) => s.textContent).join('')")


def test_the_report_opens_from_disk_offline_with_the_same_cells_and_text(page, browser, tmp_path):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    page.locator("#doc").focus()
    page.keyboard.press("n")
    page.keyboard.press("k")  # a hand decision travels with the report
    merged = download_text(page, "#download-txt")
    cells = report_cells(page)
    with page.expect_download() as info:
        page.click("#download-report")
    assert info.value.suggested_filename == "zh-shareholder-resolution.report.html"
    path = tmp_path / "report.html"
    info.value.save_as(path)

    context = browser.new_context(offline=True)  # no network at all, and the report's own CSP
    pg = context.new_page()
    requests, problems = [], []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    pg.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    pg.goto(path.as_uri())
    pg.wait_for_selector("#doc span.break")
    assert report_cells(pg) == cells
    assert merged_shown(pg) == merged
    assert pg.locator("#doc span.break.override").count() == 1
    for words in ("joined", "kept: a real paragraph end", "set by hand", "surprising"):
        assert words in pg.locator(".legend").inner_text()
    assert pg.locator("#histogram rect").count() > 0
    pg.locator("#doc span.split").first.hover()
    assert pg.locator("#tip").inner_text().count("token #") >= 2
    pg.select_option("#decider", "percentile")  # the controls work in the file too
    pg.eval_on_selector("#cutoff", "(el) => { el.value = 100; el.dispatchEvent(new Event('input')); }")
    assert merged_shown(pg) != merged
    context.close()
    assert [u for u in requests if not u.startswith("file:")] == [] and not problems, (requests, problems)


def test_report_from_the_command_line_shows_what_the_page_shows(page, browser, run_cli,
                                                                 smollm_path, tmp_path):
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    out = tmp_path / "cli.html"
    result = run_cli("report", str(ZH_SAMPLE), "-o", str(out), "--model", str(smollm_path))
    assert result.returncode == 0, result.stderr
    context = browser.new_context(offline=True)
    pg = context.new_page()
    pg.goto(out.as_uri())
    pg.wait_for_selector("#doc span.break")
    assert report_cells(pg) == report_cells(page)
    assert merged_shown(pg) == download_text(page, "#download-txt")
    context.close()


def test_screenshots_for_the_readme(browser, server, tmp_path):
    """docs/*.png, shown in the README: taken here so that they stay current."""
    docs = ROOT / "docs"
    docs.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    pg = context.new_page()
    pg.goto(server)
    pg.wait_for_selector("#result:not([hidden])", timeout=180_000)
    # the English sample: Chromium here has no CJK font (a user's browser has)
    pg.select_option("#sample", EN_SAMPLE.name)
    pg.wait_for_function("document.querySelector('#status').textContent.startsWith('Loaded')")
    pg.click("#score")
    pg.wait_for_function("document.querySelector('#status').textContent.startsWith('Scored')",
                         timeout=120_000)
    pg.screenshot(path=str(docs / "page.png"))
    pg.locator("#doc").focus()
    pg.keyboard.press("n")  # the review queue's first break, its tooltip open
    assert pg.locator("#tip").is_visible() and "decision:" in pg.locator("#tip").inner_text()
    pg.screenshot(path=str(docs / "review.png"))
    # the first five of the queue labelled as the sample's truth says: the scores and the curve
    from scorer.labelfile import from_truth
    truth = from_truth(EN_SAMPLE.read_text(encoding="utf-8"),
                       (EN_SAMPLE.parent / "expected" / EN_SAMPLE.name).read_text(encoding="utf-8"))
    for step in range(5):
        if step:
            pg.keyboard.press("n")
        offset = int(pg.locator("#doc span.current").get_attribute("data-i"))
        pg.keyboard.press({"join": "j", "keep": "k"}[truth[offset]])
    with pg.expect_download() as info:
        pg.click("#download-report")
    report = tmp_path / "report.html"
    info.value.save_as(report)
    offline = browser.new_context(viewport={"width": 1200, "height": 900}, offline=True)
    rp = offline.new_page()
    rp.goto(report.as_uri())
    rp.wait_for_selector("#doc span.break")
    rp.screenshot(path=str(docs / "report.png"))
    offline.close()
    context.close()
    for name in ("page.png", "review.png", "report.png"):
        assert (docs / name).stat().st_size > 10_000
