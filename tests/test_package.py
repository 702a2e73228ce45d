"""The project as a package: installed from its folder into a fresh virtual environment, its
`prefill-lens` command works from anywhere, with no path tricks."""

import json
import os
import socket
import subprocess
import sys
import sysconfig
import time
from urllib.request import Request, urlopen

import pytest

from tests.conftest import ROOT


@pytest.mark.model
def test_pip_install_then_merge_outside_the_checkout(tmp_path, smollm_path, run_cli):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # the heavy dependencies (llama-cpp-python compiles for minutes) are lent from this venv;
    # the project itself is built and installed from its folder as a user would
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (venv / site.split(str(venv) + "/")[1] / "lent.pth").write_text(sysconfig.get_paths()["purelib"])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PREFILL_LENS_MODEL")}
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(ROOT)],
                             capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert install.returncode == 0, install.stderr

    where = subprocess.run([str(python), "-c", "import scorer; print(scorer.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env, check=True)
    assert where.stdout.startswith(str(venv)), where.stdout  # the installed copy, not the checkout
    text = tmp_path / "notes.txt"
    text.write_text("A line that wraps in\nthe middle of a sentence.\n\nA new paragraph.\n",
                    encoding="utf-8")
    merged = subprocess.run([str(venv / "bin" / "prefill-lens"), "merge", "notes.txt", "--model",
                             str(smollm_path)], capture_output=True, cwd=tmp_path, env=env,
                            timeout=600)
    assert merged.returncode == 0, merged.stderr
    in_checkout = run_cli("merge", str(text), "--model", str(smollm_path))
    assert merged.stdout == in_checkout.stdout and b"A new paragraph." in merged.stdout
    # the report inlines the page's assets, which travel inside the package
    report = subprocess.run([str(venv / "bin" / "prefill-lens"), "report", "notes.txt", "-o",
                             "notes.html", "--model", str(smollm_path)], capture_output=True,
                            cwd=tmp_path, env=env, timeout=600)
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "notes.html").read_text(encoding="utf-8")
    assert "function mountView" in html and "A new paragraph." in html


def install_line() -> str:
    """The `pip install` line users are given (docs/python-api.md, which the README links)."""
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in page.splitlines()
               if ln.startswith("CMAKE_ARGS=") and 'pip install "/path/to/prefill-lens[web]"' in ln]
    return line


def test_every_package_of_the_engine_is_installed():
    """pyproject lists its packages by name: a new folder under scorer/ must be listed too, or the
    installed command fails on import (the split of pdf.py into scorer/pdf/ once did)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "scorer").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


def test_one_set_of_portable_build_flags():
    """The Makefile builds, the docs tell users to build, and a refused build is told to
    rebuild, with the same flags."""
    from scorer.model import PORTABLE_BUILD, PORTABLE_CMAKE_ARGS

    made = subprocess.run(["make", "-s", "-C", str(ROOT), "cmake-args"], capture_output=True,
                          text=True, check=True).stdout.strip()
    assert made == PORTABLE_CMAKE_ARGS
    assert f'CMAKE_ARGS="{made}" ' in install_line() and made in PORTABLE_BUILD


@pytest.mark.model
def test_the_documented_install_line_in_a_fresh_venv(tmp_path, smollm_path):
    """The documented `pip install "...[web]"` (docs/python-api.md) as a user runs it, in a fresh venv, every
    dependency from the registry; llama-cpp-python comes from the project's wheel cache (built
    by `make` with the flags that line gives, which the test above keeps equal), not compiled
    again. Then its `prefill-lens merge` and `prefill-lens serve` work outside the checkout."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    wheels = subprocess.run(["make", "-s", "-C", str(ROOT), "wheels-dir"], capture_output=True,
                            text=True, check=True).stdout.strip()
    line = install_line()
    cmake_args = line.split('"')[1]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PREFILL_LENS_MODEL")}
    env["CMAKE_ARGS"] = cmake_args
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--find-links", wheels,
                              "--only-binary", "llama-cpp-python", f"{ROOT}[web]"],
                             capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    text = tmp_path / "notes.txt"
    text.write_text("A line that wraps in\nthe middle of a sentence.\n\nA new paragraph.\n",
                    encoding="utf-8")
    merged = subprocess.run([str(venv / "bin" / "prefill-lens"), "merge", "notes.txt"],
                            capture_output=True, cwd=tmp_path, env=env, timeout=600)
    assert merged.returncode == 0, merged.stderr  # the default model, from PyPI
    assert merged.stdout.split() == text.read_bytes().split()  # merged: no word lost

    # the web app, from the installed package alone (templates, static files, samples inside)
    port = free_port()
    server = subprocess.Popen([str(venv / "bin" / "prefill-lens"), "serve", "--port", str(port),
                               "--sample", "en-maintenance-report.txt"], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        page = wait_for(f"{base}/", server)
        assert 'src="/static/main.js"' in page and "en-maintenance-report.txt" in page
        assert "en-maintenance-report.txt" in urlopen(f"{base}/api/samples", timeout=10).read().decode()
        assert "function mountView" in urlopen(f"{base}/api/report-shell", timeout=10).read().decode()
        body = json.dumps({"text": "A line that wraps in\nthe middle.\n\nNew.\n"}).encode()
        answer = json.loads(urlopen(Request(f"{base}/api/merge", body, {
            "Content-Type": "application/json"}), timeout=120).read())
        assert answer["merged"].split() == ["A", "line", "that", "wraps", "in", "the", "middle.",
                                            "New."]
    finally:
        server.terminate()
        server.wait(timeout=30)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(url, server, seconds=180) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the server exited: {server.stdout.read().decode()[-2000:]}")
        try:
            return urlopen(url, timeout=5).read().decode()
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"no answer from {url} in {seconds} s")
