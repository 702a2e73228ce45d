"""Runs the pure page logic tests (tests/js/*.test.mjs) with node's built-in test runner."""

import shutil
import subprocess

from tests.conftest import ROOT


def test_render_logic_under_node():
    node = shutil.which("node")
    assert node, "node is needed for the page logic tests (it ships with this machine image)"
    run = subprocess.run([node, "--test", *map(str, sorted((ROOT / "tests" / "js").glob("*.test.mjs")))],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout
