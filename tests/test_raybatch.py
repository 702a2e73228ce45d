"""The batch on Ray (scorer/raybatch.py) with a real local Ray runtime (2 CPUs, 2 actors) and
SmolLM2: the same outputs as the local engine, a killed actor's file retried, resume, errors."""

import io
import json
import os
import signal
import threading
import time

import pytest

from scorer import batch
from tests import pdfs
from tests.conftest import EN_SAMPLE, ZH_SAMPLE

pytestmark = pytest.mark.model


@pytest.fixture
def inbox(tmp_path):
    """8 inputs: 4 good (one long enough to be killed in), 4 bad."""
    root = tmp_path / "in"
    root.mkdir()
    (root / "notes.txt").write_text("first wrapped\nline of notes\n\nsecond", encoding="utf-8")
    (root / "zh.txt").write_text(ZH_SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "long.txt").write_text((EN_SAMPLE.read_text(encoding="utf-8") + "\n") * 8,
                                   encoding="utf-8")
    pdfs.report(root / "report.pdf")
    (root / "empty.pdf").write_bytes(b"")
    (root / "not-a-pdf.pdf").write_text("hello")
    pdfs.encrypted(root / "locked.pdf")
    pdfs.image_only(root / "scan.pdf")
    return root


def comparable(outdir):
    """Every output, with what may differ between runs (timings) taken out."""
    out = {}
    for path in sorted(outdir.iterdir()):
        if path.name == "summary.json":
            continue
        if path.suffix == ".json":
            doc = json.loads(path.read_text(encoding="utf-8"))
            doc.pop("timings")
            doc["stats"].pop("seconds")
            out[path.name] = doc
        else:
            out[path.name] = path.read_bytes()
    return out


def kill_one_actor_at_work(killed, stop):
    """SIGKILL one Ray actor process while it scores (as the OOM killer would)."""
    while not stop.is_set():
        for pid in os.listdir("/proc"):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    busy = fh.read().startswith(b"ray::Worker.score")
            except OSError:
                continue
            if busy:
                time.sleep(0.5)  # let it get into a file
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        time.sleep(0.05)


def test_ray_gives_the_local_outputs_survives_a_killed_actor_and_resumes(inbox, tmp_path,
                                                                          smollm_path):
    local = batch.run([str(inbox)], tmp_path / "local", smollm_path, workers=2,
                      stream=io.StringIO())
    killed, stop = [], threading.Event()
    killer = threading.Thread(target=kill_one_actor_at_work, args=(killed, stop))
    killer.start()
    try:
        on_ray = batch.run([str(inbox)], tmp_path / "ray", smollm_path, workers=2,
                           stream=io.StringIO(), engine="ray")
    finally:
        stop.set()
        killer.join()
    assert killed, "no actor was caught at work"
    assert (on_ray["ok"], on_ray["failed"]) == (local["ok"], local["failed"]) == (4, 4)
    assert [f["input"] for f in on_ray["failures"]] == [f["input"] for f in local["failures"]]
    assert {r["worker"].split(":")[1] for r in on_ray["results"] if r["ok"]} - \
        {str(pid) for pid in killed}  # the killed one's file was done by a live one
    assert comparable(tmp_path / "ray") == comparable(tmp_path / "local")
    assert on_ray["engine"] == "ray" and local["engine"] == "local"

    again = batch.run([str(inbox)], tmp_path / "ray", smollm_path, workers=2,
                      stream=io.StringIO(), engine="ray")
    assert (again["skipped"], again["ok"]) == (4, 0)  # done files are not redone; bad ones are


def test_a_bad_address_is_one_clear_line(run_cli, inbox, tmp_path):
    result = run_cli("batch", str(inbox / "notes.txt"), "-o", str(tmp_path / "out"),
                     "--engine", "ray", "--address", "127.0.0.1:1")
    err = result.stderr.decode()
    assert result.returncode == 2 and err.startswith("error: cannot reach a Ray cluster"), err
    assert err.count("\n") == 1
    local = run_cli("batch", str(inbox / "notes.txt"), "-o", str(tmp_path / "out"),
                    "--address", "127.0.0.1:6379")
    assert local.returncode == 2 and b"--address is for --engine ray" in local.stderr


def test_ctrl_c_leaves_no_half_written_output_and_a_rerun_resumes(inbox, tmp_path, smollm_path):
    import subprocess
    import sys
    from pathlib import Path

    # an input long enough that the batch is still at it when the first small one is done
    (inbox / "huge.txt").write_text((EN_SAMPLE.read_text(encoding="utf-8") + "\n") * 100,
                                    encoding="utf-8")
    out = tmp_path / "out"
    command = [str(Path(sys.executable).with_name("prefill-lens")), "batch", str(inbox), "-o",
               str(out), "--engine", "ray", "--model", str(smollm_path)]
    # Ctrl-C as a terminal gives it to a foreground job: a suite started in the background by
    # a non-interactive shell (`make test &`, nohup) runs with SIGINT ignored, which a child
    # inherits, and a Python started so never raises KeyboardInterrupt
    def as_from_a_shell():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           preexec_fn=as_from_a_shell)
    deadline = time.monotonic() + 180
    while not list(out.glob("*.txt.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err.decode()
    assert err.decode().strip().splitlines()[-1] == "error: interrupted"
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]  # nothing half-written
    done = {p.name[:-5] for p in out.glob("*.json")} - {"summary"}
    again = batch.run([str(inbox)], out, smollm_path, workers=2, stream=io.StringIO(),
                      engine="ray")
    assert again["skipped"] == len(done) >= 1 and again["ok"] + again["skipped"] == 5
