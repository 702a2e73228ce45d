"""Hostile or unlucky input never takes a machine down, whichever entry point it comes through:
PDF bombs read within limits by the CLI, the batch and the Python API (not only the web app),
a time limit for the whole PDF, event streams that cannot take every server thread, bounded
label alignment, malformed requests as 400s, a full disk before any work, a port that is not
Ray, and a llama.cpp build that would crash refused with its fix.

Loops are bounded in count and time; servers listen on 127.0.0.1 only."""

import io
import json
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from app import create_app
from scorer import atomic, inputs, labelfile, model as model_module
from scorer.errors import BadInput, ModelUnavailable, TooLarge
from scorer.pdfguard import Guard, read_pdf_guarded
from tests import pdfs
from tests.conftest import EN_SAMPLE, PeakRss

SMALL = Guard(seconds=4, memory_mb=512)


# -- the guarded reader, as the CLI, the batch and the Python API use it ------------------------
TIME, MEMORY = ("4 s", "Guard(seconds="), ("512 MB", "Guard(memory_mb=")


@pytest.mark.parametrize("make, limits", [
    (pdfs.operator_bomb, (TIME, MEMORY)),  # slow and hungry: whichever comes first
    (pdfs.stream_bomb, (MEMORY,)),
    (pdfs.pages_bomb, (TIME,)),
], ids=["3M operators", "200 MB stream", "100 pages of one slow stream"])
def test_a_bomb_is_stopped_by_the_limit_it_hits_and_says_which(tmp_path, make, limits):
    path = tmp_path / "bomb.pdf"
    make(path)
    with PeakRss() as memory, pytest.raises(TooLarge) as caught:
        read_pdf_guarded(path, guard=SMALL)
    message = str(caught.value)
    assert "bomb.pdf" in message, message
    assert any(limit in message and how in message for limit, how in limits), message
    assert memory.growth < 100  # the child's memory, never ours


@pytest.mark.parametrize("x, y", [(1e8, 500), (-1e8, 500), (100, -1e8)])
def test_a_glyph_set_far_off_the_page_is_read_within_the_limits(tmp_path, x, y):
    """One glyph set 10^8 pt off the page's side: the page's arrays across its text were as
    wide as the distance (27 s and 2.4 GB, then 30 GiB asked for). Now the page is read within
    the small guard, and no text is lost, not even the far glyph's."""
    path = tmp_path / "far.pdf"
    lines = pdfs.far_glyph(path, x, y)
    text = read_pdf_guarded(path, guard=SMALL).text
    assert all(line in text for line in lines) and "far away" in text


def test_the_time_limit_is_for_the_whole_file_not_per_page(tmp_path):
    """100 pages each slow to read: one deadline for all of them, not 100 deadlines."""
    path = tmp_path / "pages.pdf"
    pdfs.pages_bomb(path)
    started = time.monotonic()
    with pytest.raises(TooLarge, match="took more than 2 s"):
        read_pdf_guarded(path, guard=Guard(seconds=2))
    assert time.monotonic() - started < 30  # generous: it is killed at 2 s


def test_a_good_pdf_reads_the_same_through_the_guard(tmp_path):
    from scorer.pdf import read_pdf

    path = tmp_path / "report.pdf"
    pdfs.report(path)
    guarded = read_pdf_guarded(path)
    assert guarded.text == read_pdf(path).text and guarded.break_layout() == \
        read_pdf(path).break_layout()
    assert read_pdf_guarded(path.read_bytes(), "named.pdf").text == guarded.text


def test_a_reader_serves_many_pdfs_and_a_bomb_never_spoils_the_next(tmp_path):
    from scorer.pdfguard import _Reader

    good, bomb = tmp_path / "report.pdf", tmp_path / "bomb.pdf"
    pdfs.report(good)
    pdfs.stream_bomb(bomb)
    first = read_pdf_guarded(good, guard=SMALL)
    (reader,) = _Reader._idle[SMALL.memory_mb]
    assert read_pdf_guarded(good, guard=SMALL).text == first.text
    assert _Reader._idle[SMALL.memory_mb] == [reader]  # the same child read it again
    with pytest.raises(TooLarge):
        read_pdf_guarded(bomb, guard=SMALL)
    assert reader.child.poll() is not None and reader not in _Reader._idle[SMALL.memory_mb]
    assert read_pdf_guarded(good, guard=SMALL).text == first.text  # a fresh reader


def test_guarded_reader_still_names_ordinary_problems(tmp_path):
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(Exception, match="empty"):
        read_pdf_guarded(tmp_path / "empty.pdf")
    pdfs.pages(tmp_path / "three.pdf", 3)
    with pytest.raises(TooLarge, match="the limit is 2"):
        read_pdf_guarded(tmp_path / "three.pdf", guard=Guard(max_pages=2))


@pytest.mark.model
def test_a_bomb_through_the_cli_is_one_line(run_cli, tmp_path, smollm_path):
    path = tmp_path / "bomb.pdf"
    pdfs.pages_bomb(path)
    started = time.monotonic()
    result = run_cli("merge", str(path), "--pdf-timeout", "3", "--model", str(smollm_path))
    assert time.monotonic() - started < 60
    lines = result.stderr.decode().strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "--pdf-timeout" in lines[0], lines
    assert result.stdout == b""


@pytest.mark.model
def test_a_bomb_in_a_batch_is_one_failure_and_the_batch_ends(run_cli, tmp_path, smollm_path):
    inbox, out = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    pdfs.stream_bomb(inbox / "bomb.pdf")
    (inbox / "good.txt").write_text("A line that wraps in\nthe middle.\n", encoding="utf-8")
    result = run_cli("batch", str(inbox), "-o", str(out), "--workers", "2", "--pdf-memory",
                     "512", "--model", str(smollm_path))
    assert result.returncode == 1, result.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (summary["ok"], summary["failed"]) == (1, 1)
    (failure,) = summary["failures"]
    assert failure["input"].endswith("bomb.pdf") and "--pdf-memory" in failure["reason"]
    assert (out / "good.txt.txt").is_file() and not (out / "bomb.pdf.txt").exists()
    assert "failed: " in result.stderr.decode() and "bomb.pdf" in result.stderr.decode()


def test_pdf_limits_must_make_sense(tmp_path):
    from scorer.cli import main

    text = tmp_path / "a.txt"
    text.write_text("a\nb")
    assert main(["merge", str(text), "--pdf-timeout", "0"]) == 2
    assert main(["merge", str(text), "--pdf-memory", "10"]) == 2


# -- the web app: event streams, bounded work, malformed requests -------------------------------
class Server:
    """The app under waitress as `serve` runs it (its connection limits too), on 127.0.0.1 with
    few threads, in a thread of this process."""

    def __init__(self, app, threads):
        from scorer.web.serve import make_server

        self.server = make_server(app, "127.0.0.1", 0, threads)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            self.server.run()
        except OSError:  # its sockets closed under the select loop by close(): the end
            if not self.closed:
                raise

    def get(self, path, timeout=10):
        with urllib.request.urlopen(self.url + path, timeout=timeout) as r:
            return r.status, r.read()

    def close(self):
        self.closed = True
        self.server.close()
        self.thread.join(timeout=10)


def test_open_event_streams_leave_threads_for_everything_else(fake_scorer, tmp_path):
    """More streams than the server has threads (a script, or many tabs): the ones past the cap
    are refused at once (the page polls instead), and the page, samples and merges still
    answer."""
    (tmp_path / "s.txt").write_text("a\nb", encoding="utf-8")
    app = create_app({"SAMPLES_DIR": str(tmp_path), "MAX_STREAMS": 3, "STREAMS_PER_CLIENT": 3},
                     scorer=fake_scorer)
    job = fake_scorer.scheduler.new()  # never started: its stream stays open
    server = Server(app, threads=4)
    opened = []
    try:
        statuses = []
        for _ in range(8):  # twice the threads
            conn = socket.create_connection(("127.0.0.1", server.server.effective_port), 5)
            conn.sendall(f"GET /api/jobs/{job.id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                         .encode())
            conn.settimeout(5)
            statuses.append(conn.recv(64).split(b" ")[1])
            opened.append(conn)
        assert statuses.count(b"200") == 3 and statuses.count(b"429") == 5, statuses
        for path in ("/", "/api/samples", f"/api/jobs/{job.id}"):
            assert server.get(path)[0] == 200, path
        request = urllib.request.Request(server.url + "/api/merge", data=b'{"text": "a\\nb"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            assert r.status == 200
        # a closed stream gives its slot back
        for conn in opened:
            conn.close()
        fake_scorer.scheduler.cancel(job)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            conn = socket.create_connection(("127.0.0.1", server.server.effective_port), 5)
            other = fake_scorer.scheduler.new()
            conn.sendall(f"GET /api/jobs/{other.id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                         .encode())
            conn.settimeout(5)
            status = conn.recv(64).split(b" ")[1]
            conn.close()
            fake_scorer.scheduler.cancel(other)
            if status == b"200":
                break
            time.sleep(0.5)
        assert status == b"200"
    finally:
        for conn in opened:
            conn.close()
        server.close()


def test_one_client_cannot_take_every_stream(fake_scorer, tmp_path):
    app = create_app({"TESTING": True, "SAMPLES_DIR": str(tmp_path), "MAX_STREAMS": 10,
                      "STREAMS_PER_CLIENT": 2}, scorer=fake_scorer)
    job = fake_scorer.scheduler.new()
    fake_scorer.scheduler.cancel(job)  # ended: each stream sends one state and closes
    client = app.test_client()
    held = [client.get(f"/api/jobs/{job.id}/events", buffered=False) for _ in range(3)]
    assert [r.status_code for r in held] == [200, 200, 429]
    assert "/api/jobs/" in held[2].get_json()["error"]
    for r in held[:2]:
        r.close()
    assert client.get(f"/api/jobs/{job.id}/events").status_code == 200


@pytest.mark.parametrize("route", ["/api/score", "/api/merge", "/api/jobs", "/api/labels"])
def test_deeply_nested_json_is_bad_input(client, route):
    r = client.post(route, data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert r.status_code in (400, 413) and "error" in r.get_json(), r.status_code


def test_labels_that_are_no_unicode_or_nested_too_deep_are_bad_input(client):
    text = "one\ntwo"
    key = inputs.text_hash(text)
    lines = ['{"doc": "%s", "offset": 3, "label": "join\ud800"}' % key,
             '{"doc": "\ud800", "offset": 3, "label": "join"}',
             "[" * 1500 + "]" * 1500]
    for jsonl in lines:
        r = client.post("/api/labels", json={"text": text, "labels": jsonl})
        assert r.status_code == 400 and "error" in r.get_json(), jsonl[:40]
    for field in ({"truth": "one two"}, {"labels": lines[0]}):
        r = client.post("/api/labels", json={"text": "one\ud800\ntwo", **field})
        assert r.status_code == 400 and "surrogate" in r.get_json()["error"], field


def test_a_huge_truth_is_refused_before_any_alignment(fake_scorer, tmp_path):
    app = create_app({"TESTING": True, "SAMPLES_DIR": str(tmp_path)}, scorer=fake_scorer)
    text = EN_SAMPLE.read_text(encoding="utf-8")
    truth = "A paragraph that is not in the document at all, again and again.\n" * 60_000
    started = time.process_time()
    r = app.test_client().post("/api/labels", json={"text": text, "truth": truth})
    assert r.status_code == 413 and "truth" in r.get_json()["error"]
    assert time.process_time() - started < 5  # generous: refused by its length alone
    with pytest.raises(TooLarge):
        labelfile.from_truth(text, truth)


@pytest.mark.parametrize("filename, data, fragment", [
    ("../../etc/evil.pdf", b"not a pdf", "evil.pdf is not a PDF"),
    ("../../etc/notes.txt", b"", "notes.txt is empty (0 bytes)"),
    ("..", b"", "upload is empty (0 bytes)"),
])
def test_an_upload_name_is_shown_as_a_name_and_says_what_is_wrong(tmp_path, filename, data,
                                                                   fragment):
    app = create_app({"TESTING": True, "MODEL": str(tmp_path / "never-loaded.gguf")})
    r = app.test_client().post("/api/score", data={"file": (io.BytesIO(data), filename)},
                               content_type="multipart/form-data")
    error = r.get_json()["error"]
    assert r.status_code in (400, 422) and error.startswith(fragment) and "/" not in error, error


# -- outputs: a full disk is refused before any work --------------------------------------------
@pytest.fixture
def full_disk(tmp_path):
    """A real file system with no space left: a 64 KiB tmpfs, filled (root only, as CI is)."""
    mount = tmp_path / "full"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        subprocess.run(["dd", "if=/dev/zero", f"of={mount / 'fill'}", "bs=4k"],
                       capture_output=True)
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_a_full_disk_is_refused_before_any_work(full_disk):
    with pytest.raises(BadInput, match="No space left"):
        atomic.check_folder_target(full_disk)
    with pytest.raises(BadInput, match="No space left"):
        atomic.check_file_target(full_disk / "merged.txt")


def test_a_batch_onto_a_full_disk_says_so_before_scoring(full_disk, tmp_path):
    from scorer import batch

    text = tmp_path / "a.txt"
    text.write_text("a\nb")
    with pytest.raises(BadInput, match="No space left"):  # the model is never reached
        batch.run([str(text)], full_disk, model_path=tmp_path / "never-loaded.gguf")


# -- Ray: an address that is not a Ray head ------------------------------------------------------
@pytest.mark.parametrize("answer", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n"],
                         ids=["silent", "http"])
def test_a_port_that_is_not_ray_is_one_error_in_seconds(answer):
    from scorer.raybatch import speaks_grpc

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve():
        conn, _ = listener.accept()
        conn.recv(1024)
        if answer:
            conn.sendall(answer)
            conn.close()
        else:
            time.sleep(3)  # open, says nothing
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    started = time.monotonic()
    with pytest.raises(BadInput, match="Ray"):
        speaks_grpc(f"127.0.0.1:{port}", timeout=1)
    assert time.monotonic() - started < 10
    listener.close()


# -- a llama.cpp build that cannot run here ------------------------------------------------------
def test_a_build_without_amx_is_never_probed(tmp_path):
    def probe(path):
        raise AssertionError("probed")
    model_module.check_build(tmp_path / "m.gguf", uses_amx=lambda: False, probe=probe)


def test_a_build_whose_test_decode_crashes_is_refused_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))  # the verdict's cache
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF" + bytes(2048))
    crash = "import ctypes; ctypes.string_at(0)"  # SIGSEGV, as an AMX kernel did in a VM
    assert "SIGSEGV" in model_module.probe_decode(gguf, code=crash)
    probes = []

    def probe(path):
        probes.append(path)
        return model_module.probe_decode(path, code=crash)

    for _ in range(2):
        with pytest.raises(ModelUnavailable) as caught:
            model_module.check_build(gguf, uses_amx=lambda: True, probe=probe)
        assert "SIGSEGV" in str(caught.value) and "GGML_NATIVE=OFF" in str(caught.value)
    assert len(probes) == 1  # the verdict is kept per build and model


@pytest.mark.model
def test_the_test_decode_passes_on_this_build(smollm_path):
    assert model_module.probe_decode(smollm_path) is None


def test_one_sender_never_takes_every_pdf_reader():
    """Two slow uploads (bombs, say) from one address leave a reader for everyone else."""
    from scorer.service import ReaderSlots

    slots = ReaderSlots(3)
    assert slots.take("bomber") and slots.take("bomber")
    stop = threading.Event()
    threading.Timer(1.0, stop.set).start()
    assert not slots.take("bomber", cancelled=stop.is_set)  # waited, then gave up
    assert slots.take("someone else")
    slots.give("bomber")
    assert slots.take("bomber")  # its own turn again once one of its readings ended
